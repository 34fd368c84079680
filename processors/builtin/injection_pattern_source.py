"""Reading a signal's regular expression as text: its top-level alternatives and the literal text they start with.

::

    from processors.builtin.injection_pattern_source import both_ways, literal_heads, top_level_alternatives

    top_level_alternatives(r"ignore (?:all|any)|(?:please )?forget")  # ["ignore (?:all|any)", "(?:please )?forget"]
    both_ways("(?:please )?forget")                                    # ["(?:please )forget", "forget"]
    literal_heads("(?:print|show) your")                               # ["print", "show"]

:class:`~processors.builtin.injection_scan.FastPattern` splits each case-insensitive signal into parts that start
with literal text, so that ``re`` can skip ahead to their first letters and a part can be tried only where its
head occurs. These functions read the pattern's source; they compile nothing and search no text.
"""

from __future__ import annotations

import re
from typing import Final


def lower_pattern(pattern: str) -> str:
    """``pattern`` with its literal letters lower-cased (escapes such as ``\\S``, ``\\W``, ``\\B`` kept)."""
    return re.sub(
        r"\\.|[^\\]+",
        lambda m: m.group() if m.group().startswith("\\") else m.group().lower(),
        pattern,
        flags=re.DOTALL,
    )


def _closing(pattern: str, start: int) -> int:
    """The index just past the group or character class opening at ``pattern[start]``."""
    depth, i = 0, start
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i = _class_end(pattern, i)
            if depth == 0:
                return i
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError(f"unbalanced pattern: {pattern!r}")


def _class_end(pattern: str, start: int) -> int:
    """The index just past the character class opening at ``pattern[start]`` (``[``); ValueError if it never closes."""
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    if i >= len(pattern):
        raise ValueError(f"unclosed character class at {start}: {pattern!r}")
    return i + 1


def top_level_alternatives(pattern: str) -> list[str]:
    """``pattern`` split at its top-level ``|`` (not inside groups or classes)."""
    alternatives, start, i = [], 0, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
        elif char in "[(":
            i = _closing(pattern, i)
        elif char == "|":
            alternatives.append(pattern[start:i])
            start = i = i + 1
        else:
            i += 1
    alternatives.append(pattern[start:])
    return alternatives


def both_ways(alternative: str) -> list[str]:
    """A leading optional group ``(?:X)?REST`` as ``(?:X)REST`` then ``REST``, so each starts with literal text."""
    if not alternative.startswith("(?:"):
        return [alternative]
    end = _closing(alternative, 0)
    if alternative[end : end + 1] != "?" or alternative[end + 1 : end + 2] in ("?", "+"):
        return [alternative]
    rest = alternative[end + 1 :]
    return [alternative[:end] + rest, *both_ways(rest)]


#: Characters that make a pattern character anything but itself.
_SYNTAX: Final = frozenset("\\()[]{}?*+|^$.")
_QUANTIFIERS: Final = frozenset("?*+{")


def _literal_prefix(pattern: str) -> str:
    """The literal text every match of ``pattern`` starts with (``ignor`` for ``ignor(?:e|es)``, ``prompt`` for
    ``prompts?``); empty when it starts with anything else."""
    prefix, i = "", 0
    while i < len(pattern):
        char, step = pattern[i], 1
        if char == "\\":
            char, step = pattern[i + 1 : i + 2], 2
            if char.isalnum():  # \s, \b, \w, \d, \x.., \u....: not one literal character
                break
        elif char in _SYNTAX:
            break
        quantifier = pattern[i + step : i + step + 1]
        if quantifier in _QUANTIFIERS:
            if quantifier == "+" or re.match(r"\{[1-9]", pattern[i + step :]):
                prefix += char  # at least once
            break  # the character may repeat or be missing
        prefix += char
        i += step
    return prefix


def _class_heads(body: str) -> list[str]:
    """The characters of a small leading class of plain characters (``[（(]``), each a one-character head."""
    end = _class_end(body, 0)
    members = body[1 : end - 1]
    if len(members) > 6 or any(char in "\\^-[]" for char in members):
        return []
    quantifier = body[end : end + 1]
    if quantifier in ("?", "*") or re.match(r"\{0", body[end:]):
        return []
    return list(members)


def literal_heads(body: str) -> list[str]:
    """The literal texts one of which every match of ``body`` starts with (none known: empty)."""
    if body.startswith("(?:"):
        end = _closing(body, 0)
        if body[end : end + 1] in _QUANTIFIERS:
            return []
        prefixes = [_literal_prefix(alternative) for alternative in top_level_alternatives(body[3 : end - 1])]
        return [] if "" in prefixes else prefixes
    if body.startswith("["):
        return _class_heads(body)
    prefix = _literal_prefix(body)
    return [prefix] if prefix else []


#: A literal prefix shorter than this is too common to anchor a part on (``i``, ``do``, ``in``; ``你``): three
#: letters of an alphabet, two characters of Chinese. A prefix that starts with punctuation (``[``, ``#``, ``（``)
#: is rare enough from one character on.
_SHORTEST_HEAD: Final = 3
_SHORTEST_WIDE_HEAD: Final = 2


def too_common(prefix: str) -> bool:
    """Whether a literal prefix is too short (or empty) to anchor a part on."""
    if not prefix[:1].isalnum():
        return not prefix
    return len(prefix) < (_SHORTEST_HEAD if prefix.isascii() else _SHORTEST_WIDE_HEAD)


__all__ = ["both_ways", "literal_heads", "lower_pattern", "too_common", "top_level_alternatives"]
