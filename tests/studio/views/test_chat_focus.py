"""After a message goes out the chat box keeps the keyboard, however it was sent.

Found by driving the studio with a real mouse (Xvfb, 1366x768): clicking Send or an empty chat's suggestion left the
focus on the button, which the send disables, so Qt moved the focus to the next widget in the window (the
inspector's timeline); the follow-up the user typed went to the timeline's type-ahead search instead of the chat.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QHBoxLayout, QMenu, QTreeWidget, QWidget
from pytestqt.qtbot import QtBot

from studio.models.chat_list_model import ChatListModel
from studio.views.chat_view import ChatView


def _window_with_a_pane_after_the_chat(qtbot: QtBot) -> tuple[QWidget, ChatView, QTreeWidget]:
    """The chat with a focusable pane after it in the tab order, as the inspector is in the main window."""
    window = QWidget()
    qtbot.addWidget(window)
    chat = ChatView(ChatListModel(), window)
    after = QTreeWidget(window)
    layout = QHBoxLayout(window)
    layout.addWidget(chat)
    layout.addWidget(after)
    chat.set_suggestions(["What's the weather in Paris?"])
    window.show()
    window.activateWindow()
    qtbot.waitExposed(window)
    return window, chat, after


def test_clicking_send_leaves_the_keyboard_in_the_chat_box(qtbot: QtBot) -> None:
    window, chat, after = _window_with_a_pane_after_the_chat(qtbot)
    sent: list[str] = []
    chat.send_requested.connect(sent.append)
    chat.input.setFocus()
    qtbot.keyClicks(chat.input, "Look up customer 7")
    send = chat.findChild(QWidget, "chat.send")
    assert send is not None
    qtbot.mouseClick(send, Qt.MouseButton.LeftButton)

    assert sent == ["Look up customer 7"]
    assert window.focusWidget() is chat.input
    assert window.focusWidget() is not after


def test_clicking_a_suggestion_leaves_the_keyboard_in_the_chat_box(qtbot: QtBot) -> None:
    window, chat, _after = _window_with_a_pane_after_the_chat(qtbot)
    sent: list[str] = []
    chat.send_requested.connect(sent.append)
    qtbot.mouseClick(chat.empty_state.buttons[0], Qt.MouseButton.LeftButton)

    assert sent == ["What's the weather in Paris?"]
    assert window.focusWidget() is chat.input


@pytest.mark.qt_log_ignore("^This plugin does not support grabbing the keyboard$")  # a popup, offscreen
def test_resending_a_message_from_its_menu_leaves_the_keyboard_in_the_chat_box(qtbot: QtBot) -> None:
    """The walk: right-click a message of yours, Resend; the keyboard stayed on the message list (where the menu
    handed it back), so the follow-up typed at once went nowhere."""
    window, chat, _after = _window_with_a_pane_after_the_chat(qtbot)
    sent: list[str] = []
    chat.send_requested.connect(sent.append)
    chat.model.chat.add_user_message("Look up customer 7")
    view = chat.list_view
    qtbot.waitUntil(lambda: view.visualRect(view.model().index(0, 0)).isValid())
    view.setFocus()
    centre = view.visualRect(view.model().index(0, 0)).center()
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, centre, view.viewport().mapToGlobal(centre))
    QApplication.sendEvent(view.viewport(), event)
    menu = chat.findChild(QMenu, "chat.menu")
    assert menu is not None
    qtbot.waitUntil(menu.isVisible)
    resend = next(action for action in menu.actions() if action.objectName() == "chat.menu.resend")
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(resend).center())
    qtbot.waitUntil(lambda: not menu.isVisible())

    assert sent == ["Look up customer 7"]
    assert window.focusWidget() is chat.input
    qtbot.keyClicks(window.focusWidget(), "and 8")  # where the keyboard is
    assert chat.input.toPlainText() == "and 8"
