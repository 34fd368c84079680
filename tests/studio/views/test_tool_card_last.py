"""A reply that ends with a tool card ends at the card: no blank line under it in the bubble.

Seen under Xvfb at 1366x768: a restored reply whose last part was a tool card (a result a guardrail blocked) showed an
empty line's height of bubble under the card. Qt keeps an empty block after a frame (the card); when nothing follows
it, it now takes no height (the next text written after a card reuses it, with its own height).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextDocument, QTextFrame

from processors.messages import Message, MessageContent, TextPart, ToolInvocation, ToolInvocationPart
from processors.messages.parts import StepStartPart
from studio.models.chat_items import AssistantItem
from studio.models.chat_list_model import ChatListModel
from studio.views.chat_view import ChatView

WIDTH = 600


def _reply(*, then: str | None) -> Message:
    call = ToolInvocation(
        state="result", tool_call_id="c1", tool_name="get_weather", args={"city": "Oslo"}, result={"t": 3}
    )
    parts: list[Any] = [TextPart(text="Let me look."), ToolInvocationPart(tool_invocation=call)]
    if then is not None:  # the model's next step, after the tool's result
        parts.extend([StepStartPart(), TextPart(text=then)])
    return Message(role="assistant", content=MessageContent(parts=parts))


def _card_bottom(document: QTextDocument) -> float:
    layout = document.documentLayout()
    frames = [frame for frame in document.rootFrame().childFrames() if isinstance(frame, QTextFrame)]
    assert frames, "the reply has its card"
    return max(layout.frameBoundingRect(frame).bottom() for frame in frames)


def test_a_reply_ending_with_a_tool_card_ends_at_the_card(qtbot: Any) -> None:
    model = ChatListModel()
    model.chat.history.load_messages([Message.user("Weather?"), _reply(then=None), _reply(then="It is 3 °C.")])
    chat = ChatView(model)
    qtbot.addWidget(chat)
    renderer = chat.list_view.renderer
    ending, followed = [item for item in model.chat.items if isinstance(item, AssistantItem)]

    document = renderer.document(ending, WIDTH)
    under_card = document.size().height() - _card_bottom(document) - document.documentMargin()
    assert under_card <= 2, under_card  # a line's height (~17 px) before

    document = renderer.document(followed, WIDTH)  # text after a card keeps its line
    under_card = document.size().height() - _card_bottom(document) - document.documentMargin()
    assert under_card >= document.defaultFont().pointSizeF(), under_card
