"""Settings → "Find local servers": the probe runs on the loop, lists each server's models, and "Use" sets the
design's model and API base in one undo step — without sending a stored key to the local server."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import keyring
import pytest
import qasync
from pytestqt.qtbot import QtBot

from processors.models.local_servers import ServerKind, find_local_servers
from studio.controllers.connection import check_connection
from studio.design.agent_design import AgentDesign, ModelConfig
from studio.keys.secrets import SecretStore
from studio.models.design_document import DesignDocument
from studio.views.settings_dialog import LocalServerFinder, SettingsDialog
from tests.studio.conftest import run
from tests.studio.editor_catalogue import make_catalogue
from tests.studio.keys.test_secrets import MemoryKeyring
from tests.support.local_servers import LocalModelServer, free_port
from tests.support.openai_server import OpenAIServer


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def _collect_on_the_qt_thread() -> Iterator[None]:
    """A test's Qt objects (dialog, document, undo stack) are collected here, on the Qt thread: left to a later
    garbage collection, they may be freed from litellm's import thread ("Timers cannot be stopped from another
    thread", then a crash). Collected before too: what earlier tests left must not die there either."""
    gc.collect()
    yield
    gc.collect()


def finder(*kinds: ServerKind) -> LocalServerFinder:
    return lambda: find_local_servers(kinds, seconds=2.0)


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def open_dialog(
    qtbot: QtBot, document: DesignDocument, find: LocalServerFinder, secrets: SecretStore | None = None
) -> SettingsDialog:
    design = document.design()
    dialog = SettingsDialog(
        secrets or SecretStore(),
        check_connection,
        model_id=design.model.model,
        api_base=design.model.api_base,
        document=document,
        find_servers=find,
    )
    qtbot.addWidget(dialog)
    dialog.open()
    return dialog


async def press_find(dialog: SettingsDialog) -> str:
    summary: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    dialog.local_servers_found.connect(lambda text: summary.done() or summary.set_result(text))
    dialog.find_local.click()
    return await asyncio.wait_for(summary, 30)


def test_use_sets_model_and_api_base_in_one_undo_step(qtbot: QtBot, qloop: qasync.QEventLoop) -> None:
    document = DesignDocument(make_catalogue(), AgentDesign(model=ModelConfig(model="openai/gpt-4o-mini")))
    closed = free_port()
    with LocalModelServer("ollama", ["llama3.2:latest", "qwen2.5:7b"]) as ollama:
        dialog = open_dialog(
            qtbot, document, finder(ServerKind("ollama", "Ollama", ollama.port), ServerKind("vllm", "vLLM", closed))
        )
        assert not dialog.use_local.isVisible()
        assert run(qloop, press_find(dialog)) == "Found 2 models on local servers."
    assert [dialog.local_models.itemText(i) for i in range(dialog.local_models.count())] == [
        f"Ollama — llama3.2:latest (127.0.0.1:{ollama.port})",
        f"Ollama — qwen2.5:7b (127.0.0.1:{ollama.port})",
    ]
    assert dialog.local_status.text().splitlines()[1:] == [f"vLLM (port {closed}): not running"]
    assert dialog.use_local.isVisible()
    assert dialog.find_local.isEnabled()

    dialog.local_models.setCurrentIndex(1)
    dialog.use_local.click()
    base = f"http://127.0.0.1:{ollama.port}/v1"
    assert (document.design().model.model, document.design().model.api_base) == ("openai/qwen2.5:7b", base)
    assert (dialog.model.text(), dialog.api_base.text()) == ("openai/qwen2.5:7b", base)
    assert document.undo_stack().count() == 1
    document.undo_stack().undo()
    assert (document.design().model.model, document.design().model.api_base) == ("openai/gpt-4o-mini", None)


def test_nothing_running_is_one_short_line_per_server(qtbot: QtBot, qloop: qasync.QEventLoop) -> None:
    document = DesignDocument(make_catalogue(), AgentDesign())
    closed = free_port()
    dialog = open_dialog(qtbot, document, finder(ServerKind("lmstudio", "LM Studio", closed)))
    assert run(qloop, press_find(dialog)) == "No local model server answered."
    assert dialog.local_status.text() == f"No local model server answered.\nLM Studio (port {closed}): not running"
    assert not dialog.use_local.isVisible()
    assert document.undo_stack().count() == 0


def test_a_local_server_never_gets_the_stored_key(
    qtbot: QtBot, qloop: qasync.QEventLoop, openai_server: OpenAIServer, memory_keyring: MemoryKeyring
) -> None:
    secrets = SecretStore()
    secrets.set_key("openai", "sk-stored-for-openai-1234")  # saved for api.openai.com
    openai_server.models = ["local-model"]
    openai_server.reply_text("OK")
    document = DesignDocument(make_catalogue(), AgentDesign(model=ModelConfig(model="openai/gpt-4o-mini")))
    dialog = open_dialog(
        qtbot, document, finder(ServerKind("lmstudio", "LM Studio", port_of(openai_server.base_url))), secrets
    )
    assert run(qloop, press_find(dialog)) == "Found 1 model on local servers."
    dialog.use_local.click()
    assert document.design().model.api_base == openai_server.base_url

    gc.collect()  # the search's qasync timers die here, not in litellm's import thread (see the fixture above)
    verdict: asyncio.Future[str] = qloop.create_future()
    dialog.connection_tested.connect(lambda text: verdict.done() or verdict.set_result(text))
    dialog.test.click()
    text = run(qloop, asyncio.wait_for(verdict, 120))  # a limit, not a timing: litellm's import is slow under load
    assert text.startswith("Connected to openai/local-model")
    assert "your openai key was not sent" in text
    assert openai_server.request_headers[0]["authorization"] == "Bearer no-key"
    assert secrets.key_for("openai", document.design().model.api_base).key is None
