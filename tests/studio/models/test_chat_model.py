"""ChatModel: folding real runs' chunks into chat items, and rebuilding stored threads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from processors import Agent, Processor, tool
from processors.errors import ModelAPIError
from processors.messages import Message
from processors.models.scripted import ScriptedModel, ToolCall, Turn
from processors.result import GenerateResult
from processors.tracing import RecordingTracer
from studio.models.chat_items import AssistantItem, ErrorItem, TripwireItem, UserItem, readable_error
from studio.models.chat_list_model import ChatListModel
from studio.models.chat_model import ChatModel


@tool
def get_weather(city: str) -> dict[str, Any]:
    """Get the weather.

    Args:
        city: The city.
    """
    return {"city": city, "temperature": 21}


@tool
def explode(reason: str) -> str:
    """Always fails.

    Args:
        reason: Why.
    """
    raise ValueError(f"cannot do that: {reason}")


class NoDarn(Processor):
    """Rejects a whole step that says 'darn' and asks for another try."""

    id = "no-darn"

    def process_output_step(self, args: Any) -> Any:
        if "darn" in args.messages[-1].text:
            args.abort("said darn", retry=True, metadata={"word": "darn"})
        return args.messages


class StopAtSecret(Processor):
    """Trips mid-stream when the reply reaches the word 'secret'."""

    id = "stop-at-secret"

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type == "text-delta" and "secret" in args.part.payload.text:
            args.abort("the reply leaked a secret", metadata={"at": "secret"})
        return args.part


class BlockInput(Processor):
    id = "block-input"

    def process_input(self, args: Any) -> Any:
        if "password" in args.messages[-1].text:
            args.abort("password in input", metadata={"score": 0.9})
        return args.messages


class Progress(Processor):
    """Writes a saved data chunk before the reply."""

    id = "progress"

    async def process_input(self, args: Any) -> Any:
        await args.writer.custom({"type": "data-progress", "data": {"step": "checked"}})
        return args.messages


class Listener:
    """Records what a ChatModel told its observers."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def items_about_to_be_inserted(self, first: int, count: int) -> None:
        self.events.append(("about", first, count))

    def items_inserted(self, first: int, count: int) -> None:
        self.events.append(("inserted", first, count))

    def items_changed(self, first: int, last: int, structural: bool) -> None:
        self.events.append(("changed", first, last, structural))

    def items_about_to_be_removed(self, first: int, count: int) -> None:
        self.events.append(("about-remove", first, count))

    def items_removed(self, first: int, count: int) -> None:
        self.events.append(("removed", first, count))

    def items_about_to_be_reset(self) -> None:
        self.events.append(("about-reset",))

    def items_reset(self) -> None:
        self.events.append(("reset",))


async def fold(chat: ChatModel, agent: Agent, text: str, *, trace: bool = True, **options: Any) -> GenerateResult:
    """Run ``agent`` as the studio does: the user's message, every chunk, the trace events, then the result."""
    chat.add_user_message(text)
    tracer = RecordingTracer()
    stream = agent.stream(text, tracers=[tracer] if trace else [], **options)
    seen = 0
    async for chunk in stream:
        chat.live.apply_chunk(stream.run_id, chunk)
        for event in tracer.events[seen:]:
            chat.live.apply_trace_event(stream.run_id, event)
        seen = len(tracer.events)
    result = await stream.result()
    for event in tracer.events[seen:]:
        chat.live.apply_trace_event(stream.run_id, event)
    chat.live.finish_run(stream.run_id, result)
    return result


async def test_streamed_text_builds_one_reply_with_cheap_updates() -> None:
    chat = ChatModel()
    listener = Listener()
    chat.subscribe(listener)
    agent = Agent(id="a", model=ScriptedModel(["Hello **there**, how are you today?"]))

    result = await fold(chat, agent, "hi")

    user, reply = chat.items
    assert isinstance(user, UserItem) and user.text == "hi"
    assert isinstance(reply, AssistantItem)
    assert reply.text == result.text == "Hello **there**, how are you today?"
    assert reply.run_id == result.run_id and reply.status == "done"
    changes = [event for event in listener.events if event[0] == "changed"]
    deltas = 6  # one per word
    streamed = [event for event in changes if event[3] is False]
    assert len(streamed) == deltas - 1, "only the first delta of a step is structural"
    assert listener.events[:2] == [("about", 0, 1), ("inserted", 0, 1)]


async def test_tool_calls_become_cards_with_results_and_errors() -> None:
    chat = ChatModel()
    model = ScriptedModel(
        [
            Turn(
                text="Checking.",
                tool_calls=[ToolCall("get_weather", {"city": "Paris"}), ToolCall("explode", {"reason": "test"})],
            ),
            "It is 21 degrees.",
        ]
    )
    agent = Agent(id="a", model=model, tools=[get_weather, explode])

    await fold(chat, agent, "weather?")

    reply = chat.items[1]
    assert isinstance(reply, AssistantItem)
    weather, boom = reply.tool_cards
    assert (weather.tool_name, weather.args, weather.state, weather.result) == (
        "get_weather",
        {"city": "Paris"},
        "result",
        {"city": "Paris", "temperature": 21},
    )
    assert boom.state == "error" and "cannot do that: test" in (boom.error or "")
    assert not weather.expanded
    assert [step.text for step in reply.steps] == ["Checking.", "It is 21 degrees."]
    chat.toggle_tool_card(reply, weather.tool_call_id)
    assert weather.expanded and not boom.expanded


async def test_a_retried_step_is_retracted_with_its_feedback() -> None:
    chat = ChatModel()
    agent = Agent(
        id="a",
        model=ScriptedModel(["Well darn it.", "All good."]),
        output_processors=[NoDarn()],
        max_processor_retries=2,
    )

    result = await fold(chat, agent, "hi")

    reply = chat.items[1]
    assert isinstance(reply, AssistantItem)
    retracted, final = reply.steps
    assert retracted.retracted and retracted.text == "Well darn it." and retracted.feedback == "said darn"
    assert not final.retracted and final.text == "All good."
    assert reply.text == result.text == "All good."
    assert reply.plain_text == "All good."


async def test_retry_feedback_arrives_while_streaming_from_the_trace() -> None:
    chat = ChatModel()
    agent = Agent(
        id="a",
        model=ScriptedModel(["Well darn it.", Turn(text="All good.", delay=0.01)]),
        output_processors=[NoDarn()],
        max_processor_retries=2,
    )
    tracer = RecordingTracer()
    stream = agent.stream("hi", tracers=[tracer])
    async for chunk in stream:
        chat.live.apply_chunk(stream.run_id, chunk)
        for event in tracer.events:
            chat.live.apply_trace_event(stream.run_id, event)
        tracer.events.clear()
        if chunk.type == "text-delta" and chunk.payload.text.startswith("All"):
            # mid-retry: the struck-through step already says why
            assert chat.items[0].steps[0].feedback == "said darn"  # type: ignore[attr-defined]
    await stream.result()


async def test_feedback_without_a_trace_comes_from_the_result() -> None:
    chat = ChatModel()
    agent = Agent(
        id="a",
        model=ScriptedModel(["Well darn it.", "All good."]),
        output_processors=[NoDarn()],
        max_processor_retries=2,
    )

    await fold(chat, agent, "hi", trace=False)

    reply = chat.items[1]
    assert isinstance(reply, AssistantItem)
    assert reply.steps[0].retracted and reply.steps[0].feedback == "said darn"


async def test_an_input_tripwire_is_a_banner_without_a_reply() -> None:
    chat = ChatModel()
    agent = Agent(id="a", model=ScriptedModel(["unused"]), input_processors=[BlockInput()])

    result = await fold(chat, agent, "my password is 123")

    _user, banner = chat.items
    assert isinstance(banner, TripwireItem)
    assert (banner.reason, banner.processor_id, banner.metadata, banner.run_id) == (
        "password in input",
        "block-input",
        {"score": 0.9},
        result.run_id,
    )
    assert banner.plain_text == "Tripwire (block-input): password in input"


async def test_a_stream_tripwire_keeps_what_was_shown_then_the_banner() -> None:
    chat = ChatModel()
    agent = Agent(id="a", model=ScriptedModel(["The answer is secret stuff."]), output_processors=[StopAtSecret()])

    await fold(chat, agent, "tell me")

    _user, reply, banner = chat.items
    assert isinstance(reply, AssistantItem) and reply.text == "The answer is " and reply.status == "done"
    assert isinstance(banner, TripwireItem) and banner.processor_id == "stop-at-secret"


async def test_a_model_error_is_a_readable_message() -> None:
    chat = ChatModel()
    agent = Agent(id="a", model=ScriptedModel([Turn(error=ModelAPIError(429, "slow down", False))]))

    await fold(chat, agent, "hi")

    error = chat.items[-1]
    assert isinstance(error, ErrorItem)
    assert "slow down" in error.message and "Traceback" not in error.message
    assert "HTTP 429" in error.message


def test_readable_errors() -> None:
    assert (
        readable_error({"name": "ModelAPIError", "message": "slow down", "statusCode": 429, "provider": "openai"})
        == "Model call failed (openai HTTP 429): slow down"
    )
    assert (
        readable_error({"name": "ProcessorRaisedError", "message": "boom", "processorId": "p", "hook": "process_input"})
        == "boom (processor 'p', process_input)"
    )
    assert readable_error(ValueError("nope")) == "ValueError: nope"
    assert readable_error(None) == "unknown error"


def test_a_failed_or_stopped_run_is_marked() -> None:
    from processors.chunks import StepStartChunk, StepStartPayload, text_delta

    chat = ChatModel()
    chat.live.apply_chunk("r1", StepStartChunk(run_id="r1", payload=StepStartPayload(message_id="m1")))
    chat.live.apply_chunk("r1", text_delta("r1", "m1", "partial"))
    chat.live.finish_run("r1", GenerateResult(run_id="r1", finish_reason="abort"))
    assert chat.items[0].status == "stopped"  # type: ignore[attr-defined]

    chat.live.apply_chunk("r2", text_delta("r2", "m2", "half"))
    chat.live.fail_run("r2", "The run failed: RuntimeError: boom")
    assert chat.items[1].status == "failed"  # type: ignore[attr-defined]
    assert chat.items[2].plain_text == "Error: The run failed: RuntimeError: boom"
    assert not chat.live.is_live("r1") and not chat.live.is_live("r2")


# ------------------------------------------------------------------------------------------------ stored threads
@pytest.fixture
async def store(tmp_path: Any) -> Any:
    from studio.store.database import Store

    async with Store(f"sqlite:///{tmp_path / 'studio.db'}") as store:
        yield store


async def test_a_stored_thread_is_rebuilt_with_tools_errors_data_and_banners(store: Any) -> None:
    model = ScriptedModel(
        [
            Turn(
                text="Checking.",
                reasoning="Need the weather.",
                tool_calls=[ToolCall("get_weather", {"city": "Oslo"}), ToolCall("explode", {"reason": "x"})],
            ),
            "Cold: 21.",
            Turn(text="Half an ans", error=ModelAPIError(500, "server fell over", False), error_after=3),
        ]
    )
    agent = Agent(
        id="a",
        model=model,
        tools=[get_weather, explode],
        memory=store.memory,
        input_processors=[Progress(), BlockInput()],
    )
    # Real runs, recorded in the store as the controller records them.
    for text in ("weather in Oslo?", "my password", "and tomorrow?"):
        stream = agent.stream(text, thread_id="t1")
        await store.start_run(stream.run_id, thread_id="t1", model="scripted")
        result = await stream.result()
        await store.finish_run(
            stream.run_id,
            outcome="x",
            finish_reason=result.finish_reason,
            tripwire=result.tripwire.model_dump(by_alias=True) if result.tripwire else None,
        )

    messages = await store.memory.load_messages("t1")
    runs = await store.runs_for_thread("t1")
    tripwires = await store.tripwires_for_thread("t1")
    chat = ChatModel()
    listener = Listener()
    chat.subscribe(listener)
    chat.history.load_thread(messages, runs)

    kinds = [item.kind for item in chat.items]
    assert kinds == ["user", "assistant", "tripwire", "user", "assistant", "error"], kinds
    first_reply = chat.items[1]
    assert isinstance(first_reply, AssistantItem)
    assert [step.text for step in first_reply.steps] == ["Checking.", "Cold: 21."]
    assert first_reply.steps[0].reasoning == "Need the weather."
    weather, boom = first_reply.tool_cards
    assert weather.state == "result" and weather.result == {"city": "Oslo", "temperature": 21}
    assert boom.state == "error" and "cannot do that" in (boom.error or "")
    assert [(d.type, d.data) for step in first_reply.steps for d in step.data] == [
        ("data-progress", {"step": "checked"})
    ]
    banner = chat.items[2]
    assert isinstance(banner, TripwireItem) and banner.reason == "password in input"
    assert banner.run_id == tripwires[0].run_id
    partial, error = chat.items[4], chat.items[5]
    assert isinstance(partial, AssistantItem) and partial.text == "Half an ans"
    assert isinstance(error, ErrorItem) and "server fell over" in error.message
    assert listener.events[:2] == [("about-reset",), ("reset",)]


def test_banner_placement_by_time() -> None:
    t0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    chat = ChatModel()
    chat.history.load_messages(
        [
            Message.user("one", created_at=t0),
            Message.assistant("reply one", created_at=t0 + timedelta(seconds=1)),
            Message.user("two", created_at=t0 + timedelta(seconds=30)),
            Message.assistant("reply two", created_at=t0 + timedelta(seconds=31)),
            Message.user("three", created_at=t0 + timedelta(seconds=90)),
        ]
    )
    # a run whose reply was tripped: after its own input and reply, before the next user message
    chat.add_tripwire_banner("r2", "late", at=t0 + timedelta(seconds=29.9))
    # a run whose input was blocked (nothing saved): before the next message
    chat.add_tripwire_banner("r3", "blocked", at=t0 + timedelta(seconds=60))
    # naive timestamps (SQLite) compare as UTC
    chat.add_tripwire_banner("r0", "first", at=datetime(2026, 1, 1, 11, 50))
    assert [item.plain_text for item in chat.items] == [
        "Tripwire: first",
        "one",
        "reply one",
        "two",
        "reply two",
        "Tripwire: late",
        "Tripwire: blocked",
        "three",
    ]


# ------------------------------------------------------------------------------------------------ the Qt adapter
def test_the_list_model_batches_streamed_text_to_frames(qtbot: Any) -> None:
    from processors.chunks import StepStartChunk, StepStartPayload, text_delta
    from studio.models.chat_list_model import ITEM_ROLE, KIND_ROLE, RUN_ID_ROLE

    model = ChatListModel(frame_ms=50)
    changed: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda top, bottom, *_: changed.append((top.row(), bottom.row())))
    inserted: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))

    model.chat.add_user_message("hi")
    model.chat.live.apply_chunk("r", StepStartChunk(run_id="r", payload=StepStartPayload(message_id="m")))
    for number in range(500):
        model.chat.live.apply_chunk("r", text_delta("r", "m", f"w{number} "))
    assert inserted == [(0, 0), (1, 1)]
    assert changed == []  # nothing announced synchronously, per delta
    qtbot.waitUntil(lambda: len(changed) >= 1, timeout=1000)
    qtbot.wait(120)
    assert len(changed) <= 2 and set(changed) == {(1, 1)}
    index = model.index(1)
    assert model.rowCount() == 2
    assert index.data(KIND_ROLE) == "assistant" and index.data(RUN_ID_ROLE) == "r"
    assert index.data(ITEM_ROLE).text.startswith("w0 w1 ")
    assert model.index(0).data() == "hi"

    model.chat.clear()
    assert model.rowCount() == 0


class AddsNotes(Processor):
    """Adds two assistant messages after the reply; the runtime merges them into it, as Mastra does."""

    id = "adds-notes"

    def process_output_result(self, args: Any) -> Any:
        return [*args.messages, Message.assistant("Note one."), Message.assistant("Note two.")]


async def test_a_reply_with_merged_messages_reloads_as_one_reply_with_its_parts_as_paragraphs(store: Any) -> None:
    agent = Agent(id="a", model=ScriptedModel(["The answer."]), memory=store.memory, output_processors=[AddsNotes()])
    result = await agent.generate("q", thread_id="t2")
    assert len(result.messages) == 1

    chat = ChatModel()
    chat.history.load_thread(await store.memory.load_messages("t2"))

    assert [item.kind for item in chat.items] == ["user", "assistant"]
    reply = chat.items[1]
    assert isinstance(reply, AssistantItem)
    assert len(reply.steps) == 1
    assert reply.plain_text == "The answer.\n\nNote one.\n\nNote two."
