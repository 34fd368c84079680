"""Fuzzing thread import into a real SQLite store: only ``ThreadImportError`` escapes, and nothing half-written.

Each example imports a hostile document — a real export with random values at random places, random ids
(NUL, ``../``, control characters, ids already stored), NaN/Infinity, deep nesting, random JSON, random bytes —
into one SqlMemory on a real SQLite file. After a refused import the database holds exactly the rows it had;
after an accepted one the thread reads back with the document's messages, and is deleted again so every example
starts from the same database.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from processors.memory import SqlMemory
from processors.memory.errors import ThreadImportError
from processors.messages import Message
from tests.support.fuzz import TOO_DEEP_TEXT, dumps, json_values, nasty_text, writable

#: What an accepted id never holds: control characters (NUL included), path separators, line separators.
UNSAFE_ID = re.compile(r"[\x00-\x1f\x7f-\x9f/\\\u2028\u2029]")


class Store:
    """One SqlMemory on a real file and the event loop it runs on, shared by a module's examples."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.loop = asyncio.new_event_loop()
        self.memory = SqlMemory(f"sqlite:///{path}")
        self.run(
            self.memory.save_messages("existing", [Message.user("kept", id="e0"), Message.assistant("too", id="e1")])
        )

    def run(self, awaitable: Any) -> Any:
        return self.loop.run_until_complete(awaitable)

    def rows(self) -> str:
        """Every row of the thread tables, as a digest."""
        with closing(sqlite3.connect(self.path)) as connection:
            rows = [connection.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in ("threads", "messages")]
        return hashlib.sha256(repr(rows).encode("utf-8", "surrogatepass")).hexdigest()

    def close(self) -> None:
        self.run(self.memory.close())
        self.loop.close()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    opened = Store(tmp_path_factory.mktemp("transfer-fuzz") / "threads.db")
    yield opened
    opened.close()


def check_import(store: Store, data: Any) -> None:
    """Import ``data``: refused with ``ThreadImportError`` and nothing written, or stored whole (then removed)."""
    before = store.rows()
    outcome: BaseException | str
    try:
        outcome = store.run(store.memory.import_thread(data))
    except ThreadImportError as error:
        outcome = error
    if isinstance(outcome, ThreadImportError):
        assert outcome.problems and all(": " in problem for problem in outcome.problems)
        assert store.rows() == before
        return
    thread_id = outcome
    document = json.loads(data) if isinstance(data, str | bytes) else data
    stored = store.run(store.memory.all_messages(thread_id))
    expected = [writable(m.get("id")) for m in document["messages"]]  # lone surrogates are replaced in ids too
    assert [m.id for m in stored if m.id in expected] == [i for i in expected if i is not None]
    exported = store.run(store.memory.export_thread(thread_id))
    json.dumps(exported, allow_nan=False)  # what was accepted is JSON: no NaN or Infinity got in
    # Nothing became null; lone surrogates became U+FFFD (issue 9 item 5), so the thread can be exported again.
    assert exported["thread"]["metadata"] == writable(document["thread"].get("metadata", {}))
    for sent, kept in zip(document["messages"], exported["messages"], strict=True):
        if isinstance(sent.get("content"), dict) and "metadata" in sent["content"]:
            assert kept["content"].get("metadata") == writable(sent["content"]["metadata"])
    for value in [exported["thread"]["id"], exported["thread"].get("resourceId")] + [
        v for m in exported["messages"] for v in (m["id"], m.get("threadId"), m.get("resourceId"))
    ]:
        assert value is None or (value not in (".", "..") and not UNSAFE_ID.search(value)), value
    assert store.run(store.memory.delete_thread(thread_id))
    assert store.rows() == before


def base_document() -> dict[str, Any]:
    messages = [
        Message.user("hello", id="m0").to_json(),
        Message.assistant("hi there", id="m1").to_json(),
        Message.user("more", id="m2").to_json(),
    ]
    return {"version": 1, "thread": {"id": "imported", "title": "Fuzz", "metadata": {}}, "messages": messages}


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*prefix, index))
    return found


BASE = base_document()
BASE_PATHS = paths(BASE)

ids = st.one_of(nasty_text(), st.sampled_from(["e0", "m1", "imported", "existing", "..", "../x", "a\x00b", "x" * 300]))


def apply(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    if not isinstance(document, dict | list):
        return document
    head, rest = path[0], path[1:]
    copy: Any = dict(document) if isinstance(document, dict) else list(document)
    try:
        copy[head] = apply(copy[head], rest, value)
    except (KeyError, IndexError, TypeError):
        return document
    return copy


@st.composite
def mutated_documents(draw: st.DrawFn) -> Any:
    document: Any = BASE
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(BASE_PATHS))
        value = draw(st.one_of(json_values(max_leaves=6), ids))
        document = apply(document, path, value)
    for index in draw(st.lists(st.integers(0, 2), max_size=2)):
        message = draw(st.sampled_from(["id", "threadId", "resourceId"]))
        document = apply(document, ("messages", index, message), draw(ids))
    if draw(st.booleans()):
        document = apply(document, ("thread", draw(st.sampled_from(["id", "resourceId", "title"]))), draw(ids))
    return document


@given(document=mutated_documents(), form=st.sampled_from(["text", "bytes", "mapping"]))
def test_a_mutated_export_imports_whole_or_is_refused_with_nothing_written(
    store: Store, document: Any, form: str
) -> None:
    if form == "mapping" and isinstance(document, dict):
        check_import(store, document)
    else:
        text = dumps(document)
        check_import(store, text.encode("utf-8", "surrogatepass") if form == "bytes" else text)


@st.composite
def hostile_documents(draw: st.DrawFn) -> Any:
    """A well-formed export whose free-form places (metadata, texts) and ids hold hostile values."""
    document: Any = BASE
    free = [
        ("thread", "metadata"),
        ("thread", "title"),
        *[("messages", i, "content", "metadata") for i in range(3)],
        *[("messages", i, "content", "parts", 0, "text") for i in range(3)],
    ]
    for path in draw(st.lists(st.sampled_from(free), max_size=3)):
        value = draw(json_values(max_leaves=6))
        if path[-1] == "metadata":
            value = {"k": value}
        elif not isinstance(value, str):
            continue
        document = apply(document, path, value)
    id_places = [
        ("thread", "id"),
        ("thread", "resourceId"),
        *[("messages", i, key) for i in range(3) for key in ("id", "threadId", "resourceId")],
    ]
    for path in draw(st.lists(st.sampled_from(id_places), max_size=2)):
        document = apply(document, path, draw(ids))
    return document


@given(document=hostile_documents())
def test_hostile_values_in_a_well_formed_export_are_kept_exactly_or_refused(store: Store, document: Any) -> None:
    check_import(store, dumps(document))


@given(value=json_values())
def test_any_json_value_is_refused_or_imported(store: Store, value: Any) -> None:
    check_import(store, dumps(value))


@given(data=st.binary(max_size=400))
def test_any_bytes_are_refused(store: Store, data: bytes) -> None:
    check_import(store, data)


@given(text=st.sampled_from(TOO_DEEP_TEXT), cut=st.integers(0, 50))
def test_documents_too_deep_to_parse_are_refused(store: Store, text: str, cut: int) -> None:
    before = store.rows()
    with pytest.raises(ThreadImportError, match=r"\(document\): "):
        store.run(store.memory.import_thread(text[: len(text) - cut]))
    assert store.rows() == before
