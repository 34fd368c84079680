"""Settings: keys go to the keyring and are never shown; "Test connection" makes one real call to a local server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import keyring
import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from studio.controllers.connection import check_connection
from studio.keys.secrets import SecretStore
from studio.views.settings_dialog import SettingsDialog
from tests.studio.conftest import run
from tests.studio.keys.test_secrets import MemoryKeyring
from tests.support.openai_server import OpenAIServer


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def dialog_for(qtbot: QtBot, server: OpenAIServer) -> SettingsDialog:
    dialog = SettingsDialog(SecretStore(), check_connection, model_id="openai/test-model", api_base=server.base_url)
    qtbot.addWidget(dialog)
    dialog.open()
    return dialog


async def press_test(dialog: SettingsDialog) -> str:
    verdict: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    dialog.connection_tested.connect(lambda text: verdict.done() or verdict.set_result(text))
    dialog.test.click()
    # No time limit of its own: the first connection test of a run also imports litellm (20 s and more on a loaded
    # machine), and pytest-timeout already ends a test that hangs.
    return await verdict


def test_saved_key_is_used_for_the_connection_test_and_never_shown(
    qtbot: QtBot, qloop: qasync.QEventLoop, openai_server: OpenAIServer, memory_keyring: MemoryKeyring
) -> None:
    openai_server.reply_text("OK")
    dialog = dialog_for(qtbot, openai_server)
    dialog.key_endpoint.setText(openai_server.base_url)  # a key for this server
    dialog.key.setText("sk-test-abcdefgh1234")
    qtbot.keyClick(dialog.key, Qt.Key.Key_Return)

    assert memory_keyring.values == {("processor-studio", "openai"): "sk-test-abcdefgh1234"}
    assert dialog.key.text() == ""
    assert "sk-test" not in dialog.stored.text()
    assert dialog.stored.text().startswith("Stored: ••••••••1234 — sent only to 127.0.0.1:")
    reopened = SettingsDialog(SecretStore(), check_connection, model_id="openai/test-model")
    qtbot.addWidget(reopened)
    assert reopened.key_endpoint.text() == openai_server.base_url  # replacing the key keeps its endpoint
    verdict = run(qloop, press_test(dialog))
    assert verdict == "Connected to openai/test-model — it replied “OK”"
    assert openai_server.request_headers[0]["authorization"] == "Bearer sk-test-abcdefgh1234"


def test_a_key_saved_for_the_provider_is_tested_elsewhere_only_once_allowed(
    qtbot: QtBot, qloop: qasync.QEventLoop, openai_server: OpenAIServer, memory_keyring: MemoryKeyring
) -> None:
    openai_server.reply_text("OK")
    openai_server.reply_text("OK")
    dialog = dialog_for(qtbot, openai_server)
    dialog.key.setText("sk-test-abcdefgh1234")
    dialog.save.click()
    assert "sent only to api.openai.com" in dialog.stored.text()

    verdict = run(qloop, press_test(dialog))
    assert "your openai key was not sent: it is for api.openai.com, not 127.0.0.1:" in verdict
    assert "sk-test" not in str(openai_server.request_headers)
    assert dialog.allow.isVisible()
    assert dialog.allow.text().startswith("&Allow my openai key for 127.0.0.1:")
    dialog.allow.click()
    assert dialog.approved.text().startswith("Also allowed: 127.0.0.1:")

    assert run(qloop, press_test(dialog)) == "Connected to openai/test-model — it replied “OK”"
    assert openai_server.request_headers[1]["authorization"] == "Bearer sk-test-abcdefgh1234"
    dialog.forget.click()
    assert dialog.approved.text() == ""


def test_a_refused_key_is_reported_in_one_line(
    qtbot: QtBot, qloop: qasync.QEventLoop, openai_server: OpenAIServer, memory_keyring: MemoryKeyring
) -> None:
    openai_server.reply_error(401, "Incorrect API key provided")
    dialog = dialog_for(qtbot, openai_server)
    dialog.key_endpoint.setText(openai_server.base_url)
    dialog.key.setText("sk-wrong")
    dialog.save.click()
    verdict = run(qloop, press_test(dialog))
    assert verdict.startswith("Failed — HTTP 401:")
    assert "Incorrect API key provided" in verdict
    assert dialog.test.isEnabled()


def test_without_a_key_it_says_so_without_calling(
    qtbot: QtBot, qloop: qasync.QEventLoop, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    dialog = SettingsDialog(SecretStore(), check_connection, model_id="openai/gpt-4o-mini")
    qtbot.addWidget(dialog)
    dialog.open()
    verdict = run(qloop, press_test(dialog))
    assert verdict.startswith("No API key is set for openai")


def test_a_long_result_is_shown_whole_not_clipped(
    qtbot: QtBot, qloop: qasync.QEventLoop, openai_server: OpenAIServer, memory_keyring: MemoryKeyring
) -> None:
    openai_server.reply_error(
        401,
        "Incorrect API key provided: sk-wrong. You can find your API key at the usual "
        "place in your account settings, under API keys, for this organisation.",
    )
    dialog = dialog_for(qtbot, openai_server)
    qtbot.waitExposed(dialog)
    dialog.key.setText("sk-wrong")
    dialog.save.click()
    verdict = run(qloop, press_test(dialog))
    label = dialog.verdict
    assert label.text() == verdict
    lines = label.heightForWidth(label.width()) // label.fontMetrics().lineSpacing()
    assert lines >= 2  # it wraps
    assert label.height() >= label.heightForWidth(label.width())  # every line has room
    bottom = label.mapTo(dialog, label.rect().bottomLeft()).y()
    assert bottom <= dialog.height()  # inside the dialog, above its edge
    buttons_top = dialog.findChild(QDialogButtonBox).geometry().top()
    assert bottom <= buttons_top  # and above the Close button


def test_removing_a_key_asks_first_with_cancel_the_default(
    qtbot: QtBot, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26 §2: a destructive question defaults to Cancel; Enter keeps the key, Yes removes it."""
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    secrets = SecretStore()
    secrets.set_key("openai", "sk-keep-me")
    dialog = SettingsDialog(secrets, check_connection, model_id="openai/gpt-4o-mini")
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitExposed(dialog)

    dialog.remove.click()
    box = dialog.findChild(QMessageBox, "settings.confirm_remove")
    assert box is not None and box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert secrets.get_key("openai") == "sk-keep-me"

    dialog.remove.click()
    box = next(b for b in dialog.findChildren(QMessageBox, "settings.confirm_remove") if b.isVisible())
    box.button(QMessageBox.StandardButton.Yes).click()
    assert secrets.get_key("openai") is None
    assert dialog.verdict.text() == "Key removed."
