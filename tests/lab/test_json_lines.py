"""JSON Lines are split on "\\n" only: U+2028, U+2029 and U+0085 inside a JSON string belong to its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.json_lines import file_lines, numbered_lines, read_text

#: The characters ``str.splitlines()`` ends a line at that JSON allows unescaped inside a string.
SEPARATORS = ["\u2028", "\u2029", "\x85"]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_separator_inside_a_string_stays_in_its_line(separator: str) -> None:
    text = f'{{"text": "a{separator}b"}}\n{{"text": "c"}}\n'
    assert list(numbered_lines(text)) == [(1, f'{{"text": "a{separator}b"}}'), (2, '{"text": "c"}')]


def test_crlf_a_byte_order_mark_and_a_last_line_without_newline() -> None:
    assert list(numbered_lines("\ufeffone\r\ntwo\r\n\r\nthree")) == [(1, "one"), (2, "two"), (3, ""), (4, "three")]
    assert list(numbered_lines("")) == []
    assert list(numbered_lines("\n")) == [(1, "")]


def test_a_lone_carriage_return_ends_no_line(tmp_path: Path) -> None:
    # JSON allows "\r" as whitespace between tokens; the line is still one line, and numbers count "\n".
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1,\r"b": 2}\r\n{"c": 3}\n')
    assert read_text(path) == '{"a": 1,\r"b": 2}\r\n{"c": 3}\n'  # no BOM, line ends as they were
    assert list(numbered_lines(read_text(path))) == [(1, '{"a": 1,\r"b": 2}'), (2, '{"c": 3}')]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_file_read_line_by_line_splits_on_newlines_alone(tmp_path: Path, separator: str) -> None:
    path = tmp_path / "x.jsonl"
    text = f'\ufeff{{"t": "a{separator}b"}}\r\n{{"c": 3}}\n'
    path.write_bytes(text.encode("utf-8") + b"\xff\n")  # the last line is no UTF-8
    assert list(file_lines(path)) == [(1, f'{{"t": "a{separator}b"}}'), (2, '{"c": 3}'), (3, None)]


def test_a_file_without_a_byte_order_mark_or_a_last_newline_keeps_every_character(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}')
    assert list(file_lines(path)) == [(1, '{"a": 1}'), (2, '{"b": 2}')]
