"""Reading a tool function's docstring: the description the model sees and one description per argument.

``@tool`` (:mod:`processors.tools`) turns a docstring into the tool's ``description`` (the text before the first
section) and into the ``description`` of each parameter in the JSON schema. Docstring conventions are a job of
their own (three styles, each with its own section syntax), so they live here, apart from the tool machinery.
Supported: Google-style ``Args:`` sections (and their aliases), reST ``:param x:`` fields and numpy-style
``Parameters`` sections underlined with dashes::

    parse_docstring('''Add two numbers.

    Args:
        a: The first one.
        b: The second one.
    ''')   # ('Add two numbers.', {'a': 'The first one.', 'b': 'The second one.'})
"""

from __future__ import annotations

import inspect
import re

__all__ = ["parse_docstring"]

_GOOGLE_ARGS = {"args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "kwargs"}
_GOOGLE_SECTIONS = _GOOGLE_ARGS | {
    "other parameters", "returns", "return", "yields", "yield", "raises", "exceptions", "example", "examples",
    "note", "notes", "attributes", "warning", "warnings", "see also", "references", "todo",
}  # fmt: skip
_GOOGLE_HEADER_RE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*$")
_GOOGLE_ENTRY_RE = re.compile(r"^\*{0,2}([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_REST_FIELD_RE = re.compile(
    r"^\s*:(param|parameter|arg|argument|key|keyword|type|raises?|except|exception|returns?|rtype|yields?|ytype|var|ivar|cvar)\b"
)
_REST_PARAM_RE = re.compile(r"^\s*:(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*\s)?\*{0,2}(\w+)\s*:\s*(.*)$")
_NUMPY_UNDERLINE_RE = re.compile(r"^\s*-{3,}\s*$")
_NUMPY_ENTRY_RE = re.compile(r"^\*{0,2}([A-Za-z_]\w*)\s*(?::.*)?$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a docstring into its description (text before the first section) and per-argument descriptions."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    index = 0
    while index < len(lines) and not _starts_section(lines, index):
        index += 1
    description = "\n".join(lines[:index]).strip()
    args: dict[str, str] = {}
    while index < len(lines):
        line = lines[index]
        header = _GOOGLE_HEADER_RE.match(line)
        if header and header.group(1).lower() in _GOOGLE_SECTIONS:
            target = args if header.group(1).lower() in _GOOGLE_ARGS else {}
            index = _parse_indented_entries(lines, index + 1, _indent(line), _GOOGLE_ENTRY_RE, target)
        elif index + 1 < len(lines) and _NUMPY_UNDERLINE_RE.match(lines[index + 1]) and line.strip():
            target = args if line.strip().lower() in {"parameters", "other parameters"} else {}
            index = _parse_numpy_section(lines, index + 2, _indent(line), target)
        elif _REST_FIELD_RE.match(line):
            index = _parse_rest_field(lines, index, args)
        else:
            index += 1
    return description, args


def _starts_section(lines: list[str], index: int) -> bool:
    line = lines[index]
    header = _GOOGLE_HEADER_RE.match(line)
    if header and header.group(1).lower() in _GOOGLE_SECTIONS:
        return True
    if _REST_FIELD_RE.match(line):
        return True
    return bool(line.strip() and index + 1 < len(lines) and _NUMPY_UNDERLINE_RE.match(lines[index + 1]))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _parse_indented_entries(
    lines: list[str], index: int, header_indent: int, entry_re: re.Pattern[str], out: dict[str, str]
) -> int:
    entry_indent: int | None = None
    current: str | None = None
    while index < len(lines):
        line = lines[index]
        if line.strip():
            indent = _indent(line)
            if indent <= header_indent:
                break
            if entry_indent is None:
                entry_indent = indent
            match = entry_re.match(line.strip()) if indent <= entry_indent else None
            if match:
                current = match.group(1)
                out[current] = match.group(2).strip()
            elif current is not None:
                out[current] = f"{out[current]} {line.strip()}".strip()
        index += 1
    return index


def _parse_numpy_section(lines: list[str], index: int, header_indent: int, out: dict[str, str]) -> int:
    current: str | None = None
    while index < len(lines):
        line = lines[index]
        if index + 1 < len(lines) and line.strip() and _NUMPY_UNDERLINE_RE.match(lines[index + 1]):
            break
        if line.strip():
            match = _NUMPY_ENTRY_RE.match(line.strip()) if _indent(line) <= header_indent else None
            if match:
                current = match.group(1)
                out[current] = ""
            elif current is not None:
                out[current] = f"{out[current]} {line.strip()}".strip()
        index += 1
    return index


def _parse_rest_field(lines: list[str], index: int, out: dict[str, str]) -> int:
    match = _REST_PARAM_RE.match(lines[index])
    field_indent = _indent(lines[index])
    text = match.group(2).strip() if match else ""
    index += 1
    while index < len(lines) and lines[index].strip() and _indent(lines[index]) > field_indent:
        text = f"{text} {lines[index].strip()}".strip()
        index += 1
    if match:
        out[match.group(1)] = text
    return index
