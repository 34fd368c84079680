"""Ctrl+Z from outside the editor undoes the design (issue 10 §3): the window now says what it undid.

Seen under Xvfb at 1366x768: a processor removed from the Input chain, a message sent, then Ctrl+Z in the (now empty)
chat box put the processor back in the chain with nothing on screen saying so; had the last edit been adding a guard,
Ctrl+Z in the chat would have removed it unseen. The status bar now names the edit undone or redone, whichever pane
had the keyboard.
"""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QWidget
from pytestqt.qtbot import QtBot

from tests.studio.conftest import open_studio, run

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def test_ctrl_z_in_the_chat_box_says_which_design_edit_it_undid_and_redid(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    document = workspace.document
    before = len(document.chain("input"))
    window.chains.add_entry("RegexFilter", "input")
    added = document.undo_stack().undoText()
    assert len(document.chain("input")) == before + 1

    chat_input = window.findChild(QWidget, "chat.input")
    assert isinstance(chat_input, QPlainTextEdit)
    chat_input.setFocus()
    qtbot.waitUntil(chat_input.hasFocus)
    qtbot.keyClick(chat_input, Qt.Key.Key_Z, CTRL)  # the chat box has nothing to undo: the design's edit is undone

    assert len(document.chain("input")) == before
    message = window.statusBar().currentMessage()
    assert "Undone" in message and added in message

    qtbot.keyClick(chat_input, Qt.Key.Key_Z, CTRL_SHIFT)
    assert len(document.chain("input")) == before + 1
    message = window.statusBar().currentMessage()
    assert "Redone" in message and added in message
    run(qloop, workspace.shutdown())
