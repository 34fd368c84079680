"""The step's reducer on odd but possible input: two tool calls of one step under one id (a scripted model, a local
server, a processor), and chunks a stream processor builds bare, without the payload their type needs.

A model's repeated id is given a new one where its chunks are made (``c1``, then ``c1-2``), so both calls run and
each result meets its own call, in the chunks, the thread and the next prompt (Mastra keeps both ids and updates the
newest invocation twice, leaving the other a call without a result). A processor's repeated id, or a bare chunk, ends
the run with an error that names the id or the processor and the chunk type; the thread keeps what was shown.
"""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, Processor, tool
from processors.chunk_payloads import ToolCallPayload
from processors.chunks import CHUNK_CLASSES, Chunk, DataChunk, ToolCallChunk
from processors.errors import ProcessorContractError
from processors.loop.step import StepBuilder
from processors.memory.base import InMemoryMemory
from processors.messages import ToolInvocationPart
from processors.models import LiteLLMModel, ScriptedModel, ToolCall, Turn
from processors.models.base import Finish, ToolCallComplete, ToolCallDelta, ToolCallStart
from processors.pipeline.stream_chain import REPROCESS_KEY
from processors.tracing import RecordingTracer
from tests.processors.helpers import make_agent, of_type, run_stream, terminal_count
from tests.support.openai_server import OpenAIServer, ToolCallReply


@tool
def echo(word: str) -> str:
    """Say a word back.

    Args:
        word: The word.
    """
    return f"echo {word}"


def calls_and_results(chunks: list[Any]) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
    calls = [(c.payload.tool_call_id, c.payload.args) for c in of_type(chunks, "tool-call")]
    results = [(c.payload.tool_call_id, c.payload.result) for c in of_type(chunks, "tool-result")]
    return calls, results


def invocations(message: Any) -> list[tuple[str, str, Any, Any]]:
    return [
        (p.tool_invocation.state, p.tool_invocation.tool_call_id, p.tool_invocation.args, p.tool_invocation.result)
        for p in message.content.parts
        if isinstance(p, ToolInvocationPart)
    ]


BOTH_RESULTS = [("result", "c1", {"word": "a"}, "echo a"), ("result", "c1-2", {"word": "b"}, "echo b")]
NEXT_PROMPT_TAIL = [
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "echo", "arguments": '{"word": "a"}'}},
            {"id": "c1-2", "type": "function", "function": {"name": "echo", "arguments": '{"word": "b"}'}},
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "echo a"},
    {"role": "tool", "tool_call_id": "c1-2", "content": "echo b"},
]


# ------------------------------------------------------------------------------------ one id, two calls (model)
@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "in-one-piece"])
async def test_two_calls_under_one_id_both_run_and_each_result_meets_its_own_call(streamed: bool) -> None:
    model = ScriptedModel(
        [
            Turn(
                tool_calls=[
                    ToolCall("echo", {"word": "a"}, id="c1", streamed=streamed),
                    ToolCall("echo", {"word": "b"}, id="c1", streamed=streamed),
                ]
            ),
            Turn(text="done"),
        ]
    )
    memory = InMemoryMemory()
    chunks, result = await run_stream(make_agent(model, tools=[echo], memory=memory), thread_id="t1")

    assert calls_and_results(chunks) == (
        [("c1", {"word": "a"}), ("c1-2", {"word": "b"})],
        [("c1", "echo a"), ("c1-2", "echo b")],
    )
    streaming = [
        (c.type, c.payload.tool_call_id)
        for c in chunks
        if c.type in ("tool-call-input-streaming-start", "tool-call-delta", "tool-call-input-streaming-end")
    ]
    expected = [
        (kind, call_id)
        for call_id in ("c1", "c1-2")
        for kind in ("tool-call-input-streaming-start", "tool-call-delta", "tool-call-input-streaming-end")
    ]
    assert streaming == (expected if streamed else [])
    assert (result.finish_reason, result.text, terminal_count(chunks)) == ("stop", "done", 1)
    assert [c["tool_call_id"] for c in result.steps[0].tool_calls] == ["c1", "c1-2"]
    assert result.steps[0].tool_results == [
        {"tool_call_id": "c1", "tool_name": "echo", "result": "echo a"},
        {"tool_call_id": "c1-2", "tool_name": "echo", "result": "echo b"},
    ]
    [answer] = result.messages
    assert invocations(answer) == BOTH_RESULTS
    assert answer.text == "done"
    assert model.requests[1].messages[2:] == NEXT_PROMPT_TAIL
    saved = await memory.load_messages("t1")
    assert [m.role for m in saved] == ["user", "assistant"]
    assert invocations(saved[1]) == BOTH_RESULTS


async def test_a_third_call_and_a_call_named_like_a_given_id_get_ids_of_their_own() -> None:
    model = ScriptedModel(
        [
            Turn(
                tool_calls=[
                    ToolCall("echo", {"word": "a"}, id="c1"),
                    ToolCall("echo", {"word": "b"}, id="c1"),
                    ToolCall("echo", {"word": "c"}, id="c1-2"),
                    ToolCall("echo", {"word": "d"}, id="c1"),
                ]
            ),
            Turn(text="done"),
        ]
    )
    chunks, result = await run_stream(make_agent(model, tools=[echo]))
    assert calls_and_results(chunks)[1] == [
        ("c1", "echo a"),
        ("c1-2", "echo b"),
        ("c1-2-2", "echo c"),
        ("c1-3", "echo d"),
    ]
    assert [state for state, *_ in invocations(result.messages[0])] == ["result"] * 4


def test_calls_a_provider_streams_side_by_side_under_one_id_end_in_the_order_they_started() -> None:
    """As litellm hands on a provider's calls: every call starts and streams its arguments, then all complete."""
    builder = StepBuilder("run-1", "msg-1")
    events = [
        ToolCallStart("dup", "echo"),
        ToolCallDelta("dup", '{"word": "a"}'),
        ToolCallStart("dup", "echo"),
        ToolCallDelta("dup", '{"word": "b"}'),
        ToolCallComplete("dup", "echo", '{"word": "a"}'),
        ToolCallComplete("dup", "echo", '{"word": "b"}'),
        Finish("tool-calls"),
    ]
    chunks = [chunk for event in events for chunk in builder.convert(event)]
    for chunk in chunks:
        builder.fold(chunk)
    assert [(c.type, c.payload.tool_call_id) for c in chunks] == [  # type: ignore[union-attr]
        ("tool-call-input-streaming-start", "dup"),
        ("tool-call-delta", "dup"),
        ("tool-call-input-streaming-start", "dup-2"),
        ("tool-call-delta", "dup-2"),
        ("tool-call-input-streaming-end", "dup"),
        ("tool-call", "dup"),
        ("tool-call-input-streaming-end", "dup-2"),
        ("tool-call", "dup-2"),
    ]
    assert builder.tool_calls == [
        {"tool_call_id": "dup", "tool_name": "echo", "args": {"word": "a"}},
        {"tool_call_id": "dup-2", "tool_name": "echo", "args": {"word": "b"}},
    ]
    builder.reset()  # a retried step starts over: the ids are free again
    [call] = builder.convert(ToolCallComplete("dup", "echo", "{}"))
    assert call.payload.tool_call_id == "dup"  # type: ignore[union-attr]


async def test_a_local_server_that_repeats_a_call_id_gets_both_results_over_http(openai_server: OpenAIServer) -> None:
    openai_server.reply_tool_calls(
        ToolCallReply("echo", ['{"word":', ' "a"}'], id="dup"), ToolCallReply("echo", '{"word": "b"}', id="dup")
    )
    openai_server.reply_text("done")
    model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")
    stream = Agent(id="a", model=model, tools=[echo]).stream("hi")  # no time limit: litellm may import slowly
    chunks = [chunk async for chunk in stream]
    result = await stream.result()
    assert calls_and_results(chunks) == (
        [("dup", {"word": "a"}), ("dup-2", {"word": "b"})],
        [("dup", "echo a"), ("dup-2", "echo b")],
    )
    assert result.text == "done"
    second = openai_server.requests[1]["messages"]
    assert [call["id"] for call in second[1]["tool_calls"]] == ["dup", "dup-2"]
    assert [(m["tool_call_id"], m["content"]) for m in second[2:]] == [("dup", "echo a"), ("dup-2", "echo b")]


# ------------------------------------------------------------------------------------ one id, two calls (processor)
class SameId(Processor):
    """Hands on the model's second call under the id of its first."""

    id = "same-id"

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        if part.type == "tool-call" and part.payload.tool_call_id == "c2":
            return part.with_payload(tool_call_id="c1")
        return part


async def test_a_processor_that_hands_on_a_second_call_under_a_used_id_ends_the_run_naming_it() -> None:
    model = ScriptedModel(
        [
            Turn(
                text="Checking.",
                tool_calls=[
                    ToolCall("echo", {"word": "a"}, id="c1", streamed=False),
                    ToolCall("echo", {"word": "b"}, id="c2", streamed=False),
                ],
            )
        ]
    )
    memory = InMemoryMemory()
    tracer = RecordingTracer()
    chunks, result = await run_stream(
        make_agent(model, tools=[echo], memory=memory, output_processors=[SameId()]), thread_id="t1", tracers=[tracer]
    )
    assert calls_and_results(chunks) == ([("c1", {"word": "a"})], [])  # the repeat never reached a client
    error = chunks[-1]
    assert (error.type, terminal_count(chunks), result.finish_reason) == ("error", 1, "error")
    message = error.payload.error["message"]  # type: ignore[union-attr]
    assert message == (
        "Two tool calls of one step have the id 'c1': a call a processor handed on reuses the id of an earlier call "
        "of the step, so their results could not be told apart (the trace shows which processor changed the "
        "chunk); give each call its own id"
    )
    assert error.payload.error["hook"] == "process_output_stream"  # type: ignore[union-attr]
    [answer] = result.messages
    assert answer.text == "Checking."
    # the call the run ended on is answered with why it has no result (a thread never holds a call waiting)
    assert invocations(answer) == [("output-error", "c1", {"word": "a"}, None)]
    assert answer.content.parts[-2].tool_invocation.error_text == (  # type: ignore[union-attr]
        "No result: the run ended before this tool call was answered (it failed)"
    )
    assert answer.content.parts[-1].error.message == message  # type: ignore[union-attr]
    saved = await memory.load_messages("t1")
    assert [m.role for m in saved] == ["user", "assistant"] and saved[1].text == "Checking."
    [stream_event] = [e for e in tracer.events if e.hook == "process_output_stream" and e.processor_id == "same-id"]
    assert stream_event.outcome == "changed"
    changed = [c for c in stream_event.chunk_stats["changes"] if c["outcome"] == "changed"]  # type: ignore[index]
    assert [(c["before"]["payload"]["toolCallId"], c["after"]["payload"]["toolCallId"]) for c in changed] == [
        ("c2", "c1")
    ]


class Renumber(Processor):
    """Hands on the model's first call under the id its second call will have."""

    id = "renumber"

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        if part.type == "tool-call" and part.payload.tool_call_id == "c1":
            return part.with_payload(tool_call_id="c2")
        return part


async def test_a_model_call_under_an_id_a_processor_gave_an_earlier_call_gets_an_id_of_its_own() -> None:
    model = ScriptedModel(
        [
            Turn(
                tool_calls=[
                    ToolCall("echo", {"word": "a"}, id="c1", streamed=False),
                    ToolCall("echo", {"word": "b"}, id="c2", streamed=False),
                ]
            ),
            Turn(text="done"),
        ]
    )
    chunks, result = await run_stream(make_agent(model, tools=[echo], output_processors=[Renumber()]))
    assert calls_and_results(chunks)[1] == [("c2", "echo a"), ("c2-2", "echo b")]
    assert result.text == "done"


def test_the_reducer_refuses_a_tool_call_chunk_that_holds_no_tool_call() -> None:
    """The runtime types a bare chunk before it folds it; a client folding chunks itself gets the same refusal."""
    builder = StepBuilder("run-1", "msg-1")
    with pytest.raises(ProcessorContractError) as caught:
        builder.fold(Chunk(type="tool-call"))
    assert str(caught.value) == (
        "A 'tool-call' chunk without a tool call (toolCallId, toolName, args) was handed on in the step's stream: "
        "build it as ToolCallChunk(payload=ToolCallPayload(...))"
    )
    assert (caught.value.processor_id, caught.value.hook) == (None, "process_output_stream")
    assert builder.tool_calls == []


def test_argument_deltas_for_a_call_that_never_started_keep_their_id() -> None:
    builder = StepBuilder("run-1", "msg-1")
    [delta] = builder.convert(ToolCallDelta("c9", '{"word"'))
    assert delta.to_wire()["payload"] == {"toolCallId": "c9", "argsTextDelta": '{"word"'}


# ------------------------------------------------------------------------------------ bare chunks from a processor
class Forge(Processor):
    """Hands on a bare ``Chunk(type=kind)`` (no payload) in place of the first part of type ``on``."""

    id = "forge"

    def __init__(self, kind: str, on: str) -> None:
        self.kind, self.on, self.done = kind, on, False

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type == self.on and not self.done:
            self.done = True
            return Chunk(type=self.kind, run_id=args.part.run_id)
        return args.part


FORGED = [
    ("tool-call", "payload.toolCallId: Field required; payload.toolName: Field required"),
    ("tool-result", "payload.toolCallId: Field required; payload.toolName: Field required"),
    ("tool-error", "payload.toolCallId: Field required; payload.toolName: Field required"),
    ("finish", "payload.stepResult: Field required"),
    ("step-finish", "payload.stepResult: Field required"),
    ("error", "payload.error: Field required"),
    ("tripwire", "payload.reason: Field required"),
    ("tool-call-input-streaming-start", "payload.toolCallId: Field required; payload.toolName: Field required"),
]


#: What the processor forges in place of: a text delta, or the run's own chunk of that type (where it streams one).
CASES = [(kind, missing, "text-delta") for kind, missing in FORGED] + [
    (kind, missing, kind) for kind, missing in FORGED if kind not in ("tool-error", "error", "tripwire")
]


@pytest.mark.parametrize(("kind", "missing", "on"), CASES, ids=[f"{kind}-for-{on}" for kind, _, on in CASES])
async def test_a_bare_chunk_a_processor_hands_on_ends_the_run_naming_the_processor_and_the_type(
    kind: str, missing: str, on: str
) -> None:
    model = ScriptedModel(
        [Turn(text=["Hello ", "there."], tool_calls=[ToolCall("echo", {"word": "a"}, id="c1")]), Turn(text="done")]
    )
    memory = InMemoryMemory()
    tracer = RecordingTracer()
    forge = Forge(kind, on)
    agent = make_agent(model, tools=[echo], memory=memory, output_processors=[forge])
    chunks, result = await run_stream(agent, thread_id="t1", tracers=[tracer])
    assert forge.done
    error = chunks[-1]
    assert (error.type, terminal_count(chunks), result.finish_reason) == ("error", 1, "error")
    assert kind not in [c.type for c in chunks[:-1]] or kind == "tool-call-input-streaming-start"
    assert error.payload.error == {  # type: ignore[union-attr]
        "name": "ProcessorContractError",
        "message": f"Processor 'forge' returned a chunk of type '{kind}' from process_output_stream that cannot be "
        f"used: {missing} (build it as a {CHUNK_CLASSES[kind].__name__}, or change the part given with with_payload)",
        "processorId": "forge",
        "hook": "process_output_stream",
    }
    assert result.error == error.payload.error["message"]  # type: ignore[union-attr]
    saved = await memory.load_messages("t1")
    assert [m.role for m in saved] == ["user", "assistant"]
    assert saved[0].text == "hi"
    raised = [
        e
        for e in tracer.events
        if e.hook == "process_output_stream" and e.processor_id == "forge" and e.outcome == "raised"
    ]
    assert len(raised) == 1
    assert raised[0].chunk_stats["changes"][-1]["detail"] == error.payload.error["message"]  # type: ignore[index,union-attr]


async def test_a_bare_tool_call_with_a_full_payload_is_read_as_a_tool_call_and_runs() -> None:
    class Rebuild(Processor):
        id = "rebuild"

        def process_output_stream(self, args: Any) -> Any:
            part = args.part
            if part.type == "tool-call":
                return Chunk(type="tool-call", run_id=part.run_id, payload=part.payload.model_dump(by_alias=True))
            return part

    model = ScriptedModel([Turn(tool_calls=[ToolCall("echo", {"word": "a"}, id="c1")]), Turn(text="done")])
    chunks, result = await run_stream(make_agent(model, tools=[echo], output_processors=[Rebuild()]))
    [call] = of_type(chunks, "tool-call")
    assert type(call) is ToolCallChunk
    assert call.payload == ToolCallPayload(tool_call_id="c1", tool_name="echo", args={"word": "a"})
    assert calls_and_results(chunks)[1] == [("c1", "echo a")]
    assert (result.text, invocations(result.messages[0])) == ("done", [("result", "c1", {"word": "a"}, "echo a")])


@pytest.mark.parametrize("bare", [True, False], ids=["bare-chunk", "data-chunk"])
async def test_a_bare_data_chunk_is_refused_and_a_data_chunk_passes(bare: bool) -> None:
    class Note(Processor):
        id = "note"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.type == "text-delta":
                return Chunk(type="data-note") if bare else DataChunk(type="data-note", data={"n": 1})
            return args.part

    chunks, result = await run_stream(make_agent(ScriptedModel(["hi"]), output_processors=[Note()]))
    if not bare:
        assert [c.to_wire() for c in of_type(chunks, "data-note")] == [{"type": "data-note", "data": {"n": 1}}]
        assert (chunks[-1].type, result.finish_reason) == ("finish", "stop")
        return
    assert of_type(chunks, "data-note") == []
    assert chunks[-1].payload.error["message"] == (  # type: ignore[union-attr]
        "Processor 'note' returned a chunk of type 'data-note' from process_output_stream that cannot be used: "
        "a data part is a DataChunk(type=..., data=...), which carries the data and is saved"
    )
    assert result.finish_reason == "error"


async def test_a_bare_tool_call_stashed_for_reprocessing_is_refused_naming_the_processor() -> None:
    class Stash(Processor):
        id = "stash"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.type == "text-delta" and not args.state.get("done"):
                args.state["done"] = True
                args.state[REPROCESS_KEY] = Chunk(type="tool-call", run_id=args.part.run_id)
            return args.part

    for tracers in ([], [RecordingTracer()]):  # the sync fast path, and the traced path
        chunks, result = await run_stream(
            make_agent(ScriptedModel(["hi"]), output_processors=[Stash()]), tracers=tracers
        )
        error = chunks[-1]
        assert (error.type, result.finish_reason) == ("error", "error")
        assert error.payload.error["processorId"] == "stash"  # type: ignore[union-attr]
        assert "returned a chunk of type 'tool-call'" in error.payload.error["message"]  # type: ignore[union-attr]
