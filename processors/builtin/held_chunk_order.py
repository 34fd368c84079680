"""One hold-back behaviour for every stream guard that holds text back while it decides.

A guard that redacts or blocks a value split across ``text-delta`` chunks (RegexFilter, and the carry-over detectors
of :mod:`processors.builtin.split_across_chunks`: PIIDetector, SystemPromptScrubber, Moderation) holds back the
trailing text that could still begin a match. Other chunks arrive meanwhile: a thinking model's reasoning between
two text deltas, a processor's ``data-*`` chunk, a replayed ``source`` or ``file``. What they do is decided here,
once for all of them:

* A chunk that does not end the text run waits behind the held text, in its place, and goes out once the text the
  model sent before it has (after the match that text ends inside, when it does: a match goes out whole, redacted).
  So the stream leaving the guard keeps the model's order exactly: later processors, the trace, replays and a chat
  pane that shows reasoning inline see what the model produced, at the cost of the chunk waiting at most the
  hold-back window. Letting it pass the held text would move it before text the model sent first; letting the held
  text out with it would show the first half of an address whose second half comes after it.
* A chunk that ends the text run, the step or the run (:data:`ENDS_TEXT`) lets everything out, redacted, in order,
  then itself.

A stream hook returns one part per call. When several are ready at once they wait in ``queue``: one goes out per
call, and the first waiting part that is not text is stashed for reprocessing (``pending``), so the runtime calls
the guard again with it and the guard lets out the next part (a text delta is never stashed: the processors before
the guard would see its text twice). A stashed chunk passes back through every processor before the guard: a guard
there that let it out before passes it on at once (``released``), and so does this one when a processor after it
stashes a chunk it let out.

    hold = HoldBack.of(state)
    decided, result = hold.settle(state, part, holding=bool(held_text), position=where_the_text_stands)
    if not decided:                                  # the part ends the text run: the held text goes first
        result = hold.send(state, [*flushed_parts, part])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from processors.chunks import (
    AbortChunk,
    AnyChunk,
    ErrorChunk,
    FinishChunk,
    StepFinishChunk,
    TextDeltaChunk,
    TextEndChunk,
    TripwireChunk,
)
from processors.pipeline.stream_chain import REPROCESS_KEY

#: Chunks that end the text run, the step or the run: the held-back text, and every chunk waiting behind it, goes
#: out before them. Any other chunk that comes behind held-back text waits in its place.
ENDS_TEXT: Final = (TextEndChunk, StepFinishChunk, FinishChunk, ErrorChunk, TripwireChunk, AbortChunk)

#: How many of the chunks a guard let out it remembers, to pass them on at once when a later processor stashes them.
REMEMBERED: Final = 64


@dataclass
class HoldBack:
    """The chunks one guard holds besides its text, for one run (kept in the guard's ``state``)."""

    #: Chunks waiting behind the held text: ``(position in the step's text where they came, chunk)``, in order.
    waiting: list[tuple[int, AnyChunk]] = field(default_factory=list)
    #: Parts ready to go out, one per call.
    queue: list[AnyChunk] = field(default_factory=list)
    #: Chunks this guard stashed for reprocessing, on their way back to it.
    pending: list[AnyChunk] = field(default_factory=list)
    #: The last :data:`REMEMBERED` chunks (not text) this guard let out.
    released: list[AnyChunk] = field(default_factory=list)

    @classmethod
    def of(cls, state: dict[str, Any], key: str = "hold") -> HoldBack:
        hold = state.get(key)
        if not isinstance(hold, HoldBack):
            hold = state[key] = cls()
        return hold

    def reset(self) -> None:
        """A new step: what an earlier step held is not this step's (a rejected step's text run is left open)."""
        self.waiting.clear()
        self.queue.clear()
        self.pending.clear()
        self.released.clear()

    def settle(
        self, state: dict[str, Any], part: AnyChunk, *, holding: bool, position: int
    ) -> tuple[bool, AnyChunk | None]:
        """Where a part that is not a text delta goes: ``(True, what the hook returns)``, or ``(False, None)`` when
        it ends the text run while text is held (the guard flushes its text, then :meth:`send` the flushed parts
        and ``part``). ``position``: where the step's text stands as it comes (what was let out plus what is held).
        """
        for index, carrier in enumerate(self.pending):
            if carrier is part:  # stashed by this guard to be called again: the next waiting part goes out
                del self.pending[index]
                return True, self.release(state)
        if any(earlier is part for earlier in self.released):
            return True, part  # let out before, and stashed by a processor after this one: it is not held twice
        if not holding:
            return True, self.send(state, [part])
        if isinstance(part, ENDS_TEXT):
            return False, None
        self.waiting.append((position, part))
        return True, self.send(state, [])

    def send(self, state: dict[str, Any], out: list[AnyChunk]) -> AnyChunk | None:
        """Return the first part of ``out`` (after any still waiting to go out); queue the rest."""
        if not self.queue:
            if len(out) > 1:
                self.queue.extend(out)
                return self.release(state)
            if not out:
                return None
            first = out[0]
            if not isinstance(first, TextDeltaChunk):
                self._remember(first)
            return first
        self.queue.extend(out)
        return self.release(state)

    def release(self, state: dict[str, Any]) -> AnyChunk | None:
        """The next part ready to go out. When more wait behind it, the first of them that is not text is stashed
        for reprocessing (unless it is on its way back already): it comes back through the chain, and the guard
        lets out the next part then."""
        queue = self.queue
        if not queue:
            return None
        first = queue.pop(0)
        for waiting in queue:
            if not isinstance(waiting, TextDeltaChunk):
                if not any(carrier is waiting for carrier in self.pending):
                    self.pending.append(waiting)
                    state[REPROCESS_KEY] = waiting
                break
        if not isinstance(first, TextDeltaChunk):
            self._remember(first)
        return first

    def _remember(self, part: AnyChunk) -> None:
        """Note a chunk (not text) this guard let out: if a processor after it stashes that chunk for reprocessing,
        it comes back through this guard, which must pass it on at once, not hold it again behind newer text."""
        released = self.released
        released.append(part)
        if len(released) > REMEMBERED:
            del released[0]


__all__ = ["ENDS_TEXT", "REMEMBERED", "HoldBack"]
