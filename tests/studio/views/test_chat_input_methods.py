"""Input methods in the chat box: what a Chinese (pinyin, zhuyin, cangjie) input method commits lands in the box and
is sent intact; the text being composed (the preedit) is never sent half-made.

Real widgets and real ``QInputMethodEvent``s, delivered the way Qt delivers them from a platform input method; the
last test sends through the whole studio (main window, workspace, store) and reads the message back from the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot

from processors.builtin.unicode_normalizer import UnicodeNormalizer
from studio.models.chat_list_model import ChatListModel
from studio.views.chat_view import ChatInput, ChatView
from tests.studio.conftest import open_studio, run


def _chat(qtbot: QtBot) -> ChatView:
    view = ChatView(ChatListModel())
    qtbot.addWidget(view)
    view.resize(640, 720)
    view.show()
    qtbot.waitExposed(view)
    view.input.setFocus()
    return view


def compose(box: ChatInput, preedit: str) -> None:
    """The input method shows ``preedit`` (pinyin being typed, or candidates) without committing it."""
    assert QApplication.sendEvent(box, QInputMethodEvent(preedit, []))


def commit(box: ChatInput, text: str) -> None:
    """The input method commits ``text`` (a chosen candidate) and clears its preedit."""
    event = QInputMethodEvent("", [])
    event.setCommitString(text)
    assert QApplication.sendEvent(box, event)


def test_committed_text_lands_in_the_box_and_enter_sends_it_intact(qtbot: QtBot) -> None:
    chat = _chat(qtbot)
    box = chat.input
    sent: list[str] = []
    chat.send_requested.connect(sent.append)
    assert box.testAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled)  # Qt routes the input method here
    commit(box, "请查询客户")
    qtbot.keyClicks(box, " 42")  # mixed with plain keys
    commit(box, "，谢谢。")
    assert box.toPlainText() == "请查询客户 42，谢谢。"
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert sent == ["请查询客户 42，谢谢。"]
    assert box.toPlainText() == ""


def test_text_being_composed_is_not_in_the_box_until_it_is_committed(qtbot: QtBot) -> None:
    chat = _chat(qtbot)
    box = chat.input
    sent: list[str] = []
    chat.send_requested.connect(sent.append)
    commit(box, "繁體")
    compose(box, "zhong")  # pinyin typed, candidates showing
    compose(box, "zhong wen")
    assert box.toPlainText() == "繁體"  # the preedit is shown, not yet text
    commit(box, "中文")
    assert box.toPlainText() == "繁體中文"
    compose(box, "")  # the input method closes without a candidate: nothing added
    assert box.toPlainText() == "繁體中文"
    send = chat.findChild(QPushButton, "chat.send")
    assert send is not None
    send.click()
    assert sent == ["繁體中文"]


def test_a_message_typed_with_an_input_method_is_stored_as_typed(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, in_language: Any
) -> None:
    in_language("zh_CN")
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    box = window.chat.input
    box.setFocus()
    text = "请查询客户 42 的订单 😀，谢谢。"
    for piece in ("请查询", "客户 42 ", "的订单 ", "😀", "，谢谢。"):
        compose(box, "pinyin")
        commit(box, piece)
    assert box.toPlainText() == text

    async def press_enter() -> None:  # on the loop: the workspace starts the run as a task
        qtbot.keyClick(box, Qt.Key.Key_Return)
        await workspace.runs.wait_finished()
        await workspace.wait_idle()

    run(qloop, press_enter())
    assert workspace.thread_id is not None
    stored = run(qloop, workspace.store.memory.all_messages(workspace.thread_id))
    assert [item.text for item in workspace.chat.items if item.kind == "user"] == [text]  # sent as typed
    # the sample chain's UnicodeNormalizer keeps Chinese punctuation, which Mastra's NFKC would write as ","
    assert UnicodeNormalizer().normalize(text) == text.replace("，", ",")
    assert [message.text for message in stored if message.role == "user"] == [text]
    run(qloop, workspace.shutdown())
