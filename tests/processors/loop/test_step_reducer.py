"""The step's reducer and a replayed answer at their edges (``processors.loop.step``), through whole agent runs on
scripted models: chunks a processor hands on that carry no text, tool-call arguments that are no JSON compared as
the text they hold, and a cached answer that streams the very chunks the model streamed."""

from __future__ import annotations

from typing import Any

from processors import Agent, Processor, tool
from processors.chunks import Chunk
from processors.loop.step import InvalidArgs
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import Abort, RecordAndReplay, make_agent, run_stream


@tool
def greet(name: str = "you") -> str:
    """Greet someone.

    Args:
        name: Who to greet.
    """
    return f"hello {name}"


# ----------------------------------------------------------------------------------------- deltas without text
class Blank(Processor):
    """Hands on a bare chunk of the same type, with no payload text, in place of the delta carrying ``word``."""

    id = "blank"

    def __init__(self, word: str) -> None:
        self.word = word

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        if part.type in ("text-delta", "reasoning-delta") and part.payload.text == self.word:
            return Chunk(type=part.type, run_id=part.run_id)
        return part


async def test_a_text_delta_without_text_adds_nothing_to_the_answer() -> None:
    model = ScriptedModel([Turn(text=["one ", "two ", "three"])])
    chunks, result = await run_stream(make_agent(model, output_processors=[Blank("two ")]))
    assert [chunk.type for chunk in chunks if chunk.type.startswith("text")] == [
        "text-start",
        "text-delta",
        "text-delta",
        "text-delta",
        "text-end",
    ]
    assert (result.text, result.steps[0].text) == ("one three", "one three")
    [answer] = result.messages
    assert answer.text == "one three"


async def test_a_reasoning_delta_without_text_adds_nothing_to_the_reasoning() -> None:
    model = ScriptedModel([Turn(reasoning=["first ", "second ", "third"], text="ok")])
    _chunks, result = await run_stream(make_agent(model, output_processors=[Blank("second ")]))
    assert result.steps[0].reasoning == "first third"
    [answer] = result.messages
    assert answer.content.parts[1].reasoning == "first third"  # type: ignore[union-attr]
    assert result.text == "ok"


# ----------------------------------------------------------------------------------------- arguments kept as text
class Rewrite(Processor):
    """Hands on a tool call as a new chunk (a deep copy), with its arguments replaced when ``args`` is given."""

    id = "rewrite"

    def __init__(self, args: Any = None) -> None:
        self.args = args

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type != "tool-call":
            return args.part
        copied = args.part.model_copy(deep=True)
        if self.args is not None:
            copied.payload.args = self.args
        return copied


async def _stream_stats(processor: Rewrite) -> tuple[dict[str, Any], Any]:
    tracer = RecordingTracer()
    model = ScriptedModel([Turn(tool_calls=[ToolCall("greet", "{not json", id="c1", streamed=False)]), "ok"])
    _chunks, result = await run_stream(
        make_agent(model, tools=[greet], output_processors=[processor]), tracers=[tracer]
    )
    first = next(e for e in tracer.events if e.hook == "process_output_stream" and e.processor_id == "rewrite")
    assert first.chunk_stats is not None
    return first.chunk_stats, result


async def test_a_copy_of_a_call_whose_arguments_are_no_json_is_the_same_call() -> None:
    stats, result = await _stream_stats(Rewrite())
    assert (stats["changed"], stats["changes"]) == (0, [])
    assert result.steps[0].tool_calls[0]["args"] == InvalidArgs("{not json")
    assert result.steps[0].tool_calls[0]["args"] != InvalidArgs("{not json}")


async def test_other_arguments_that_are_no_json_are_a_change() -> None:
    stats, result = await _stream_stats(Rewrite(InvalidArgs("{still not json")))
    assert stats["changed"] == 1
    [change] = stats["changes"]
    assert (change["before"]["payload"]["args"], change["after"]["payload"]["args"]) == (
        "{not json",
        "{still not json",
    )
    assert result.steps[0].tool_calls[0]["args"] == InvalidArgs("{still not json")


# ----------------------------------------------------------------------------------------- a replayed answer
def model_wire(chunks: list[Any]) -> list[dict[str, Any]]:
    """The wire shape of the chunks the model's answer stands for, without the run's id."""
    loop_own = ("start", "step-start", "step-finish", "finish", "tool-result")
    out = []
    for chunk in chunks:
        if chunk.type not in loop_own:
            wire = chunk.to_wire()
            del wire["runId"]
            out.append(wire)
    return out


async def test_a_replayed_answer_streams_the_chunks_the_model_streamed_from_the_agent() -> None:
    cache = RecordAndReplay()
    model = ScriptedModel(
        [Turn(reasoning="hm", text="the answer", tool_calls=[ToolCall("greet", {"name": "Ada"}, id="c1")]), "done"]
    )
    agent = Agent(id="a", model=model, tools=[greet], input_processors=[cache], max_steps=1)
    live_chunks, _live = await run_stream(agent, "q")
    replayed_chunks, replayed = await run_stream(agent, "q")
    assert len(model.requests) == 1
    assert replayed.steps[0].from_cache is True
    assert model_wire(replayed_chunks) == model_wire(live_chunks)
    assert {wire["from"] for wire in model_wire(replayed_chunks)} == {"AGENT"}
    assert [wire["type"] for wire in model_wire(replayed_chunks)][-2:] == [
        "tool-call-input-streaming-end",
        "tool-call",
    ]


# ----------------------------------------------------------------------------------------- the chunks' run id
async def test_every_chunk_of_the_models_answer_carries_the_run_id() -> None:
    model = ScriptedModel(
        [
            Turn(
                reasoning="think",
                text="Let me check.",
                tool_calls=[
                    ToolCall("greet", {"name": "Ada"}, id="c1"),
                    ToolCall("greet", {"name": "Bo"}, id="c2", streamed=False),
                ],
            ),
            Turn(reasoning="so"),
        ]
    )
    chunks, result = await run_stream(make_agent(model, tools=[greet]))
    assert {
        "response-metadata",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "text-start",
        "text-delta",
        "text-end",
        "tool-call-input-streaming-start",
        "tool-call-delta",
        "tool-call-input-streaming-end",
        "tool-call",
    } <= {chunk.type for chunk in chunks}
    assert [chunk.type for chunk in chunks if chunk.run_id != result.run_id] == []  # type: ignore[union-attr]


# ----------------------------------------------------------------------------------------- the step's message
async def test_a_step_blocked_before_its_tools_keeps_their_calls_with_the_arguments_and_the_text() -> None:
    model = ScriptedModel(
        [
            Turn(
                text="Let me check.",
                tool_calls=[
                    ToolCall("greet", {"name": "Ada"}, id="c1"),
                    ToolCall("greet", "{not json", id="c2", streamed=False),
                ],
            )
        ]
    )
    block = Abort("block", "process_output_step")
    chunks, result = await run_stream(make_agent(model, tools=[greet], output_processors=[block]))
    assert not [chunk for chunk in chunks if chunk.type == "tool-result"]
    assert result.tripwire is not None
    [answer] = result.messages
    assert answer.content.content == "Let me check."
    calls = [part.tool_invocation for part in answer.content.parts if part.type == "tool-invocation"]  # type: ignore[union-attr]
    unanswered = "No result: the run ended before this tool call was answered (blocked by processor 'block')"
    assert [(call.state, call.tool_call_id, call.tool_name, call.args, call.error_text) for call in calls] == [
        ("output-error", "c1", "greet", {"name": "Ada"}, unanswered),
        ("output-error", "c2", "greet", "{not json", unanswered),
    ]
