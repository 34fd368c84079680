"""ChatView: real widgets, offscreen; runs through a real RunController on a qasync loop."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage, QTextDocument
from PySide6.QtWidgets import QApplication, QWidget

from processors import Agent, Processor, tool
from processors.models.base import Finish, ModelEvent, ModelRequest, TextDelta
from processors.models.scripted import ScriptedModel, ToolCall, Turn
from studio.controllers.run_controller import RunController
from studio.models.chat_items import AssistantItem, TripwireItem
from studio.models.chat_list_model import ChatListModel
from studio.views.chat_markdown import split_markdown
from studio.views.chat_render import MessageRenderer
from studio.views.chat_view import ChatView
from tests.support.threads import thread_of


@pytest.fixture
def chat(qtbot: Any) -> ChatView:
    view = ChatView(ChatListModel())
    qtbot.addWidget(view)
    view.resize(640, 720)
    view.show()
    qtbot.waitExposed(view)
    return view


@tool
def get_weather(city: str) -> dict[str, Any]:
    """Get the weather.

    Args:
        city: The city.
    """
    return {"city": city, "temperature": 21}


class BlockInput(Processor):
    id = "block-input"

    def process_input(self, args: Any) -> Any:
        if "password" in args.messages[-1].text:
            args.abort("password in input", metadata={"score": 0.9})
        return args.messages


def wire(view: ChatView, controller: RunController, agent: Agent) -> None:
    """What the main window and the workspace do: a send adds the user's message and starts a run; the run's
    chunks, trace events and end are folded into the chat (``Workspace._on_runs_*``); Stop stops it."""
    chat = view.model.chat
    controller.run_started.connect(lambda run_id, _thread_id: chat.live.begin_run(run_id))
    controller.chunk_received.connect(chat.live.apply_chunk)
    controller.trace_event_received.connect(chat.live.apply_trace_event)
    controller.run_finished.connect(chat.live.finish_run)
    controller.run_failed.connect(chat.live.fail_run)
    view.follow(controller)

    def send(text: str) -> None:
        view.model.chat.add_user_message(text)
        controller.start(agent, text, thread_id="t1")

    view.send_requested.connect(send)
    view.stop_requested.connect(controller.stop)


def text_of(view: ChatView, item: Any) -> str:
    document: QTextDocument = view.list_view.renderer.document(item, view.list_view.viewport().width())
    return document.toPlainText()


# ------------------------------------------------------------------------------------------------ the input
def test_enter_sends_and_shift_enter_adds_a_line(chat: ChatView, qtbot: Any) -> None:
    box = chat.findChild(QWidget, "chat.input")
    assert box is chat.input
    sent: list[str] = []
    chat.send_requested.connect(sent.append)

    qtbot.keyClicks(box, "first line")
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(box, "second line")
    assert box.toPlainText() == "first line\nsecond line"
    assert sent == []

    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert sent == ["first line\nsecond line"]
    assert box.toPlainText() == ""

    qtbot.keyClicks(box, "with ctrl")
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(box, Qt.Key.Key_Return)  # empty: nothing sent
    assert sent == ["first line\nsecond line", "with ctrl"]


def test_send_button_and_stop_button_follow_the_running_state(chat: ChatView, qtbot: Any) -> None:
    send = chat.findChild(QWidget, "chat.send")
    stop = chat.findChild(QWidget, "chat.stop")
    sent: list[str] = []
    stops: list[bool] = []
    chat.send_requested.connect(sent.append)
    chat.stop_requested.connect(lambda: stops.append(True))
    assert not stop.isEnabled() and not send.isEnabled()  # nothing typed yet

    qtbot.keyClicks(chat.input, "hello")
    assert send.isEnabled()
    qtbot.mouseClick(send, Qt.MouseButton.LeftButton)
    assert sent == ["hello"]

    chat.set_running(True)
    assert stop.isEnabled() and not send.isEnabled()  # nothing typed
    qtbot.keyClicks(chat.input, "queued")
    assert send.isEnabled() and send.text() == "Queue"
    qtbot.keyClick(chat.input, Qt.Key.Key_Return)
    assert sent == ["hello"] and chat.queued == ["queued"]  # not sent while a reply runs: queued
    assert chat.input.toPlainText() == ""
    qtbot.keyClick(chat.input, Qt.Key.Key_Escape)
    qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
    assert stops == [True, True]

    chat.set_running(False)
    qtbot.keyClicks(chat.input, "next")
    assert not stop.isEnabled() and send.isEnabled() and send.text() == "Send"
    qtbot.keyClick(chat.input, Qt.Key.Key_Escape)
    assert stops == [True, True]  # Esc stops only a running reply


# ------------------------------------------------------------------------------------------------ live runs
class GatedModel:
    """Streams the first ``half`` words, then waits for ``release`` before the rest: a reply caught mid-stream."""

    provider = "test"
    model_id = "gated"

    def __init__(self, words: list[str], half: int) -> None:
        self.words, self.half = words, half
        self.halfway, self.release = asyncio.Event(), asyncio.Event()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        for n, word in enumerate(self.words):
            if n == self.half:
                self.halfway.set()
                await self.release.wait()
            yield TextDelta(word)
            await asyncio.sleep(0)  # a chunk at a time, as from a network
        yield Finish("stop")


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until ``condition`` holds (the test's timeout bounds the wait)."""
    while not condition():
        await asyncio.sleep(0.005)


def test_a_streamed_reply_appears_while_it_streams(chat: ChatView, loop: qasync.QEventLoop, qtbot: Any) -> None:
    words = [f"word{n} " for n in range(120)]
    words[40] = "word40\n\n"  # a paragraph break: the first paragraph is committed, the second keeps growing
    model = GatedModel(words, half=60)
    controller = RunController()
    wire(chat, controller, Agent(id="a", model=model))
    stop = chat.findChild(QWidget, "chat.stop")
    seen_mid_stream: list[str] = []

    async def go() -> None:
        qtbot.keyClicks(chat.input, "talk to me")
        qtbot.keyClick(chat.input, Qt.Key.Key_Return)
        assert controller.is_running
        await model.halfway.wait()
        await until(lambda: "word59" in text_of(chat, chat.model.chat.items[1]))  # the next frame drew it
        assert stop.isEnabled()
        seen_mid_stream.append(text_of(chat, chat.model.chat.items[1]))
        model.release.set()
        await controller.wait_finished()
        await until(lambda: "word119" in text_of(chat, chat.model.chat.items[1]))

    loop.run_until_complete(go())

    renderer = chat.list_view.renderer
    assert renderer.appends > 0, "the growing reply is appended to, not rebuilt, between frames"
    partial = seen_mid_stream[0]
    assert partial.startswith("Assistant") and "word0 word1" in partial and "word119" not in partial
    reply = chat.model.chat.items[1]
    assert isinstance(reply, AssistantItem) and reply.status == "done"
    final = text_of(chat, reply)
    assert "word0 word1" in final and "word119" in final and "●" not in final
    assert not stop.isEnabled()
    assert chat.list_view.sticks_to_bottom
    bar = chat.list_view.verticalScrollBar()
    assert bar.value() == bar.maximum()


def test_stop_cancels_the_running_reply(chat: ChatView, loop: qasync.QEventLoop, qtbot: Any) -> None:
    model = ScriptedModel([Turn(text="slow " * 300, delay=0.01)])
    controller = RunController()
    wire(chat, controller, Agent(id="a", model=model))
    results: list[Any] = []
    controller.run_finished.connect(lambda _run_id, result: results.append(result))

    async def go() -> None:
        chat.model.chat.add_user_message("go")
        controller.start(Agent(id="a", model=model), "go", thread_id="t1")
        await until(lambda: len(chat.model.chat.items) > 1 and "slow" in text_of(chat, chat.model.chat.items[1]))
        qtbot.mouseClick(chat.findChild(QWidget, "chat.stop"), Qt.MouseButton.LeftButton)
        await controller.wait_finished()
        await until(lambda: "■ Stopped" in text_of(chat, chat.model.chat.items[1]))

    loop.run_until_complete(go())

    assert model.closed_early == 1
    assert results[0].finish_reason == "abort"
    reply = chat.model.chat.items[1]
    assert isinstance(reply, AssistantItem) and reply.status == "stopped"
    assert "■ Stopped" in text_of(chat, reply)
    assert not chat.findChild(QWidget, "chat.stop").isEnabled()


def test_tripwire_banner_is_shown_and_clicking_it_names_the_run(
    chat: ChatView, loop: qasync.QEventLoop, qtbot: Any
) -> None:
    controller = RunController()
    wire(chat, controller, Agent(id="a", model=ScriptedModel(["x"]), input_processors=[BlockInput()]))
    finished: list[str] = []
    controller.run_finished.connect(lambda run_id, _result: finished.append(run_id))

    async def go() -> None:
        qtbot.keyClicks(chat.input, "my password is 123")
        qtbot.keyClick(chat.input, Qt.Key.Key_Return)
        await controller.wait_finished()
        await until(lambda: any(isinstance(item, TripwireItem) for item in chat.model.chat.items))

    loop.run_until_complete(go())

    banner_row = [row for row, item in enumerate(chat.model.chat.items) if isinstance(item, TripwireItem)]
    assert banner_row == [1]
    banner = chat.model.chat.items[1]
    text = text_of(chat, banner)
    assert "Tripwire" in text and "block-input" in text and "password in input" in text and '"score": 0.9' in text
    view = chat.list_view
    rect = view.visualRect(chat.model.index(1))
    with qtbot.waitSignal(chat.tripwire_clicked, timeout=1000) as blocker:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == [finished[0]]


def test_clicking_a_tool_card_header_toggles_it(chat: ChatView, loop: qasync.QEventLoop, qtbot: Any) -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), "It is 21."])
    controller = RunController()
    wire(chat, controller, Agent(id="a", model=model, tools=[get_weather]))

    async def go() -> None:
        chat.model.chat.add_user_message("weather?")
        controller.start(Agent(id="a", model=model, tools=[get_weather]), "weather?", thread_id="t1")
        await controller.wait_finished()
        await until(lambda: "It is 21." in text_of(chat, chat.model.chat.items[1]))

    loop.run_until_complete(go())

    reply = chat.model.chat.items[1]
    assert isinstance(reply, AssistantItem)
    (card,) = reply.tool_cards
    assert not card.expanded and '"temperature": 21' not in text_of(chat, reply)
    view = chat.list_view
    point = header_point(chat, 1, "get_weather")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert card.expanded
    qtbot.waitUntil(lambda: '"temperature": 21' in text_of(chat, reply), timeout=1000)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=header_point(chat, 1, "get_weather"))
    assert not card.expanded


def header_point(chat: ChatView, row: int, word: str) -> QPoint:
    """Where ``word`` is drawn in the row (view coordinates)."""
    view = chat.list_view
    item = chat.model.chat.items[row]
    document = view.renderer.document(item, view.viewport().width())
    found = document.find(word)
    assert not found.isNull()
    rect = document.documentLayout().blockBoundingRect(found.block())
    line = found.block().layout().lineForTextPosition(found.positionInBlock())
    x = line.cursorToX(found.positionInBlock())[0] + 4
    bubble = view.renderer.bubble_rect(item, view.visualRect(chat.model.index(row)))
    return QPoint(int(bubble.left() + 10 + x), int(bubble.top() + 10 + rect.top() + line.y() + line.height() / 2))


def test_user_scrolling_up_stops_the_auto_scroll(chat: ChatView, loop: qasync.QEventLoop, qtbot: Any) -> None:
    for number in range(30):
        chat.model.chat.add_user_message(f"message {number}\n\nwith a second paragraph")
    view = chat.list_view
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=5000)
    assert view.sticks_to_bottom
    bar.setValue(bar.maximum() // 3)  # the user scrolls up
    assert not view.sticks_to_bottom
    where, bottom = bar.value(), bar.maximum()
    chat.model.chat.add_user_message("new one")
    qtbot.waitUntil(lambda: bar.maximum() > bottom, timeout=5000)  # the new row is laid out
    assert bar.value() == where
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.sticks_to_bottom and bar.value() == bar.maximum()


# ------------------------------------------------------------------------------------------------ big threads
def test_ten_thousand_messages_open_without_ten_thousand_widgets(chat: ChatView, qtbot: Any) -> None:
    messages = thread_of(10_000)
    widgets_before = len(chat.findChildren(QWidget))
    started = time.perf_counter()
    chat.model.chat.history.load_messages(messages)
    chat.list_view.viewport().repaint()
    elapsed = time.perf_counter() - started
    assert chat.model.rowCount() == 10_000
    assert len(chat.findChildren(QWidget)) == widgets_before
    view = chat.list_view
    renderer = view.renderer
    assert renderer.renders < 60, "only what is visible was rendered"
    assert view.verticalScrollBar().value() == view.verticalScrollBar().maximum() > 0
    last = chat.model.chat.items[-1]
    assert last.plain_text.split("\n")[0] in text_of(chat, last)
    print(f"10,000 messages to first paint: {elapsed * 1000:.0f} ms")  # the bench measures this properly
    view.verticalScrollBar().setValue(0)
    view.viewport().repaint()
    assert renderer.renders < 120


def test_estimated_heights_stay_close_when_loaded_before_show_and_resized(qtbot: Any) -> None:
    view = ChatView(ChatListModel())
    qtbot.addWidget(view)
    view.model.chat.history.load_messages(thread_of(300))  # before the view has its size
    view.resize(700, 600)
    view.show()
    qtbot.waitExposed(view)
    for width in (500, 900):
        view.resize(width, 600)
        listed = view.list_view

        def ratio(listed: Any = listed) -> float:
            estimated = listed.verticalScrollBar().maximum() + listed.viewport().height()
            exact = sum(listed.renderer.height(item, listed.viewport().width()) for item in view.model.chat.items)
            return estimated / exact

        # the other rows are estimated again once resizing pauses
        qtbot.waitUntil(lambda: 0.8 < ratio() < 1.2, timeout=5000)


# ------------------------------------------------------------------------------------------------ rendering
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_incremental_rendering_matches_a_full_render(qapp: QApplication, seed: int) -> None:
    from processors.chunks import FinishChunk, FinishPayload, StepResult, StepStartChunk, StepStartPayload, text_delta
    from studio.models.chat_model import ChatModel

    markdown = (
        "# Title\n\nSome **bold** text and `code`.\n\n- item one\n- item two\n\n"
        "```python\ndef f():\n\n    return 1\n```\n\n## Next\n\n1. first\n2. second\n\nThe end."
    )
    rng = random.Random(seed)
    deltas: list[str] = ["# Title\n\n"]  # a delta that ends a paragraph exactly
    position = len(deltas[0])
    while position < len(markdown):
        size = rng.randint(1, 7)
        deltas.append(markdown[position : position + size])
        position += size
    chat = ChatModel()
    chat.live.apply_chunk("r", StepStartChunk(run_id="r", payload=StepStartPayload(message_id="m")))
    renderer = MessageRenderer(qapp.font())
    full = QTextDocument()
    for number, delta in enumerate(deltas):
        chat.live.apply_chunk("r", text_delta("r", "m", delta))
        if number % 3 == 0:  # a frame now and then
            streamed = renderer.document(chat.items[0], 600).toPlainText()
            full.setMarkdown(chat.items[0].plain_text)  # type: ignore[attr-defined]
            assert lines(streamed.removeprefix("Assistant\n")) == lines(full.toPlainText()), number
    assert renderer.appends > 5 and renderer.renders == 1
    chat.live.apply_chunk("r", FinishChunk(run_id="r", payload=FinishPayload(step_result=StepResult(reason="stop"))))
    document = renderer.document(chat.items[0], 600)
    full.setMarkdown(markdown)
    assert document.toPlainText() == "Assistant\n" + full.toPlainText()
    assert renderer.renders == 1, "the end of the reply settles it in place"
    heading = document.findBlockByNumber(1)
    assert heading.text() == "Title" and heading.blockFormat().headingLevel() == 1
    assert document.lastBlock().text() == "The end."


def lines(text: str) -> list[str]:
    """The non-empty lines (while a reply streams, an empty line may wait at the end of a paragraph or code block)."""
    return [line for line in text.split("\n") if line.strip()]


def test_a_reply_that_grows_new_steps_is_re_rendered_from_the_changed_step(qapp: QApplication) -> None:
    from processors.chunks import (
        StepFinishChunk,
        StepFinishPayload,
        StepResult,
        StepStartChunk,
        StepStartPayload,
        ToolCallChunk,
        ToolCallPayload,
        text_delta,
    )
    from studio.models.chat_model import ChatModel

    chat = ChatModel()
    renderer = MessageRenderer(qapp.font())

    def step(message_id: str, text: str, *, tool: bool = False, reason: str = "stop") -> None:
        chat.live.apply_chunk("r", StepStartChunk(run_id="r", payload=StepStartPayload(message_id=message_id)))
        for word in text.split(" "):
            chat.live.apply_chunk("r", text_delta("r", message_id, word + " "))
            renderer.document(chat.items[0], 500)
        if tool:
            chat.live.apply_chunk(
                "r",
                ToolCallChunk(
                    run_id="r", payload=ToolCallPayload(tool_call_id="c1", tool_name="lookup", args={"q": 1})
                ),
            )
            renderer.document(chat.items[0], 500)
        chat.live.apply_chunk(
            "r", StepFinishChunk(run_id="r", payload=StepFinishPayload(step_result=StepResult(reason=reason)))
        )
        renderer.document(chat.items[0], 500)

    step("m1", "A first step that calls a tool", tool=True)
    step("m2", "a step that is retried", reason="retry")
    step("m3", "and the final answer")
    text = renderer.document(chat.items[0], 500).toPlainText()
    assert text.split("\n") == [
        "Assistant",
        "A first step that calls a tool",
        '▸ lookup  {"q": 1}   running…',
        "a step that is retried",
        "↻ Retried: a processor asked for another try",
        "and the final answer",
    ]
    assert renderer.renders == 1 and renderer.partial_renders >= 3


def test_split_markdown_cuts_after_paragraphs_outside_fences() -> None:
    assert split_markdown("one\n\ntwo") == ("one\n\n", "two")
    assert split_markdown("```\na\n\nb") == ("", "```\na\n\nb")
    assert split_markdown("```\na\n\nb\n```\n\nc") == ("```\na\n\nb\n```\n\n", "c")
    long = "x" * 2000 + "\n" + "y" * 2000
    assert split_markdown(long) == ("x" * 2000 + "\n", "y" * 2000)


# ------------------------------------------------------------------------------------------------ screenshot
def test_screenshot_is_not_blank(chat: ChatView, loop: qasync.QEventLoop, qtbot: Any, tmp_path: Path) -> None:
    call = ToolCall("get_weather", {"city": "Paris"})
    model = ScriptedModel(
        [Turn(text="Let me check **Paris**.", tool_calls=[call]), "## Paris\n\nIt is **21 °C**.\n\n- sunny\n- calm"]
    )
    controller = RunController()
    agent = Agent(id="a", model=model, tools=[get_weather], input_processors=[BlockInput()])
    wire(chat, controller, agent)

    async def go() -> None:
        for text in ("Weather in Paris?", "my password is hunter2"):
            chat.model.chat.add_user_message(text)
            controller.start(agent, text, thread_id="t1")
            await controller.wait_finished()
        await until(lambda: "21 °C" in "".join(text_of(chat, item) for item in chat.model.chat.items))

    loop.run_until_complete(go())
    path = tmp_path / "chat.png"
    assert chat.grab().save(str(path))
    image = QImage(str(path))
    background = QColor("#ffffff").rgb()
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 20 and any(colour != background for colour in colours)
    # the banner's red edge is on screen
    red = QColor("#d1242f")
    assert any(QColor(colour).red() > 180 and QColor(colour).green() < 80 for colour in colours), red
