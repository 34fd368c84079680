"""The provider registry: the one rule for model ids, the built-ins from the entry-point group, plug-ins beside them."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from processors.models import LanguageModel, ScriptedModel, resolve_model
from processors.models.litellm import LiteLLMModel
from processors.models.providers import (
    DEFAULT_PROVIDER,
    ENTRY_POINT_GROUP,
    Provider,
    clear_providers,
    provider_for,
    provider_name,
    providers,
)
from tests.support.distributions import fake_distribution

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def fresh_registry() -> Iterator[None]:
    clear_providers()
    yield
    clear_providers()


def _pyproject_group() -> dict[str, str]:
    table = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    group: dict[str, str] = table["project"]["entry-points"][ENTRY_POINT_GROUP]
    return group


# ------------------------------------------------------------------------------------------- the id rule
@pytest.mark.parametrize(
    ("model_id", "name"),
    [
        ("openai/gpt-4o-mini", "openai"),
        ("anthropic/claude-3-5-haiku-latest", "anthropic"),
        ("ollama_chat/llama3.2:1b", "ollama_chat"),
        ("gpt-4o-mini", DEFAULT_PROVIDER),  # bare: OpenAI's, as litellm reads it
        (" gpt-4o ", DEFAULT_PROVIDER),
        ("demo", "demo"),  # a bare id a provider claims whole
        (" demo ", "demo"),
        ("demo/x", "demo"),
        ("my-host.io/model/x", "my-host.io"),  # only the first piece names the provider
        ("azure/my-deployment", "azure"),  # unregistered: still a litellm provider
    ],
)
def test_one_rule_names_the_provider_of_a_model_id(model_id: str, name: str) -> None:
    assert provider_name(model_id) == name
    assert provider_for(model_id).name == name
    assert provider_for(model_id).owns(model_id)


def test_the_adapter_and_resolve_model_follow_the_same_rule() -> None:
    """LiteLLMModel used to call a bare id's provider "litellm" while the studio called it "openai"."""
    assert LiteLLMModel("gpt-4o-mini").provider == "openai"
    assert LiteLLMModel("groq/llama").provider == "groq"
    assert isinstance(resolve_model("openai/gpt-4o-mini"), LiteLLMModel)
    demo = resolve_model("demo")
    assert isinstance(demo, ScriptedModel)
    assert demo.model_id == "demo"


# ------------------------------------------------------------------------------------------- the built-ins
def test_the_builtins_are_the_entry_point_group_in_its_order() -> None:
    group = _pyproject_group()
    assert [provider.name for provider in providers()] == list(group)
    for name, target in group.items():
        module, _, attribute = target.partition(":")
        assert provider_for(f"{name}/x") is getattr(__import__(module, fromlist=[attribute]), attribute)


@pytest.mark.parametrize(
    ("model_id", "variable"),
    [
        ("gpt-4o-mini", "OPENAI_API_KEY"),
        ("anthropic/claude-x", "ANTHROPIC_API_KEY"),
        ("together_ai/llama", "TOGETHERAI_API_KEY"),
        ("azure/gpt", "AZURE_API_KEY"),
        ("vertex_ai/gemini", "VERTEXAI_API_KEY"),
        ("my-host.io/model/x", "MY_HOST_IO_API_KEY"),
        ("demo", None),
    ],
)
def test_each_provider_names_its_key_variable(model_id: str, variable: str | None) -> None:
    assert provider_for(model_id).key_variable == variable


def test_the_key_comes_from_the_first_of_its_variables_that_is_set() -> None:
    two = Provider("two", "Two", key_variables=("TWO_KEY", "TWO_OLD_KEY"))
    assert two.environment_key({"TWO_OLD_KEY": "old"}) == "old"
    assert two.environment_key({"TWO_KEY": "new", "TWO_OLD_KEY": "old"}) == "new"
    assert two.environment_key({"TWO_KEY": "", "OTHER": "x"}) is None
    assert Provider("plain", "Plain").environment_key({"PLAIN_API_KEY": "k"}) == "k"
    assert provider_for("demo").environment_key({"DEMO_API_KEY": "k"}) is None


def test_what_each_kind_of_provider_needs() -> None:
    openai, ollama, demo, vertex = (provider_for(i) for i in ("openai/x", "ollama/x", "demo", "vertex_ai/x"))
    assert (openai.needs_key, openai.offers_key, openai.default_endpoint) == (True, True, "https://api.openai.com/v1")
    assert (ollama.needs_key, ollama.offers_key, ollama.api_base_hint) == (False, False, "http://localhost:11434")
    assert (demo.needs_key, demo.offers_key, demo.script_needs) == (False, False, "")
    assert (vertex.needs_key, vertex.offers_key) == (True, False)
    assert [p.name for p in providers() if p.offers_key] == [
        "openai",
        "anthropic",
        "gemini",
        "mistral",
        "groq",
        "openrouter",
        "deepseek",
        "together_ai",
    ]


def test_a_provider_builds_its_model() -> None:
    model = provider_for("openai/gpt-4o-mini").build(
        "openai/gpt-4o-mini", api_base="http://127.0.0.1:9/v1", api_key="sk-test", temperature=0.5
    )
    assert isinstance(model, LiteLLMModel)
    assert (model.model_id, model.api_base, model.api_key, model.default_settings) == (
        "openai/gpt-4o-mini",
        "http://127.0.0.1:9/v1",
        "sk-test",
        {"temperature": 0.5},
    )
    demo = provider_for("demo").build("demo", api_key="ignored", temperature=2)
    assert isinstance(demo, ScriptedModel)


def test_a_factory_that_makes_no_model_is_refused() -> None:
    wrong = Provider("wrong", "Wrong", factory="builtins:dict", offline=True)
    with pytest.raises(TypeError, match="made a dict, not a model"):
        wrong.build("wrong/x")
    with pytest.raises(TypeError, match="is not callable"):
        Provider("pi", "Pi", factory="math:pi").build("pi/x")


def test_the_connection_request_asks_for_one_short_word() -> None:
    request = provider_for("openai/x").connection_request()
    assert request.messages == [{"role": "user", "content": "Reply with the word OK."}]
    assert request.settings == {"max_tokens": 8}


# --------------------------------------------------------------------------------------------- plug-ins
PLUGIN = """
from processors.models import ScriptedModel
from processors.models.providers import Provider

def make(model_id, *, api_base=None, api_key=None, **settings):
    return ScriptedModel(["hi"], model_id=model_id)

TOY = Provider("toy", "Toy", factory=__name__ + ":make", key_variables=("TOY_KEY",), bare_ids=("toy-mini",))
OPENAI_AGAIN = Provider("openai", "Not OpenAI")
NOT_A_PROVIDER = 42
"""


@pytest.fixture
def plugin_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    module = f"toy_providers_{tmp_path.name.replace('-', '_')}"
    points = {
        "toy": f"{module}:TOY",
        "again": f"{module}:OPENAI_AGAIN",
        "number": f"{module}:NOT_A_PROVIDER",
        "broken": "no_such_module_anywhere:THING",
    }
    fake_distribution(tmp_path, "toy-providers", {ENTRY_POINT_GROUP: points}, modules={module: PLUGIN})
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_plugin_provider_joins_the_builtins_and_broken_ones_are_skipped(
    plugin_site: Path, caplog: pytest.LogCaptureFixture
) -> None:
    names = [provider.name for provider in providers()]
    assert names == [*_pyproject_group(), "toy"]
    assert provider_for("openai/x").label == "OpenAI"  # a plug-in cannot replace a built-in
    assert provider_name("toy-mini") == "toy"
    toy = provider_for("toy/small")
    assert toy.key_variable == "TOY_KEY"
    model = toy.build("toy/small")
    assert isinstance(model, LanguageModel)
    assert model.model_id == "toy/small"
    logged = caplog.text
    assert "registered twice" in logged
    assert "names a int, not a Provider" in logged
    assert "broken" in logged


def test_clearing_the_registry_reads_the_entry_points_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "toy" not in [provider.name for provider in providers()]
    assert provider_name("toy-mini") == DEFAULT_PROVIDER
    module = f"toy_later_{tmp_path.name.replace('-', '_')}"
    fake_distribution(tmp_path, "toy-later", {ENTRY_POINT_GROUP: {"toy": f"{module}:TOY"}}, modules={module: PLUGIN})
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "toy" not in [provider.name for provider in providers()]  # cached
    clear_providers()
    assert "toy" in [provider.name for provider in providers()]
    assert provider_name("toy-mini") == "toy"


def test_installed_metadata_orders_the_builtins_as_pyproject_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed wheel's metadata lists the group sorted by name; the studio still offers them in pyproject's
    order, and a built-in left out of the metadata is missing (the metadata, not the source tree, decides)."""
    group = _pyproject_group()
    kept = {name: target for name, target in sorted(group.items()) if name != "groq"}
    fake_distribution(tmp_path, "processor-studio", {ENTRY_POINT_GROUP: kept}, version="9.9")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert [provider.name for provider in providers()] == [name for name in group if name != "groq"]
