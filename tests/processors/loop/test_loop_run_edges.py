"""The loop's own decisions (``processors.loop.run``) at their edges, through whole agent runs: the ids and times a
run gives what it makes, and what its trace says."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

from processors import Message, Processor
from processors.models import ScriptedModel
from processors.models.base import Finish, ModelEvent, ModelRequest, TextDelta
from processors.models.scripted import ToolCall, Turn
from processors.pipeline.debugger import Breakpoint, Debugger, Pause
from processors.tracing import ModelCall, RecordingTracer, RunStarted
from tests.processors.helpers import Abort, Fn, get_weather, make_agent, of_type, run_stream

MESSAGE_ID = re.compile(r"msg_[0-9a-f]{32}")


async def test_a_steps_answer_gets_a_message_id_of_the_same_form_as_the_users() -> None:
    chunks, result = await run_stream(make_agent(ScriptedModel(["ok"])), "hi")
    [start] = of_type(chunks, "step-start")
    message_id = start.payload.message_id  # type: ignore[union-attr]
    assert MESSAGE_ID.fullmatch(message_id)
    [answer] = result.messages
    assert answer.id == message_id
    assert MESSAGE_ID.fullmatch(Message.user("hi").id)


async def test_a_model_call_is_timed_from_when_it_started_within_the_run() -> None:
    tracer = RecordingTracer()
    await run_stream(make_agent(ScriptedModel(["ok"])), "hi", tracers=[tracer])
    [started] = [event for event in tracer.run_events if isinstance(event, RunStarted)]
    [call] = [event for event in tracer.run_events if isinstance(event, ModelCall)]
    assert started.started_at <= call.started_at <= call.ended_at


class Upper(Processor):
    """A sync stream processor: without a debugger or a tracer the loop takes its per-chunk fast path."""

    id = "upper"

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type == "text-delta":
            return args.part.with_payload(text=args.part.payload.text.upper())
        return args.part


async def test_a_debugger_pauses_the_stream_even_when_every_stream_processor_is_sync() -> None:
    pauses: list[Pause] = []

    def on_pause(pause: Pause) -> None:
        pauses.append(pause)
        asyncio.get_running_loop().call_soon(pause.resume)

    debugger = Debugger([Breakpoint(hook="process_output_stream", text_contains="secret")], on_pause=on_pause)
    model = ScriptedModel([Turn(text=["Hello ", "secret ", "world"])])
    agent = make_agent(model, output_processors=[Upper()])
    _chunks, result = await run_stream(agent, debugger=debugger)
    assert [(p.hook, p.processor_id, p.part.payload.text) for p in pauses] == [  # type: ignore[union-attr]
        ("process_output_stream", "upper", "secret ")
    ]
    assert result.text == "HELLO SECRET WORLD"


async def test_the_trace_of_a_model_call_a_stream_processor_broke_names_the_processors_error() -> None:
    def breaks(args: Any) -> Any:
        return {"not": "a chunk"} if args.part.type == "text-delta" else args.part

    tracer = RecordingTracer()
    agent = make_agent(ScriptedModel(["hello"]), output_processors=[Fn("breaks", process_output_stream=breaks)])
    chunks, _result = await run_stream(agent, tracers=[tracer])
    assert chunks[-1].type == "error"
    [call] = [event for event in tracer.run_events if isinstance(event, ModelCall)]
    assert call.outcome == "error"
    assert call.detail is not None
    assert call.detail.startswith("ProcessorContractError: Processor 'breaks' returned dict from process_output_stream")


class Watched:
    """A ``LanguageModel`` that says when its stream was closed, and what the run had emitted by then."""

    provider = "custom"
    model_id = "custom/watched"

    def __init__(self) -> None:
        self.closed = False

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        try:
            yield TextDelta("one ")
            yield TextDelta("two ")
            yield Finish("stop")
        finally:
            self.closed = True


async def test_a_model_stream_a_processor_blocked_is_closed_before_the_run_ends() -> None:
    model = Watched()
    guard = Abort("guard", "process_output_stream", when=lambda args: args.part.type == "text-delta")
    closed_at_the_end: list[bool] = []
    async for chunk in make_agent(model, output_processors=[guard]).stream("hi"):
        if chunk.type == "tripwire":
            closed_at_the_end.append(model.closed)
    assert closed_at_the_end == [True]


async def test_a_steps_reasoning_is_its_reasoning_deltas_joined() -> None:
    model = ScriptedModel([Turn(reasoning=["Think ", "twice."], text="ok")])
    _chunks, result = await run_stream(make_agent(model))
    assert [(step.reasoning, step.text) for step in result.steps] == [("Think twice.", "ok")]


async def test_a_step_that_called_tools_says_the_run_continues_and_the_last_step_does_not() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"})]), "Sunny."])
    chunks, _result = await run_stream(make_agent(model, tools=[get_weather]))
    results = [chunk.payload.step_result for chunk in of_type(chunks, "step-finish")]  # type: ignore[union-attr]
    assert [(r.reason, r.is_continued) for r in results] == [("tool-calls", True), ("stop", False)]
