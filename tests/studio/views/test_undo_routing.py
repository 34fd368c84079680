"""Ctrl+Z / Ctrl+Shift+Z reach the design's undo stack from anywhere in the window, except while a text field has
its own edit to undo (issue 10 §3)."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QWidget
from pytestqt.qtbot import QtBot

from tests.studio.conftest import run
from tests.studio.test_app import open_studio

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def test_undo_and_redo_work_from_the_palette_search_and_the_chat_input(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    document = workspace.document
    before = len(document.chain("input"))
    window.chains.add_entry("RegexFilter", "input")
    assert len(document.chain("input")) == before + 1

    search = window.palette_view.search_box()
    search.setFocus()
    qtbot.waitUntil(search.hasFocus)
    qtbot.keyClick(search, Qt.Key.Key_Z, CTRL)  # the search box has nothing to undo: the design's edit is undone
    assert len(document.chain("input")) == before
    qtbot.keyClick(search, Qt.Key.Key_Z, CTRL_SHIFT)  # ... and redone
    assert len(document.chain("input")) == before + 1

    qtbot.keyClicks(search, "pii")
    qtbot.keyClick(search, Qt.Key.Key_Z, CTRL)  # now the search box has its own edit: it undoes that
    assert search.text() == "" and len(document.chain("input")) == before + 1
    qtbot.keyClick(search, Qt.Key.Key_Z, CTRL)  # nothing left of its own: the design again
    assert len(document.chain("input")) == before

    chat_input = window.findChild(QWidget, "chat.input")
    assert isinstance(chat_input, QPlainTextEdit)
    chat_input.setFocus()
    qtbot.waitUntil(chat_input.hasFocus)
    qtbot.keyClick(chat_input, Qt.Key.Key_Z, CTRL_SHIFT)
    assert len(document.chain("input")) == before + 1
    run(qloop, workspace.shutdown())
