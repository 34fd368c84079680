"""Carry-over buffering for stream detectors: find values split across ``text-delta`` chunks.

A detector that scans each chunk alone misses ``"jo@exa"`` + ``"mple.com"``. :class:`CarryOver` keeps the
trailing text that could still be the start of a match, emits the safe prefix as the text arrives, and flushes
the rest when a chunk ends the text run (``text-end``, ``step-finish``, ``finish``, ``error`` ...). Every other chunk
(a thinking model's reasoning between two text deltas, a ``data-*`` chunk) follows the one hold-back behaviour of
:mod:`processors.builtin.held_chunk_order`, shared with RegexFilter: it waits behind the held text, in its place, and
goes out once the text the model sent before it has, so an address cut in two by reasoning is still found whole and the
stream keeps the model's order. The cut never falls inside a candidate match, and a candidate that touches the end
of the buffer (a URL still growing) is held back whole, so — for matches shorter than ``carry`` — the text emitted
is the same however the stream was split. A chunk waiting inside a candidate goes out after it (a match goes out
whole), and where the cuts are limited (a judge that decides on whole sentences) at the first cut allowed after it.

What is held back is bounded by what could still match, so a guarded reply still streams: ``carry`` is the
longest fragment a detector may need before a match is recognisable (``patterns.max_span`` for the regex
kinds), or a ``hold`` function says exactly where the text that could still match begins (the scrubber: the
trailing words that start an instruction shingle). After a scan the buffer scans again once ``batch`` more
characters arrived, so small deltas cost one scan per ``batch`` characters, not one per chunk.

A stream hook returns one chunk per call, so when more than one part is ready (the text before a waiting chunk,
the chunk, the text after it; or the flushed text, then the chunk that ended the text run) the first goes out and
the next chunk that is not text is stashed in ``state["__reprocess_part"]``: the runtime emits the returned part,
then drives the stashed one through the whole chain again (Mastra's reprocess key, B-65), and the detector lets
out the next part then.

    buffer = CarryOver.of(args.state, "pii", carry=128)
    pieces = buffer.feed(text, finder)      # [(segment, candidates inside it, segment-relative), ...]
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from processors.builtin.held_chunk_order import HoldBack
from processors.builtin.patterns import Match
from processors.chunks import AnyChunk, Chunk, StepStartChunk, TextDeltaChunk
from processors.pipeline.stream_chain import REPROCESS_KEY

#: How much already-emitted text is kept as left context (for look-behinds and keyword windows).
CONTEXT_CHARS = 48
#: Characters between two scans of the held-back text: small, so a reply streams a few words at a time.
BATCH = 16

Finder = Callable[[str], list[Match]]
#: Turns one safe segment and the candidates inside it into the text to emit ("" drops it). May abort.
SegmentHandler = Callable[[str, list[Match]], str]
AsyncSegmentHandler = Callable[[str, list[Match]], Awaitable[str]]
#: Safe segments, each with the candidates inside it (segment-relative); a waiting chunk goes out between two.
Pieces = list[tuple[str, list[Match]]]


@dataclass
class CarryOver:
    """Held-back stream text of one processor for one run (kept in the processor's ``state``)."""

    carry: int
    max_hold: int = 16_384
    #: Scan again only once this many characters arrived since the last scan (and beyond ``carry``).
    batch: int = BATCH
    pending: str = ""
    context: str = ""
    template: Chunk | None = field(default=None, repr=False)
    #: Optional extra limit: ``(full_text, offset, cut) -> a cut at most that large`` (e.g. a sentence end).
    limit: Callable[[str, int, int], int] | None = field(default=None, repr=False)
    #: Optional exact window: ``(full_text, offset) -> the first index that could still become part of a match``.
    #: Replaces the fixed ``carry`` window (``carry`` then only says how much must wait before the first scan).
    hold: Callable[[str, int], int] | None = field(default=None, repr=False)
    #: ``len(pending)`` at which the next scan happens.
    next_scan: int = 0
    #: Characters of the step's text let out so far (``pending`` starts there).
    emitted: int = 0
    #: The chunks waiting behind the held text and the parts ready to go out
    #: (:mod:`~processors.builtin.held_chunk_order`).
    parts: HoldBack = field(default_factory=HoldBack, repr=False)

    @classmethod
    def of(
        cls,
        state: dict[str, Any],
        key: str,
        *,
        carry: int,
        max_hold: int = 16_384,
        batch: int = BATCH,
        limit: Callable[[str, int, int], int] | None = None,
    ) -> CarryOver:
        buffer = state.get(key)
        if not isinstance(buffer, CarryOver):
            buffer = state[key] = cls(carry=carry, max_hold=max(max_hold, carry * 4), batch=batch, limit=limit)
        return buffer

    def reset(self) -> None:
        self.pending = ""
        self.context = ""
        self.template = None
        self.next_scan = 0
        self.emitted = 0
        self.parts.reset()

    def feed(self, text: str, find: Finder, *, final: bool = False, stops: Sequence[int] = ()) -> Pieces:
        """Add ``text``; return the text safe to emit, as segments with the candidates inside each: one segment more
        than the ``stops`` it lets out (positions in the step's text where a chunk waits), or none.

        Nothing is scanned until more than ``carry`` characters wait (only then could any be released), nor
        before ``batch`` more arrived since the last scan (so a stream of small deltas is scanned once per
        ``batch`` characters, not once per chunk).
        """
        self.pending += text
        waiting = len(self.pending)
        if not final and (waiting <= self.carry or waiting < self.next_scan):
            return []
        offset = len(self.context)
        full = self.context + self.pending
        end = len(full)
        candidates = [m for m in find(full) if m.start >= offset] if self.pending else []
        if final:
            cut = end
        else:
            cut = max(offset, end - self.carry if self.hold is None else min(end, self.hold(full, offset)))
            if self.limit is not None:
                cut = max(offset, min(cut, self.limit(full, offset, cut)))
            moved = True
            while moved and cut > offset:
                moved = False
                for match in candidates:
                    # inside the cut, or touching the end (it may still grow): hold it back whole
                    if match.start < cut and (match.end > cut or match.end >= end):
                        cut = max(offset, match.start)
                        moved = True
            if cut == offset and len(self.pending) > self.max_hold:
                cut = end - self.carry  # never hold more than max_hold: emit, accepting a possible split
        if cut == offset:  # nothing goes out, so no chunk waiting behind it either
            self.next_scan = len(self.pending) + self.batch
            return []
        bounds = []
        base = self.emitted - offset  # the step's text position of ``full[0]``
        for stop in stops:
            at = self._stop(full, offset, stop - base, cut, candidates)
            if at > cut:
                break
            bounds.append(at)
        bounds.append(cut)
        pieces: Pieces = []
        start = offset
        for bound in bounds:
            inside = [Match(m.kind, m.start - start, m.end - start, m.value) for m in candidates
                      if m.start >= start and m.end <= bound]  # fmt: skip
            pieces.append((full[start:bound], inside))
            start = bound
        self.pending = full[cut:]
        self.context = (self.context + full[offset:cut])[-CONTEXT_CHARS:]
        self.emitted += cut - offset
        self.next_scan = len(self.pending) + self.batch
        return pieces

    def waits(self, part: TextDeltaChunk) -> bool:
        """The per-chunk hot path of :func:`stream_part`: True when ``part``'s text only waits (fewer than ``batch``
        characters came since the last scan and no part is ready to go out), taken as :meth:`feed` takes it; False,
        nothing taken, when it is :func:`stream_part`'s to handle. Saves the scan stops and the call layers on the
        ~2 chunks in 3 that only wait."""
        if self.parts.queue:
            return False
        text = part.payload.text
        waiting = len(self.pending) + len(text)
        if waiting > self.carry and waiting >= self.next_scan:
            return False
        self.template = part
        self.pending += text
        return True

    def _stop(self, full: str, offset: int, at: int, cut: int, candidates: list[Match]) -> int:
        """Where a chunk that came at ``at`` goes out: there, or after the candidate it falls inside, or (with a
        ``limit``) at the first cut allowed from there on; past ``cut`` when it must wait on."""
        moved = True
        while moved and at <= cut:
            moved = False
            for match in candidates:
                if match.start < at < match.end:
                    at = match.end
                    moved = True
            if self.limit is not None and at < cut:
                allowed = cut
                while allowed > at:  # the cuts allowed below ``cut``, downwards, while they stay at or after ``at``
                    lower = self.limit(full, offset, allowed - 1)
                    if lower < at:
                        break
                    allowed = lower
                moved = moved or allowed != at
                at = allowed
        return at

    def flush(self, find: Finder, stops: Sequence[int] = ()) -> Pieces:
        return self.feed("", find, final=True, stops=stops)

    def delta(self, text: str) -> Chunk:
        """A ``text-delta`` carrying ``text``, shaped like the last delta this buffer saw (text goes out only after
        a delta came: ``reset`` forgets the template and the held text together)."""
        assert self.template is not None
        return self.template.with_payload(text=text)

    def stops(self) -> list[int]:
        return [position for position, _chunk in self.parts.waiting]

    def assemble(self, texts: list[str]) -> list[AnyChunk]:
        """The handled texts of :meth:`feed`'s segments, with the waiting chunks let out between them."""
        out: list[AnyChunk] = []
        waiting = self.parts.waiting
        for index, text in enumerate(texts):
            if index:
                out.append(waiting.pop(0)[1])
            if text:
                out.append(self.delta(text))
        return out


def stream_part(
    part: AnyChunk, state: dict[str, Any], buffer: CarryOver, find: Finder, handle: SegmentHandler
) -> AnyChunk | None:
    """The whole stream hook for a carry-over detector (sync). See the module docstring."""
    if isinstance(part, TextDeltaChunk):
        if buffer.waits(part):  # the common case: the text waits (the per-chunk hot path)
            return None
        buffer.template = part
        pieces = buffer.feed(part.payload.text, find, stops=buffer.stops())
        if not pieces and not buffer.parts.queue:  # scanned, and nothing can go out yet
            return None
        return buffer.parts.send(state, buffer.assemble([handle(s, f) if s else "" for s, f in pieces]))
    if isinstance(part, StepStartChunk):
        buffer.reset()
        return part
    decided, result = buffer.parts.settle(
        state, part, holding=bool(buffer.pending), position=buffer.emitted + len(buffer.pending)
    )
    if decided:
        return result
    pieces = buffer.flush(find, buffer.stops())
    return buffer.parts.send(state, [*buffer.assemble([handle(s, f) if s else "" for s, f in pieces]), part])


async def stream_part_async(
    part: AnyChunk, state: dict[str, Any], buffer: CarryOver, find: Finder, handle: AsyncSegmentHandler
) -> AnyChunk | None:
    """:func:`stream_part` for detectors whose segment handler awaits (a model judge)."""
    if isinstance(part, TextDeltaChunk):
        if buffer.waits(part):  # the common case: the text waits (the per-chunk hot path)
            return None
        buffer.template = part
        pieces = buffer.feed(part.payload.text, find, stops=buffer.stops())
        if not pieces and not buffer.parts.queue:
            return None
        return buffer.parts.send(state, buffer.assemble([await handle(s, f) if s else "" for s, f in pieces]))
    if isinstance(part, StepStartChunk):
        buffer.reset()
        return part
    decided, result = buffer.parts.settle(
        state, part, holding=bool(buffer.pending), position=buffer.emitted + len(buffer.pending)
    )
    if decided:
        return result
    pieces = buffer.flush(find, buffer.stops())
    return buffer.parts.send(state, [*buffer.assemble([await handle(s, f) if s else "" for s, f in pieces]), part])


__all__ = [
    "BATCH",
    "CONTEXT_CHARS",
    "REPROCESS_KEY",
    "CarryOver",
    "Finder",
    "stream_part",
    "stream_part_async",
]
