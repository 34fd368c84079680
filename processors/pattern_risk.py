"""Telling, before a user's regular expression ever runs, whether it can backtrack catastrophically.

::

    from processors.pattern_risk import backtracking_risk

    backtracking_risk(r"(\\w+\\s?)+$")    # "a repeated part can match the same text in more than one way"
    backtracking_risk(r"INC-(\\d{6})")   # None

A backtracking engine takes exponential time when a repeated part can match one stretch of text in many ways and
the rest of the pattern then fails: ``(\\w+\\s?)+$`` splits ``aaaa…!`` into words in 2ⁿ ways before giving up. That
is the case this module recognises, on the pattern's parse tree (the standard library's own parser): a part
repeated without bound (or eight times or more) whose body can match some run of one character ``c`` either in two
different lengths (``(a+)+``, ``(x+x+)+``, ``(a|aa)+``) or in two different ways (``(\\s|.)*``); and, for patterns
up to 300 characters, a body whose short words over the pattern's own letters match one text in two ways or split
it two ways (``(ab|a(?:b))+``, ``(ab|abab)+``, ``(a|ab|b)+``: the Sardinas-Patterson test). Bodies that need a
character the rest cannot match (``(\\d+\\.)+``, ``(foo|bar)+``) pass, as do atomic groups and possessive
repeats, which never backtrack into their body.

It is deliberately a filter for the well-known shapes, not a proof: a polynomial blow-up (``\\s*\\s*$``) or a
back-reference passes. The time limit of :mod:`processors.user_patterns` is what bounds every pattern; this
check lets a shared design's author hear about the worst ones when the design is opened, not halfway through a run.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Iterable
from typing import Any, Final

#: The standard library's own regular-expression parser and its opcodes (private modules, so typed as Any; the
#: public ``sre_parse`` names warn that they are deprecated).
sre: Any = importlib.import_module("re._constants")
sre_parse: Any = importlib.import_module("re._parser")

#: Lengths of a run of one character followed (runs longer than this say nothing new about ambiguity).
_LONGEST: Final = 4
#: A bounded repeat this many times or more is treated as a loop (``(.*a){20}`` is as bad as ``(.*a)+``).
_LOOP_COUNT: Final = 8
#: One character of each kind a class can be built from; the pattern's own literals are added to these.
_REPRESENTATIVES: Final = "aZ0 \t\n_.-,;:/@#'\"é中\u00a0٣\u2028"
_CATEGORIES: Final = {
    sre.CATEGORY_DIGIT: re.compile(r"\d"),
    sre.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    sre.CATEGORY_SPACE: re.compile(r"\s"),
    sre.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    sre.CATEGORY_WORD: re.compile(r"\w"),
    sre.CATEGORY_NOT_WORD: re.compile(r"\W"),
}

#: For one character: how many ways (at most 2) a part matches a run of it of each length (0.._LONGEST).
Ways = tuple[int, ...]
_NONE: Final[Ways] = (0,) * (_LONGEST + 1)
_EMPTY: Final[Ways] = (1,) + (0,) * _LONGEST
_ONE: Final[Ways] = (0, 1) + (0,) * (_LONGEST - 1)


@functools.lru_cache(maxsize=1024)
def backtracking_risk(pattern: str, flags: int = 0) -> str | None:
    """Why ``pattern`` can backtrack catastrophically (naming the repeated part), or None when no known shape is
    found. ``flags`` are :mod:`re` flags (verbose changes how the pattern reads). A pattern that does not parse
    returns None: compiling it reports that. Cached: options are validated again at every edit and repaint, and a
    10,000-character pattern takes a fraction of a second to read."""
    try:
        tree = sre_parse.parse(pattern, flags)
    except (re.error, OverflowError, RecursionError):
        return None
    chars = set(_REPRESENTATIVES) | set(_literals(tree))
    fold = bool(flags & re.IGNORECASE)
    for repeated in _loops(tree):
        for char in sorted(chars):
            ways = _ways(repeated, char, fold)
            lengths = [n for n in range(1, _LONGEST + 1) if ways[n]]
            if len(lengths) > 1 or any(ways[n] > 1 for n in lengths):
                return _AMBIGUOUS
    if len(pattern) <= _WORDS_UP_TO:
        alphabet = sorted(set(_literals(tree)))[:_WORD_LETTERS]
        for repeated in _loops(tree) if alphabet else ():
            words = _words(repeated, alphabet, fold)
            words.pop("", None)
            if any(count > 1 for count in words.values()) or not _is_code(set(words)):
                return _AMBIGUOUS
    return None


_AMBIGUOUS: Final = "a repeated part can match the same text in more than one way"
#: The second reading (words of several letters: ``(ab|abab)+``, ``(a|ab|b)+``) is for patterns up to this long...
_WORDS_UP_TO: Final = 300
#: ... over at most this many of the pattern's own letters.
_WORD_LETTERS: Final = 4


def _words(items: Iterable[tuple[Any, Any]], alphabet: list[str], fold: bool) -> dict[str, int]:
    """The words over ``alphabet`` of up to :data:`_LONGEST` letters that ``items`` match, each with how many ways
    it matches them (at most 2)."""
    total: dict[str, int] = {"": 1}
    for op, av in items:
        total = _concat(total, _item_words(op, av, alphabet, fold))
        if not total:
            break
    return total


def _item_words(op: Any, av: Any, alphabet: list[str], fold: bool) -> dict[str, int]:
    if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
        return {char: 1 for char in alphabet if _matches(op, av, char, fold)}
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, body = av
        return _power(_words(body, alphabet, fold), low, high)
    if op is sre.SUBPATTERN:
        return _words(av[3], alphabet, fold)
    if op is sre.BRANCH:
        total: dict[str, int] = {}
        for alternative in av[1]:
            for word, count in _words(alternative, alphabet, fold).items():
                total[word] = min(2, total.get(word, 0) + count)
        return total
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return {"": 1}
    return {}  # atomic groups and possessive repeats match one way (the first); back-references: nothing claimed


def _concat(first: dict[str, int], second: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for left, a in first.items():
        for right, b in second.items():
            if len(left) + len(right) <= _LONGEST:
                word = left + right
                out[word] = min(2, out.get(word, 0) + a * b)
    return out


def _power(body: dict[str, int], low: int, high: int) -> dict[str, int]:
    body = {word: count for word, count in body.items() if word}  # an empty iteration is not looped on
    power: dict[str, int] = {"": 1}
    for _ in range(min(low, _LONGEST + 1)):
        power = _concat(power, body)
    total = dict(power)
    top = _LONGEST + 1 if high == sre.MAXREPEAT else min(high, _LONGEST + 1)
    for _ in range(min(low, _LONGEST + 1), top):
        power = _concat(power, body)
        for word, count in power.items():
            total[word] = min(2, total.get(word, 0) + count)
    return total


def _is_code(words: set[str]) -> bool:
    """Whether every concatenation of ``words`` splits into them one way only (Sardinas-Patterson): if not, a loop
    over them can match one text in exponentially many ways (``a``/``aa``, or ``a``/``b``/``ab``)."""
    if not words:
        return True
    dangling = {v[len(u) :] for u in words for v in words if u != v and v.startswith(u)}
    seen: set[frozenset[str]] = set()
    while dangling:
        if dangling & words:
            return False
        key = frozenset(dangling)
        if key in seen:
            return True
        seen.add(key)
        dangling = {w[len(d) :] for d in dangling for w in words if w.startswith(d) and w != d} | {
            d[len(w) :] for d in dangling for w in words if d.startswith(w) and d != w
        }
    return True


def _loops(items: Iterable[tuple[Any, Any]]) -> Iterable[Any]:
    """The body of every repeat that loops (unbounded, or :data:`_LOOP_COUNT` times or more), at any depth."""
    for op, av in items:
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            _low, high, body = av
            if high == sre.MAXREPEAT or high >= _LOOP_COUNT:
                yield body
            yield from _loops(body)
        elif op is sre.BRANCH:
            for alternative in av[1]:
                yield from _loops(alternative)
        elif op is sre.SUBPATTERN:
            yield from _loops(av[3])
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            yield from _loops(av[1])
        elif op is sre.GROUPREF_EXISTS:
            for branch in av[1:]:
                if branch is not None:
                    yield from _loops(branch)
        # atomic groups and possessive repeats never backtrack into themselves: what is inside cannot blow up


def _ways(items: Iterable[tuple[Any, Any]], char: str, fold: bool) -> Ways:
    """How many ways the sequence ``items`` matches runs of ``char`` of each length."""
    total = _EMPTY
    for op, av in items:
        total = _then(total, _item_ways(op, av, char, fold))
        if total == _NONE:
            break
    return total


def _item_ways(op: Any, av: Any, char: str, fold: bool) -> Ways:
    if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
        return _ONE if _matches(op, av, char, fold) else _NONE
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, body = av
        return _repeat(_ways(body, char, fold), low, high)
    if op is sre.POSSESSIVE_REPEAT:
        low, high, body = av
        return _single(_repeat(_ways(body, char, fold), low, high))
    if op is sre.SUBPATTERN:
        return _ways(av[3], char, fold)
    if op is sre.ATOMIC_GROUP:
        return _single(_ways(av, char, fold))
    if op is sre.BRANCH:
        total = _NONE
        for alternative in av[1]:
            total = tuple(min(2, a + b) for a, b in zip(total, _ways(alternative, char, fold), strict=True))
        return total
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return _EMPTY  # zero width
    return _NONE  # back-references and the rest: nothing known, so nothing claimed


def _matches(op: Any, av: Any, char: str, fold: bool) -> bool:
    """Whether a one-character item matches ``char``."""
    if op is sre.ANY:
        return char != "\n"
    if op is sre.LITERAL:
        return _same(av, char, fold)
    if op is sre.NOT_LITERAL:
        return not _same(av, char, fold)
    negate, hit = False, False
    for kind, value in av:
        if kind is sre.NEGATE:
            negate = True
        elif kind is sre.LITERAL:
            hit = hit or _same(value, char, fold)
        elif kind is sre.RANGE:
            low, high = value
            hit = hit or low <= ord(char) <= high or (fold and low <= ord(char.swapcase()[:1] or char) <= high)
        elif kind is sre.CATEGORY:
            compiled = _CATEGORIES.get(value)
            hit = hit or compiled is None or compiled.match(char) is not None
    return hit != negate


def _same(code: int, char: str, fold: bool) -> bool:
    return chr(code) == char or (fold and chr(code).lower() == char.lower())


def _then(first: Ways, second: Ways) -> Ways:
    """Ways of ``first`` followed by ``second`` (lengths add, ways multiply; both capped)."""
    out = [0] * (_LONGEST + 1)
    for i, a in enumerate(first):
        if a:
            for j in range(_LONGEST + 1 - i):
                if second[j]:
                    out[i + j] = min(2, out[i + j] + a * second[j])
    return tuple(out)


def _repeat(body: Ways, low: int, high: int) -> Ways:
    """Ways of ``body`` repeated ``low``..``high`` times (counts past :data:`_LONGEST` add nothing new)."""
    if body[0]:  # an empty iteration: the engine refuses to loop on it, so count it once
        body = (0, *body[1:])
    power = _EMPTY
    for _ in range(min(low, _LONGEST + 1)):
        power = _then(power, body)
    total = power
    top = _LONGEST + 1 if high == sre.MAXREPEAT else min(high, _LONGEST + 1)
    for _ in range(min(low, _LONGEST + 1), top):
        power = _then(power, body)
        total = tuple(min(2, a + b) for a, b in zip(total, power, strict=True))
    return total


def _single(ways: Ways) -> Ways:
    """An atomic part keeps its first match only: one way, at its longest length."""
    longest = max((n for n, count in enumerate(ways) if count), default=None)
    if longest is None:
        return _NONE
    return tuple(1 if n == longest else 0 for n in range(_LONGEST + 1))


def _literals(items: Iterable[tuple[Any, Any]]) -> Iterable[str]:
    for op, av in items:
        if op in (sre.LITERAL, sre.NOT_LITERAL):
            yield chr(av)
        elif op is sre.IN:
            for kind, value in av:
                if kind is sre.LITERAL:
                    yield chr(value)
                elif kind is sre.RANGE:
                    yield chr(value[0])
        elif isinstance(av, sre_parse.SubPattern):
            yield from _literals(av)
        elif isinstance(av, (list, tuple)):
            for element in av:
                if isinstance(element, sre_parse.SubPattern):
                    yield from _literals(element)
                elif isinstance(element, list):
                    for inner in element:
                        if isinstance(inner, sre_parse.SubPattern):
                            yield from _literals(inner)


__all__ = ["backtracking_risk"]
