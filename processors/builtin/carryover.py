"""Carry-over buffering for stream detectors: find values split across ``text-delta`` chunks.

A detector that scans each chunk alone misses ``"jo@exa"`` + ``"mple.com"``. :class:`CarryOver` keeps the
trailing text that could still be the start of a match, emits the safe prefix as the text arrives, and flushes
the rest at ``text-end`` (or any other chunk that ends the text: ``finish``, ``step-finish``, a tool call). A
thinking model's reasoning between two text deltas does not end the text: it passes and the held text waits on, so
an address cut in two by reasoning is still found whole (the held text then follows the reasoning: the text keeps
its order, only its place beside the reasoning moves; letting it out first showed half an address). The cut never falls
inside a candidate match, and a candidate that touches the end of the buffer (a URL still growing) is held back
whole, so — for matches shorter than ``carry`` — the text emitted is the same however the stream was split.

What is held back is bounded by what could still match, so a guarded reply still streams: ``carry`` is the
longest fragment a detector may need before a match is recognisable (``patterns.max_span`` for the regex
kinds), or a ``hold`` function says exactly where the text that could still match begins (the scrubber: the
trailing words that start an instruction shingle). After a scan the buffer scans again once ``batch`` more
characters arrived, so small deltas cost one scan per ``batch`` characters, not one per chunk.

A stream hook returns one chunk per call, so at ``text-end`` the flushed text goes out as a replacement
``text-delta`` and the ``text-end`` chunk is stashed in ``state["__reprocess_part"]``: the runtime emits the
returned part, then drives the stashed one through the whole chain again (Mastra's reprocess key, B-65).

    buffer = CarryOver.of(args.state, "pii", carry=128)
    segment, found = buffer.feed(text, finder)      # found: candidates inside segment (segment-relative)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from processors.builtin.patterns import Match
from processors.chunks import AnyChunk, Chunk, TextDeltaChunk, TextDeltaPayload
from processors.pipeline.stream_chain import REPROCESS_KEY

#: How much already-emitted text is kept as left context (for look-behinds and keyword windows).
CONTEXT_CHARS = 48
#: Characters between two scans of the held-back text: small, so a reply streams a few words at a time.
BATCH = 16

#: Chunks that pass the held-back text instead of flushing it: reasoning does not end the text run.
PASSES_HELD_TEXT = frozenset({"reasoning-start", "reasoning-delta", "reasoning-end"})

Finder = Callable[[str], list[Match]]
#: Turns one safe segment and the candidates inside it into the text to emit ("" drops it). May abort.
SegmentHandler = Callable[[str, list[Match]], str]
AsyncSegmentHandler = Callable[[str, list[Match]], Awaitable[str]]


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

    def feed(self, text: str, find: Finder, *, final: bool = False) -> tuple[str, list[Match]]:
        """Add ``text``; return the segment safe to emit and the candidates inside it (segment-relative).

        Nothing is scanned until more than ``carry`` characters wait (only then could any be released), nor
        before ``batch`` more arrived since the last scan (so a stream of small deltas is scanned once per
        ``batch`` characters, not once per chunk).
        """
        self.pending += text
        waiting = len(self.pending)
        if not final and (waiting <= self.carry or waiting < self.next_scan):
            return "", []
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
        segment = full[offset:cut]
        inside = [Match(m.kind, m.start - offset, m.end - offset, m.value) for m in candidates if m.end <= cut]
        self.pending = full[cut:]
        self.context = (self.context + segment)[-CONTEXT_CHARS:]
        self.next_scan = len(self.pending) + self.batch
        return segment, inside

    def flush(self, find: Finder) -> tuple[str, list[Match]]:
        return self.feed("", find, final=True)

    def delta(self, text: str) -> Chunk:
        """A ``text-delta`` carrying ``text``, shaped like the last delta this buffer saw."""
        if self.template is not None:
            return self.template.with_payload(text=text)
        return TextDeltaChunk(payload=TextDeltaPayload(id="text", text=text))


def stream_part(
    part: AnyChunk, state: dict[str, Any], buffer: CarryOver, find: Finder, handle: SegmentHandler
) -> AnyChunk | None:
    """The whole stream hook for a carry-over detector (sync). See the module docstring."""
    kind = part.type
    if kind == "text-delta":
        assert isinstance(part, Chunk)
        buffer.template = part
        segment, found = buffer.feed(part.payload.text, find)  # type: ignore[attr-defined]
        text = handle(segment, found) if segment else ""
        return part.with_payload(text=text) if text else None
    if kind == "step-start":
        buffer.reset()
        return part
    if not buffer.pending or kind in PASSES_HELD_TEXT:
        return part
    segment, found = buffer.flush(find)
    text = handle(segment, found)
    if not text:
        return part
    state[REPROCESS_KEY] = part
    return buffer.delta(text)


async def stream_part_async(
    part: AnyChunk, state: dict[str, Any], buffer: CarryOver, find: Finder, handle: AsyncSegmentHandler
) -> AnyChunk | None:
    """:func:`stream_part` for detectors whose segment handler awaits (a model judge)."""
    kind = part.type
    if kind == "text-delta":
        assert isinstance(part, Chunk)
        buffer.template = part
        segment, found = buffer.feed(part.payload.text, find)  # type: ignore[attr-defined]
        text = await handle(segment, found) if segment else ""
        return part.with_payload(text=text) if text else None
    if kind == "step-start":
        buffer.reset()
        return part
    if not buffer.pending or kind in PASSES_HELD_TEXT:
        return part
    segment, found = buffer.flush(find)
    text = await handle(segment, found)
    if not text:
        return part
    state[REPROCESS_KEY] = part
    return buffer.delta(text)


__all__ = [
    "BATCH",
    "CONTEXT_CHARS",
    "PASSES_HELD_TEXT",
    "REPROCESS_KEY",
    "CarryOver",
    "Finder",
    "stream_part",
    "stream_part_async",
]
