"""Thread import from hostile or huge files: JSON limits, unsafe ids, progress, stopping, and nothing half-written."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from processors.memory import SqlMemory
from processors.memory.errors import ThreadImportError
from processors.memory.transfer import PROGRESS_EVERY, parse_import
from processors.messages import Message
from tests.processors.memory.test_sql import table_counts, url_of


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "threads.db"


@pytest.fixture
async def memory(db_path: Path) -> AsyncIterator[SqlMemory]:
    store = SqlMemory(url_of(db_path))
    await store.save_messages("existing", [Message.user("kept", id="e0")])
    yield store
    await store.close()


def document(count: int = 3, **thread: Any) -> dict[str, Any]:
    messages = [
        (Message.user if i % 2 == 0 else Message.assistant)(f"m{i}", id=f"m{i}").to_json() for i in range(count)
    ]
    return {"version": 1, "thread": {"id": "imported", "title": "x", **thread}, "messages": messages}


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def with_message(change: Any, index: int = 1) -> dict[str, Any]:
    data = document()
    change(data["messages"][index])
    return data


#: (name, the document as text, a problem the refusal must name). Each was accepted or raised raw before.
REFUSED: list[tuple[str, str, str]] = [
    (
        "nan metadata",
        json.dumps(document(metadata={"score": float("nan")})),
        "thread.metadata.score: not a finite number",
    ),
    (
        "infinity in a message",
        json.dumps(with_message(lambda m: m["content"].update(metadata={"w": [1, float("inf")]}))),
        "messages[1].content.metadata.w[1]: not a finite number",
    ),
    (
        "overflowing number",
        json.dumps(document(metadata={"big": 1})).replace('"big": 1', '"big": 1e999'),
        "thread.metadata.big: not a finite number",
    ),
    (
        "too deep to parse",
        json.dumps(document(metadata={"x": "X"})).replace('"X"', nested(50_000)),
        "(document): nested more than 100 levels deep",
    ),
    (
        "too deep to keep",
        json.dumps(document(metadata={"x": "X"})).replace('"X"', nested(300)),
        "thread.metadata.x[0][0][0]: nested more than 100 levels deep",
    ),
    (
        "too deep in a message",
        json.dumps(with_message(lambda m: m["content"].update(metadata={"x": "X"}))).replace('"X"', nested(300)),
        "messages[1].content.metadata.x[0]: nested more than 100 levels deep",
    ),
    ("NUL in the thread id", json.dumps(document(id="a\x00b")), "thread.id: 'a\\x00b' contains NUL"),
    (
        "path in the thread id",
        json.dumps(document(id="../../etc/passwd")),
        "thread.id: '../../etc/passwd' contains a '/'",
    ),
    ("dot-dot thread id", json.dumps(document(id="..")), "thread.id: '..' is not an id"),
    ("backslash in the resource id", json.dumps(document(resourceId="..\\x")), "thread.resourceId: '..\\\\x' contains"),
    (
        "control character in a message id",
        json.dumps(with_message(lambda m: m.update(id="m\x1b[2J"))),
        "messages[1].id: 'm\\x1b[2J' contains a control character (U+001B)",
    ),
    ("path in a message id", json.dumps(with_message(lambda m: m.update(id="../m"))), "messages[1].id: '../m'"),
    ("empty message id", json.dumps(with_message(lambda m: m.update(id=""))), "messages[1].id: must be 1 to 255"),
    (
        "NUL in a message's resource id",
        json.dumps(with_message(lambda m: m.update(resourceId="u\x00"))),
        "messages[1].resourceId: 'u\\x00' contains NUL",
    ),
    (
        "line separator in an id",
        json.dumps(with_message(lambda m: m.update(id="a\u2028b"))),
        "messages[1].id: 'a\\u2028b' contains a line separator",
    ),
]


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("text", "problem"), [(text, problem) for _, text, problem in REFUSED], ids=[name for name, _, _ in REFUSED]
)
async def test_hostile_imports_are_refused_by_field_and_write_nothing(
    memory: SqlMemory, db_path: Path, text: str, problem: str
) -> None:
    before = table_counts(db_path)
    for data in (text, text.encode()):
        with pytest.raises(ThreadImportError) as caught:
            await memory.import_thread(data)
        assert problem in str(caught.value)
        assert table_counts(db_path) == before


async def test_already_parsed_documents_are_checked_the_same_way(memory: SqlMemory, db_path: Path) -> None:
    before = table_counts(db_path)
    with pytest.raises(ThreadImportError, match=r"thread\.metadata\.score: not a finite number"):
        await memory.import_thread(document(metadata={"score": float("-inf")}))
    with pytest.raises(ThreadImportError, match=r"thread\.id: '\.\./x' contains a '/'"):
        await memory.import_thread(document(id="../x"))
    assert table_counts(db_path) == before


def test_the_message_by_message_reader_agrees_with_json() -> None:
    fixed = {
        "metadata": {"k": [1, {"a": None}]},
        "createdAt": "2026-01-02T03:04:05Z",
        "updatedAt": "2026-01-02T03:04:06Z",
    }
    valid = json.dumps(document(5, **fixed), indent=1)
    assert parse_import(valid) == parse_import(json.loads(valid))
    spaced = ' \n{ "messages" : [ ] , "version":1,"thread":{"id":"t"} }\n'
    assert parse_import(spaced).thread.id == "t"
    for broken, where in [
        ('{"version": 1,}', "Expecting property name"),
        ('{"version": 1 "thread": {}}', "Expecting ',' delimiter"),
        ('{"messages": [1 2]}', "Expecting ',' delimiter"),
        ('{"messages": [1,]}', "Expecting value"),
        ('{"version": 1} trailing', "Extra data"),
        ('{"version" 1}', "Expecting ':' delimiter"),
        ('{"messages": [', "Expecting value"),
        ("", "Expecting value"),
        ("\ufeff{}", "Unexpected UTF-8 BOM"),
    ]:
        with pytest.raises(ThreadImportError, match="not valid JSON") as caught:
            parse_import(broken)
        assert where in str(caught.value)
        with pytest.raises(ValueError, match=where.split()[0]):
            json.loads(broken)  # the same refusal json itself gives


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_an_import_file_with_line_separators_in_its_texts_and_a_bom_reads_whole(separator: str) -> None:
    # What the studio reads from disk: bytes, here saved on Windows (BOM, CRLF) with the separators raw in strings.
    exported = document(2, title=f"a{separator}b")
    exported["messages"][0] = Message.user(f"one{separator}two", id="m0").to_json()
    data = b"\xef\xbb\xbf" + json.dumps(exported, ensure_ascii=False, indent=1).replace("\n", "\r\n").encode()
    imported = parse_import(data)
    assert imported.thread.title == f"a{separator}b"
    assert [message.text for message in imported.messages] == [f"one{separator}two", "m1"]


async def test_an_import_reports_progress_for_each_phase_from_the_worker_thread(memory: SqlMemory) -> None:
    count = 2 * PROGRESS_EVERY + 17
    calls: list[tuple[str, int, int, int]] = []

    def progress(phase: str, done: int, total: int) -> None:
        calls.append((phase, done, total, threading.get_ident()))

    assert await memory.import_thread(json.dumps(document(count)), progress=progress) == "imported"
    assert {ident for *_, ident in calls} != {threading.get_ident()}  # never on the caller's (the loop's) thread
    phases = [phase for phase, *_ in calls]
    assert sorted(set(phases), key=phases.index) == ["reading", "checking", "writing"]
    for phase in ("reading", "checking", "writing"):
        steps = [(done, total) for name, done, total, _ in calls if name == phase]
        assert steps[0][0] == 0 and steps[-1][0] == steps[-1][1]
        assert [done for done, _ in steps] == sorted(done for done, _ in steps)
        assert len(steps) >= 3  # something between the start and the end, not only two jumps
    assert next(total for name, _, total, _ in calls if name == "checking") == count
    assert await memory.count_messages("imported") == count


@pytest.mark.parametrize("phase", ["reading", "checking", "writing"])
async def test_an_import_stopped_by_its_progress_callback_writes_nothing(
    memory: SqlMemory, db_path: Path, phase: str
) -> None:
    class Stop(Exception):
        pass

    def progress(name: str, done: int, total: int) -> None:
        if name == phase and 0 < done < total:
            raise Stop

    before = table_counts(db_path)
    data = json.dumps(document(2 * PROGRESS_EVERY + 1))
    with pytest.raises(Stop):
        await memory.import_thread(data, progress=progress)
    assert table_counts(db_path) == before
    assert await memory.get_thread("imported") is None
