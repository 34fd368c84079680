"""Lines of a JSON Lines file, split as the format says: on ``\\n`` only.

JSON allows U+2028, U+2029 and U+0085 unescaped inside strings, and ``json.dumps(..., ensure_ascii=False)``
writes them so; public prompt collections contain them. ``str.splitlines()`` (and a text file opened with
universal newlines, which also ends a line at a lone ``\\r``) would cut such a record in two and refuse a valid
file. Every JSON Lines reader of the project reads through here: lines end at ``\\n``, a ``\\r`` before it is
dropped (files written on Windows), a byte-order mark at the start is ignored, and line numbers count ``\\n``,
as an editor's do.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

BOM = "\ufeff"


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number from 1, line)`` for every line of ``text``, without its ``\\n`` or ``\\r\\n``.

    A last line without a newline is a line; the empty string after a final newline is not.
    """
    if text.startswith(BOM):
        text = text[1:]
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, 1):
        yield number, line[:-1] if line.endswith("\r") else line


def file_lines(path: Path) -> Iterator[tuple[int, str | None]]:
    """:func:`numbered_lines` of a UTF-8 file, read line by line (a results file may hold megabytes of recordings).

    A binary file splits on ``b"\\n"`` alone, which is the rule. A line that is not UTF-8 comes as ``None`` (a
    write cut in the middle of a character), for the caller to treat as it treats a line that is not JSON.
    """
    with path.open("rb") as file:
        for number, raw in enumerate(file, 1):
            line = raw[:-1] if raw.endswith(b"\n") else raw
            if line.endswith(b"\r"):
                line = line[:-1]
            if number == 1 and line.startswith(BOM.encode("utf-8")):
                line = line[3:]
            try:
                yield number, line.decode("utf-8")
            except UnicodeDecodeError:
                yield number, None


def read_text(path: Path) -> str:
    """The file's text, UTF-8 (with or without a byte-order mark), its line ends left as they are."""
    with path.open(encoding="utf-8-sig", newline="") as file:
        return file.read()
