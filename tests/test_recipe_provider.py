"""docs/ARCHITECTURE.md's "Recipe: add a model provider", followed with a toy provider through the public extension
point only: a distribution with one module and one entry point in ``processor_studio.providers``, nothing else.

Toy is a hosted service that speaks OpenAI's API (here: the suite's local OpenAI-compatible server), with its own
key variable, its own default endpoint and its own connection request. Once the distribution is installed, the
registry parses its ids, the studio's settings dialog and model box list it, the key store reads its variable, a
design using it builds its model (and answers through it), "Test connection" sends the toy's request, and an
exported script builds the toy's model with its factory and reads its key variable.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from processors.models.litellm import LiteLLMModel
from processors.models.providers import ENTRY_POINT_GROUP, clear_providers, provider_for, provider_name, providers
from studio import i18n
from studio.controllers.connection import check_connection
from studio.design.agent_design import AgentDesign, ModelConfig
from studio.design.build import build_agent, build_model
from studio.design.export import design_to_python
from studio.i18n import TRANSLATIONS_GROUP
from studio.keys.secrets import SecretStore
from studio.models.design_document import DesignDocument
from studio.views.agent_settings import AgentSettingsView
from studio.views.settings_dialog import SettingsDialog
from tests.studio.editor_catalogue import make_catalogue
from tests.studio.keys.test_secrets import MemoryKeyring
from tests.support.distributions import fake_distribution
from tests.support.openai_server import OpenAIServer

#: The recipe's one module: a Provider, and the factory that builds its model.
TOY_PROVIDER = '''
"""Toy: a hosted service that speaks OpenAI's chat API."""

from processors.models.base import ModelRequest
from processors.models.litellm import LiteLLMModel
from processors.models.providers import Provider

ENDPOINT = {endpoint!r}


def toy_model(model_id, *, api_base=None, api_key=None, **settings):
    """Toy's models through litellm's OpenAI client, at Toy's endpoint unless the design names another."""
    return LiteLLMModel(
        "openai/" + model_id.removeprefix("toy/"), api_base=api_base or ENDPOINT, api_key=api_key, **settings
    )


class ToyProvider(Provider):
    def connection_request(self):
        return ModelRequest(messages=[{{"role": "user", "content": "Say toy."}}], settings={{"max_tokens": 3}})


PROVIDER = ToyProvider(
    "toy",
    "Toy",
    factory="toy_provider:toy_model",
    key_variables=("TOY_API_KEY",),
    default_endpoint=ENDPOINT,
    suggested_models=("toy/small",),
)
'''


#: The toy's own catalogue: its label under the context and key studio/i18n/processor_texts.py documents.
TOY_TS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>provider:toy</name>
    <message><source>Toy</source><comment>toy.label</comment><translation>玩具</translation></message>
</context>
</TS>
"""


@pytest.fixture
def toy(tmp_path: Any, monkeypatch: pytest.MonkeyPatch, openai_server: OpenAIServer) -> Iterator[OpenAIServer]:
    """The recipe's files, installed: ``toy_provider.py`` and ``toy_provider-0.dist-info`` with its entry point."""
    source = TOY_PROVIDER.format(endpoint=openai_server.base_url)
    points = {
        ENTRY_POINT_GROUP: {"toy": "toy_provider:PROVIDER"},
        TRANSLATIONS_GROUP: {"toy_provider": "toy_provider"},  # its .qm files, beside toy_provider.py
    }
    fake_distribution(tmp_path, "toy-provider", points, modules={"toy_provider": source}, version="0")
    ts, qm = tmp_path / "toy_provider_zh_CN.ts", tmp_path / "toy_provider_zh_CN.qm"
    ts.write_text(TOY_TS, encoding="utf-8")
    subprocess.run(
        [str(Path(sys.executable).parent / "pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "toy_provider", raising=False)  # each test imports its own
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    clear_providers()
    yield openai_server
    clear_providers()
    keyring.set_keyring(previous)


def test_the_registry_parses_its_ids(toy: OpenAIServer) -> None:
    assert "toy" in [provider.name for provider in providers()]
    assert provider_name("toy/small") == "toy"
    provider = provider_for("toy/small")
    assert (provider.label, provider.key_variable, provider.default_endpoint) == ("Toy", "TOY_API_KEY", toy.base_url)


def test_the_settings_dialog_and_the_model_box_list_it(toy: OpenAIServer, qtbot: QtBot) -> None:
    dialog = SettingsDialog(SecretStore(), check_connection, model_id="toy/small")
    qtbot.addWidget(dialog)
    assert "toy" in [dialog.provider.itemText(i) for i in range(dialog.provider.count())]
    assert dialog.provider.currentText() == "toy"  # the dialog opens on the design's provider
    host = toy.base_url.removeprefix("http://").removesuffix("/v1")
    assert dialog.key_endpoint.placeholderText().startswith(f"{host} (the provider's own)")  # its default endpoint
    view = AgentSettingsView(DesignDocument(make_catalogue(), AgentDesign(name="toy")))
    qtbot.addWidget(view)
    assert "toy/small" in [view.model.itemText(i) for i in range(view.model.count())]


def test_the_key_store_reads_its_variable(toy: OpenAIServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("TOY_API_KEY", "toy-key-from-env")
    secrets = SecretStore(endpoints_file=tmp_path / "endpoints.json")
    assert secrets.get_key("toy") == "toy-key-from-env"
    assert secrets.key_for("toy", None).key == "toy-key-from-env"  # to Toy's own endpoint
    withheld = secrets.key_for("toy", "https://elsewhere.example/v1")
    assert withheld.key is None and withheld.withheld  # never to another server without the user's approval


async def test_a_design_using_it_builds_its_model_and_answers(toy: OpenAIServer) -> None:
    config = ModelConfig(model="toy/small", temperature=0.2)
    model = build_model(config, api_key="toy-key")
    assert isinstance(model, LiteLLMModel)
    assert (model.model_id, model.api_base) == ("openai/small", toy.base_url)
    toy.reply_text("Hello from toy")
    agent = build_agent(AgentDesign(name="toy", model=config), catalogue=make_catalogue(), api_key="toy-key")
    result = await agent.generate("hi")
    assert result.text == "Hello from toy"
    assert toy.requests[0]["model"] == "small"
    assert toy.requests[0]["temperature"] == 0.2
    assert toy.request_headers[0]["authorization"] == "Bearer toy-key"


async def test_the_connection_test_sends_its_request(toy: OpenAIServer, qtbot: QtBot) -> None:
    secrets = SecretStore()
    secrets.set_key("toy", "toy-key-in-keyring")
    dialog = SettingsDialog(secrets, check_connection, model_id="toy/small")
    qtbot.addWidget(dialog)
    dialog.open()
    toy.reply_text("toy")
    verdict: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    dialog.connection_tested.connect(lambda text: verdict.done() or verdict.set_result(text))
    dialog.test.click()
    assert await verdict == "Connected to toy/small — it replied “toy”"
    assert toy.requests[0]["messages"] == [{"role": "user", "content": "Say toy."}]
    assert toy.requests[0]["max_tokens"] == 3
    assert toy.request_headers[0]["authorization"] == "Bearer toy-key-in-keyring"


def test_an_exported_script_builds_it_with_its_factory_and_key_variable(toy: OpenAIServer) -> None:
    design = AgentDesign(name="toy", model=ModelConfig(model="toy/small"))
    script = design_to_python(design, catalogue=make_catalogue())
    assert "from toy_provider import toy_model" in script
    assert 'API_KEY_ENV = "TOY_API_KEY"' in script
    assert "model = toy_model(" in script


def test_the_studio_shows_its_label_translated_by_its_own_catalogue(
    toy: OpenAIServer, qtbot: QtBot, qapp: QApplication
) -> None:
    """The toy ships its label's translation in its own .qm (``processor_studio.translations``), found with ours."""
    dialog = SettingsDialog(SecretStore(), check_connection, model_id="toy/small")
    qtbot.addWidget(dialog)
    assert dialog.provider_label.text() == "Toy"  # English: the label as registered
    assert ("toy_provider", Path(sys.modules["toy_provider"].__file__ or "").parent) in i18n.plugin_catalogues()
    assert i18n.install(qapp, "zh_CN")
    try:
        chinese = SettingsDialog(SecretStore(), check_connection, model_id="toy/small")
        qtbot.addWidget(chinese)
        assert chinese.provider.currentText() == "toy"  # keys stay stored under the name
        assert chinese.provider_label.text() == "玩具"
        index = chinese.provider.findText("toy")
        assert chinese.provider.itemData(index, Qt.ItemDataRole.ToolTipRole) == "玩具"
        chinese.provider.setCurrentText("openai")
        assert chinese.provider_label.text() == "OpenAI"  # a built-in's label, from the studio's catalogue
    finally:
        i18n.install(qapp, "en")
