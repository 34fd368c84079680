"""Thread export and import: the JSON document, and validating an import completely before anything is written.

The document is ``{"version": 1, "thread": {...}, "messages": [...]}``: the thread in camelCase and each
message in the reference's (Mastra's) message shape, ``Message.to_json()``. An import is parsed and checked
whole — shape, types, duplicate or foreign ids — and refused with every problem named by its path
(``messages[3].content.parts[0].text: Field required``), so a user can fix the file; only a valid document
reaches the database, in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from processors.memory.errors import ThreadImportError
from processors.memory.records import MAX_ID_LENGTH, ThreadRecord
from processors.messages import Message

EXPORT_VERSION = 1

#: The tags of the message part union; pydantic puts the chosen tag in an error's location, which we drop.
_PART_TAGS = frozenset({"text", "reasoning", "file", "source", "step-start", "error", "tool-invocation", "data"})


class ThreadExport(BaseModel):
    """A whole exported thread (validated on import)."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1]
    thread: ThreadRecord
    messages: list[Message]


def export_document(thread: ThreadRecord, messages: Iterable[Message]) -> dict[str, Any]:
    return {"version": EXPORT_VERSION, "thread": thread.to_json(), "messages": [m.to_json() for m in messages]}


def format_location(location: Iterable[int | str]) -> str:
    """``("messages", 3, "content", "parts", 0, "text", "text")`` → ``messages[3].content.parts[0].text``."""
    out = ""
    items = list(location)
    for index, item in enumerate(items):
        if isinstance(item, int):
            out += f"[{item}]"
            continue
        after_part = index >= 2 and items[index - 2] == "parts" and isinstance(items[index - 1], int)
        if after_part and item in _PART_TAGS:
            continue  # the union branch pydantic tried, not a field of the document
        out += f".{item}" if out else item
    return out or "(document)"


def _describe(error: Mapping[str, Any]) -> str:
    if error["type"] == "union_tag_invalid":
        found = error.get("ctx", {}).get("tag")
        return f"unknown part type {found!r} (expected text, reasoning, file, source, step-start, error, " \
               "tool-invocation or a data-* type)"
    return str(error["msg"])


def parse_import(data: Mapping[str, Any] | str | bytes) -> ThreadExport:
    """Validate an import document completely; raise :class:`ThreadImportError` naming every problem."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except ValueError as error:
            raise ThreadImportError([f"(document): not valid JSON: {error}"]) from None
    if not isinstance(data, Mapping):
        raise ThreadImportError([f"(document): expected a JSON object, got {type(data).__name__}"])
    try:
        document = ThreadExport.model_validate(data)
    except ValidationError as error:
        raise ThreadImportError(
            [f"{format_location(e['loc'])}: {_describe(e)}" for e in error.errors(include_url=False)]
        ) from None
    problems: list[str] = []
    thread_id = document.thread.id
    seen: dict[str, int] = {}
    for index, message in enumerate(document.messages):
        where = f"messages[{index}]"
        if not message.id or len(message.id) > MAX_ID_LENGTH:
            problems.append(f"{where}.id: must be 1 to {MAX_ID_LENGTH} characters")
        if message.id in seen:
            problems.append(f"{where}.id: {message.id!r} is also the id of messages[{seen[message.id]}]")
        seen.setdefault(message.id, index)
        if message.thread_id is not None and message.thread_id != thread_id:
            problems.append(f"{where}.threadId: {message.thread_id!r} is not the thread's id {thread_id!r}")
    if problems:
        raise ThreadImportError(problems)
    return document


__all__ = ["EXPORT_VERSION", "ThreadExport", "export_document", "format_location", "parse_import"]
