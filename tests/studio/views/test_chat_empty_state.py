"""An empty conversation offers suggestions that send themselves; the message list replaces them once it has rows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.models.chat_list_model import ChatListModel
from studio.views.chat_view import ChatView


def test_a_suggestion_sends_itself_and_the_list_takes_over(qtbot: QtBot) -> None:
    model = ChatListModel()
    view = ChatView(model)
    qtbot.addWidget(view)
    view.set_suggestions(["What's the weather in Paris?", "Please look up customer 42."])
    view.show()
    sent: list[str] = []
    view.send_requested.connect(sent.append)

    assert view.empty_state.isVisible()
    labels = [button.text() for button in view.empty_state.buttons]
    assert labels == ["What's the weather in Paris?", "Please look up customer 42."]
    qtbot.mouseClick(view.empty_state.buttons[1], Qt.MouseButton.LeftButton)
    assert sent == ["Please look up customer 42."]

    model.chat.add_user_message("Please look up customer 42.")
    assert not view.empty_state.isVisible()
    assert view.list_view.isVisible()
    model.chat.clear()
    assert view.empty_state.isVisible()
