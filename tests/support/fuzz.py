"""Hypothesis strategies for hostile input, shared by the fuzz suites (``tests/**/test_*_fuzz.py``).

Text mixes the characters that break programs — NUL and other control characters, lone surrogates, emoji
(surrogate pairs in JSON), combining marks, right-to-left marks, line separators — with ordinary words. JSON
values add ``NaN``/``Infinity``, integers past 64 bits, and nesting deeper than the limits allow.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

#: Characters that have broken text handling somewhere: control, separators, surrogates, emoji, marks, BOM.
NASTY_CHARACTERS = [
    "\x00",
    "\x1b",
    "\x7f",
    "\x85",
    "\u2028",
    "\u2029",
    "\ud83d",
    "\ude00",
    "\ud800",
    "\udfff",
    "\U0001f600",
    "\u0301",
    "\u202e",
    "\ufeff",
    "\\",
    '"',
    "/",
    "..",
    "\n",
    "\t",
    " ",
]

#: Characters without lone surrogates: where a lone surrogate is a known, separately tracked problem.
NO_SURROGATES = [c for c in NASTY_CHARACTERS if not ("\ud800" <= c[0] <= "\udfff")]


def nasty_text(*, surrogates: bool = True, max_size: int = 40) -> st.SearchStrategy[str]:
    """Short strings of ordinary and troublesome characters."""
    pieces = st.sampled_from(NASTY_CHARACTERS if surrogates else NO_SURROGATES)
    ordinary = st.text(st.characters(exclude_categories=() if surrogates else ("Cs",)), max_size=8)
    return st.lists(
        st.one_of(pieces, ordinary, st.sampled_from(["hello", "secret", "jo@example.com"])), max_size=max_size // 4
    ).map("".join)


def writable(value: Any) -> Any:
    """``value`` as the application keeps it (issue 9 item 5): surrogate pairs joined, lone halves U+FFFD."""
    if isinstance(value, str):
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if isinstance(value, dict):
        return {writable(key): writable(child) for key, child in value.items()}
    if isinstance(value, list):
        return [writable(child) for child in value]
    return value


def nested(depth: int, leaf: Any = 0) -> Any:
    """A value nested ``depth`` levels deep (lists and objects alternating)."""
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


def json_values(*, surrogates: bool = True, non_finite: bool = True, max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """JSON-like values, including ones JSON forbids (NaN, Infinity) and deep nesting."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=non_finite, allow_infinity=non_finite),
        nasty_text(surrogates=surrogates),
    )
    shallow = st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4), st.dictionaries(nasty_text(surrogates=surrogates), children, max_size=4)
        ),
        max_leaves=max_leaves,
    )
    deep = st.sampled_from([60, 98, 101, 150, 400]).map(nested)  # json.dumps itself recurses: stay well below 1000
    return st.one_of(shallow, shallow, shallow, deep)


def dumps(value: Any) -> str:
    """JSON text the way a hostile file may hold it: NaN/Infinity literals kept, surrogates escaped."""
    return json.dumps(value, allow_nan=True)


#: Whole documents too deep for Python's JSON parser (a bare ``RecursionError`` before issue 9, item 11).
TOO_DEEP_TEXT = ["[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000, "[" * 100_000]


__all__ = [
    "NASTY_CHARACTERS",
    "NO_SURROGATES",
    "TOO_DEEP_TEXT",
    "dumps",
    "json_values",
    "nasty_text",
    "nested",
    "writable",
]
