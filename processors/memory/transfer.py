"""Thread export and import: the JSON document, and validating an import completely before anything is written.

The document is ``{"version": 1, "thread": {...}, "messages": [...]}``: the thread in camelCase and each
message in the reference's (Mastra's) message shape, ``Message.to_json()``. An import is parsed and checked
whole — shape, types, duplicate or foreign ids, ids that are no safe names, JSON limits — and refused with every
problem named by its path (``messages[3].content.parts[0].text: Field required``), so a user can fix the file;
only a valid document reaches the database, in one transaction. Lone surrogates (``"\\ud83d"`` escapes) become
U+FFFD, as everywhere text is kept (:mod:`processors.messages.surrogates`): the stored thread can always be
exported again.

A big import (hundreds of thousands of messages, tens of megabytes) takes seconds, so it is made to run on a
worker thread without starving the one that called it: the ``messages`` list is decoded one message at a time
(``json.loads`` of the whole text holds the interpreter lock for seconds; decoding message by message gives it
back between messages), each message is validated on its own, and an optional :data:`ImportProgress` callback
hears how far each phase got — and may raise to stop the import, which then writes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from processors import json_limits
from processors.memory.errors import ThreadImportError
from processors.memory.records import MAX_ID_LENGTH, ThreadRecord
from processors.messages import Message
from processors.messages.surrogates import scrub_json
from processors.problems import Problem, json_problem, located, pydantic_problem

EXPORT_VERSION = 1

#: The tags of the message part union; pydantic puts the chosen tag in an error's location, which we drop.
_PART_TAGS = frozenset({"text", "reasoning", "file", "source", "step-start", "error", "tool-invocation", "data"})

#: ``progress(phase, done, total)``, called on the importing thread: ``"reading"`` (characters of the text
#: decoded), ``"checking"`` (messages validated), ``"writing"`` (messages stored). It may raise to stop the
#: import; the exception propagates and nothing is written.
ImportProgress = Callable[[str, int, int], None]

#: Messages between two progress reports (and chances to stop).
PROGRESS_EVERY = 1000

#: Characters an id may not contain: control characters (NUL included), path separators, line and paragraph
#: separators, and lone surrogates. Ids name threads and messages in files and URLs; ``../x`` or a NUL there
#: is an attack or a broken file, never a real id.
_BAD_ID_CHARACTER = re.compile(r"[\x00-\x1f\x7f-\x9f/\\\u2028\u2029\ud800-\udfff]")

#: The most problems an import error lists (each message may add some; a user fixes a file from the first).
MAX_PROBLEMS = 50


class ThreadExport(BaseModel):
    """A whole exported thread (validated on import)."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1]
    thread: ThreadRecord
    messages: list[Message]
    #: What other programs keep with the thread (``{"their-name": ...}``, e.g. a studio's runs and recordings):
    #: carried through an import as it is; the runtime neither reads nor writes it.
    extensions: dict[str, Any] = {}


class _Envelope(BaseModel):
    """The document around the messages, validated first; each message is then validated on its own."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1]
    thread: ThreadRecord
    messages: list[Any]
    extensions: dict[str, Any] = {}


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
        return Problem(
            "thread:unknown_part",
            "unknown part type {type!r} (expected text, reasoning, file, source, step-start, error, "
            "tool-invocation or a data-* type)",
            type=found,
        )
    return pydantic_problem(error)


def id_problem(value: str) -> str | None:
    """Why ``value`` cannot be an imported id (thread, message or resource), or None if it can."""
    if not value or len(value) > MAX_ID_LENGTH:
        return Problem("thread:id_length", "must be 1 to {max} characters", max=MAX_ID_LENGTH)
    if value in (".", ".."):
        return Problem("thread:not_an_id", "{id!r} is not an id", id=value)
    bad = _BAD_ID_CHARACTER.search(value)
    if bad is not None:
        return Problem(
            "thread:id_character",
            "{id!r} contains {character}, which an id may not contain",
            id=value,
            character=_character_name(bad.group()),
        )
    return None


def _character_name(character: str) -> str:
    if character == "\x00":
        return "NUL"
    if character in "/\\":
        return Problem("character:named", "a {character!r}", character=character)
    if character in "\u2028\u2029":
        key = "line_separator" if character == "\u2028" else "paragraph_separator"
        return Problem(f"character:{key}", f"a {key.replace('_', ' ')}")
    code = f"U+{ord(character):04X}"
    if "\ud800" <= character <= "\udfff":
        return Problem("character:lone_surrogate", "a lone surrogate ({code})", code=code)
    return Problem("character:control", "a control character ({code})", code=code)


def _ignore(_phase: str, _done: int, _total: int) -> None:
    return None


def parse_import(data: Mapping[str, Any] | str | bytes, *, progress: ImportProgress | None = None) -> ThreadExport:
    """Validate an import document completely; raise :class:`ThreadImportError` naming every problem.

    ``progress`` hears how far reading and checking got (see :data:`ImportProgress`). Pure CPU work with no
    I/O: callers with an event loop run it on a worker thread.
    """
    report = progress or _ignore
    if isinstance(data, str | bytes):
        data = _decode(data, report)
    if not isinstance(data, Mapping):
        raise ThreadImportError(
            [
                located(
                    "(document)",
                    Problem("thread:not_object", "expected a JSON object, got {kind}", kind=type(data).__name__),
                )
            ]
        )
    problems: list[str] = []
    messages_data = data.get("messages")
    envelope = {key: ([] if key == "messages" and isinstance(value, list) else value) for key, value in data.items()}
    problems += _limit_problems(envelope, (), 0)
    thread: ThreadRecord | None = None
    extensions: dict[str, Any] = {}
    if not problems:
        try:
            parsed = _Envelope.model_validate(scrub_json(envelope))
            thread, extensions = parsed.thread, parsed.extensions
        except ValidationError as error:
            problems += _validation_problems(error, ())
    if thread is not None:
        problems += _thread_id_problems(thread)
    messages = _check_messages(messages_data, thread, problems, report) if isinstance(messages_data, list) else []
    if problems:
        raise ThreadImportError(problems[:MAX_PROBLEMS])
    assert thread is not None
    return ThreadExport.model_construct(version=1, thread=thread, messages=messages, extensions=extensions)


def _check_messages(
    items: list[Any], thread: ThreadRecord | None, problems: list[str], report: ImportProgress
) -> list[Message]:
    total = len(items)
    report("checking", 0, total)
    messages: list[Message] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        if index and index % PROGRESS_EVERY == 0:
            report("checking", index, total)
        if len(problems) >= MAX_PROBLEMS:
            continue  # enough to fix the file from; keep reporting progress to the end
        where = ("messages", index)
        limits = _limit_problems(item, where, 2)
        if limits:
            problems += limits
            continue
        try:
            message = Message.model_validate(scrub_json(item))
        except ValidationError as error:
            problems += _validation_problems(error, where)
            continue
        problems += _message_id_problems(message, index, thread, seen)
        messages.append(message)
    report("checking", total, total)
    return messages


def _message_id_problems(message: Message, index: int, thread: ThreadRecord | None, seen: dict[str, int]) -> list[str]:
    where = f"messages[{index}]"
    found: list[str] = []
    problem = id_problem(message.id)
    if problem is not None:
        found.append(located(f"{where}.id", problem))
    if message.id in seen:
        other = f"messages[{seen[message.id]}]"
        found.append(
            located(
                f"{where}.id",
                Problem("thread:id_repeated", "{id!r} is also the id of {other}", id=message.id, other=other),
            )
        )
    seen.setdefault(message.id, index)
    if message.thread_id is not None and thread is not None and message.thread_id != thread.id:
        found.append(
            located(
                f"{where}.threadId",
                Problem(
                    "thread:foreign_thread",
                    "{id!r} is not the thread's id {thread!r}",
                    id=message.thread_id,
                    thread=thread.id,
                ),
            )
        )
    if message.resource_id is not None:
        problem = id_problem(message.resource_id)
        if problem is not None:
            found.append(located(f"{where}.resourceId", problem))
    return found


def _thread_id_problems(thread: ThreadRecord) -> list[str]:
    found: list[str] = []
    for field, value in (("id", thread.id), ("resourceId", thread.resource_id)):
        problem = None if value is None else id_problem(value)
        if problem is not None:
            found.append(located(f"thread.{field}", problem))
    return found


def _limit_problems(value: Any, location: tuple[str | int, ...], depth: int) -> list[str]:
    return [
        located(format_location(where), message)
        for where, message in json_limits.problems(value, location=location, depth=depth)
    ]


def _validation_problems(error: ValidationError, prefix: tuple[str | int, ...]) -> list[str]:
    return [located(format_location((*prefix, *e["loc"])), _describe(e)) for e in error.errors(include_url=False)]


# ------------------------------------------------------------------------------------------------ decoding
_WHITESPACE = re.compile(r"[ \t\n\r]*")


def _decode(data: str | bytes, report: ImportProgress) -> Any:
    """The document's JSON, decoded message by message (module docstring); errors as ``ThreadImportError``."""
    try:
        text = data.decode(json.detect_encoding(data), "surrogatepass") if isinstance(data, bytes) else data
        return _DocumentReader(text, report).read()
    except json_limits.JsonLimitError as error:
        raise ThreadImportError([located("(document)", error.message)]) from None
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, a number with too many digits
        fault = json_problem(error) if isinstance(error, json.JSONDecodeError) else str(error)
        problem = Problem("thread:not_json", "not valid JSON: {error}", error=fault)
        raise ThreadImportError([located("(document)", problem)]) from None


class _DocumentReader:
    """Decodes one JSON object, its ``messages`` list element by element; same result and errors as ``json``."""

    def __init__(self, text: str, report: ImportProgress) -> None:
        self.text = text
        self.report = report
        self.decoder = json.JSONDecoder()

    def read(self) -> Any:
        text = self.text
        self.report("reading", 0, len(text))
        index = self._skip(0)
        if not text.startswith("{", index):
            value = json_limits.loads(text)  # not an object: refused by the caller, decoded the usual way
            self.report("reading", len(text), len(text))
            return value
        document: dict[str, Any] = {}
        index = self._skip(index + 1)
        if text.startswith("}", index):
            index += 1
        else:
            while True:
                if not text.startswith('"', index):
                    raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, index)
                key, index = json_limits.raw_decode(self.decoder, text, index)  # a string: no nesting
                index = self._skip(index)
                if not text.startswith(":", index):
                    raise json.JSONDecodeError("Expecting ':' delimiter", text, index)
                index = self._skip(index + 1)
                if key == "messages" and text.startswith("[", index):
                    document[key], index = self._list(index)
                else:
                    document[key], index = json_limits.raw_decode(self.decoder, text, index)
                index = self._skip(index)
                if text.startswith(",", index):
                    index = self._skip(index + 1)
                    continue
                if text.startswith("}", index):
                    index += 1
                    break
                raise json.JSONDecodeError("Expecting ',' delimiter", text, index)
        index = self._skip(index)
        if index != len(text):
            raise json.JSONDecodeError("Extra data", text, index)
        self.report("reading", len(text), len(text))
        return document

    def _list(self, index: int) -> tuple[list[Any], int]:
        text = self.text
        items: list[Any] = []
        index = self._skip(index + 1)
        if text.startswith("]", index):
            return items, index + 1
        while True:
            item, index = json_limits.raw_decode(self.decoder, text, index)
            items.append(item)
            if len(items) % PROGRESS_EVERY == 0:
                self.report("reading", index, len(text))
            index = self._skip(index)
            if text.startswith(",", index):
                index = self._skip(index + 1)
                continue
            if text.startswith("]", index):
                return items, index + 1
            raise json.JSONDecodeError("Expecting ',' delimiter", text, index)

    def _skip(self, index: int) -> int:
        match = _WHITESPACE.match(self.text, index)
        assert match is not None  # the pattern matches the empty string
        return match.end()


__all__ = [
    "EXPORT_VERSION",
    "ImportProgress",
    "ThreadExport",
    "export_document",
    "format_location",
    "id_problem",
    "parse_import",
]
