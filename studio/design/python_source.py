"""Python source for JSON values, laid out as ``ruff format`` would: what :mod:`studio.design.export` writes an exported
script's option values, names and texts with (a value that fits stays on its line; a longer one gets one item a
line; a long text is split into implicitly concatenated pieces).
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["bracketed", "call", "docstring_text", "flat_literal", "is_name", "literal", "string_literal"]

_WIDTH = 110


def literal(value: Any, indent: int) -> str:
    """``value`` (JSON data) as Python source; containers that do not fit on the line are split, one item a line."""
    flat = flat_literal(value)
    if len(flat) + indent <= _WIDTH:
        return flat
    if isinstance(value, str):
        return string_literal(value, indent)
    if isinstance(value, dict) and value:
        items = [f"{string_literal(str(k), indent + 4)}: {literal(v, indent + 4)}" for k, v in value.items()]
        return bracketed("{", items, "}", indent)
    if isinstance(value, list) and value:
        return bracketed("[", [literal(item, indent + 4) for item in value], "]", indent)
    return flat


def bracketed(opening: str, items: Sequence[str], closing: str, indent: int) -> str:
    if not items:
        return opening + closing
    inner = " " * (indent + 4)
    return opening + "\n" + "".join(f"{inner}{item},\n" for item in items) + " " * indent + closing


def flat_literal(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid Python string literal
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flat_literal(str(k))}: {flat_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flat_literal(item) for item in value) + "]"
    return repr(value)


def string_literal(text: str, indent: int) -> str:
    """A long string as implicitly concatenated pieces in parentheses, split after spaces and line ends."""
    flat = json.dumps(text, ensure_ascii=False)
    if len(flat) + indent <= _WIDTH:
        return flat
    room = max(30, _WIDTH - indent - 6)
    pieces: list[str] = []
    current = ""
    for word in re.findall(r"[^ \n]+ *\n?| +\n?|\n", text):
        if current and (current.endswith("\n") or len(json.dumps(current + word, ensure_ascii=False)) > room):
            pieces.append(current)
            current = ""
        current += word
    if current:
        pieces.append(current)
    return bracketed("(", [json.dumps(piece, ensure_ascii=False) for piece in pieces], ")", indent).replace(",\n", "\n")


def is_name(key: str) -> bool:
    return key.isidentifier() and not keyword.iskeyword(key)


def call(callee: str, kwargs: dict[str, Any], indent: int, leading: Sequence[str] = (), *, before: int = 0) -> str:
    """``callee(leading..., key=value, ...)`` on one line if it fits, else one argument a line.

    ``indent`` is the line's indentation, ``before`` how many characters precede ``callee`` after it.
    """
    if all(is_name(key) for key in kwargs):
        flat_parts = [*leading, *(f"{key}={flat_literal(value)}" for key, value in kwargs.items())]
        parts = [*leading, *(f"{key}={literal(value, indent + 4)}" for key, value in kwargs.items())]
    else:
        flat_parts = [*leading, f"**{flat_literal(kwargs)}"]
        parts = [*leading, f"**{literal(kwargs, indent + 4)}"]
    one_line = f"{callee}({', '.join(flat_parts)})"
    if len(one_line) + indent + before <= _WIDTH:
        return one_line
    return bracketed(f"{callee}(", parts, ")", indent)


def docstring_text(text: str) -> str:
    """``text`` on one line inside a docstring: backslashes and quotes escaped, and every character that is not
    printable (a NUL, which Python source cannot hold; a lone surrogate, which UTF-8 cannot) as its escape."""
    flat = " ".join(text.split()).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return "".join(char if char.isprintable() else _escape(char) for char in flat)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
