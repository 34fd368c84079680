"""Matches that show only once their neighbours are replaced, so that redacting a redacted text changes nothing.

A pattern looks at the characters around a value: a phone number may not start right after a digit (it would be the
tail of a longer number), an e-mail address may not be followed by ``:path`` (an SSH remote). When two values
adjoin — ``(02)2720-1234(02)2720-1234``, an IBAN's last digit and a space before a phone number — the first one's
characters hide the second from its pattern; once the first is replaced (``[PHONE]``) they are gone, and a second
redaction found the second value: ``[PHONE](02)2720-1234`` → ``[PHONE][PHONE]``. :func:`with_adjoining` looks
again at the text as it will read after the replacement, and adds what shows there, until nothing new does; the
redaction then replaces them all at once, and redacting its result finds nothing more.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Final, Protocol, TypeVar, cast

from processors.builtin.patterns import ADDRESS_LETTERS, Match

__all__ = [
    "MAX_ROUNDS",
    "READS_AFTER",
    "URL_REACH",
    "Span",
    "Stretch",
    "may_join",
    "may_uncover",
    "may_uncover_at",
    "may_uncover_once",
    "remember_shown",
    "replace_spans_mapped",
    "shift_into",
    "with_adjoining",
]

#: How far back a web address that runs on into a value is looked for.
URL_REACH = 4096
#: Each round adds at least one match; a text whose matches each uncover the next stops after this many.
MAX_ROUNDS = 16


#: A stretch of the replaced text left as it was: ``(start, end, its start in the original text)``.
Stretch = tuple[int, int, int]


class Span(Protocol):
    """What the look again needs of a match: where it is (a detector's :class:`Match`, RegexFilter's region)."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


_S = TypeVar("_S", bound=Span)


def _moved_match(match: Span, shift: int) -> Span:
    moved = cast(Match, match)
    return Match(moved.kind, moved.start + shift, moved.end + shift, moved.value)


def with_adjoining(
    text: str,
    found: list[_S],
    find: Callable[[str], list[_S]],
    replacement: Callable[[_S], str],
    *,
    joins: bool = False,
    moved: Callable[[_S, int], _S] | None = None,
) -> list[_S]:
    """``found`` (disjoint, in text order) and every match ``find`` (disjoint matches of a text, in text order) sees
    in ``text`` once the matches are replaced by ``replacement``, in ``text``'s positions, in text order. Only what
    lies in the text between replacements counts (a match across one is no match of ``text``). ``joins``: a
    replacement may be empty (a removed value joins its neighbours, so the text is always looked at again).
    ``moved(match, shift)``: the match ``shift`` characters further on (a :class:`Match` when not given)."""
    move = cast(Callable[[_S, int], _S], _moved_match) if moved is None else moved
    for _ in range(MAX_ROUNDS):
        if not found:
            return found
        if not joins and not may_uncover(text, found):
            return found
        replaced, kept = replace_spans_mapped(text, [(m.start, m.end, replacement(m)) for m in found])
        added = []
        for match in find(replaced):
            shift = shift_into(match.start, match.end, kept)
            if shift is not None:
                added.append(move(match, shift))
        if not added:
            return found
        found = sorted([*found, *added], key=lambda match: match.start)
    return found


#: What a match can start with (a letter or digit of any script, or an e-mail address's, a phone number's, a
#: masked value's first character).
_STARTS: Final = frozenset("(+._%'-:")
#: The words a keyword check reads right before a value (``order no. 12345678`` is a reference, not a phone
#: number; ``firmware 1.2.3.4`` a version, not an address): a value that ends in one may hide the number after it.
_KEYWORDS: Final = (
    "serial", "part", "order", "tracking", "invoice", "model", "sku", "isbn", "item", "product", "ref", "reference",
    "case", "ticket", "firmware", "version", "ver", "build", "release", "rev", "revision", "no", "number", "num",
    "id", "v",
)  # fmt: skip


def may_uncover(text: str, found: list[_S]) -> bool:
    r"""Whether replacing ``found`` can uncover a match: False only when no pattern's look-around or keyword check
    reads a character of a match from where a new one could be (a value then space and a word, a full stop ending
    a sentence), so the common text skips the second scan. A pattern reads at most two characters around a value
    (``(?<!\d[ .-])``, ``(?![ .-]\d)``, an SSH remote's ``:path``) and a keyword check the words right before it."""
    return any(may_uncover_at(text, match.start, match.end) for match in found)


#: How far after a value :func:`may_uncover_at` reads: once the text runs this far past it, its answer is final (a
#: stream may keep it while more text arrives).
READS_AFTER = 25


def may_uncover_at(text: str, before: int, after: int) -> bool:
    """:func:`may_uncover` for the one match ``text[before:after]``. It reads at most :data:`READS_AFTER`
    characters after the match, and the text before it: False stays False when more text follows that far on,
    or when less text comes before (a stream's left context, trimmed)."""
    end = len(text)
    if after < end:
        following = text[after]
        if _can_start(following) and (  # a value right after this one
            following != "." or (after + 1 < end and not text[after + 1].isspace())
        ):
            return True
        if following in " .-" and after + 1 < end and text[after - 1].isdigit():
            nxt = text[after + 1]
            if nxt.isdigit() or nxt in "(+":  # a phone number that "digit, separator" hid
                return True
        last = text[after - 1] if after > before else ""
        if (  # it may end in a keyword (one of another script, a Chinese one, too)
            (
                not last.isascii()
                or (last.isalpha() and text[max(before, after - 9) : after].lower().endswith(_KEYWORDS))
            )
            and _digit_soon(text, after)
        ):
            return True
    if before > 0:
        previous = text[before - 1]
        if _can_end(previous) and (previous != ":" or (before >= 2 and text[before - 2] in _IPV6)):
            return True  # a value may end right before this one (an IPv6 address may end with ":")
        if not previous.isspace() and _url_runs_to(text, before):
            return True  # an address that ran on into this value (through "!", "：") ends before it now
        if before >= 2 and previous in " .-:":
            ending, first = text[before - 2], text[before]
            if previous in " -" and ending.isdigit() and first.isdigit():
                return True
            if previous in ".:" and ending.isalnum() and (first.isalnum() or first in "~./-_"):
                return True
    return False


def may_uncover_once(text: str, start: int, end: int, before: int, settled: set[tuple[int, int]]) -> bool:
    """:func:`may_uncover_at` for a stream that asks about the same match after every chunk: the match
    ``[start, end)`` in the step's text, ``text`` starting at ``before`` there. A match found to uncover nothing with
    :data:`READS_AFTER` characters after it is kept in ``settled`` and not read again."""
    key = (start, end)
    if key in settled:
        return False
    after = end - before
    if may_uncover_at(text, start - before, after):
        return True
    last = text[after - 1]  # only a keyword check reads further than two characters on
    if after + (READS_AFTER if last.isalpha() or not last.isascii() else 2) <= len(text):
        settled.add(key)
    return False


def may_join(text: str, at: int) -> bool:
    """Whether a value ending at ``at`` (or one character before, at a separator) may read what follows it (a
    character that can end a value, then one that can start one, or a digit, a separator and a digit): cut there,
    a stream may let a value out in clear that the value after it hides until it is replaced
    (``A123456(3)jo@example.com``)."""
    if at <= 0 or at >= len(text):
        return False
    last, following = text[at - 1], text[at]
    if _can_end(last) and _can_start(following):
        return True
    if following in " .-" and last.isdigit():  # "digit, separator, digit": a phone number's look-ahead
        return at + 1 < len(text) and text[at + 1].isdigit()
    return last in " .-" and at >= 2 and text[at - 2].isdigit() and (following.isdigit() or following in "+(")


#: ASCII characters no value that a replacement can uncover ends with: spaces, what no address may hold, and the
#: punctuation an address runs on through but never ends with (a user's secret may end in any, a bearer token in
#: "=", but they would run on into the replacement, or read nothing after them, so no new match ends there).
_CANNOT_END: Final = frozenset(" \t\n\r\f\v<>\"'`{}|\\^[],;!?(=")
_IPV6: Final = frozenset("0123456789abcdefABCDEF:")
_SPACE: Final = re.compile(r"\s")
#: The letters of other scripts an e-mail address may hold (none of CJK: a Chinese character next to a value is
#: a boundary, as a space is).
_ADDRESS_LETTER: Final = re.compile(f"[{ADDRESS_LETTERS}]")


def _can_start(char: str) -> bool:
    """Whether some value may start with ``char``."""
    if char.isascii():
        return char.isalnum() or char in _STARTS
    return _ADDRESS_LETTER.match(char) is not None


def _can_end(char: str) -> bool:
    """Whether some value whose end a replacement right after it can change may end with ``char``."""
    if char.isascii():
        return char not in _CANNOT_END
    return _ADDRESS_LETTER.match(char) is not None


def _url_runs_to(text: str, at: int) -> bool:
    """Whether a web address (``://`` or ``www.``, as the address pattern writes them) starts within the
    :data:`URL_REACH` characters before ``at`` with no space between it and ``at``."""
    low = max(0, at - URL_REACH)
    start = max(text.rfind("://", low, at), text.rfind("www.", low, at))
    return start >= 0 and _SPACE.search(text, start, at) is None


def _digit_soon(text: str, at: int) -> bool:
    """Whether a digit, ``+`` or ``(`` comes within the 24 characters after ``at`` on the same line."""
    for char in text[at : at + 24]:
        if char == "\n":
            return False
        if char.isdigit() or char in "+(":
            return True
    return False


def replace_spans_mapped(text: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[Stretch]]:
    """``text`` with each ``(start, end, replacement)`` of ``spans`` (disjoint, in text order) replaced, and the
    stretches of it left as they were."""
    pieces: list[str] = []
    kept: list[Stretch] = []
    length = last = 0
    for start, end, shown in spans:
        kept.append((length, length + start - last, last))
        pieces.append(text[last:start])
        length += start - last + len(shown)
        pieces.append(shown)
        last = end
    kept.append((length, length + len(text) - last, last))
    pieces.append(text[last:])
    return "".join(pieces), kept


def shift_into(start: int, end: int, kept: list[Stretch]) -> int | None:
    """What to add to a span of the replaced text to place it in the original, when it lies in one stretch left as
    it was; None when it covers (part of) a replacement."""
    for low, high, origin in kept:
        if low <= start and end <= high:
            return origin - low
        if start < low:
            return None
    return None


def remember_shown(
    state: dict[str, Any], shown_key: str, settled_key: str, new: Iterable[_S], end: int, reach: int
) -> None:
    """A stream's bookkeeping for the look again, after it let text out up to ``end`` (in the step's text's
    positions): ``state[shown_key]`` keeps the values let out (``new``, placed in those positions, after those kept
    before) that the left context of ``reach`` characters still holds, for the next held text's look again to replace
    as the whole text's redaction does; ``state[settled_key]``, the values found to uncover nothing, forgets those the
    context no longer holds once it holds more than 32. PIIDetector's and RegexFilter's streams both keep it so."""
    shown: list[_S] | None = state.get(shown_key)
    low = end - reach
    kept = [item for item in shown or () if item.end > low]
    kept += [item for item in new if item.end > low]
    if kept:
        state[shown_key] = kept
    else:
        state.pop(shown_key, None)
    settled: set[tuple[int, int]] | None = state.get(settled_key)
    if settled is not None and len(settled) > 32:
        state[settled_key] = {key for key in settled if key[1] > low}
