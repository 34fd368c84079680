"""The carry-over buffer's window, schedule and bounds, pinned exactly (``processors/builtin/split_across_chunks.py``).

What a guarded reply shows while it streams depends on three promises of :class:`CarryOver`: it scans again only
once ``batch`` more characters wait (small deltas cost one scan per batch), it never holds more than ``max_hold``
characters (at least four times ``carry``: a value that keeps growing cannot stall the reply for ever), and it holds
back whole any candidate still touching the end of the text (it may grow), but lets out at once one the window has
passed. The detectors' split-fuzz tests prove the text is the same however a reply is cut; these tests say *when*
each piece goes out, and that a judge is never asked about an empty piece.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from processors.builtin.patterns import Match
from processors.builtin.split_across_chunks import CONTEXT_CHARS, CarryOver, stream_part, stream_part_async
from processors.chunks import AnyChunk, chunk_from_wire
from processors.pipeline.stream_chain import REPROCESS_KEY
from tests.processors.helpers import text_delta


def emails(text: str) -> list[Match]:
    return [Match("email", m.start(), m.end(), m.group()) for m in re.finditer(r"\S+@\S+\.\w+", text)]


def nothing(_text: str) -> list[Match]:
    return []


def growing(text: str) -> list[Match]:
    """A candidate that always reaches the end of the text: a value that never stops growing."""
    return [Match("x", 0, len(text), text)]


def segments(pieces: list[tuple[str, list[Match]]]) -> list[str]:
    return [segment for segment, _found in pieces]


# ------------------------------------------------------------------------------------------------ the schedule
def test_after_a_scan_the_next_waits_for_batch_more_characters() -> None:
    """One character a delta: nothing goes out until more than ``carry`` wait, then a scan every ``batch``."""
    buffer = CarryOver(carry=4, batch=3)
    out = ["".join(segments(buffer.feed(char, nothing))) for char in "abcdefghijkl"]
    assert out == ["", "", "", "", "a", "", "", "bcd", "", "", "efg", ""]
    assert buffer.pending == "hijkl"


def test_a_scan_that_lets_nothing_out_also_waits_for_batch_more_characters() -> None:
    buffer = CarryOver(carry=0, batch=3)
    assert buffer.feed("jo@x.io", emails) == []  # touches the end: it may grow into jo@x.iota
    assert buffer.feed(" ", emails) == []  # one character since the scan: no scan yet
    assert segments(buffer.feed("ok", emails)) == ["jo@x.io ok"]


# ------------------------------------------------------------------------------------------------ the window
def test_a_candidate_touching_the_end_is_held_whole_even_without_a_window() -> None:
    buffer = CarryOver(carry=0, batch=0)
    assert segments(buffer.feed("write to jo@exa.co", emails)) == ["write to "]
    assert buffer.pending == "jo@exa.co"
    pieces = buffer.feed("m today", emails)
    assert pieces == [("jo@exa.com today", [Match("email", 0, 10, "jo@exa.com")])]


def test_a_whole_candidate_the_window_has_passed_goes_out_at_once() -> None:
    """The address "jo@x.io" ends where the window of four starts: it is whole, so it goes out with the text."""
    buffer = CarryOver(carry=4, batch=0)
    pieces = buffer.feed("Mail jo@x.io abc", emails)
    assert pieces == [("Mail jo@x.io", [Match("email", 5, 12, "jo@x.io")])]
    assert buffer.pending == " abc"


def test_the_cut_backs_off_through_overlapping_candidates_until_none_is_cut() -> None:
    """B crosses the window's edge, so the cut moves to its start, which falls inside A: it moves again."""
    text = "0123456789abcdefghijklmnopqrstuv"  # 32 characters; the window of 12 starts at 20

    def overlapping(full: str) -> list[Match]:
        return [Match("a", 5, 15, full[5:15]), Match("b", 10, 25, full[10:25])]

    buffer = CarryOver(carry=12, batch=0)
    assert segments(buffer.feed(text, overlapping)) == ["01234"]
    assert buffer.pending == text[5:]


# ------------------------------------------------------------------------------------------------ the bounds
def test_max_hold_is_at_least_four_windows_and_text_goes_out_one_character_past_it() -> None:
    state: dict[str, Any] = {}
    buffer = CarryOver.of(state, "k", carry=100, max_hold=200, batch=1)
    assert buffer.max_hold == 400 and buffer.batch == 1
    assert buffer.feed("a" * 400, growing) == []
    assert segments(buffer.feed("a", growing)) == ["a" * 301]  # all but the window: a possible split accepted
    assert len(buffer.pending) == 100
    assert CarryOver.of(state, "k", carry=1, max_hold=1) is buffer  # the state keeps the buffer of the run


def test_by_default_a_buffer_holds_at_most_16384_characters() -> None:
    buffer = CarryOver.of({}, "k", carry=10, batch=1)
    assert buffer.feed("a" * 16_384, growing) == []
    assert segments(buffer.feed("a", growing)) == ["a" * 16_375]


def test_a_chunk_waiting_after_more_than_the_remembered_context_goes_out_in_its_place() -> None:
    """Positions count from the step's start, while only CONTEXT_CHARS of what went out are kept."""
    buffer = CarryOver(carry=0, batch=0)
    first = "x" * (CONTEXT_CHARS + 12)
    assert segments(buffer.feed(first, nothing, final=True)) == [first]
    assert segments(buffer.feed("abcdef", nothing, final=True, stops=[len(first) + 3])) == ["abc", "def"]


# ------------------------------------------------------------------------------------------------ the hook
def wire(kind: str, **payload: Any) -> AnyChunk:
    return chunk_from_wire({"type": kind, "runId": "r", "from": "AGENT", "payload": payload})


def shown(part: AnyChunk | None) -> str | None:
    if part is None:
        return None
    return part.payload.text if part.type == "text-delta" else part.type  # type: ignore[attr-defined]


class Hook:
    """Drives :func:`stream_part` (or its async twin) by hand: what goes out for each part the model sends, the
    stashed parts re-driven at once as the runtime does, and every segment the handler was asked about."""

    def __init__(self, buffer: CarryOver, find: Any = nothing, *, judged: bool = False) -> None:
        self.buffer, self.find, self.judged = buffer, find, judged
        self.state: dict[str, Any] = {}
        self.asked: list[str] = []

    def handle(self, segment: str, _found: list[Match]) -> str:
        self.asked.append(segment)
        return segment

    async def judge(self, segment: str, found: list[Match]) -> str:
        await asyncio.sleep(0)
        return self.handle(segment, found)

    def send(self, part: AnyChunk) -> list[str | None]:
        """What goes out: the hook's answer to ``part``, then to each part it stashed."""
        out = []
        while True:
            if self.judged:
                result = asyncio.run(stream_part_async(part, self.state, self.buffer, self.find, self.judge))
            else:
                result = stream_part(part, self.state, self.buffer, self.find, self.handle)
            out.append(shown(result))
            if REPROCESS_KEY not in self.state:
                return out
            part = self.state.pop(REPROCESS_KEY)


def test_text_queued_behind_a_chunk_goes_out_with_the_next_delta() -> None:
    for judged in (False, True):
        hook = Hook(CarryOver(carry=4, batch=8), judged=judged)
        assert hook.send(text_delta("abcdefgh")) == ["abcd"]
        assert hook.send(wire("reasoning-delta", id="r1", text="hmm")) == [None]  # waits behind "efgh"
        assert hook.send(text_delta("ijklmnop")) == ["efgh", "reasoning-delta"]  # "ijkl" queued behind them
        assert hook.send(text_delta("q")) == ["ijkl"]  # no scan yet (batch), but the queue empties
        assert hook.send(wire("text-end", id="t1")) == ["mnopq", "text-end"]


def test_the_handler_is_never_asked_about_an_empty_segment() -> None:
    """Two chunks waiting at one place make an empty segment between them: a judge would be called for nothing."""
    for judged in (False, True):
        hook = Hook(CarryOver(carry=100, batch=0), judged=judged)
        assert hook.send(text_delta("Hello")) == [None]
        hook.send(wire("reasoning-delta", id="r1", text="a"))
        hook.send(wire("reasoning-delta", id="r1", text="b"))
        assert hook.send(wire("text-end", id="t1")) == ["Hello", "reasoning-delta", "reasoning-delta", "text-end"]
        assert hook.asked == ["Hello"]

        hook = Hook(CarryOver(carry=2, batch=0), judged=judged)
        assert hook.send(text_delta("Hel")) == ["H"]
        hook.send(wire("reasoning-delta", id="r1", text="a"))
        hook.send(wire("reasoning-delta", id="r1", text="b"))
        assert hook.send(text_delta("lo there")) == ["el", "reasoning-delta", "reasoning-delta"]
        assert hook.send(wire("text-end", id="t1")) == ["lo the", "re", "text-end"]
        assert hook.asked == ["H", "el", "lo the", "re"]
