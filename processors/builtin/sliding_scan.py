"""Preset matches in a stream's sliding window, scanning only the text that can still change between calls.

::

    from processors.builtin.sliding_scan import SlidingScan

    scan = SlidingScan(("email", "phone"))
    scan.find(window, start, after)   # == [m for m in find_all(window, kinds, overlapping=True) if m.start >= after],
                                      #    positions counted from the text's start (``start`` is the window's)

Why: RegexFilter's redacting stream asks, after every chunk, for the preset matches in its window (the last 48
characters it let out, as left context, and the ~64 it holds back); ``find_all`` over those ~125 characters cost
~17 µs a chunk, most of the hook's time (issue 25). The window moves by a chunk at a time, so almost all of it was
scanned the call before. This keeps what cannot change and scans the rest, and finds exactly what ``find_all`` finds
over the window (``tests/processors/builtin/test_sliding_scan.py`` compares them on random texts and windows).

Why that is exact, for one kind:

* Its *alphabet* is every character its pattern can consume (read from the parsed pattern; look-arounds consume
  nothing). A match is made of those characters, so it lies inside one *run* of them.
* An attempt to match inside a run reads nothing but the run, ``behind`` characters before it (look-behinds) and
  ``ahead`` characters after it (look-aheads, the end of the text): the widest look-arounds of the pattern.
* After a character outside the alphabet (a *free point*) no match crosses, and an attempt there fails at once: a
  scan started at a free point finds the same matches after it as a scan started anywhere before it.

So once a run is followed by ``ahead`` characters, its matches no longer change as text is appended: they are kept,
and each call scans only from the last such free point (the *frontier*). The window's front moves as the stream lets
text out, and a scan of the window cannot see behind its front: kept matches are used only while a free point lies
at least ``behind`` characters inside the window and not after ``after`` (the *witness*: the runs after it are
whole in the window, their look-behinds too), or while the window starts the text; else the kind is scanned from
the window's start, as ``find_all`` does.

Most chunks scan nothing: every match holds its kind's needles (``patterns.tail_test``), so when the text after the
frontier lacks them no match can begin there (the kind is *quiet*), and it stays quiet while the text appended holds
none of their characters. The needle test ``find_all`` makes on the whole window (a kind skipped when the window
lacks its needle) is made unchanged, and validators run on the same values.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from processors.builtin.patterns import (
    GROUP_AFTER_WIDTH,
    LOOK_INSIDE,
    PATTERNS,
    VALIDATORS,
    Match,
    needle_characters,
    needle_cost,
    scan_validated,
    tail_test,
    with_needles,
)

__all__ = ["ScanShape", "SlidingScan", "pattern_shape", "scan_shape", "scan_start"]

#: The parser of ``re`` (imported by name: the public ``sre_parse`` warns that it is deprecated).
_sre_parse: Any = importlib.import_module("re._parser")
_sre: Any = importlib.import_module("re._constants")

_CATEGORIES: Final = {
    _sre.CATEGORY_DIGIT: r"\d",
    _sre.CATEGORY_NOT_DIGIT: r"\D",
    _sre.CATEGORY_SPACE: r"\s",
    _sre.CATEGORY_NOT_SPACE: r"\S",
    _sre.CATEGORY_WORD: r"\w",
    _sre.CATEGORY_NOT_WORD: r"\W",
}
#: A look-around wider than this (or unbounded) means no run of the kind ever settles.
_WIDE: Final = 1 << 16


@dataclass(frozen=True, slots=True)
class ScanShape:
    """What a kind's pattern can consume and how far around a match it looks (see the module docstring)."""

    #: ``last_free(text, lo, hi)`` matches when ``text[lo:hi]`` holds a character outside the alphabet; its ``end()``
    #: is then the last free point in ``(lo, hi]``. None: the alphabet is every character (no free point exists).
    last_free: Callable[..., re.Match[str] | None] | None
    behind: int
    ahead: int


class _Unsupported(Exception):
    """A pattern construct the alphabet reader does not know: the kind is always scanned whole."""


class _Alphabet:
    """The character classes a pattern consumes, and its widest look-behind and look-ahead."""

    def __init__(self) -> None:
        self.items: list[str] = []  # one positive class's items, matched as the pattern's flags say
        self.caseless: list[str] = []  # the same, under a local (?i)
        self.negated: list[str] = []  # whole negated classes (``[^...]``, ``(?i:[^...])``)
        self.everything = False
        self.behind = 1
        self.ahead = 1

    def read(self, tree: Any, flags: int) -> None:
        for op, av in tree:
            caseless = bool(flags & re.IGNORECASE)
            if op is _sre.LITERAL:
                (self.caseless if caseless else self.items).append(_char(av))
            elif op is _sre.NOT_LITERAL:
                self._negated(_char(av), caseless)
            elif op is _sre.IN:
                self._set(av, caseless)
            elif op is _sre.ANY:
                self.everything = True
            elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
                self.read(av[2], flags)
            elif op is _sre.SUBPATTERN:
                _group, add, remove, sub = av
                self.read(sub, (flags | add) & ~remove)
            elif op is _sre.ATOMIC_GROUP:
                self.read(av, flags)
            elif op is _sre.BRANCH:
                for sub in av[1]:
                    self.read(sub, flags)
            elif op is _sre.GROUPREF_EXISTS:
                self.read(av[1], flags)
                if av[2] is not None:
                    self.read(av[2], flags)
            elif op in (_sre.ASSERT, _sre.ASSERT_NOT):
                self._look(av[0], av[1])
            elif op is _sre.AT:
                self.ahead = max(self.ahead, 2)  # ``$`` looks at most past one newline
            elif op is not _sre.GROUPREF:  # a back-reference consumes what its group did
                raise _Unsupported(op)

    def _set(self, items: list[tuple[Any, Any]], caseless: bool) -> None:
        if items and items[0][0] is _sre.NEGATE:
            self._negated("".join(_item(op, av) for op, av in items[1:]), caseless)
            return
        (self.caseless if caseless else self.items).extend(_item(op, av) for op, av in items)

    def _negated(self, body: str, caseless: bool) -> None:
        self.negated.append(f"(?i:[^{body}])" if caseless else f"[^{body}]")

    def _look(self, direction: int, sub: Any) -> None:
        inner = _Alphabet()
        inner.behind = inner.ahead = 0
        inner.read(sub, 0)  # only its look-arounds' reach matters: what it reads is not consumed
        width = sub.getwidth()[1]
        if direction < 0:
            self.behind = max(self.behind, min(_WIDE, width + inner.behind))
            self.ahead = max(self.ahead, inner.ahead)
        else:
            self.ahead = max(self.ahead, min(_WIDE, width + inner.ahead))
            self.behind = max(self.behind, inner.behind)

    def shape(self, flags: int) -> ScanShape:
        behind, ahead = self.behind, self.ahead
        if self.everything or not (self.items or self.caseless or self.negated) or max(behind, ahead) >= _WIDE:
            return ScanShape(None, behind, ahead)
        if not self.caseless and not self.negated:
            outside = "[^" + "".join(dict.fromkeys(self.items)) + "]"
        else:
            parts = [f"[{''.join(dict.fromkeys(self.items))}]"] if self.items else []
            if self.caseless:
                parts.append(f"(?i:[{''.join(dict.fromkeys(self.caseless))}])")
            parts += dict.fromkeys(self.negated)
            outside = r"(?!" + "|".join(parts) + r")[\s\S]"
        last = re.compile(r"[\s\S]*" + outside, flags & (re.ASCII | re.IGNORECASE))
        return ScanShape(last.match, behind, ahead)


def _char(code: int) -> str:
    return f"\\U{code:08x}"


def _item(op: Any, av: Any) -> str:
    if op is _sre.LITERAL:
        return _char(av)
    if op is _sre.RANGE:
        return _char(av[0]) + "-" + _char(av[1])
    if op is _sre.CATEGORY and av in _CATEGORIES:
        return _CATEGORIES[av]
    raise _Unsupported(op)


@cache
def scan_shape(kind: str) -> ScanShape:
    """The alphabet and look-around reach of ``PATTERNS[kind]`` (no free points when it cannot be read); a kind whose
    scan looks inside its candidates also reads what follows a match (``patterns.GROUP_AFTER``)."""
    shape = pattern_shape(PATTERNS[kind])
    if kind in LOOK_INSIDE and shape.ahead < GROUP_AFTER_WIDTH:
        return ScanShape(shape.last_free, shape.behind, GROUP_AFTER_WIDTH)
    return shape


@cache
def pattern_shape(pattern: re.Pattern[str]) -> ScanShape:
    """:func:`scan_shape` of any compiled pattern (PIIDetector's own: its stream scan starts at a free point)."""
    alphabet = _Alphabet()
    try:
        alphabet.read(_sre_parse.parse(pattern.pattern, pattern.flags), pattern.flags)
    except _Unsupported:
        return ScanShape(None, _WIDE, _WIDE)
    return alphabet.shape(pattern.flags)


#: ``_Kept.origin`` of a kind with nothing kept.
_UNSET: Final = 1 << 62


class _Kept:
    """One kind's shape and settled matches: every match of the scan chain from ``origin`` to ``frontier`` (free
    points, positions from the text's start); ``witness``: the last free point found far enough inside the window."""

    __slots__ = (
        "ahead",
        "behind",
        "call",
        "cheap_test",
        "frontier",
        "kind",
        "last_free",
        "matches",
        "needle_characters",
        "needles_inside",
        "origin",
        "quiet",
        "tail_test",
        "witness",
    )

    def __init__(self, kind: str) -> None:
        shape = scan_shape(kind)
        self.kind = kind
        self.last_free = shape.last_free
        self.behind = shape.behind
        self.ahead = shape.ahead
        self.tail_test = tail_test(kind)
        #: Text gaining none of these leaves a failed ``tail_test`` failed.
        self.needle_characters = needle_characters(kind)
        digits, self.needles_inside = needle_cost(kind)
        #: find_all's needle test is made on the window first (a few substring tests), not after a match only.
        self.cheap_test = not digits or self.tail_test is None
        self.origin = _UNSET
        self.frontier = _UNSET
        self.witness = -1
        self.matches: list[Match] = []
        #: Whether its last call found no needle after the frontier (and so scanned nothing), and which call that was.
        self.quiet = False
        self.call = -1


class SlidingScan:
    """The matches of ``kinds`` in one stream's window, kept between calls (one object per stream).

    Between calls the text may only grow at its end and the window's start and ``after`` may only move forward (a
    new text starts a new object); :meth:`find` checks its own preconditions for the kept matches and scans more
    when they do not hold."""

    __slots__ = ("_calls", "_cheap_tests", "_end", "_kept", "_kinds", "_needle_characters", "_silent", "_silent_front")

    def __init__(self, kinds: tuple[str, ...]) -> None:
        self._kinds = kinds
        self._kept = [_Kept(kind) for kind in kinds]
        self._cheap_tests = tuple(kept.kind for kept in self._kept if kept.cheap_test)
        self._end = -1  # where the last window ended (from the text's start)
        self._calls = 0
        self._needle_characters = frozenset().union(*(kept.needle_characters for kept in self._kept))
        #: Whether the last call found every kind failing the window's needle test or quiet with nothing kept, and how
        #: far the window's front may move while the quiet ones' witnesses stay inside it.
        self._silent = False
        self._silent_front = -1

    def __repr__(self) -> str:  # the recording tracer shows the hook's state
        return f"SlidingScan({len(self._kinds)} kinds)"

    def find(self, window: str, start: int, after: int) -> list[Match]:
        """Every match ``find_all(window, kinds, overlapping=True)`` finds that starts at ``after`` or later, in its
        order, with positions counted from the text's start (``window`` is the text from ``start`` on)."""
        first = start + after
        new = self._end - start  # where the text appended since the last call begins in ``window``
        added = set(window[new:]) if 0 <= new <= len(window) else None
        self._end = start + len(window)
        if (
            self._silent
            and added is not None
            and self._needle_characters.isdisjoint(added)
            and (not start or start <= self._silent_front)
        ):
            # Every kind either failed the window's needle test or was quiet with nothing kept, and the text added holds
            # none of their needles' characters: the same again. (Not counted as a call: the quiet stay quiet.)
            return []
        call = self._calls = self._calls + 1
        matches: list[Match] = []
        # find_all's own test of the window, where it is a few substring tests (a kind failing it waits); a kind tested
        # for digits goes on untested when its matches hold its needles (no match: the test changes nothing; a match:
        # it passes), else it is tested once it has a match.
        cheap = with_needles(window, self._cheap_tests) if self._cheap_tests else ()
        if not cheap and len(self._cheap_tests) == len(self._kept):  # every kind failed it (the secrets, mostly)
            self._silent, self._silent_front = True, _UNSET
            return matches
        silent = True
        front = _UNSET
        for kept in self._kept:
            kind = kept.kind
            if kept.cheap_test and kind not in cheap:
                continue
            # Quiet at the call before (no needle after its frontier, so no match could begin there), no needle added
            # since, and the window's front still far enough from the frontier: it finds what it kept.
            quiet = (
                kept.quiet and kept.call == call - 1 and added is not None and kept.needle_characters.isdisjoint(added)
            )
            if quiet and start and not start + kept.behind <= kept.witness <= first:
                quiet = _renew_witness(kept, window, start, after)
            if quiet:
                found = kept.matches
                if found and found[0].start < first:
                    _drop_before(found, first)
            else:
                found = _kind(kept, window, start, after)
            kept.call = call
            if found and (kept.needles_inside or with_needles(window, (kind,))):
                matches += found
            if silent:
                silent = kept.quiet and not kept.matches
                front = min(front, kept.witness - kept.behind)
        self._silent = silent and not matches
        self._silent_front = front
        if len(matches) >= 2:
            matches.sort(key=_start)
        return matches


def _kind(kept: _Kept, window: str, start: int, after: int) -> list[Match]:
    """One kind's matches from ``after`` on (see :meth:`SlidingScan.find`), what can no longer change kept."""
    first = start + after
    last_free = kept.last_free
    if kept.origin > first:  # nothing kept (or asked out of order): start again
        kept.origin = kept.frontier = _UNSET
        kept.matches.clear()
    if start:
        # The window shows the runs after a free point ``behind`` characters inside it as the whole text does (their
        # look-behinds too): kept matches there hold, and a scan from there keeps only true matches.
        witness = kept.witness
        if not start + kept.behind <= witness <= first:
            point = last_free(window, kept.behind - 1, after) if last_free is not None else None
            if point is None:  # the run ``after`` falls in is cut by the window's front: scan as find_all does
                kept.quiet = False
                kept.origin = kept.frontier = _UNSET
                kept.matches.clear()
                return [m for m in _scan(kept.kind, window, 0, start) if m.start >= first]
            witness = kept.witness = start + point.end()
        if kept.origin == _UNSET:
            kept.origin = witness
        if kept.frontier == _UNSET or kept.frontier < witness:
            kept.frontier = witness
            kept.matches.clear()
    elif kept.origin == _UNSET:
        kept.origin = kept.frontier = 0
    matches = kept.matches
    if matches and matches[0].start < first:
        _drop_before(matches, first)
    low = kept.frontier - start
    test = kept.tail_test
    if test is not None and not test(window, low):
        kept.quiet = True
        return matches[:]  # no match can begin in the text after the frontier yet
    kept.quiet = False
    found = _scan(kept.kind, window, low, start)
    settled = last_free(window, low, len(window) - kept.ahead + 1) if last_free is not None else None
    if settled is not None:  # the runs before this free point are followed by enough text: keep their matches
        frontier = kept.frontier = start + settled.end()
        while found and found[0].start < frontier:
            match = found.pop(0)
            if match.start >= first:
                matches.append(match)
    if not found:
        return matches[:]
    return matches + [m for m in found if m.start >= first]


def _renew_witness(kept: _Kept, window: str, start: int, after: int) -> bool:
    """Find a witness for a window whose front passed the old one (the frontier moved up to it when behind it, which
    leaves a quiet kind quiet: less text after it); False when there is none, and the kind must be asked."""
    point = kept.last_free(window, kept.behind - 1, after) if kept.last_free is not None else None
    if point is None:
        return False
    witness = kept.witness = start + point.end()
    if kept.frontier < witness:
        kept.frontier = witness
        kept.matches.clear()  # all before the frontier, so before ``after``: the stream let them out
    return True


def _drop_before(matches: list[Match], first: int) -> None:
    """Forget the kept matches that begin before ``first`` (the stream has let them out)."""
    drop = 1
    while drop < len(matches) and matches[drop].start < first:
        drop += 1
    del matches[:drop]


def _scan(kind: str, window: str, low: int, start: int) -> list[Match]:
    """The validated matches of ``kind`` from ``low`` on (as ``find_all`` validates them), counted from ``start``."""
    matches: list[Match] = []
    if kind in VALIDATORS:  # find_all's chain: a refused candidate is looked into (patterns.scan_validated)
        scan_validated(kind, window, low, matches, start)
        return matches
    for found in PATTERNS[kind].finditer(window, low):
        begin, end = found.span()
        if begin != end:
            matches.append(Match(kind, start + begin, start + end, found.group()))
    return matches


def _start(match: Match) -> int:
    return match.start


def scan_start(shape: ScanShape, text: str, offset: int) -> int:
    """Where a scan of ``text`` for the matches that begin at ``offset`` or later may start: the last free point at or
    before ``offset`` (0 when there is none). No match holds a free character, so none that begins before that point
    reaches past it, and a scan from there finds the same matches after it as a scan from the text's start (the
    pattern's look-behinds still see the text before it: ``finditer(text, pos)`` does not cut the text)."""
    last_free = shape.last_free
    if last_free is None or offset <= 0:
        return 0
    point = last_free(text, 0, offset)
    return 0 if point is None else int(point.end())
