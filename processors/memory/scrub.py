"""``scrub_parameters``: a SQLAlchemy ``before_cursor_execute`` hook that makes every bound string encodable.

A string holding a lone surrogate cannot be encoded as UTF-8, so the driver refuses the whole statement (SQLite:
``UnicodeEncodeError``) and the transaction — a whole turn of a conversation — is lost. The store replaces each
lone surrogate with U+FFFD (and joins split pairs) as it binds the value. Values are checked with a fast path
(``str.isascii``), so the hook costs a few nanoseconds per parameter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from processors.messages.surrogates import has_surrogates, scrub, scrub_json


def _value(value: Any) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict | list):
        return scrub_json(value)
    return value


def _clean(values: Iterable[Any]) -> bool:
    """Whether no value needs scrubbing (nearly always): one ``isascii`` per string, inlined for speed."""
    for value in values:
        if type(value) is str:
            if not value.isascii() and has_surrogates(value):
                return False
        elif isinstance(value, dict | list):  # rare: JSON columns arrive already serialised
            return False
    return True


def _row(row: Any) -> Any:
    """The row itself when nothing in it needs scrubbing, else a scrubbed copy."""
    if isinstance(row, Mapping):
        return row if _clean(row.values()) else {key: _value(value) for key, value in row.items()}
    if isinstance(row, tuple | list):
        return row if _clean(row) else type(row)(_value(value) for value in row)
    return row


def scrub_parameters(
    _connection: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, executemany: bool
) -> tuple[str, Any]:
    """Return ``(statement, parameters)`` with lone surrogates in bound strings replaced."""
    if parameters is None:
        return statement, parameters
    if executemany and isinstance(parameters, list | tuple):
        rows = [_row(row) for row in parameters]
        if any(new is not old for new, old in zip(rows, parameters, strict=True)):
            return statement, type(parameters)(rows)
        return statement, parameters
    return statement, _row(parameters)


__all__ = ["scrub_parameters"]
