"""An invalid option is kept as typed, marks its chain entry invalid and stops runs until fixed (issue 10 §3)."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit
from pytestqt.qtbot import QtBot

from studio.models.chain_model import INVALID_COLOR, INVALID_ROLE
from studio.models.chat_items import ErrorItem
from tests.studio.conftest import run
from tests.studio.test_app import open_studio, reply


def test_a_negative_token_limit_marks_the_entry_and_refuses_to_run_until_fixed(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    document = workspace.document
    limiter = next(entry for entry in document.chain("output") if entry.type == "TokenLimiter")
    window.chains.select(limiter.uid)
    assert window.options.uid() == limiter.uid
    field = window.options.editor("limit")
    assert isinstance(field, QLineEdit)
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "-5")
    assert window.options.error_text("limit") == "Input should be greater than or equal to 1"
    qtbot.waitUntil(lambda: document.entry(limiter.uid).options.get("limit") == -5)  # kept as typed
    assert document.snapshot().output[2].options["limit"] == -5  # what is saved says what the form says

    model = window.chains.model("output")
    index = model.index(model.row_of(limiter.uid), 0)
    assert "Invalid: Limit: Input should be greater than or equal to 1" in index.data()
    assert index.data(INVALID_ROLE)
    assert index.data(Qt.ItemDataRole.ForegroundRole) == QColor(INVALID_COLOR)
    assert index.data(Qt.ItemDataRole.DecorationRole) is not None

    async def send() -> str | None:
        return workspace.send("hello")

    assert run(qloop, send()) is None
    assert not workspace.runs.is_running
    last = workspace.chat.items[-1]
    assert isinstance(last, ErrorItem)
    assert "Output chain, #3 (TokenLimiter)" in last.plain_text and "limit" in last.plain_text
    assert "TokenLimiter" in window.statusBar().currentMessage()

    field.selectAll()
    qtbot.keyClicks(field, "50")
    qtbot.waitUntil(lambda: document.entry(limiter.uid).options.get("limit") == 50)
    assert not index.data(INVALID_ROLE) and "Invalid" not in index.data()
    reply(qloop, workspace, "hello")  # runs again
    assert not isinstance(workspace.chat.items[-1], ErrorItem)
    run(qloop, workspace.shutdown())


def test_json_text_that_is_no_json_is_kept_marks_the_entry_and_refuses_to_run_saying_so(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    document = workspace.document
    guard = next(entry for entry in document.chain("input") if entry.type == "PromptInjectionDetector")
    window.chains.select(guard.uid)
    field = window.options.editor("hybrid_band")
    assert isinstance(field, QPlainTextEdit)
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "[0.3, ")
    assert window.options.error_text("hybrid_band").startswith("Not valid JSON")
    qtbot.waitUntil(lambda: document.entry(guard.uid).options.get("hybrid_band") == "[0.3, ")  # kept as typed

    model = window.chains.model("input")
    index = model.index(model.row_of(guard.uid), 0)
    assert "Invalid: Hybrid Band: Not valid JSON" in index.data()
    assert index.data(INVALID_ROLE)

    async def send() -> str | None:
        return workspace.send("hello")

    assert run(qloop, send()) is None
    last = workspace.chat.items[-1]
    assert isinstance(last, ErrorItem)
    assert "Input chain, #2 (PromptInjectionDetector)" in last.plain_text
    assert "hybrid_band: Not valid JSON" in last.plain_text

    qtbot.keyClicks(field, "0.7]")
    qtbot.waitUntil(lambda: document.entry(guard.uid).options.get("hybrid_band") == [0.3, 0.7])
    assert not index.data(INVALID_ROLE)
    reply(qloop, workspace, "hello")
    assert not isinstance(workspace.chat.items[-1], ErrorItem)
    run(qloop, workspace.shutdown())
