"""The message box shows three whole lines, in every script, at 100 % and 200 % text size.

Seen under Xvfb at 1366x768 and 200 %: the box's placeholder ("Message the agent — Enter sends, Shift+Enter adds a
line") wrapped onto three lines and the third was cut in half. The box's height was three times the font's line
spacing plus a fixed 16 px, but a line as the box lays it out is taller than that (32 px against 28 at 200 %; a line
with Chinese, from a taller fallback font, taller still).
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QPlainTextDocumentLayout

from studio.models.chat_list_model import ChatListModel
from studio.views.chat_view import ChatView


@pytest.mark.parametrize("factor", [1.0, 2.0])
@pytest.mark.parametrize("line", ["Message the agent — Enter", "请帮我查一下客户 42 的订单"])
def test_three_lines_fit_the_message_box(qtbot: Any, text_size: Any, factor: float, line: str) -> None:
    text_size(factor)
    chat = ChatView(ChatListModel())
    qtbot.addWidget(chat)
    chat.show()
    qtbot.waitExposed(chat)
    box = chat.input
    document = QTextDocument()
    document.setDefaultFont(box.font())
    layout = QPlainTextDocumentLayout(document)
    document.setDocumentLayout(layout)
    document.setPlainText("\n".join([line] * 3))
    block, lines = document.firstBlock(), 0.0
    while block.isValid():
        lines += layout.blockBoundingRect(block).height()
        block = block.next()
    assert box.viewport().height() >= lines + 2 * box.document().documentMargin(), (box.viewport().height(), lines)
