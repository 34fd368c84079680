"""A new thread is for typing in: after New (the button, Ctrl+N or Chat → New thread) the chat box has the keyboard.

Seen under Xvfb at 1366x768: after clicking New the focus stayed on the button, and the first message typed into
the new, empty conversation went nowhere (a keyboard search in the threads list), until the chat box was clicked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPlainTextEdit
from pytestqt.qtbot import QtBot

from tests.studio.conftest import open_studio, run


async def _until(condition: Callable[[], bool]) -> None:
    """The workspace creates the thread on the loop: let it run until ``condition`` holds."""
    while not condition():
        await asyncio.sleep(0.01)


def test_after_clicking_new_the_keyboard_is_in_the_chat_box(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    threads = window.threads.model.rowCount()
    window.threads.list.setFocus()

    qtbot.mouseClick(window.threads.new_button, Qt.MouseButton.LeftButton)
    run(qloop, asyncio.wait_for(_until(lambda: window.threads.model.rowCount() == threads + 1), 10))
    QApplication.processEvents()

    chat_input = window.chat.input
    assert isinstance(chat_input, QPlainTextEdit)
    assert window.focusWidget() is chat_input
    qtbot.keyClicks(window.focusWidget(), "hello")
    assert chat_input.toPlainText() == "hello"
    run(qloop, workspace.shutdown())
