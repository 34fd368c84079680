"""Designs: versioned JSON, atomic files, model settings that must not be saved (building an agent is tested in
test_build.py, the exported script in test_export.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from processors.builtin.registry import Catalogue, load_catalogue
from processors.models import LiteLLMModel
from studio.design.agent_design import (
    DESIGN_VERSION,
    AgentDesign,
    DesignError,
    ModelConfig,
    load_design,
    save_design,
)
from studio.design.build import build_agent
from studio.design.sample import sample_design

# ------------------------------------------------------------------------------------------------- JSON


def test_json_round_trip_is_exact_and_stable() -> None:
    design = sample_design()
    design.model.extra = {"zeta": 1, "alpha": {"b": 2, "a": 1}}
    text = design.to_json()
    assert AgentDesign.from_json(text) == design
    assert AgentDesign.from_json(text).to_json() == text
    data = json.loads(text)
    assert next(iter(data)) == "version", "declared field order, version first"
    assert list(data["model"]["extra"]) == ["alpha", "zeta"]
    assert list(data["model"]["extra"]["alpha"]) == ["a", "b"]
    assert text.endswith("}\n") and '\n  "name": ' in text


@pytest.mark.parametrize(
    ("text", "fragment", "path"),
    [
        ("{not json", "Not valid JSON (line 1, column 2)", ""),
        ("[1, 2]", "is a JSON object, not a list", ""),
        ('{"name": "x"}', "version: missing", "version"),
        ('{"version": "1"}', "version: must be a whole number", "version"),
        ('{"version": 99}', "saved by a newer Processor Studio (design format 99", "version"),
        ('{"version": 0}', "unknown design format 0", "version"),
        ('{"version": 1, "colour": "red"}', "- colour: unknown field", "colour"),
        ('{"version": 1, "max_steps": "many"}', "- max_steps: Input should be a valid integer", "max_steps"),
        ('{"version": 1, "max_steps": 0}', "- max_steps: Input should be greater than or equal to 1", "max_steps"),
        ('{"version": 1, "tools": "get_weather"}', "- tools: Input should be a valid list", "tools"),
        ('{"version": 1, "output": [{"options": {}}]}', "- output[0].type: missing", "output[0].type"),
        ('{"version": 1, "model": {"model": "demo", "temp": 1}}', "- model.temp: unknown field", "model.temp"),
        ('{"version": 1, "input": [{"type": "X", "enabled": "maybe"}]}', "- input[0].enabled:", "input[0].enabled"),
    ],
)
def test_malformed_files_name_the_field(text: str, fragment: str, path: str) -> None:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_json(text)
    assert fragment in str(caught.value)
    assert caught.value.path == path


def test_every_problem_is_listed() -> None:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_json('{"version": 1, "colour": "red", "max_steps": -1, "input": [{}]}')
    paths = [path for path, _message in caught.value.problems]
    assert sorted(paths) == ["colour", "input[0].type", "max_steps"]


def test_newer_version_says_to_update() -> None:
    with pytest.raises(DesignError, match=rf"reads formats up to {DESIGN_VERSION}\)\. Update Processor Studio"):
        AgentDesign.from_json(json.dumps({"version": DESIGN_VERSION + 1}))


def _nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize(
    ("text", "path", "fragment"),
    [
        # Deeper than Python's JSON parser can go: a RecursionError before the fix.
        ('{"version": 1, "model": {"extra": {"x": ' + _nested(100_000) + "}}}", "", "nested more than 100 levels"),
        # Parsed, but deeper than pydantic can save: the design loaded, then every save failed.
        (
            '{"version": 1, "model": {"extra": {"x": ' + _nested(500) + "}}}",
            "model.extra.x[0][0][0]",
            "nested more than 100 levels deep",
        ),
        (
            '{"version": 1, "input": [{"type": "T", "options": {"o": ' + _nested(300) + "}}]}",
            "input[0].options.o[0][0]",
            "nested more than 100 levels deep",
        ),
        ('{"version": 1, "model": {"extra": {"seed": NaN}}}', "model.extra.seed", "not a finite number"),
        ('{"version": 1, "model": {"extra": {"a": [1, -Infinity]}}}', "model.extra.a[1]", "not a finite number"),
        (
            '{"version": 1, "output": [{"type": "T", "options": {"n": 1e999}}]}',
            "output[0].options.n",
            "not a finite number",
        ),
    ],
    ids=["too-deep-to-parse", "too-deep-to-save", "deep-options", "nan", "infinity", "overflow"],
)
def test_designs_beyond_the_json_limits_are_refused_by_field(text: str, path: str, fragment: str) -> None:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_json(text)
    assert caught.value.path == path
    assert fragment in str(caught.value)
    assert f"{path}: " in str(caught.value)


def test_a_design_within_the_limits_still_loads_and_saves() -> None:
    extra = {"x": json.loads(_nested(95)), "big": 1e308}
    design = AgentDesign.from_json(json.dumps({"version": 1, "model": {"extra": extra}}))
    assert AgentDesign.from_json(design.to_json()) == design


# ------------------------------------------------------------------------------------------------- files


def test_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "agent.json"
    design = sample_design()
    save_design(design, path)
    assert load_design(path) == design
    assert path.read_text(encoding="utf-8") == design.to_json()
    design.name = "Renamed"
    save_design(design, path)
    assert load_design(path).name == "Renamed"
    assert [p.name for p in tmp_path.iterdir()] == ["agent.json"], "no temporary file is left behind"


def test_a_failed_save_keeps_the_old_file_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()
    (target / "inside.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(OSError, match="taken was not written"):  # FileWriteError, saying why
        save_design(sample_design(), target)  # os.replace cannot put a file over a folder
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
    assert (target / "inside.txt").read_text(encoding="utf-8") == "keep"


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(DesignError, match=r"missing\.json: cannot read the file"):
        load_design(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "max_steps": "many"}', encoding="utf-8")
    with pytest.raises(DesignError, match=r"bad\.json: Invalid agent design:\n- max_steps") as caught:
        load_design(bad)
    assert caught.value.path == "max_steps"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(DesignError, match=r"binary\.json: "):
        load_design(binary)


# ------------------------------------------------------------------------------------------ model settings
# Refused by ModelConfig.call_settings, which building an agent calls: the tests build, as the studio does.


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"extra_headers": {"Authorization": "Bearer sk-1"}}, "model.extra.extra_headers.Authorization"),
        ({"extra_headers": {"api-key": "k"}}, "model.extra.extra_headers.api-key"),
        ({"extra_headers": {"X-API-Key": "k"}}, "model.extra.extra_headers.X-API-Key"),
        ({"headers": {"X-Custom": "Bearer sk-hidden"}}, "model.extra.headers.X-Custom"),
        ({"aws_secret_access_key": "x"}, "model.extra.aws_secret_access_key"),
        ({"azure_ad_token": "x"}, "model.extra.azure_ad_token"),
        ({"extra_body": {"auth": {"apiKey": "x"}}}, "model.extra.extra_body.auth"),
        ({"metadata": [{"password": "x"}]}, "model.extra.metadata[0].password"),
    ],
)
def test_credentials_in_extra_settings_are_refused(catalogue: Catalogue, extra: dict[str, object], path: str) -> None:
    config = ModelConfig(model="openai/gpt-4o", api_base="http://localhost:1/v1", extra=extra)
    with pytest.raises(DesignError, match=r"credentials .* must not be saved in a design") as raised:
        build_agent(AgentDesign(model=config), catalogue=catalogue)
    assert raised.value.path == path
    assert str(raised.value).startswith(f"{path}: ")


@pytest.mark.parametrize(
    "api_base", ["http://user:secret@localhost:1/v1", "https://host.example/v1?key=AIza123", "h.example/?api-key=x"]
)
def test_credentials_in_the_api_base_are_refused(catalogue: Catalogue, api_base: str) -> None:
    config = ModelConfig(model="openai/gpt-4o", api_base=api_base)
    with pytest.raises(DesignError, match=r"^model\.api_base: credentials") as raised:
        build_agent(AgentDesign(model=config), catalogue=catalogue)
    assert raised.value.path == "model.api_base"
    config.api_base = "https://host.example/openai/v1?api-version=2024-06-01"
    assert isinstance(build_agent(AgentDesign(model=config), catalogue=catalogue).model, LiteLLMModel)


def test_settings_that_only_look_like_credentials_are_kept(catalogue: Catalogue) -> None:
    extra = {"max_completion_tokens": 9, "prompt_cache_key": "a", "extra_headers": {"X-Trace": "on"}, "top_k": 3}
    config = ModelConfig(model="openai/gpt-4o", api_base="http://localhost:1/v1", extra=extra)
    assert config.call_settings() == extra
    assert isinstance(build_agent(AgentDesign(model=config), catalogue=catalogue).model, LiteLLMModel)
