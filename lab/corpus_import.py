"""Conversations other red-teaming tools write, read as the lab's conversation cases (``Case.conversation``).

Two formats, read for their shape only (nothing here runs code or fetches anything):

- **promptfoo's multi-turn tests**: in a promptfoo YAML file, tests that share ``metadata.conversationId`` are one
  conversation, their order in the file the order of the turns (promptfoo runs them in sequence on one thread). They
  become one case whose id is the conversationId, each test one user turn; a test's ``tool_result`` and ``reply``
  vars are its turn's, the first test's label, category, lang and expect are the case's, every test's assertions are
  kept (once each: a file's ``defaultTest`` ones come with every test). :func:`promptfoo_conversations` regroups
  the YAML reader's tests.
- **PyRIT's conversation export**: the JSON list of message pieces PyRIT's memory exports
  (``MemoryInterface.export_conversations``, each piece ``PromptRequestPiece.to_dict()``/``MessagePiece``): pieces
  sharing a ``conversation_id`` are one conversation, in ``sequence`` order; a ``user`` piece starts a turn (its
  ``converted_value``, what PyRIT sent, else its ``original_value``), a ``tool`` piece is that turn's tool result,
  an ``assistant`` piece that turn's fixed reply (``guardrails`` mode), ``system`` pieces are left out (the design
  brings its own instructions). Pieces of another data type than text (an image path, audio) are refused, naming
  the line, since the lab sends text. :func:`pyrit_records` reads the file.

Both hand records to :func:`lab.corpus.case_from_dict`, so every check and every error (``file:line: what``) is
the lab's own; a conversation's line is its first test's or piece's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from processors import json_limits

__all__ = ["PYRIT_ROLES", "promptfoo_conversations", "pyrit_records"]

#: The roles of PyRIT's message pieces the lab reads (anything else is an error naming its line).
PYRIT_ROLES = ("system", "user", "assistant", "tool", "simulated_assistant", "developer")
#: Case fields a conversation takes from its first test or piece labels.
_CASE_FIELDS = ("label", "category", "lang", "expect", "turns", "description")

Record = tuple[dict[str, Any], list[Mapping[str, Any]]]


def promptfoo_conversations(tests: Iterable[tuple[int, Record | ValueError, str | None]]) -> Iterator[tuple[int, Any]]:
    """The YAML reader's tests, ``(line, (record, asserts) or the error, conversationId or None)``, with the tests
    of each conversationId made into one conversation record at its first test's line; in the file's order.

    A bad test inside a conversation spoils the whole conversation (a conversation missing a turn is another
    conversation): its error stands for it, at the bad test's line."""
    out: list[tuple[int, Any]] = []
    groups: dict[str, tuple[int, list[tuple[int, Record | ValueError]]]] = {}
    for number, item, conversation_id in tests:
        if conversation_id is None:
            out.append((number, item))
            continue
        if conversation_id not in groups:
            groups[conversation_id] = (number, [])
            out.append((number, conversation_id))  # a place held in the file's order
        groups[conversation_id][1].append((number, item))
    for number, item in out:
        if isinstance(item, str):  # a conversationId: its place
            yield _promptfoo_conversation(item, groups[item][1])
        else:
            yield number, item


def _promptfoo_conversation(conversation_id: str, tests: list[tuple[int, Record | ValueError]]) -> tuple[int, Any]:
    first = tests[0][0]
    for number, item in tests:
        if isinstance(item, ValueError):
            return number, ValueError(f"conversation {conversation_id!r}: {item}")
    records = [item for _number, item in tests if not isinstance(item, ValueError)]
    turns: list[dict[str, Any]] = []
    asserts: list[Mapping[str, Any]] = []
    for record, kept in records:
        turn: dict[str, Any] = {"user": record["text"]}
        for name in ("tool_result", "reply"):
            if record.get(name) is not None:
                turn[name] = record[name]
        turns.append(turn)
        for check in kept:  # once each: a file's defaultTest assertions come with every test
            if check not in asserts:
                asserts.append(check)
    case: dict[str, Any] = {"id": conversation_id, "conversation": turns}
    for record, _kept in records:
        for name in _CASE_FIELDS:
            if name in record and name not in case:
                case[name] = record[name]
    return first, (case, asserts)


def pyrit_records(text: str) -> Iterator[tuple[int, Any]]:
    """``(line, record or error)`` for each conversation of a PyRIT export, in the order they first appear.

    The line of a piece is where its ``{`` is in the file; an error about a piece names it, and spoils its
    conversation (the other conversations still load)."""
    pieces = list(_array_items(text))
    if len(pieces) == 1 and isinstance(pieces[0][1], ValueError):
        yield pieces[0]
        return
    conversations: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for number, piece in pieces:
        if isinstance(piece, ValueError):
            yield number, piece
            continue
        if not isinstance(piece, Mapping):
            yield number, ValueError(f"a PyRIT message piece must be an object, got {type(piece).__name__}")
            continue
        conversation_id = piece.get("conversation_id")
        if not isinstance(conversation_id, str) or not conversation_id.strip():
            yield number, ValueError("a PyRIT message piece needs its 'conversation_id'")
            continue
        conversations.setdefault(conversation_id, []).append((number, piece))
    for conversation_id, found in conversations.items():
        yield _pyrit_conversation(conversation_id, found)


def _array_items(text: str) -> Iterator[tuple[int, Any]]:
    """The items of a top-level JSON array, each with the line it starts on (``json`` alone gives no lines)."""
    decoder = json.JSONDecoder()
    at = _skip_space(text, 0)
    if at >= len(text) or text[at] != "[":
        line = text.count("\n", 0, at) + 1
        yield line, ValueError("a PyRIT export must be a JSON list of message pieces (export_conversations)")
        return
    at = _skip_space(text, at + 1)
    if at < len(text) and text[at] == "]":
        return
    while at < len(text):
        line = text.count("\n", 0, at) + 1
        try:
            item, end = json_limits.raw_decode(decoder, text, at)
        except json.JSONDecodeError as error:
            yield error.lineno, ValueError(f"not valid JSON ({error.msg} at column {error.colno})")
            return
        except json_limits.JsonLimitError as error:
            yield line, ValueError(f"not a usable JSON piece ({error.message})")
            return
        found = json_limits.problems(item, depth=1)
        yield line, (ValueError(f"not a usable JSON piece ({found[0][1]})") if found else item)
        at = _skip_space(text, end)
        if at < len(text) and text[at] == ",":
            at = _skip_space(text, at + 1)
            continue
        if at < len(text) and text[at] == "]":
            return
        yield text.count("\n", 0, at) + 1, ValueError("not valid JSON (expected ',' or ']' after a message piece)")
        return
    yield text.count("\n", 0, at) + 1, ValueError("not valid JSON (the list is not closed)")


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _pyrit_conversation(conversation_id: str, pieces: list[tuple[int, Mapping[str, Any]]]) -> tuple[int, Any]:
    first = pieces[0][0]
    ordered = sorted(pieces, key=lambda item: _sequence(item[1]))
    turns: list[dict[str, str]] = []
    labels: dict[str, Any] = {}
    for number, piece in ordered:
        role = piece.get("role")
        if role not in PYRIT_ROLES:
            return number, ValueError(f"conversation {conversation_id!r}: unknown role {role!r}")
        kind = piece.get("converted_value_data_type") or piece.get("original_value_data_type") or "text"
        value = piece.get("converted_value")
        if not isinstance(value, str):
            value = piece.get("original_value")
        if role == "system":
            continue
        if kind not in ("text", "function_call_output") or not isinstance(value, str):
            return number, ValueError(f"conversation {conversation_id!r}: a {kind} piece; the lab sends text only")
        if isinstance(piece.get("labels"), Mapping):
            labels.update({key: item for key, item in piece["labels"].items() if key not in labels})
        if role == "user":
            turns.append({"user": value})
            continue
        if not turns:
            return number, ValueError(f"conversation {conversation_id!r}: a {role} piece before any user piece")
        name = "tool_result" if role == "tool" or kind == "function_call_output" else "reply"
        turns[-1][name] = turns[-1][name] + "\n" + value if name in turns[-1] else value
    if not turns:
        return first, ValueError(f"conversation {conversation_id!r} has no user piece")
    record: dict[str, Any] = {"id": conversation_id, "conversation": turns}
    if labels.get("label") in ("attack", "benign"):
        record["label"] = labels["label"]
    for name in ("category", "lang"):
        if isinstance(labels.get(name), str):
            record[name] = labels[name]
    if labels:
        record["pyrit_labels"] = labels
    return first, record


def _sequence(piece: Mapping[str, Any]) -> int:
    sequence = piece.get("sequence")
    return sequence if isinstance(sequence, int) and not isinstance(sequence, bool) else 0
