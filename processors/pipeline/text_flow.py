"""``TextFlow``: did a stream processor change the text, or only hold it back and move chunk boundaries?

A stream guard that watches a window of text (the PII detector, the system-prompt scrubber) hands on chunks that
differ from the ones it was given — shorter (it keeps a tail back), longer (it lets held text out), or in place of a
``text-end`` (the flush) — while the text the user reads is exactly the model's. Compared chunk by chunk, every
one of them looks "changed", and the inspector, the chat badges and replays all said a guard changed a reply it
never touched. What counts is the text: this ledger keeps, per kind of text chunk (``text-delta``,
``reasoning-delta``), the text the processor took and has not handed on yet. A chunk it hands on whose text is the
start of that waiting text changed nothing: it is *held* when text stays waiting behind it, and *passed* when
nothing does (chunk boundaries alone are nothing). Any other text is a real change.

After a real change the ledger finds where the new text's end sits in the waiting text (its longest matching run,
with :mod:`difflib`), so the text still held behind a masked e-mail address is recognised when it comes out; when
the new text's end matches nothing, everything waiting is taken as replaced.

    flow = TextFlow()
    flow.took(chunk_in)                  # every chunk the processor was given and did not stash to see again
    flow.gave(chunk_out)                 # "passed", "held" or "changed"
"""

from __future__ import annotations

import difflib
from typing import Literal

from processors.chunks import DELTA_CHUNKS, AnyChunk

__all__ = ["TextFlow", "TextVerdict", "chunk_text"]

#: What handing on a text chunk did to the text: nothing, held some back, or changed it.
TextVerdict = Literal["passed", "held", "changed"]


def chunk_text(chunk: AnyChunk | None) -> str | None:
    """The streamed text ``chunk`` carries (``text-delta`` / ``reasoning-delta``), None for every other chunk."""
    if isinstance(chunk, DELTA_CHUNKS):
        return chunk.payload.text  # type: ignore[attr-defined, no-any-return]  # a TextDeltaPayload's
    return None


class TextFlow:
    """The text one processor took and has not handed on yet, per text chunk type (one step's worth)."""

    __slots__ = ("_waiting",)

    def __init__(self) -> None:
        self._waiting: dict[str, list[str]] = {}

    def took(self, chunk: AnyChunk) -> None:
        """The processor was given ``chunk`` (and did not stash it to be given it again)."""
        text = chunk_text(chunk)
        if text:
            self._waiting.setdefault(chunk.type, []).append(text)

    def gave(self, chunk: AnyChunk) -> TextVerdict:
        """The processor handed ``chunk`` on, after :meth:`took` of what it was given: what that did to the text."""
        text = chunk_text(chunk)
        if text is None:
            return "changed"
        pieces = self._waiting.get(chunk.type, [])
        waiting = "".join(pieces)
        if waiting.startswith(text):
            rest = waiting[len(text) :]
            self._waiting[chunk.type] = [rest] if rest else []
            return "held" if rest else "passed"
        self._waiting[chunk.type] = [rest] if (rest := _after_change(waiting, text)) else []
        return "changed"

    def waiting(self, kind: str = "text-delta") -> str:
        """The text of ``kind`` taken and not handed on yet (tests and the docstring's example)."""
        return "".join(self._waiting.get(kind, []))


def _after_change(waiting: str, text: str) -> str:
    """What stays waiting after ``text`` replaced the start of ``waiting``: the text behind where ``text``'s end
    matches ``waiting``, or nothing when its end matches nothing (all of it was replaced)."""
    if not waiting or not text:
        return waiting
    blocks = difflib.SequenceMatcher(None, waiting, text, autojunk=False).get_matching_blocks()
    last = next((block for block in reversed(blocks) if block.size), None)
    if last is None or last.b + last.size != len(text):
        return ""
    return waiting[last.a + last.size :]
