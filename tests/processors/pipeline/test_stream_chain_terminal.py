"""The runtime owns the stream's end: a stream has exactly one terminal chunk, and ``result`` says the same.

A stream processor that hands on a well-formed ``finish``, ``error``, ``tripwire`` or ``abort`` chunk in place of
another part (returned, or stashed for reprocessing) would end the stream twice: the chat pane, the recorder and
replays all read the first terminal chunk as the end. Mastra has no rule for it (its output would resolve on the
forged chunk while the loop goes on). Here it is a ``ProcessorContractError`` naming the processor and the hook:
the run ends once, with an ``error`` chunk, and the processor's author learns to call ``args.abort()``. The
runtime's own ``finish`` may still be changed (same type) or held for reprocessing.
"""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent
from processors.chunks import (
    AbortChunk,
    Chunk,
    DataChunk,
    ErrorChunk,
    ErrorPayload,
    FinishChunk,
    FinishPayload,
    StepResult,
    TripwireChunk,
    TripwirePayload,
)
from processors.models import ScriptedModel, Turn
from processors.pipeline.stream_chain import REPROCESS_KEY
from processors.tracing import RecordingTracer
from tests.processors.helpers import TERMINAL, Fn, kinds, run_stream, streamed_text

ENDS = ("finish", "error", "tripwire", "abort")


def forged(kind: str, run_id: str) -> Chunk:
    if kind == "finish":
        return FinishChunk(run_id=run_id, payload=FinishPayload(step_result=StepResult(reason="stop")))
    if kind == "error":
        return ErrorChunk(run_id=run_id, payload=ErrorPayload(error={"message": "made up"}))
    if kind == "tripwire":
        return TripwireChunk(run_id=run_id, payload=TripwirePayload(reason="made up", processor_id="forger"))
    return AbortChunk(run_id=run_id)


def ends(chunks: list[Any]) -> list[str]:
    return [kind for kind in kinds(chunks) if kind in (*TERMINAL, "abort")]


async def forge_run(forger: Any, *, traced: bool) -> tuple[list[Any], Any, RecordingTracer]:
    tracer = RecordingTracer()
    agent = Agent(
        id="a", model=ScriptedModel([Turn(text=["one ", "two ", "three"])]), output_processors=[Fn("forger", **forger)]
    )
    chunks, result = await run_stream(agent, tracers=[tracer] if traced else [])
    return chunks, result, tracer


def message(kind: str, given: str) -> str:
    return (
        f"Processor 'forger' handed on a '{kind}' chunk from process_output_stream in place of a '{given}' chunk; "
        "the runtime ends the stream (a stream has exactly one terminal chunk): call args.abort(reason) to end "
        "the run, or change the 'finish' chunk when it comes"
    )


@pytest.mark.parametrize("traced", [False, True], ids=["fast", "traced"])
@pytest.mark.parametrize("kind", ENDS)
async def test_a_terminal_chunk_returned_mid_stream_ends_the_run_once_with_an_error(kind: str, traced: bool) -> None:
    def forge(args: Any) -> Any:
        part = args.part
        if part.type == "text-delta" and part.payload.text == "two ":
            return forged(kind, part.run_id)
        return part

    chunks, result, tracer = await forge_run({"process_output_stream": forge}, traced=traced)
    assert ends(chunks) == ["error"]
    assert kinds(chunks)[-1] == "error"
    error = chunks[-1].payload.error
    assert (error["processorId"], error["hook"], error["message"]) == (
        "forger",
        "process_output_stream",
        message(kind, "text-delta"),
    )
    assert streamed_text(chunks) == "one "
    assert (result.finish_reason, result.error, result.text) == ("error", message(kind, "text-delta"), "one ")
    assert result.tripwire is None
    if traced:
        [event] = [e for e in tracer.events if e.hook == "process_output_stream"]
        assert event.outcome == "raised"


@pytest.mark.parametrize("kind", ["error", "tripwire", "abort"])
async def test_the_runs_finish_replaced_by_another_end_is_refused(kind: str) -> None:
    def replace_finish(args: Any) -> Any:
        return forged(kind, args.part.run_id) if args.part.type == "finish" else args.part

    chunks, result, _tracer = await forge_run({"process_output_stream": replace_finish}, traced=False)
    assert ends(chunks) == ["error"]
    assert chunks[-1].payload.error["message"] == message(kind, "finish")
    assert (result.finish_reason, result.text) == ("error", "one two three")


@pytest.mark.parametrize("traced", [False, True], ids=["fast path", "traced path"])
@pytest.mark.parametrize("kind", ENDS)
async def test_a_terminal_chunk_stashed_for_reprocessing_is_refused(kind: str, traced: bool) -> None:
    def stash(args: Any) -> Any:
        part = args.part
        if part.type == "text-delta" and part.payload.text == "two ":
            args.state[REPROCESS_KEY] = forged(kind, part.run_id)
        return part

    chunks, result, _tracer = await forge_run({"process_output_stream": stash}, traced=traced)
    assert ends(chunks) == ["error"]
    assert chunks[-1].payload.error["message"] == message(kind, "text-delta")
    assert result.finish_reason == "error"


async def test_the_runs_finish_may_be_changed_or_held_for_reprocessing() -> None:
    def note_finish(args: Any) -> Any:
        part = args.part
        if part.type != "finish":
            return part
        if not args.state.get("held"):  # hold it once: stash it and hand on a note of ours first
            args.state["held"] = True
            args.state[REPROCESS_KEY] = part
            return Chunk(type="text-delta", run_id=part.run_id, payload={"id": "x", "text": ""})
        return part.model_copy(update={"payload": part.payload.model_copy(update={"metadata": {"noted": True}})})

    chunks, result, _tracer = await forge_run({"process_output_stream": note_finish}, traced=True)
    assert ends(chunks) == ["finish"]
    assert kinds(chunks)[-1] == "finish"
    assert chunks[-1].payload.metadata == {"noted": True}
    assert (result.finish_reason, result.text) == ("stop", "one two three")


async def test_parts_stashed_beside_the_runs_finish_come_before_it() -> None:
    """A processor that hands the finish on and stashes a part of its own: the finish still ends the stream."""

    def stash_beside_finish(args: Any) -> Any:
        part = args.part
        if part.type == "finish" and not args.state.get("done"):
            args.state["done"] = True
            args.state[REPROCESS_KEY] = DataChunk(type="data-summary", data={"chunks": len(args.stream_parts)})
        return part

    chunks, result, _tracer = await forge_run({"process_output_stream": stash_beside_finish}, traced=False)
    assert ends(chunks) == ["finish"]
    assert kinds(chunks)[-2:] == ["data-summary", "finish"]
    assert result.finish_reason == "stop"


async def test_a_changed_finish_handed_on_beside_the_stashed_original_ends_the_stream_once() -> None:
    def copy_and_stash(args: Any) -> Any:
        part = args.part
        if part.type == "finish" and not args.state.get("done"):
            args.state["done"] = True
            args.state[REPROCESS_KEY] = part
            return part.model_copy(update={"payload": part.payload.model_copy(update={"metadata": {"copy": True}})})
        return part

    chunks, result, _tracer = await forge_run({"process_output_stream": copy_and_stash}, traced=False)
    assert ends(chunks) == ["finish"]
    assert kinds(chunks)[-1] == "finish"
    assert result.finish_reason == "stop"


async def test_the_runs_finish_held_back_and_let_out_in_place_of_a_later_part_ends_the_stream() -> None:
    """A guard holding parts in the model's order lets the finish out in answer to a part re-driven after it."""

    def hold_finish(args: Any) -> Any:
        part = args.part
        if part.type == "finish":
            args.state["held"] = part
            args.state[REPROCESS_KEY] = DataChunk(type="data-later", data=1)
            return None
        if part.type == "data-later":
            return args.state.pop("held")
        return part

    forger = Fn("forger", process_output_stream=hold_finish)
    forger.process_data_parts = True
    agent = Agent(id="a", model=ScriptedModel([Turn(text=["one ", "two"])]), output_processors=[forger])
    chunks, result = await run_stream(agent)
    assert ends(chunks) == ["finish"]
    assert kinds(chunks)[-1] == "finish"
    assert (result.finish_reason, result.text) == ("stop", "one two")
