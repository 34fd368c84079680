"""What a newcomer types first reaches the chat box: when the studio opens, and after a click in the conversation.

Seen under Xvfb at 1366x768: when the window opened the keyboard was in the threads' search field (the first field of
the window), so "hello" typed at once filtered the threads list to nothing and hid the Welcome thread; and after a
click in the conversation (to read it, to scroll it) the keys typed went to the message list, which ignored them.
Now the window opens with the chat box focused, and printable keys typed in the message list go to the chat box;
the list keeps its own keys (arrows, Page Up/Down, Home, End) and shortcuts (Ctrl+…).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from studio.models.chat_list_model import ChatListModel
from studio.views.chat_view import ChatView
from tests.studio.conftest import open_studio, run
from tests.support.threads import thread_of


def test_the_studio_opens_with_the_keyboard_in_the_chat_box(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db", size=(1366, 768))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QApplication.processEvents()

    assert window.focusWidget() is window.chat.input
    qtbot.keyClicks(window.focusWidget(), "hello")
    assert window.chat.input.toPlainText() == "hello"
    assert window.threads.model.rowCount() >= 1  # the threads list is not filtered by it
    run(qloop, workspace.shutdown())


def _conversation(qtbot: Any) -> ChatView:
    model = ChatListModel()
    model.chat.history.load_messages(thread_of(6))
    chat = ChatView(model)
    qtbot.addWidget(chat)
    chat.resize(600, 500)
    return chat


def test_keys_typed_in_the_conversation_go_to_the_chat_box(qtbot: Any) -> None:
    chat = _conversation(qtbot)
    chat.input.setPlainText("Say ")
    chat.show()
    qtbot.waitExposed(chat)
    chat.list_view.setFocus()
    qtbot.waitUntil(chat.list_view.hasFocus)

    qtbot.keyClicks(chat.list_view, "hi")

    assert chat.input.hasFocus()
    assert chat.input.toPlainText() == "Say hi"  # added at the end of what was there


def test_the_conversation_keeps_its_own_keys(qtbot: Any) -> None:
    chat = _conversation(qtbot)
    chat.show()
    qtbot.waitExposed(chat)
    chat.list_view.setFocus()
    qtbot.waitUntil(chat.list_view.hasFocus)

    for key in (Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_End, Qt.Key.Key_Home):
        qtbot.keyClick(chat.list_view, key)
    qtbot.keyClick(chat.list_view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)

    assert chat.list_view.hasFocus()
    assert chat.input.toPlainText() == ""
