"""How the injection signals are searched quickly: one needle pass per text, literal-first patterns, anchors.

The signals (:mod:`~processors.builtin.injection_signals`) are case-insensitive patterns, each gated by *needles*
(lower-case substrings of which one must occur). Searched naively they cost about 1 ms per 1,000 characters of a
long document, because Python's ``re`` cannot skip ahead in a case-insensitive pattern that starts with ``\\b``:
it tries every position. So each text is read this way instead:

* **lower-cased once** (:func:`lower`, offsets kept), and every signal compiled a second time for it without
  ``IGNORECASE`` (:class:`FastPattern`): its top-level alternatives become *parts*, a leading ``\\b`` is checked
  by hand and a leading optional group tried both ways, so that each part starts with literal text and ``re``
  jumps from one possible first letter to the next (the pattern is read as text by
  :mod:`~processors.builtin.injection_pattern_source`). The first match is the original pattern's on the original
  text (same start, same end);
* **one pass for every needle** (:class:`NeedleScanner`): a zero-width trie of all needles finds, at each
  position, the longest needle that starts there (the shorter ones starting there are its prefixes): the position
  of every occurrence of every needle, instead of one ``in`` test and one ``find`` loop per needle;
* a part whose every match starts with a known word (``print``, ``ignor``, ``忽略``, ``[``) is **anchored**: it is
  tried only where that word occurs, which the needle pass already knows. Any other part is searched whole in a
  short text, and in a long one only in **windows** within :data:`REACH` of the signal's needles, merged where they
  overlap, so it never searches more than the text's length.

:class:`ScanCost` counts the searches, the characters they cover and the matches tried (the tests check with it
that the work grows linearly with the text, without timing anything).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from processors.builtin.injection_pattern_source import (
    both_ways,
    literal_heads,
    lower_pattern,
    too_common,
    top_level_alternatives,
)

#: Texts at least this long are searched only near their needles (shorter ones are searched whole).
WINDOWED_FROM: Final = 1200
#: Every signal's match lies within this many characters of one of its needles, on each side.
REACH: Final = 260


@dataclass
class ScanCost:
    """What the searches of one or more texts cost: pattern searches run, and the characters they covered."""

    #: Searches of a range of the text, and the characters those ranges held.
    searches: int = 0
    characters: int = 0
    #: Matches tried at one position.
    tries: int = 0
    #: Needle passes, and the characters they read.
    needle_passes: int = 0
    needle_characters: int = 0
    #: Signal index → the characters searched and matches tried for it.
    per_signal: dict[int, int] = field(default_factory=dict)

    def searched(self, signal: int, start: int, end: int) -> None:
        """A search of ``text[start:end]`` for signal number ``signal``."""
        self.searches += 1
        self.characters += end - start
        self.per_signal[signal] = self.per_signal.get(signal, 0) + end - start

    def tried(self, signal: int) -> None:
        """A match tried at one position (where an anchored part's head occurs)."""
        self.tries += 1
        self.per_signal[signal] = self.per_signal.get(signal, 0) + 1


#: Letters a case-insensitive pattern matches as ASCII ones but ``str.lower`` leaves alone: dotless ``ı`` and long
#: ``ſ`` (Python's ``re`` treats them as ``i`` and ``s``).
_FOLDS: Final = str.maketrans({"\u0131": "i", "\u017f": "s"})


def lower(text: str) -> str:
    """``text`` lower-cased as a case-insensitive pattern reads it, with the same length as ``text``.

    ``str.lower`` changes only ``İ`` (U+0130) into two characters (``i`` and a combining dot): it becomes ``i``,
    as do ``ı`` and ``ſ`` ``s``, so that offsets line up with the original and every match is kept.
    """
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = text.replace("\u0130", "i").lower()
    if not lowered.isascii() and ("\u0131" in lowered or "\u017f" in lowered):
        lowered = lowered.translate(_FOLDS)
    return lowered


class Part(NamedTuple):
    """One way a :class:`FastPattern` can match, as a pattern that starts with literal text."""

    pattern: re.Pattern[str]
    #: The alternative began with ``\b``: checked by hand, so that the pattern itself starts with literal text.
    boundary: bool
    #: Needles one of which every match *starts* with (empty: not known), so that a long text is searched only
    #: after their occurrences, not on both sides.
    heads: frozenset[str]


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


class FastPattern:
    """A case-insensitive pattern, searched in a lower-cased text as fast as ``re`` allows (see the module doc).

    ``search(lower(text), pos, endpos)`` finds the match that ``original.search(text, pos, endpos)`` finds.
    ``needles`` (lower-case) are the signal's: a part whose every match starts with one of them is *anchored*.
    """

    __slots__ = ("needles", "parts")

    def __init__(self, pattern: str, needles: Iterable[str] = ()) -> None:
        self.needles: tuple[str, ...] = tuple(needles)
        parts = []
        for alternative in top_level_alternatives(lower_pattern(pattern)):
            boundary = alternative.startswith("\\b")
            body = alternative[2:] if boundary else alternative
            for way in both_ways(body):
                parts.append(Part(re.compile(way), boundary, self._anchors(literal_heads(way))))
        self.parts: tuple[Part, ...] = tuple(parts)

    def _anchors(self, prefixes: list[str]) -> frozenset[str]:
        """For each literal prefix, the signal's needle it starts with, else the prefix itself when it is long
        enough to be a rare needle; none at all when one prefix is too short."""
        heads = set()
        for prefix in prefixes:
            needle = next((n for n in self.needles if prefix.startswith(n)), None)
            if needle is None and too_common(prefix):
                return frozenset()
            heads.add(needle or prefix)
        return frozenset(heads)

    @property
    def heads(self) -> frozenset[str]:
        """Every head of every anchored part (the needle pass must find them too)."""
        return frozenset(head for part in self.parts for head in part.heads)

    def search(self, lowered: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        """The leftmost match (the earlier alternative on a tie), as the original pattern would find it."""
        end = len(lowered) if endpos is None else min(endpos, len(lowered))
        best: re.Match[str] | None = None
        for part in self.parts:
            found = first_match(part, lowered, pos, end)
            if found is not None and (best is None or found.start() < best.start()):
                best = found
        return best

    def find(
        self, lowered: str, positions: dict[str, list[int]], cost: ScanCost | None = None, signal: int = 0
    ) -> tuple[int, int] | None:
        """The span of the first match in ``lowered``, given the ``positions`` of the needles in it.

        An anchored part is tried only where its heads occur. Any other part is searched in the whole text when
        it is shorter than :data:`WINDOWED_FROM`, else only in the :func:`windows` around the signal's needles.
        """
        best: tuple[int, int] | None = None
        for part in self.parts:
            found = (
                self._at_heads(part, lowered, positions, best, cost, signal)
                if part.heads
                else self._in_windows(part, lowered, positions, best, cost, signal)
            )
            if found is not None and (best is None or found[0] < best[0]):
                best = found
        return best

    @staticmethod
    def _at_heads(
        part: Part,
        lowered: str,
        positions: dict[str, list[int]],
        best: tuple[int, int] | None,
        cost: ScanCost | None,
        signal: int,
    ) -> tuple[int, int] | None:
        """An anchored part: tried where its heads occur, in order (every match starts at one)."""
        starts = sorted({at for head in part.heads for at in positions.get(head, ())})
        for at in starts:
            if best is not None and at >= best[0]:
                return None  # anything found from here starts later than the match in hand (or ties and loses)
            if part.boundary and (at > 0 and _is_word(lowered[at - 1])) == _is_word(lowered[at]):
                continue
            if cost is not None:
                cost.tried(signal)
            found = part.pattern.match(lowered, at)
            if found is not None:
                return found.span()
        return None

    def _in_windows(
        self,
        part: Part,
        lowered: str,
        positions: dict[str, list[int]],
        best: tuple[int, int] | None,
        cost: ScanCost | None,
        signal: int,
    ) -> tuple[int, int] | None:
        """Any other part: searched whole in a short text, else within :data:`REACH` of the signal's needles."""
        length = len(lowered)
        spans = [(0, length)] if length < WINDOWED_FROM else windows(self.needles, positions, length)
        for start, end in spans:
            if best is not None and start >= best[0]:
                return None
            if cost is not None:
                cost.searched(signal, start, end)
            found = first_match(part, lowered, start, end)
            if found is not None:
                return found.span()
        return None


def first_match(part: Part, lowered: str, pos: int, end: int) -> re.Match[str] | None:
    """The first match of ``part`` in ``lowered[pos:end]``, its leading ``\b`` checked here."""
    at = pos
    while True:
        found = part.pattern.search(lowered, at, end)
        if found is None or not part.boundary:
            return found
        start = found.start()
        before = start > 0 and _is_word(lowered[start - 1])
        if before != (start < end and _is_word(lowered[start])):
            return found
        at = start + 1


# ------------------------------------------------------------------------------------------------ needles
def _trie(words: Iterable[str]) -> str:
    """A regular expression matching the longest of ``words`` at a position (a trie of literal branches)."""
    root: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict[str, dict]) -> str:  # type: ignore[type-arg]
        branches = [re.escape(char) + build(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(root)


class NeedleScanner:
    """Every occurrence of a set of lower-case needles in one pass (two: ASCII needles, then the others)."""

    def __init__(self, needles: Iterable[str]) -> None:
        words = sorted(set(needles))
        ascii_words = [w for w in words if w.isascii()]
        other_words = [w for w in words if not w.isascii()]
        self._ascii = self._compile(ascii_words)
        self._other = self._compile(other_words)
        #: For each needle, the needles that are its prefixes (itself included): they start where it starts.
        known = set(words)
        self._prefixes: dict[str, tuple[str, ...]] = {
            word: tuple(word[:k] for k in range(1, len(word) + 1) if word[:k] in known) for word in words
        }

    @property
    def needles(self) -> frozenset[str]:
        return frozenset(self._prefixes)

    @staticmethod
    def _compile(words: list[str]) -> re.Pattern[str] | None:
        if not words:
            return None
        first = "".join(sorted({re.escape(w[0]) for w in words}))
        # Starting with a class lets ``re`` skip to the next possible first letter in C; the lookbehind then steps
        # back over that letter and captures the longest needle starting there (zero width: overlaps are found).
        return re.compile(f"[{first}](?<=(?=({_trie(words)})).)")

    def positions(self, lowered: str, cost: ScanCost | None = None) -> dict[str, list[int]]:
        """Needle → the start of each of its occurrences in ``lowered``, in order."""
        found: dict[str, list[int]] = {}
        passes = [self._ascii] if lowered.isascii() else [self._ascii, self._other]
        for scanner in passes:
            if scanner is None:
                continue
            if cost is not None:
                cost.needle_passes += 1
                cost.needle_characters += len(lowered)
            for match in scanner.finditer(lowered):
                at = match.start(1)
                for needle in self._prefixes[match.group(1)]:
                    found.setdefault(needle, []).append(at)
        return found


def windows(needles: Iterable[str], positions: dict[str, list[int]], length: int) -> list[tuple[int, int]]:
    """The merged ranges within :data:`REACH` of an occurrence of one of ``needles``, clipped to the text."""
    spans = sorted(
        (max(0, at - REACH), min(length, at + len(needle) + REACH))
        for needle in needles
        for at in positions.get(needle, ())
    )
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


__all__ = [
    "REACH",
    "WINDOWED_FROM",
    "FastPattern",
    "NeedleScanner",
    "Part",
    "ScanCost",
    "first_match",
    "lower",
    "lower_pattern",
    "top_level_alternatives",
    "windows",
]
