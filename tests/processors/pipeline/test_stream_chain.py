"""The per-chunk chain (``StreamChain``) driven directly: real processors, real chunks, a real ``TraceHub``.

Every behaviour is checked on the three ways the loop drives a chunk: the sync fast path (``process_sync``), the
general path without observers, and the general path with a tracer (``process``), since the loop picks one per
step and a user must not be able to tell which one ran.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from processors import Processor, RequestContext, TripWire
from processors.chunks import (
    AnyChunk,
    DataChunk,
    StepStartChunk,
    StepStartPayload,
    TextEndChunk,
    TextPayload,
    text_delta,
)
from processors.context import StreamWriter
from processors.errors import ProcessorContractError
from processors.messages.message_list import MessageList
from processors.pipeline.debugger import Breakpoint, Debugger, Pause
from processors.pipeline.run_context import Entry, RunContext
from processors.pipeline.stream_chain import MAX_REPROCESS, REPROCESS_KEY, StreamChain
from processors.tracing import RecordingTracer, TraceHub

Drive = Callable[[StreamChain, AnyChunk], Awaitable[AnyChunk | None]]


async def _sync(chain: StreamChain, part: AnyChunk) -> AnyChunk | None:
    return chain.process_sync(part)


async def _general(chain: StreamChain, part: AnyChunk) -> AnyChunk | None:
    return await chain.process(part)


def make_chain(*processors: Any, tracer: RecordingTracer | None = None) -> tuple[StreamChain, RunContext]:
    ctx = RunContext(
        run_id="run-1",
        request_context=RequestContext(),
        writer=StreamWriter(lambda _chunk: None),
        tracer=TraceHub([tracer] if tracer is not None else []),
        abort_signal=asyncio.Event(),
    )
    ctx.step_number = 3
    entries = [Entry(processor, index) for index, processor in enumerate(processors)]
    return StreamChain(ctx, entries, MessageList()), ctx


@pytest.fixture(params=["sync", "general", "traced"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def chain_for(mode: str, *processors: Any) -> tuple[StreamChain, RunContext, Drive]:
    tracer = RecordingTracer() if mode == "traced" else None
    chain, ctx = make_chain(*processors, tracer=tracer)
    return chain, ctx, _sync if mode == "sync" else _general


def delta(text: str) -> AnyChunk:
    return text_delta("run-1", "t1", text)


def text_of(chunk: AnyChunk | None) -> str | None:
    return None if chunk is None else chunk.payload.text  # type: ignore[union-attr]


# ----------------------------------------------------------------------------------------- test processors
class Upper(Processor):
    id = "upper"

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        if part.type != "text-delta":
            return part
        return part.model_copy(update={"payload": part.payload.model_copy(update={"text": part.payload.text.upper()})})


class Seen(Processor):
    """Records the text of every part it is given, and the retry count it saw."""

    def __init__(self, pid: str = "seen", *, data: bool = False) -> None:
        self.id = pid
        self.process_data_parts = data
        self.parts: list[Any] = []
        self.retry_counts: list[int] = []

    def process_output_stream(self, args: Any) -> Any:
        self.parts.append(args.part)
        self.retry_counts.append(args.retry_count)
        return args.part


class Drop(Processor):
    id = "drop"

    def process_output_stream(self, args: Any) -> Any:
        return None


class Returns(Processor):
    def __init__(self, value: Any) -> None:
        self.id = "returns"
        self.value = value

    def process_output_stream(self, args: Any) -> Any:
        return self.value


class Raises(Processor):
    id = "raises"

    def process_output_stream(self, args: Any) -> Any:
        raise ValueError("boom")


class AsyncUpper(Processor):
    id = "async-upper"

    async def process_output_stream(self, args: Any) -> Any:
        await asyncio.sleep(0)
        return Upper().process_output_stream(args)


# ----------------------------------------------------------------------------------------- the chain's shape
def test_a_chain_is_true_only_with_a_stream_hook_and_knows_when_one_is_async() -> None:
    class NoStream(Processor):
        id = "no-stream"

        def process_input(self, args: Any) -> Any:
            return args.messages

    assert not make_chain(NoStream())[0]
    assert make_chain(NoStream(), Upper())[0]
    assert make_chain(Upper())[0].has_async is False
    assert make_chain(Upper(), AsyncUpper())[0].has_async is True


def test_entry_for_finds_the_processor_by_id() -> None:
    chain, _ctx = make_chain(Upper(), Drop())
    found = chain.entry_for("drop")
    assert found is not None
    assert found.id == "drop"
    assert found.index == 1
    assert chain.entry_for("nobody") is None
    assert chain.entry_for(None) is None


# ----------------------------------------------------------------------------------------- results
async def test_each_processor_gets_what_the_one_before_returned(mode: str) -> None:
    seen = Seen()
    chain, _ctx, drive = chain_for(mode, Upper(), seen)
    out = await drive(chain, delta("hi"))
    assert text_of(out) == "HI"
    assert [text_of(part) for part in seen.parts] == ["HI"]


async def test_a_part_returned_as_none_is_dropped_and_later_processors_never_see_it(mode: str) -> None:
    seen = Seen()
    chain, _ctx, drive = chain_for(mode, Drop(), seen)
    assert await drive(chain, delta("hi")) is None
    assert seen.parts == []


async def test_the_async_path_awaits_async_hooks() -> None:
    seen = Seen()
    chain, _ctx = make_chain(AsyncUpper(), seen)
    out = await chain.process(delta("hi"))
    assert text_of(out) == "HI"
    assert [text_of(part) for part in seen.parts] == ["HI"]


@pytest.mark.parametrize("value", [{"type": "text-delta"}, "text", 3])
async def test_a_value_that_is_not_a_part_ends_with_an_error_naming_the_processor(mode: str, value: Any) -> None:
    seen = Seen()
    chain, _ctx, drive = chain_for(mode, Returns(value), seen)
    with pytest.raises(ProcessorContractError) as caught:
        await drive(chain, delta("hi"))
    error = caught.value
    assert error.processor_id == "returns"
    assert error.hook == "process_output_stream"
    assert str(error) == (
        f"Processor 'returns' returned {type(value).__name__} from process_output_stream; expected a chunk "
        "(the part it was given, a changed copy, or a new chunk) or None to drop the part"
    )
    assert seen.parts == []


async def test_a_new_chunk_or_a_data_chunk_is_a_valid_result(mode: str) -> None:
    data = DataChunk(type="data-note", data={"n": 1})
    chain, _ctx, drive = chain_for(mode, Returns(data))
    assert await drive(chain, delta("hi")) is data
    other = delta("other")
    chain, _ctx, drive = chain_for(mode, Returns(other))
    assert await drive(chain, delta("hi")) is other


async def test_data_parts_reach_only_the_processors_that_ask_for_them(mode: str) -> None:
    plain, wanting = Seen("plain"), Seen("wanting", data=True)
    chain, _ctx, drive = chain_for(mode, plain, wanting)
    data = DataChunk(type="data-note", data={"n": 1})
    assert await drive(chain, data) is data
    assert plain.parts == []
    assert wanting.parts == [data]
    text = delta("hi")
    await drive(chain, text)
    assert [part.type for part in plain.parts] == ["text-delta"]


async def test_stream_parts_record_every_chunk_as_it_entered_the_chain(mode: str) -> None:
    chain, _ctx, drive = chain_for(mode, Upper())
    await drive(chain, delta("a"))
    await drive(chain, delta("b"))
    assert [text_of(part) for part in chain.stream_parts] == ["a", "b"]


async def test_the_hook_sees_the_retry_count_of_the_step(mode: str) -> None:
    seen = Seen()
    chain, _ctx, drive = chain_for(mode, seen)
    await drive(chain, delta("a"))
    chain.set_retry_count(2)
    await drive(chain, delta("b"))
    assert seen.retry_counts == [0, 2]


# ----------------------------------------------------------------------------------------- failures
async def test_a_raising_hook_passes_the_chunk_on_unchanged_and_warns_once(
    mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    seen = Seen()
    chain, ctx, drive = chain_for(mode, Raises(), seen)
    with caplog.at_level(logging.WARNING, logger="processors.pipeline.runner"):
        first = delta("a")
        assert await drive(chain, first) is first
        await drive(chain, delta("b"))
    message = "Processor 'raises' raised in process_output_stream: ValueError: boom (the chunk was passed on unchanged)"
    assert ctx.warnings == [message]
    assert [record.getMessage() for record in caplog.records] == [message, message]
    assert [text_of(part) for part in seen.parts] == ["a", "b"]


async def test_a_tripwire_without_a_processor_id_is_given_the_raising_processors(mode: str) -> None:
    class Trips(Processor):
        id = "trips"

        def process_output_stream(self, args: Any) -> Any:
            raise TripWire("stop")

    chain, _ctx, drive = chain_for(mode, Upper(), Trips())
    with pytest.raises(TripWire) as caught:
        await drive(chain, delta("a"))
    assert caught.value.processor_id == "trips"


async def test_a_tripwire_naming_a_processor_keeps_that_name(mode: str) -> None:
    class Trips(Processor):
        id = "trips"

        def process_output_stream(self, args: Any) -> Any:
            raise TripWire("stop", processor_id="someone-else")

    chain, _ctx, drive = chain_for(mode, Trips())
    with pytest.raises(TripWire) as caught:
        await drive(chain, delta("a"))
    assert caught.value.processor_id == "someone-else"


async def test_a_cancelled_hook_cancels_the_chunk_instead_of_counting_as_a_raise() -> None:
    class Cancelled(Processor):
        id = "cancelled"

        async def process_output_stream(self, args: Any) -> Any:
            raise asyncio.CancelledError

    tracer = RecordingTracer()
    chain, ctx = make_chain(Cancelled(), tracer=tracer)
    with pytest.raises(asyncio.CancelledError):
        await chain.process(delta("a"))
    assert ctx.warnings == []
    chain.flush_trace()
    assert tracer.events == []


# ----------------------------------------------------------------------------------------- reprocessing
class Stash(Processor):
    """Stashes what ``plan`` gives for each call (a part, or None), and returns the part it was given."""

    id = "stash"

    def __init__(self, *plan: Any) -> None:
        self.plan = list(plan)

    def process_output_stream(self, args: Any) -> Any:
        args.state[REPROCESS_KEY] = self.plan.pop(0)
        return args.part


async def test_a_stashed_part_waits_for_reprocessing_and_leaves_the_state(mode: str) -> None:
    later = delta("later")
    stash = Stash(later, None)
    chain, ctx, drive = chain_for(mode, stash)
    first = delta("first")
    assert await drive(chain, first) is first
    assert chain.reprocess == [later]
    assert REPROCESS_KEY not in ctx.state_for("stash")
    await drive(chain, delta("second"))  # a stashed None is no part
    assert chain.reprocess == [later]
    assert REPROCESS_KEY not in ctx.state_for("stash")


async def test_a_stash_from_a_processor_that_drops_the_part_is_kept(mode: str) -> None:
    class StashAndDrop(Processor):
        id = "stash-drop"

        def process_output_stream(self, args: Any) -> Any:
            args.state[REPROCESS_KEY] = args.part
            return None

    chain, _ctx, drive = chain_for(mode, StashAndDrop())
    part = delta("a")
    assert await drive(chain, part) is None
    assert chain.reprocess == [part]


async def test_more_stashed_parts_than_the_limit_is_an_error(mode: str) -> None:
    chain, _ctx, drive = chain_for(mode, Stash(*[delta("x")] * (MAX_REPROCESS + 1)))
    for _ in range(MAX_REPROCESS):
        await drive(chain, delta("a"))
    assert len(chain.reprocess) == MAX_REPROCESS
    with pytest.raises(ProcessorContractError, match=f"more than {MAX_REPROCESS} parts stashed for reprocessing"):
        await drive(chain, delta("a"))


# ----------------------------------------------------------------------------------------- tracing
def only_event(tracer: RecordingTracer, pid: str) -> Any:
    events = [event for event in tracer.events if event.processor_id == pid]
    assert len(events) == 1
    return events[0]


async def test_a_step_of_chunks_is_one_summarised_event_per_processor() -> None:
    class Counts(Processor):
        id = "counts"

        def process_output_stream(self, args: Any) -> Any:
            args.state["n"] = args.state.get("n", 0) + 1
            return args.part

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Upper(), Counts(), tracer=tracer)
    for text in ("a", "b", "C"):
        await chain.process(delta(text))
    chain.flush_trace()
    assert [event.processor_id for event in tracer.events] == ["upper", "counts"]
    upper = tracer.events[0]
    assert upper.run_id == "run-1"
    assert upper.step_number == 3
    assert upper.hook == "process_output_stream"
    assert upper.processor_index == 0
    assert upper.outcome == "changed"
    assert upper.before == "3 chunks"
    assert upper.after == "2 changed, 0 held, 0 dropped"
    assert upper.started_at <= upper.ended_at
    stats = upper.chunk_stats
    assert stats is not None
    assert set(stats) == {"count", "changed", "held", "dropped", "aborted", "raised", "seconds", "changes"}
    assert (stats["count"], stats["changed"], stats["held"], stats["dropped"]) == (3, 2, 0, 0)
    assert stats["seconds"] >= 0
    changes = [(c["outcome"], c["before"]["payload"]["text"], c["after"]["payload"]["text"]) for c in stats["changes"]]
    assert changes == [("changed", "a", "A"), ("changed", "b", "B")]
    counts = tracer.events[1]
    assert counts.processor_index == 1
    assert counts.outcome == "passed"
    assert counts.state == {"n": 3}
    assert counts.chunk_stats is not None
    assert counts.chunk_stats["changes"] == []
    tracer.events.clear()
    chain.flush_trace()  # nothing since the last flush: no event
    assert tracer.events == []


async def test_an_equal_copy_reads_as_passed() -> None:
    class Copies(Processor):
        id = "copies"

        def process_output_stream(self, args: Any) -> Any:
            return args.part.model_copy()

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Copies(), tracer=tracer)
    await chain.process(delta("a"))
    chain.flush_trace()
    event = only_event(tracer, "copies")
    assert event.outcome == "passed"
    assert event.chunk_stats["changes"] == []


async def test_a_processor_that_saw_no_chunk_has_no_event() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(Seen("plain"), Seen("wanting", data=True), tracer=tracer)
    await chain.process(DataChunk(type="data-note", data=1))
    chain.flush_trace()
    assert [event.processor_id for event in tracer.events] == ["wanting"]


@pytest.mark.parametrize(
    ("plan", "outcome"),
    [
        (["raise", "abort"], "aborted"),
        (["drop", "raise"], "raised"),
        (["change", "drop"], "dropped"),
        (["pass", "change"], "changed"),
        (["pass", "pass"], "passed"),
    ],
)
async def test_the_steps_outcome_is_the_gravest_of_its_chunks(plan: list[str], outcome: str) -> None:
    actions = list(plan)  # the parameter is shared by every run of this test

    class Planned(Processor):
        id = "planned"

        def process_output_stream(self, args: Any) -> Any:
            action = actions.pop(0)
            if action == "raise":
                raise ValueError("broken")
            if action == "abort":
                args.abort("blocked")
            if action == "drop":
                return None
            if action == "change":
                return Upper().process_output_stream(args)
            return args.part

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Planned(), tracer=tracer)
    for text in ("a", "b"):
        with contextlib.suppress(TripWire):
            await chain.process(delta(text))
    chain.flush_trace()
    assert only_event(tracer, "planned").outcome == outcome


async def test_an_abort_and_a_raise_are_recorded_with_their_detail() -> None:
    class Aborts(Processor):
        id = "aborts"

        def process_output_stream(self, args: Any) -> Any:
            args.abort("no secrets")

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Raises(), Aborts(), tracer=tracer)
    with pytest.raises(TripWire):
        await chain.process(delta("a"))
    chain.flush_trace()
    raised = only_event(tracer, "raises").chunk_stats
    assert (raised["raised"], raised["count"]) == (1, 1)
    [change] = raised["changes"]
    assert change["outcome"] == "raised"
    assert change["detail"] == "ValueError: boom"
    assert change["before"]["payload"]["text"] == change["after"]["payload"]["text"] == "a"
    aborted = only_event(tracer, "aborts")
    assert aborted.outcome == "aborted"
    [change] = aborted.chunk_stats["changes"]
    assert (change["outcome"], change["detail"], change["after"]) == ("aborted", "no secrets", None)
    assert aborted.chunk_stats["aborted"] == 1


async def test_a_wrong_result_is_recorded_as_raised_before_the_error() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(Returns("text"), tracer=tracer)
    with pytest.raises(ProcessorContractError) as caught:
        await chain.process(delta("a"))
    chain.flush_trace()
    event = only_event(tracer, "returns")
    assert event.outcome == "raised"
    [change] = event.chunk_stats["changes"]
    assert change["detail"] == str(caught.value)
    assert change["before"]["payload"]["text"] == change["after"]["payload"]["text"] == "a"


class Buffer(Processor):
    """Holds text deltas back and lets them out, joined, on the chunk whose text ends with '.'."""

    id = "buffer"

    def process_output_stream(self, args: Any) -> Any:
        held = args.state.setdefault("held", [])
        held.append(args.part.payload.text)
        if not args.part.payload.text.endswith("."):
            return None
        text = "".join(held)
        held.clear()
        return text_delta("run-1", "t1", text)


async def test_chunks_a_buffer_let_out_later_count_as_held_not_dropped() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(Buffer(), tracer=tracer)
    outs = [await chain.process(delta(text)) for text in ("a", "b", "c.")]
    assert [text_of(out) for out in outs] == [None, None, "abc."]
    chain.flush_trace()
    event = only_event(tracer, "buffer")
    stats = event.chunk_stats
    # "abc." is the text it was given: the release changed nothing (issue 26 §7), the held chunks read "held"
    assert (stats["held"], stats["dropped"], stats["changed"]) == (2, 0, 0)
    assert [change["outcome"] for change in stats["changes"]] == ["held", "held"]
    assert event.outcome == "held"
    assert event.after == "0 changed, 2 held, 0 dropped"


async def test_a_replacement_no_longer_than_its_input_lets_nothing_out() -> None:
    class Swallows(Processor):
        """Drops the first chunk, then replaces each later one by a chunk of the same length."""

        id = "swallows"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.payload.text == "ab":
                return None
            return text_delta("run-1", "t1", "x" * len(args.part.payload.text))

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Swallows(), tracer=tracer)
    await chain.process(delta("ab"))
    await chain.process(delta("cd"))
    chain.flush_trace()
    event = only_event(tracer, "swallows")
    stats = event.chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (0, 1, 1)
    assert event.outcome == "dropped"
    assert [change["outcome"] for change in stats["changes"]] == ["dropped", "changed"]


async def test_an_earlier_chunk_let_out_late_is_held_and_the_one_it_replaces_dropped() -> None:
    class Late(Processor):
        """Holds the first chunk and returns it in place of the second."""

        id = "late"

        def process_output_stream(self, args: Any) -> Any:
            if "first" not in args.state:
                args.state["first"] = args.part
                return None
            return args.state["first"]

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Late(), tracer=tracer)
    first = delta("abcdef")
    assert await chain.process(first) is None
    assert await chain.process(delta("x")) is first
    chain.flush_trace()
    stats = only_event(tracer, "late").chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (1, 1, 0)
    assert [(c["outcome"], c["before"]["payload"]["text"], c["after"]) for c in stats["changes"]] == [
        ("held", "abcdef", None),
        ("dropped", "x", None),
    ]


async def test_an_earlier_chunk_let_out_while_the_current_one_is_stashed_passes() -> None:
    class LateAndStash(Processor):
        """Holds the first chunk; on the second, returns the first and stashes the second to come back."""

        id = "late-stash"

        def process_output_stream(self, args: Any) -> Any:
            if "first" not in args.state:
                args.state["first"] = args.part
                return None
            if args.part is args.state["first"] or args.state.get("done"):
                return args.part
            args.state["done"] = True
            args.state[REPROCESS_KEY] = args.part
            return args.state["first"]

    tracer = RecordingTracer()
    chain, _ctx = make_chain(LateAndStash(), tracer=tracer)
    first = delta("abc")
    await chain.process(first)
    assert await chain.process(delta("x")) is first
    chain.flush_trace()
    stats = only_event(tracer, "late-stash").chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (1, 0, 0)
    assert [change["outcome"] for change in stats["changes"]] == ["held"]


async def test_a_flush_by_stashing_lets_held_chunks_out() -> None:
    class Flushes(Processor):
        """Holds the first chunk; on the second, returns a new chunk no longer than it and stashes it back."""

        id = "flushes"

        def process_output_stream(self, args: Any) -> Any:
            if "held" not in args.state:
                args.state["held"] = args.part
                return None
            args.state[REPROCESS_KEY] = None if args.state.get("done") else args.part
            args.state["done"] = True
            return text_delta("run-1", "t1", "z")

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Flushes(), tracer=tracer)
    await chain.process(delta("abc"))
    await chain.process(delta("defg"))
    chain.flush_trace()
    stats = only_event(tracer, "flushes").chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (1, 0, 1)
    assert [change["outcome"] for change in stats["changes"]] == ["held", "changed"]


async def test_a_flush_stashed_beside_the_part_handed_on_unchanged_lets_held_chunks_out() -> None:
    """The carry-over shape: held text goes back through the chain as a stashed part while the current part goes
    on as it came. Nothing was dropped: the timeline shows the held chunk as held, and no drop."""

    class StashesHeld(Processor):
        """Holds text deltas; on any other part, stashes the held text as one delta and hands the part on."""

        id = "stashes-held"

        def process_output_stream(self, args: Any) -> Any:
            part = args.part
            if args.state.get("releasing") is part:  # its own flush coming back through the chain
                return part
            if part.type == "text-delta":
                args.state.setdefault("held", []).append(part.payload.text)
                return None
            flushed = text_delta("run-1", "t1", "".join(args.state.pop("held", [])))
            args.state["releasing"] = flushed
            args.state[REPROCESS_KEY] = flushed
            return part

    tracer = RecordingTracer()
    chain, _ctx = make_chain(StashesHeld(), tracer=tracer)
    await chain.process(delta("ab"))
    await chain.process(delta("c"))
    end = TextEndChunk(run_id="run-1", payload=TextPayload(id="t1"))
    assert await chain.process(end) is end
    [flushed] = chain.reprocess
    assert text_of(flushed) == "abc"
    chain.reprocess.clear()
    assert await chain.process(flushed) is flushed
    chain.flush_trace()
    event = only_event(tracer, "stashes-held")
    stats = event.chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (2, 0, 0)
    assert [change["outcome"] for change in stats["changes"]] == ["held", "held"]
    assert (event.outcome, event.after) == ("held", "0 changed, 2 held, 0 dropped")


async def test_a_part_deferred_by_stashing_it_and_let_out_unchanged_when_it_returns_is_held() -> None:
    """A processor holds a part back by stashing the part itself (returns None), and hands it on as it came when
    the loop drives it through the chain again: it went out, so it shows as held, not dropped, and the call that let
    it out as passed."""

    class Defers(Processor):
        id = "defers"

        def process_output_stream(self, args: Any) -> Any:
            if args.state.get("deferred") is args.part:
                return args.part
            args.state["deferred"] = args.part
            args.state[REPROCESS_KEY] = args.part
            return None

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Defers(), tracer=tracer)
    part = delta("abc")
    assert await chain.process(part) is None
    assert chain.reprocess == [part]
    chain.reprocess.clear()
    assert await chain.process(part) is part
    chain.flush_trace()
    event = only_event(tracer, "defers")
    stats = event.chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (1, 0, 0)
    assert [change["outcome"] for change in stats["changes"]] == ["held"]
    assert (event.outcome, event.after) == ("held", "0 changed, 1 held, 0 dropped")


async def test_a_stash_with_nothing_held_before_marks_nothing_held() -> None:
    class StashesEcho(Processor):
        """Passes every part on and stashes nothing but a copy of the first part."""

        id = "stashes-echo"

        def process_output_stream(self, args: Any) -> Any:
            if not args.state.get("done"):
                args.state["done"] = True
                args.state[REPROCESS_KEY] = args.part.model_copy()
            return args.part

    tracer = RecordingTracer()
    chain, _ctx = make_chain(StashesEcho(), tracer=tracer)
    await chain.process(delta("a"))
    chain.flush_trace()
    event = only_event(tracer, "stashes-echo")
    assert (event.chunk_stats["held"], event.chunk_stats["dropped"], event.outcome) == (0, 0, "passed")
    assert event.chunk_stats["changes"] == []


async def test_what_a_step_never_let_out_stays_dropped_after_the_flush() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(Buffer(), tracer=tracer)
    await chain.process(delta("a"))
    chain.flush_trace()
    await chain.process(delta("b."))  # the next step's summary starts afresh
    chain.flush_trace()
    first, second = tracer.events
    assert (first.chunk_stats["dropped"], first.chunk_stats["held"], first.outcome) == (1, 0, "dropped")
    assert (second.chunk_stats["dropped"], second.chunk_stats["held"], second.outcome) == (0, 0, "changed")


async def test_a_changed_chunk_without_text_lets_no_held_text_out() -> None:
    class Relabels(Processor):
        """Holds text back; hands every other chunk on as a changed copy."""

        id = "relabels"
        process_data_parts = True

        def process_output_stream(self, args: Any) -> Any:
            part = args.part
            if part.type == "text-delta":
                return None
            if isinstance(part, DataChunk):
                return DataChunk(type=part.type, data="relabelled")
            return part.model_copy(update={"payload": part.payload.model_copy(update={"message_id": "relabelled"})})

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Relabels(), tracer=tracer)
    await chain.process(delta("abc"))
    out = await chain.process(DataChunk(type="data-note", data=1))
    assert out is not None
    assert out.data == "relabelled"  # type: ignore[union-attr]
    start = await chain.process(StepStartChunk(run_id="run-1", payload=StepStartPayload(message_id="m1")))
    assert start is not None
    assert start.payload.message_id == "relabelled"  # type: ignore[union-attr]
    chain.flush_trace()
    stats = only_event(tracer, "relabels").chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (0, 1, 2)


async def test_held_text_let_out_in_place_of_a_chunk_without_text_counts_as_held() -> None:
    class FlushOnData(Processor):
        """Holds text back and lets it out in place of the next data chunk."""

        id = "flush-on-data"
        process_data_parts = True

        def process_output_stream(self, args: Any) -> Any:
            held = args.state.setdefault("held", [])
            if args.part.type == "text-delta":
                held.append(args.part.payload.text)
                return None
            text = "".join(held)
            held.clear()
            return text_delta("run-1", "t1", text)

    tracer = RecordingTracer()
    chain, _ctx = make_chain(FlushOnData(), tracer=tracer)
    await chain.process(delta("a"))
    out = await chain.process(DataChunk(type="data-flush", data=None))
    assert text_of(out) == "a"
    chain.flush_trace()
    stats = only_event(tracer, "flush-on-data").chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (1, 0, 0)  # "a" came out as it went in


async def test_a_part_deferred_by_stashing_lets_no_held_text_out() -> None:
    class Defers(Processor):
        """Holds the first chunk back; defers the second (drops it and stashes it to come back later)."""

        id = "defers"

        def process_output_stream(self, args: Any) -> Any:
            if args.state.setdefault("calls", 0) == 1:
                args.state[REPROCESS_KEY] = args.part
            args.state["calls"] += 1
            return None

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Defers(), tracer=tracer)
    await chain.process(delta("a"))
    second = delta("b")
    await chain.process(second)
    assert chain.reprocess == [second]
    chain.flush_trace()
    stats = only_event(tracer, "defers").chunk_stats
    assert (stats["held"], stats["dropped"]) == (0, 2)


async def test_the_time_spent_is_within_the_time_the_chunks_took() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(Upper(), tracer=tracer)
    started = time.perf_counter()
    for text in ("a", "b", "c"):
        await chain.process(delta(text))
    elapsed = time.perf_counter() - started
    chain.flush_trace()
    seconds = only_event(tracer, "upper").chunk_stats["seconds"]
    assert 0 < seconds <= elapsed


async def test_held_chunks_add_up_over_several_releases_in_a_step() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(Buffer(), tracer=tracer)
    outs = [await chain.process(delta(text)) for text in ("a", "b.", "c", "d.")]
    assert [text_of(out) for out in outs] == [None, "ab.", None, "cd."]
    chain.flush_trace()
    stats = only_event(tracer, "buffer").chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (2, 0, 0)


async def test_a_breakpoint_pauses_the_chunk_with_the_run_and_step_and_takes_the_edited_part() -> None:
    pauses: list[Pause] = []

    def on_pause(pause: Pause) -> None:
        pauses.append(pause)
        pause.resume(part=delta("edited"))

    debugger = Debugger([Breakpoint(hook="process_output_stream", step_number=3)], on_pause=on_pause)
    seen = Seen()
    chain, ctx = make_chain(seen)
    ctx.debugger = debugger
    out = await chain.process(delta("original"))
    assert [(p.run_id, p.step_number, p.hook, p.processor_id) for p in pauses] == [
        ("run-1", 3, "process_output_stream", "seen")
    ]
    assert text_of(out) == "edited"
    assert [text_of(part) for part in seen.parts] == ["edited"]


async def test_the_hook_sees_the_parts_so_far_and_the_runs_message_list(mode: str) -> None:
    seen: list[tuple[int, bool]] = []
    messages = MessageList()

    class Looks(Processor):
        id = "looks"

        def process_output_stream(self, args: Any) -> Any:
            seen.append((len(args.stream_parts), args.message_list is messages))
            return args.part

    ctx = RunContext(
        run_id="run-1",
        request_context=RequestContext(),
        writer=StreamWriter(lambda _chunk: None),
        tracer=TraceHub([RecordingTracer()] if mode == "traced" else []),
        abort_signal=asyncio.Event(),
    )
    chain = StreamChain(ctx, [Entry(Looks(), 0)], messages)
    for text in ("a", "b"):
        await (_sync if mode == "sync" else _general)(chain, delta(text))
    assert seen == [(1, True), (2, True)]
