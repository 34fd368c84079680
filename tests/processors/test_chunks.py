"""Chunks (item 14): Mastra's type strings and camelCase wire shapes; one terminal chunk; cancelling."""

from __future__ import annotations

import asyncio
from typing import Any, get_args

import pytest
from pydantic import TypeAdapter, ValidationError

from processors import DataChunk
from processors.chunks import (
    CHUNK_CLASSES,
    AgentChunk,
    FinishChunk,
    TextDeltaChunk,
    TextDeltaPayload,
    ToolCallChunk,
    ToolCallPayload,
    chunk_from_wire,
)
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, ToolCall, Turn
from processors.usage import Usage
from tests.processors.helpers import (
    Abort,
    Fn,
    get_weather,
    kinds,
    make_agent,
    of_type,
    run_stream,
    terminal_count,
)

USAGE = Usage(input_tokens=3, output_tokens=2, total_tokens=5)
USAGE_WIRE = {"inputTokens": 3, "outputTokens": 2, "totalTokens": 5}


async def test_text_run_wire_shapes() -> None:
    model = ScriptedModel([Turn(text=["Hello ", "world"], usage=USAGE)])
    stream = make_agent(model).stream("hi")
    chunks = [c async for c in stream]
    run = stream.run_id
    assert kinds(chunks) == [
        "start",
        "step-start",
        "response-metadata",
        "text-start",
        "text-delta",
        "text-delta",
        "text-end",
        "step-finish",
        "finish",
    ]
    wire = [c.to_wire() for c in chunks]
    message_id = wire[1]["payload"]["messageId"]
    text_id = wire[3]["payload"]["id"]
    assert isinstance(message_id, str)
    assert message_id
    assert isinstance(text_id, str)
    assert text_id
    assert wire[0] == {"type": "start", "runId": run, "from": "AGENT", "payload": {}}
    assert wire[1] == {
        "type": "step-start",
        "runId": run,
        "from": "AGENT",
        "payload": {"messageId": message_id, "request": {}, "warnings": []},
    }
    assert wire[2]["type"] == "response-metadata"
    assert wire[2]["payload"]["modelId"] == "scripted"
    assert wire[3] == {"type": "text-start", "runId": run, "from": "AGENT", "payload": {"id": text_id}}
    assert wire[4] == {
        "type": "text-delta",
        "runId": run,
        "from": "AGENT",
        "payload": {"id": text_id, "text": "Hello "},
    }
    assert wire[5] == {"type": "text-delta", "runId": run, "from": "AGENT", "payload": {"id": text_id, "text": "world"}}
    assert wire[6] == {"type": "text-end", "runId": run, "from": "AGENT", "payload": {"id": text_id}}
    assert wire[7] == {
        "type": "step-finish",
        "runId": run,
        "from": "AGENT",
        "payload": {
            "messageId": message_id,
            "stepResult": {"reason": "stop", "rawReason": "stop", "isContinued": False, "warnings": []},
            "output": {"text": "Hello world", "toolCalls": [], "usage": USAGE_WIRE},
            "metadata": {},
        },
    }
    assert wire[8] == {
        "type": "finish",
        "runId": run,
        "from": "AGENT",
        "payload": {
            "stepResult": {"reason": "stop", "isContinued": False, "warnings": []},
            "output": {"text": "Hello world", "toolCalls": [], "usage": USAGE_WIRE},
            "metadata": {},
        },
    }


async def test_tool_run_wire_shapes() -> None:
    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")], usage=USAGE),
            Turn(text="ok", usage=USAGE),
        ]
    )
    stream = make_agent(model, tools=[get_weather]).stream("hi")
    chunks = [c async for c in stream]
    run = stream.run_id
    by_type = {c.type: c.to_wire() for c in chunks}
    assert by_type["tool-call-input-streaming-start"] == {
        "type": "tool-call-input-streaming-start",
        "runId": run,
        "from": "AGENT",
        "payload": {"toolCallId": "c1", "toolName": "get_weather"},
    }
    assert by_type["tool-call-delta"] == {
        "type": "tool-call-delta",
        "runId": run,
        "from": "AGENT",
        "payload": {"toolCallId": "c1", "argsTextDelta": '{"city": "Paris"}'},
    }
    assert by_type["tool-call-input-streaming-end"] == {
        "type": "tool-call-input-streaming-end",
        "runId": run,
        "from": "AGENT",
        "payload": {"toolCallId": "c1"},
    }
    assert by_type["tool-call"] == {
        "type": "tool-call",
        "runId": run,
        "from": "AGENT",
        "payload": {"toolCallId": "c1", "toolName": "get_weather", "args": {"city": "Paris"}},
    }
    assert by_type["tool-result"] == {
        "type": "tool-result",
        "runId": run,
        "from": "AGENT",
        "payload": {
            "toolCallId": "c1",
            "toolName": "get_weather",
            "result": "Sunny in Paris",
            "args": {"city": "Paris"},
        },
    }
    first_finish = of_type(chunks, "step-finish")[0].to_wire()["payload"]
    assert first_finish["stepResult"] == {
        "reason": "tool-calls",
        "rawReason": "tool-calls",
        "isContinued": True,
        "warnings": [],
    }
    assert first_finish["output"] == {
        "text": "",
        "usage": USAGE_WIRE,
        "toolCalls": [{"toolCallId": "c1", "toolName": "get_weather", "args": {"city": "Paris"}}],
    }
    assert (
        kinds(chunks).index("tool-call-input-streaming-start")
        < kinds(chunks).index("tool-call-delta")
        < kinds(chunks).index("tool-call-input-streaming-end")
        < kinds(chunks).index("tool-call")
    )


async def test_tool_error_wire_shape() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("nope", {"a": 1}, id="c9")]), "ok"])
    stream = make_agent(model, tools=[get_weather]).stream("hi")
    chunks = [c async for c in stream]
    wire = of_type(chunks, "tool-error")[0].to_wire()
    assert set(wire) == {"type", "runId", "from", "payload"}
    assert set(wire["payload"]) == {"toolCallId", "toolName", "args", "error"}
    assert (wire["payload"]["toolCallId"], wire["payload"]["toolName"], wire["payload"]["args"]) == (
        "c9",
        "nope",
        {"a": 1},
    )


async def test_reasoning_chunks() -> None:
    model = ScriptedModel([Turn(reasoning=["think ", "hard"], text="answer")])
    chunks, result = await run_stream(make_agent(model))
    types = kinds(chunks)
    assert types[types.index("reasoning-start") : types.index("reasoning-end") + 1] == [
        "reasoning-start",
        "reasoning-delta",
        "reasoning-delta",
        "reasoning-end",
    ]
    assert types.index("reasoning-end") < types.index("text-start")
    deltas = [c.to_wire()["payload"] for c in of_type(chunks, "reasoning-delta")]
    assert [d["text"] for d in deltas] == ["think ", "hard"]
    assert set(deltas[0]) == {"id", "text"}
    assert result.steps[0].reasoning == "think hard"
    assert result.text == "answer"


async def test_error_chunk_wire_shape_for_a_model_failure() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(401, "bad key"))])
    stream = make_agent(model).stream("hi")
    chunks = [c async for c in stream]
    wire = chunks[-1].to_wire()
    assert wire["type"] == "error"
    assert wire["runId"] == stream.run_id
    assert wire["from"] == "AGENT"
    assert wire["payload"]["error"]["message"] == "bad key"
    assert wire["payload"]["error"]["statusCode"] == 401


def test_data_chunk_wire_shape_has_no_run_id_from_or_payload() -> None:
    assert DataChunk(type="data-x", data={"a": 1}).to_wire() == {"type": "data-x", "data": {"a": 1}}
    assert DataChunk(type="data-x", data=1, id="d1", transient=True).to_wire() == {
        "type": "data-x",
        "data": 1,
        "id": "d1",
        "transient": True,
    }


def test_chunk_type_strings_are_mastras() -> None:
    assert set(CHUNK_CLASSES) >= {
        "start",
        "step-start",
        "response-metadata",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "tool-call",
        "tool-call-input-streaming-start",
        "tool-call-delta",
        "tool-call-input-streaming-end",
        "tool-result",
        "tool-error",
        "step-finish",
        "finish",
        "error",
        "tripwire",
        "abort",
    }


async def test_the_agent_chunks_are_one_union_told_apart_by_type() -> None:
    """``AgentChunk`` is the discriminated union of the concrete classes: pydantic reads a recorded chunk into its
    class by ``type`` alone, and a run's chunks are each one of its members (what a ``match`` on classes covers)."""
    members = set(get_args(get_args(AgentChunk)[0]))
    assert members == set(CHUNK_CLASSES.values())
    assert {cls.model_fields["type"].default for cls in members} == set(CHUNK_CLASSES)
    reader = TypeAdapter(AgentChunk)
    finish = reader.validate_python({"type": "finish", "payload": {"stepResult": {"reason": "stop"}, "output": {}}})
    assert type(finish) is FinishChunk
    with pytest.raises(ValidationError):
        reader.validate_python({"type": "no-such-chunk", "payload": {}})
    stream = make_agent(model=ScriptedModel([Turn(text=["hi"])])).stream("hello")
    chunks = [chunk async for chunk in stream]
    assert chunks and all(type(chunk) in members for chunk in chunks)


def test_chunk_from_wire_reads_mastras_shape() -> None:
    wire = {
        "type": "tool-call",
        "runId": "r1",
        "from": "AGENT",
        "payload": {"toolCallId": "c1", "toolName": "t", "args": {"x": 1}},
    }
    chunk = chunk_from_wire(wire)
    assert isinstance(chunk, ToolCallChunk)
    assert (chunk.run_id, chunk.payload.tool_call_id, chunk.payload.tool_name, chunk.payload.args) == (
        "r1",
        "c1",
        "t",
        {"x": 1},
    )
    assert chunk.to_wire() == wire
    data = chunk_from_wire({"type": "data-x", "data": [1], "transient": True})
    assert isinstance(data, DataChunk)
    assert data.transient is True


async def test_every_chunk_of_a_run_round_trips_through_the_wire_shape() -> None:
    model = ScriptedModel(
        [
            Turn(reasoning="hmm", text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]),
            "ok",
        ]
    )

    def emit(args: Any) -> Any:
        args.writer.custom({"type": "data-note", "data": {"step": args.step_number}})

    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("n", process_output_step=emit)])
    chunks, _ = await run_stream(agent)
    for chunk in chunks:
        assert chunk_from_wire(chunk.to_wire()).to_wire() == chunk.to_wire()


def test_with_payload_returns_a_changed_copy() -> None:
    chunk = TextDeltaChunk(run_id="r", payload=TextDeltaPayload(id="t", text="hi"))
    changed = chunk.with_payload(text="HI")
    assert changed.payload.text == "HI"
    assert chunk.payload.text == "hi"
    assert changed.to_wire() == {
        "type": "text-delta",
        "runId": "r",
        "from": "AGENT",
        "payload": {"id": "t", "text": "HI"},
    }


def test_tool_call_chunk_built_by_hand() -> None:
    chunk = ToolCallChunk(run_id="r", payload=ToolCallPayload(tool_call_id="c", tool_name="n", args={}))
    assert chunk.type == "tool-call"
    assert chunk.to_wire()["payload"] == {"toolCallId": "c", "toolName": "n", "args": {}}


# ---------------------------------------------------------------------------------------------- terminal chunk
def _always_bad(args: Any) -> Any:
    args.abort("bad", retry=True)


@pytest.mark.parametrize(
    ("name", "build", "terminal"),
    [
        ("plain", lambda: make_agent(ScriptedModel(["ok"])), "finish"),
        (
            "tools",
            lambda: make_agent(
                ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "X"})]), "ok"]), tools=[get_weather]
            ),
            "finish",
        ),
        (
            "input-tripwire",
            lambda: make_agent(ScriptedModel(["ok"]), input_processors=[Abort("g", "process_input")]),
            "tripwire",
        ),
        (
            "stream-tripwire",
            lambda: make_agent(
                ScriptedModel(["a b"]),
                output_processors=[Abort("g", "process_output_stream", when=lambda a: a.part.type == "text-delta")],
            ),
            "tripwire",
        ),
        (
            "retries-exhausted",
            lambda: make_agent(
                ScriptedModel(["bad"], repeat=True),
                max_processor_retries=1,
                output_processors=[Fn("g", process_output_step=_always_bad)],
            ),
            "tripwire",
        ),
        ("model-error", lambda: make_agent(ScriptedModel([Turn(error=ModelAPIError(500, "x"))])), "error"),
        (
            "model-error-mid-stream",
            lambda: make_agent(ScriptedModel([Turn(text="a b c", error=ModelAPIError(502, "dropped"), error_after=1)])),
            "error",
        ),
        (
            "processor-error",
            lambda: make_agent(ScriptedModel(["ok"]), input_processors=[Fn("f", process_input=lambda a: 1 / 0)]),
            "error",
        ),
        ("script-exhausted", lambda: make_agent(ScriptedModel([])), "error"),
    ],
)
async def test_stream_ends_with_exactly_one_terminal_chunk(name: str, build: Any, terminal: str) -> None:
    chunks, _result = await run_stream(build())
    assert terminal_count(chunks) == 1, kinds(chunks)
    assert chunks[-1].type == terminal


async def test_mid_stream_model_error_keeps_what_was_streamed() -> None:
    model = ScriptedModel([Turn(text=["a ", "b ", "c"], error=ModelAPIError(502, "dropped"), error_after=2)])
    chunks, result = await run_stream(make_agent(model))
    assert [c.payload.text for c in of_type(chunks, "text-delta")] == ["a ", "b "]
    assert result.finish_reason == "error"
    assert result.text == "a b "


# ---------------------------------------------------------------------------------------------- cancelling
async def test_aclose_mid_stream_closes_the_model_stream() -> None:
    model = ScriptedModel([Turn(text="one two three four five six seven eight", delay=0.05)])
    stream = make_agent(model).stream("hi")
    async for chunk in stream:
        if chunk.type == "text-delta":
            break
    await stream.aclose()
    assert model.closed_early == 1  # closed by aclose() itself, not left to finish or to garbage collection
    result = await stream.result()
    assert (result.finish_reason, result.text) == ("abort", "one ")
    assert [c async for c in stream] == []


async def test_aclose_with_stream_processors_does_not_hang() -> None:
    async def slow(args: Any) -> Any:
        await asyncio.sleep(0)
        return args.part

    model = ScriptedModel([Turn(text="a b c d e f g", delay=0.05)])
    stream = make_agent(model, output_processors=[Fn("slow", process_output_stream=slow)]).stream("hi")
    seen = 0
    async for chunk in stream:
        if chunk.type == "text-delta":
            seen += 1
            if seen == 2:
                break
    await stream.aclose()
    assert model.closed_early == 1


async def test_cancelling_the_task_propagates_and_closes_the_model() -> None:
    model = ScriptedModel([Turn(text="one two three four five six", delay=0.05)])
    task = asyncio.ensure_future(make_agent(model).generate("hi"))
    while not model.requests:  # the model's stream has started (it is paced: it cannot finish meanwhile)
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 1.0)
    assert model.closed_early == 1


async def test_aclose_while_a_tool_runs_cancels_it() -> None:
    from processors import StreamWriter, tool

    state: dict[str, bool] = {"cancelled": False, "finished": False}
    cancelled = asyncio.Event()

    @tool
    async def slow(writer: StreamWriter) -> str:
        """A tool that would wait forever."""
        await writer.custom({"type": "data-started", "data": 1})
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            state["cancelled"] = True
            cancelled.set()
            raise
        state["finished"] = True
        return "late"

    model = ScriptedModel([Turn(tool_calls=[ToolCall("slow", {}, id="c1")]), "never"])
    stream = make_agent(model, tools=[slow]).stream("hi")
    async for chunk in stream:
        if chunk.type == "data-started":
            break
    await stream.aclose()  # returns although the tool never would: it is cancelled, not awaited
    await cancelled.wait()
    assert state == {"cancelled": True, "finished": False}
    assert len(model.requests) == 1
