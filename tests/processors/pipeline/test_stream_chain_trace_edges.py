"""The stream chain's trace at its edges (``processors.pipeline.stream_chain``): what the inspector shows of one
processor's chunks in a step. Each test pins a behaviour issue 25's mutation run found unchecked (tests/README.md):
an equal copy of a chunk without text reads "passed", a coded abort keeps its code and values beside its English,
what a processor dropped stays dropped when it raises on a later chunk, a longer text handed on lets held text
out, and the time spent adds up over the step's chunks; and a user's pattern that ran out of time ends the stream
naming the processor and the hook, recorded as raised with nothing handed on."""

from __future__ import annotations

import time
from typing import Any

import pytest

from processors import Processor, TripWire
from processors.chunks import ReasoningDeltaChunk, StepStartChunk, StepStartPayload, TextDeltaPayload, text_delta
from processors.errors import PatternTimeoutError
from processors.pipeline.stream_chain import REPROCESS_KEY
from processors.tracing import RecordingTracer
from tests.processors.pipeline.test_stream_chain import chain_for, delta, make_chain, mode, only_event

__all__ = ["mode"]  # the fixture: each chain test runs on the sync, general and traced paths


async def test_an_equal_copy_of_a_chunk_without_text_reads_as_passed() -> None:
    class Copies(Processor):
        id = "copies"

        def process_output_stream(self, args: Any) -> Any:
            return args.part.model_copy()

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Copies(), tracer=tracer)
    step_start = StepStartChunk(run_id="run-1", payload=StepStartPayload(message_id="m1"))
    await chain.process(step_start)
    chain.flush_trace()
    event = only_event(tracer, "copies")
    assert (event.outcome, event.chunk_stats["changed"], event.chunk_stats["changes"]) == ("passed", 0, [])


async def test_a_coded_abort_keeps_its_code_and_values_in_the_chunk_change() -> None:
    class Limits(Processor):
        id = "limits"

        def process_output_stream(self, args: Any) -> Any:
            args.abort("Over the limit of 3", code="Limits.over", params={"limit": 3})

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Limits(), tracer=tracer)
    with pytest.raises(TripWire):
        await chain.process(delta("a"))
    chain.flush_trace()
    [change] = only_event(tracer, "limits").chunk_stats["changes"]
    assert (change["outcome"], change["detail"]) == ("aborted", "Over the limit of 3")
    assert (change["code"], change["params"]) == ("Limits.over", {"limit": 3})


async def test_an_abort_without_a_code_has_no_code_in_the_chunk_change() -> None:
    class Aborts(Processor):
        id = "aborts"

        def process_output_stream(self, args: Any) -> Any:
            args.abort("no secrets")

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Aborts(), tracer=tracer)
    with pytest.raises(TripWire):
        await chain.process(delta("a"))
    chain.flush_trace()
    [change] = only_event(tracer, "aborts").chunk_stats["changes"]
    assert change == {
        "outcome": "aborted",
        "before": delta("a").to_wire(),
        "after": None,
        "detail": "no secrets",
    }


async def test_a_chunk_passed_on_unchanged_has_no_detail() -> None:
    class Drops(Processor):
        id = "drops"

        def process_output_stream(self, args: Any) -> Any:
            return None

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Drops(), tracer=tracer)
    await chain.process(delta("a"))
    chain.flush_trace()
    [change] = only_event(tracer, "drops").chunk_stats["changes"]
    assert (change["outcome"], change["detail"]) == ("dropped", None)
    assert "code" not in change


async def test_what_a_processor_dropped_stays_dropped_when_it_raises_on_a_later_chunk() -> None:
    class DropsThenRaises(Processor):
        id = "drops-then-raises"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.payload.text == "a":
                return None
            raise ValueError("boom")

    tracer = RecordingTracer()
    chain, _ctx = make_chain(DropsThenRaises(), tracer=tracer)
    assert await chain.process(delta("a")) is None
    assert (await chain.process(delta("b"))).payload.text == "b"  # type: ignore[union-attr]  # passed on unchanged
    chain.flush_trace()
    stats = only_event(tracer, "drops-then-raises").chunk_stats
    assert (stats["dropped"], stats["held"], stats["raised"]) == (1, 0, 1)
    assert [change["outcome"] for change in stats["changes"]] == ["dropped", "raised"]


async def test_a_longer_text_in_place_of_a_later_chunk_lets_held_text_out() -> None:
    class Swallows(Processor):
        """Drops the first chunk, then replaces the next by a longer text that is not the text it was given."""

        id = "swallows"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.payload.text == "ab":
                return None
            return text_delta("run-1", "t1", "x" * (len(args.part.payload.text) + 1))

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Swallows(), tracer=tracer)
    await chain.process(delta("ab"))
    await chain.process(delta("cd"))
    chain.flush_trace()
    stats = only_event(tracer, "swallows").chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (1, 0, 1)
    assert [change["outcome"] for change in stats["changes"]] == ["held", "changed"]


async def test_a_chunk_without_text_in_place_of_an_empty_delta_lets_no_held_text_out() -> None:
    class Marks(Processor):
        """Drops text; hands a step-start on in place of an empty text delta (a delta without text adds none)."""

        id = "marks"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.payload.text:
                return None
            return StepStartChunk(run_id="run-1", payload=StepStartPayload(message_id="m1"))

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Marks(), tracer=tracer)
    await chain.process(delta("abc"))
    await chain.process(delta(""))
    chain.flush_trace()
    stats = only_event(tracer, "marks").chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (0, 1, 1)


async def test_text_let_out_in_place_of_a_longer_reasoning_delta_counts_as_held() -> None:
    class HoldsText(Processor):
        """Holds text back and lets it out, as a text delta of its own, in place of the next reasoning delta."""

        id = "holds-text"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.type == "text-delta":
                return None
            return text_delta("run-1", "t1", "ab")

    tracer = RecordingTracer()
    chain, _ctx = make_chain(HoldsText(), tracer=tracer)
    await chain.process(delta("ab"))
    reasoning = ReasoningDeltaChunk(run_id="run-1", payload=TextDeltaPayload(id="r1", text="thinking"))
    out = await chain.process(reasoning)
    assert out is not None and out.payload.text == "ab"  # type: ignore[union-attr]
    chain.flush_trace()
    stats = only_event(tracer, "holds-text").chunk_stats
    assert (stats["held"], stats["dropped"]) == (1, 0)


async def test_a_chunk_passed_on_as_it_came_leaves_held_text_waiting() -> None:
    class HoldsFirst(Processor):
        """Holds the first chunk, passes the second as it came, lets the first out in place of the third."""

        id = "holds-first"

        def process_output_stream(self, args: Any) -> Any:
            calls = args.state["calls"] = args.state.get("calls", 0) + 1
            if calls == 1:
                return None
            if calls == 2:
                return args.part
            return text_delta("run-1", "t1", "a")

    tracer = RecordingTracer()
    chain, _ctx = make_chain(HoldsFirst(), tracer=tracer)
    for text in ("a", "b", "c"):
        await chain.process(delta(text))
    chain.flush_trace()
    stats = only_event(tracer, "holds-first").chunk_stats
    # "a" went out in place of "c" (which stays held): nothing was dropped for good
    assert (stats["held"], stats["dropped"], stats["changed"]) == (2, 0, 0)


async def test_a_part_deferred_by_stashing_is_not_counted_twice_as_text_waiting() -> None:
    class DefersFirst(Processor):
        """Defers the first part (stashes it to come back), hands it on as it came when it returns, then hands
        each later part on as a copy with the same text under another id."""

        id = "defers-first"

        def process_output_stream(self, args: Any) -> Any:
            if "deferred" not in args.state:
                args.state["deferred"] = args.state[REPROCESS_KEY] = args.part
                return None
            if args.part is args.state["deferred"]:
                return args.part
            return text_delta("run-1", "t2", args.part.payload.text)

    tracer = RecordingTracer()
    chain, _ctx = make_chain(DefersFirst(), tracer=tracer)
    first = delta("abc")
    assert await chain.process(first) is None
    chain.reprocess.clear()
    assert await chain.process(first) is first
    assert (await chain.process(delta("d"))).payload.text == "d"  # type: ignore[union-attr]
    chain.flush_trace()
    stats = only_event(tracer, "defers-first").chunk_stats
    # the copy carries the text it was given: it moved no text, so it reads "passed" (no change recorded)
    assert (stats["held"], stats["dropped"], stats["changed"]) == (1, 0, 0)


async def test_the_time_spent_adds_up_over_the_steps_chunks() -> None:
    class SlowFirst(Processor):
        """Takes at least ``PAUSE`` seconds over the first chunk, nothing over the others."""

        id = "slow-first"

        def __init__(self) -> None:
            self.calls = 0

        def process_output_stream(self, args: Any) -> Any:
            self.calls += 1
            if self.calls == 1:
                time.sleep(PAUSE)
            return args.part

    tracer = RecordingTracer()
    chain, _ctx = make_chain(SlowFirst(), tracer=tracer)
    for text in ("a", "b", "c"):
        await chain.process(delta(text))
    chain.flush_trace()
    # a lower bound only (a sleep lasts at least its time): the total counts the first chunk's pause
    assert only_event(tracer, "slow-first").chunk_stats["seconds"] >= PAUSE


PAUSE = 0.05


class SlowPattern(Processor):
    """A guard whose user pattern ran out of time on the chunk (as ``processors.user_patterns`` raises it)."""

    id = "slow-guard"

    def process_output_stream(self, args: Any) -> Any:
        raise PatternTimeoutError("slow-ab", 0.5, len(args.part.payload.text))


async def test_a_pattern_timeout_ends_the_stream_naming_the_processor_and_the_hook(mode: str) -> None:
    chain, _ctx, drive = chain_for(mode, SlowPattern())
    with pytest.raises(PatternTimeoutError) as raised:
        await drive(chain, delta("abab"))
    assert (raised.value.processor_id, raised.value.hook) == ("slow-guard", "process_output_stream")
    assert raised.value.rule == "slow-ab"


async def test_a_pattern_timeout_keeps_the_processor_and_hook_it_was_raised_with(mode: str) -> None:
    class Named(Processor):
        id = "outer"

        def process_output_stream(self, args: Any) -> Any:
            raise PatternTimeoutError("slow-ab", 0.5, 4, processor_id="inner", hook="process_output_result")

    chain, _ctx, drive = chain_for(mode, Named())
    with pytest.raises(PatternTimeoutError) as raised:
        await drive(chain, delta("abab"))
    assert (raised.value.processor_id, raised.value.hook) == ("inner", "process_output_result")


async def test_a_pattern_timeout_is_recorded_as_raised_with_nothing_handed_on() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(SlowPattern(), tracer=tracer)
    with pytest.raises(PatternTimeoutError) as raised:
        await chain.process(delta("abab"))
    chain.flush_trace()
    event = only_event(tracer, "slow-guard")
    assert (event.outcome, event.chunk_stats["raised"], event.chunk_stats["count"]) == ("raised", 1, 1)
    [change] = event.chunk_stats["changes"]
    assert change == {
        "outcome": "raised",
        "before": delta("abab").to_wire(),
        "after": None,
        "detail": str(raised.value),
    }
    assert "slow-ab" in change["detail"]
