"""Limits on JSON that comes from elsewhere (a shared design, a thread export): how deep it nests, finite numbers.

Python's ``json`` module accepts two things that must not reach the rest of the program unnoticed:

- ``NaN``, ``Infinity``, ``-Infinity`` and numbers too big for a float (``1e999``) become float values that are no
  JSON at all; pydantic writes them back as ``null``, so the value would silently change on the next save.
- A document nested deeper than the interpreter's stack allows (a few hundred ``[``) raises a bare
  ``RecursionError``; one nested less deep parses, then breaks whatever walks it recursively later (pydantic's
  serialiser gives up at a few hundred levels too).

:func:`loads` turns the parser's own recursion failure into a :class:`JsonLimitError`, and :func:`problems` walks
parsed data (iteratively, so any depth is safe to check) and names each place that breaks a limit. Callers turn
those into their own field-named errors (``DesignError``, ``ThreadImportError``).
"""

from __future__ import annotations

import json
import math
from typing import Any

from processors.problems import Problem

#: How deep containers (objects and lists) may nest, counting the document itself as level 1. Real designs and
#: threads stay far below; pydantic's serialiser fails at a few hundred.
MAX_DEPTH = 100

#: Where in a document: keys and list indexes from the root, as pydantic reports error locations.
Location = tuple[str | int, ...]

#: How many leading parts of a too-deep value's location a problem names (the field it is in, not every level).
SHOWN_PARTS = 6

#: Stop walking after this many problems: a user fixes a file from the first few.
MAX_PROBLEMS = 20

NOT_FINITE = Problem(
    "json_limit:not_finite", "not a finite number (NaN, Infinity and numbers too large for a float are not JSON values)"
)


_CHECKED = (dict, list, tuple, float)


def too_deep(max_depth: int = MAX_DEPTH) -> str:
    return Problem("json_limit:too_deep", "nested more than {depth} levels deep", depth=max_depth)


class JsonLimitError(ValueError):
    """Parsed JSON breaks a limit; ``location`` says where (``()`` for the whole document)."""

    def __init__(self, location: Location, message: str) -> None:
        super().__init__(message)
        self.location = location
        self.message = message


def loads(text: str | bytes, **options: Any) -> Any:
    """``json.loads``, but nesting too deep for the parser is a :class:`JsonLimitError`, not a ``RecursionError``.

    Other malformed input raises ``ValueError`` (``json.JSONDecodeError``, ``UnicodeDecodeError``) as before;
    ``options`` go to ``json.loads`` (e.g. ``strict=False``).
    """
    try:
        return json.loads(text, **options)
    except RecursionError:
        raise JsonLimitError((), too_deep()) from None


def raw_decode(decoder: json.JSONDecoder, text: str, index: int) -> tuple[Any, int]:
    """``decoder.raw_decode(text, index)`` with the same translation of the parser's recursion failure."""
    try:
        return decoder.raw_decode(text, index)
    except RecursionError:
        raise JsonLimitError((), too_deep()) from None


def problems(
    value: Any, *, location: Location = (), depth: int = 0, max_depth: int = MAX_DEPTH, limit: int = MAX_PROBLEMS
) -> list[tuple[Location, str]]:
    """Every place in ``value`` (parsed JSON) that breaks a limit, as ``(location, message)``, at most ``limit``.

    ``location`` and ``depth`` say where ``value`` sits when it is part of a larger document checked piece by
    piece (``depth`` is the number of containers around it). A too-deep value is named by the first
    :data:`SHOWN_PARTS` parts of its location and not walked further.
    """
    if _clean(value, depth, max_depth):
        return []
    found: list[tuple[Location, str]] = []
    stack: list[tuple[Any, Location, int]] = [(value, location, depth)]
    while stack and len(found) < limit:
        item, where, level = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                found.append((where, NOT_FINITE))
            continue
        if isinstance(item, dict):
            children: Any = item.items()
        elif isinstance(item, list | tuple):
            children = enumerate(item)
        else:
            continue
        if level + 1 > max_depth:
            problem = (where[:SHOWN_PARTS], too_deep(max_depth))
            if problem not in found:
                found.append(problem)
            continue
        pending = [(child, (*where, key), level + 1) for key, child in children if isinstance(child, _CHECKED)]
        stack.extend(reversed(pending))  # depth-first in document order: problems are listed as they appear
    return found


def _clean(value: Any, depth: int, max_depth: int) -> bool:
    """Whether ``value`` certainly breaks no limit: the fast walk, without locations, for the common case.

    Parsed JSON holds exact ``dict``, ``list`` and ``float`` objects; anything else that is a container or a float
    (a tuple, a subclass) answers "not sure" and gets the full walk. ``x - x != 0`` is true for NaN and ±inf only.
    """
    stack: list[tuple[Any, int]] = [(value, depth)]
    push, pop = stack.append, stack.pop
    while stack:
        item, level = pop()
        kind = type(item)
        if kind is float:
            if item - item != 0:
                return False
            continue
        if kind is dict:
            children = item.values()
        elif kind is list:
            children = item
        elif isinstance(item, _CHECKED):
            return False
        else:
            continue
        if level + 1 > max_depth:
            return False
        for child in children:
            kind = type(child)
            if kind is dict or kind is list:
                push((child, level + 1))
            elif kind is float:
                if child - child != 0:
                    return False
            elif isinstance(child, _CHECKED):
                return False
    return True


__all__ = [
    "MAX_DEPTH",
    "NOT_FINITE",
    "JsonLimitError",
    "Location",
    "loads",
    "problems",
    "raw_decode",
    "too_deep",
]
