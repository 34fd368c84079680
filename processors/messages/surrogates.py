"""Lone surrogates: halves of a character that cannot be written as UTF-8, and how text is kept writable.

A provider may send an emoji as a JSON surrogate pair split across two SSE events (``"\\ud83d"``, then
``"\\ude00"``). JSON decoding turns each half into a lone surrogate; concatenating the two Python strings does
*not* make the emoji (it makes two lone surrogates), and any later UTF-8 encoding — SQLite, a file, a
``model_dump_json`` — fails on them. So:

- :class:`SurrogateJoiner` joins pairs split across deltas while a stream is read (a trailing high surrogate is
  held back until the next delta), so the emoji streams as one character;
- :func:`scrub` joins pairs inside one string and replaces any remaining lone surrogate with U+FFFD (the
  replacement character), for text about to be stored or written;
- :func:`scrub_json` does the same for every string (keys too) of a JSON-like value.

Each has an O(1)-ish fast path for the common case (ASCII or well-formed text), so calling them on every delta
or every saved value costs next to nothing.
"""

from __future__ import annotations

from typing import Any

#: What a lone surrogate becomes.
REPLACEMENT = "\ufffd"

_HIGH = range(0xD800, 0xDC00)


def has_surrogates(text: str) -> bool:
    """Whether ``text`` holds any surrogate code point (paired or lone), i.e. cannot be encoded as UTF-8."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def scrub(text: str) -> str:
    """``text`` with surrogate pairs joined into their characters and lone surrogates replaced by U+FFFD."""
    if not has_surrogates(text):
        return text
    # UTF-16 with "surrogatepass" writes each surrogate as its code unit; decoding joins valid pairs and
    # replaces the lone ones.
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def scrub_json(value: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, tuples, strings, numbers) with every string :func:`scrub`-bed;
    the value itself when nothing needed it."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {scrub(k) if isinstance(k, str) else k: scrub_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(scrub_json(v) for v in value)
    return value


class SurrogateJoiner:
    """Joins surrogate pairs split across the deltas of one text stream.

    ``feed(delta)`` returns what can be released: the delta with a high surrogate held back from the previous
    call put in front, pairs joined, lone surrogates replaced — and a trailing high surrogate kept for the next
    delta (its low half may be there). ``flush()`` releases what is still held at the end (U+FFFD: a high
    surrogate whose pair never came).
    """

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held = ""

    def feed(self, delta: str) -> str:
        if not self._held and not has_surrogates(delta):
            return delta  # the fast path: nearly every delta
        text = self._held + delta
        self._held = ""
        if text and ord(text[-1]) in _HIGH:
            text, self._held = text[:-1], text[-1]
        return scrub(text)

    def flush(self) -> str:
        held, self._held = self._held, ""
        return REPLACEMENT if held else ""

    @property
    def holding(self) -> bool:
        """Whether half a pair is held back."""
        return bool(self._held)


__all__ = ["REPLACEMENT", "SurrogateJoiner", "has_surrogates", "scrub", "scrub_json"]
