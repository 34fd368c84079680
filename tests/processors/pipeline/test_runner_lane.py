"""``run_lane``: the one loop every hook but the stream one runs through. Its parameters decide what differs between
the hooks: the args, the result's reduction (which may stop the lane), what a processor wrote, and the policy for a
block or a failure (end, or ask the next processor). Driven here with real processors on a real run context."""

from __future__ import annotations

import asyncio
from typing import Any, NoReturn

import pytest

from processors import Processor, TripWire
from processors.chunks import AnyChunk, DataChunk
from processors.context import RequestContext, StreamWriter
from processors.errors import ProcessorError, ProcessorRaisedError
from processors.pipeline.processor import ProcessInputArgs
from processors.pipeline.run_context import Entry, RunContext, common_args
from processors.pipeline.runner import LanePolicy, run_lane
from processors.tracing import TraceHub


class Answer(Processor):
    """Answers ``process_input`` with what it was built with: a value, an exception to raise, or a block."""

    def __init__(self, pid: str, answer: Any = None, writes: bool = False) -> None:
        self.id = pid
        self.answer = answer
        self.writes = writes
        self.calls = 0

    def process_input(self, args: ProcessInputArgs) -> Any:
        self.calls += 1
        if self.writes and args.writer is not None:
            args.writer.custom(DataChunk(type="data-note", data=self.id))
        if isinstance(self.answer, BaseException):
            raise self.answer
        if self.answer == "block":
            args.abort(f"{self.id} blocks")
        return self.answer


class Ended(Exception):
    """What the test's policy raises to end the lane (the loop's ``EndRun`` in a run)."""


def context(written: list[DataChunk]) -> RunContext:
    return RunContext(
        run_id="run-1",
        request_context=RequestContext(),
        writer=StreamWriter(written.append),
        tracer=TraceHub(),
        abort_signal=asyncio.Event(),
    )


def end_on_tripwire(tripwire: TripWire) -> NoReturn:
    raise Ended(f"tripwire: {tripwire.reason}")


def end_on_failure(error: Exception) -> NoReturn:
    raise Ended(f"failure: {error}")


ENDS = LanePolicy(end_on_tripwire, (ProcessorError,), end_on_failure)


async def lane(
    processors: list[Answer],
    policy: LanePolicy = ENDS,
    reduce: Any = None,
    written: list[DataChunk] | None = None,
) -> tuple[list[AnyChunk], list[tuple[str, Any]]]:
    written = [] if written is None else written
    ctx = context(written)
    entries = [Entry(processor, index) for index, processor in enumerate(processors)]
    applied: list[tuple[str, Any]] = []

    def args_for(entry: Entry) -> ProcessInputArgs:
        return ProcessInputArgs(messages=[], message_list=None, system_messages=[], **common_args(ctx, entry))  # type: ignore[arg-type]

    def apply(entry: Entry, _args: ProcessInputArgs, result: Any) -> None:
        applied.append((entry.id, result))

    async def drain() -> list[AnyChunk]:
        taken, written[:] = list(written), []
        return list(taken)

    out = await run_lane(
        ctx, entries, "process_input", args_for, policy=policy, apply=apply, reduce=reduce, drain=drain
    )
    return out, applied


async def test_every_processor_runs_in_order_and_what_it_wrote_is_collected_after_it() -> None:
    first, second = Answer("first", "a", writes=True), Answer("second", "b", writes=True)
    out, applied = await lane([first, second])
    assert applied == [("first", "a"), ("second", "b")]
    assert [chunk.data for chunk in out] == ["first", "second"]  # type: ignore[union-attr]


async def test_a_block_goes_to_the_policy_and_later_processors_do_not_run() -> None:
    later = Answer("later", "x")
    with pytest.raises(Ended, match="tripwire: guard blocks"):
        await lane([Answer("guard", "block"), later])
    assert later.calls == 0


async def test_a_failure_the_policy_ends_on_ends_the_lane_naming_the_processor() -> None:
    later = Answer("later", "x")
    with pytest.raises(Ended) as ended:
        await lane([Answer("broken", ValueError("bad")), later])
    assert str(ended.value) == "failure: Processor 'broken' raised in process_input: ValueError: bad"
    assert later.calls == 0


async def test_a_policy_that_returns_asks_the_next_processor_and_skips_the_failed_ones_writing() -> None:
    told: list[Exception] = []
    policy = LanePolicy(end_on_tripwire, (ProcessorError,), told.append)
    out, applied = await lane(
        [Answer("broken", RuntimeError("down"), writes=True), Answer("next", "ok", writes=True)], policy=policy
    )
    assert [type(error) for error in told] == [ProcessorRaisedError]
    assert applied == [("next", "ok")]
    # what the failed processor wrote is collected with the next one's (after a processor that ran)
    assert [chunk.data for chunk in out] == ["broken", "next"]  # type: ignore[union-attr]


async def test_an_exception_outside_the_policys_failures_propagates() -> None:
    class Outside(Exception):
        pass

    policy = LanePolicy(end_on_tripwire, (Outside,), end_on_failure)
    with pytest.raises(ProcessorRaisedError):
        await lane([Answer("broken", ValueError("bad"))], policy=policy)


async def test_a_reduction_that_returns_true_stops_the_lane() -> None:
    later = Answer("later", None)
    seen: list[Any] = []

    def first_yes(_entry: Entry, result: Any) -> bool:
        seen.append(result)
        return result == "yes"

    await lane([Answer("no", "no"), Answer("yes", "yes"), later], reduce=first_yes)
    assert seen == ["no", "yes"]
    assert later.calls == 0
