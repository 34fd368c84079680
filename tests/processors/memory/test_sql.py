"""SqlMemory on real SQLite files: the memory protocol, threads, import/export, migrations and threading."""

from __future__ import annotations

import asyncio
import gc
import json
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from processors.memory import Memory, SqlMemory
from processors.memory.engine import make_engine
from processors.memory.errors import (
    DatabaseMissingError,
    ForeignDatabaseError,
    ResourceMismatchError,
    SchemaTooNewError,
    StoreError,
    ThreadExistsError,
    ThreadImportError,
    ThreadNotFoundError,
)
from processors.memory.migrate import head_revisions, upgrade
from processors.memory.schema import metadata
from processors.messages import DataPart, Message, MessageContent, TextPart, ToolInvocation, ToolInvocationPart


def url_of(path: Path) -> str:
    return f"sqlite:///{path}"


#: A test application's own revision folder (one table on top of the runtime's 0001).
APP_MIGRATIONS = (Path(__file__).parent / "app_migrations",)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "threads.db"


@pytest.fixture
async def memory(db_path: Path) -> AsyncIterator[SqlMemory]:
    store = SqlMemory(url_of(db_path))
    yield store
    await store.close()


def conversation(count: int, prefix: str = "m") -> list[Message]:
    return [
        (Message.user if i % 2 == 0 else Message.assistant)(f"{prefix}{i}", id=f"{prefix}{i}") for i in range(count)
    ]


def rich_message() -> Message:
    """An assistant message with most part kinds, to check they survive storage exactly."""
    return Message(
        id="rich",
        role="assistant",
        content=MessageContent(
            parts=[
                TextPart(text="Looking it up."),
                ToolInvocationPart(
                    tool_invocation=ToolInvocation(
                        state="result",
                        tool_call_id="call_1",
                        tool_name="weather",
                        args={"city": "Paris", "x": None},
                        result={"temp": 21},
                    )
                ),
                DataPart(type="data-progress", data={"done": 3, "of": None}, id="p1"),
            ],
            content="Looking it up.",
            metadata={"source": "test"},
        ),
    )


def names_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def snapshot(path: Path) -> tuple[bytes, list[str]]:
    """The file's bytes and the names beside it (blocking, but tiny: tests only)."""
    return path.read_bytes(), names_in(path.parent)


def table_counts(path: Path) -> dict[str, int]:
    with closing(sqlite3.connect(path)) as connection:
        return {t: connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("threads", "messages")}


# --------------------------------------------------------------------------------------------- the protocol
async def test_it_is_a_memory_that_remembers_the_last_fifty_messages_by_default(memory: SqlMemory) -> None:
    store: Memory = memory  # the protocol's type: mypy checks the signatures
    messages = conversation(55)
    await store.save_messages("t1", messages, resource_id="u1")
    loaded = await store.load_messages("t1", resource_id="u1")
    assert [m.id for m in loaded] == [m.id for m in messages[5:]]
    assert [m.id for m in await store.load_messages("t1", last_messages=3)] == ["m52", "m53", "m54"]


async def test_saved_messages_load_back_equal_in_order(memory: SqlMemory) -> None:
    messages = [*conversation(4), rich_message()]
    await memory.save_messages("t1", messages, resource_id="u1")
    loaded = await memory.load_messages("t1", resource_id="u1")
    assert [m.id for m in loaded] == [m.id for m in messages]
    for original, back in zip(messages, loaded, strict=True):
        assert back.content == original.content
        assert back.role == original.role
        assert back.created_at == original.created_at
        assert back.thread_id == "t1"
        assert back.resource_id == "u1"


async def test_load_gives_the_last_n_in_chronological_order(db_path: Path) -> None:
    store = SqlMemory(url_of(db_path), last_messages=3)
    try:
        await store.save_messages("t1", conversation(10))
        assert [m.id for m in await store.load_messages("t1")] == ["m7", "m8", "m9"]
        assert [m.id for m in await store.load_messages("t1", last_messages=5)] == ["m5", "m6", "m7", "m8", "m9"]
        assert await store.load_messages("t1", last_messages=0) == []
        assert len(await store.all_messages("t1")) == 10
        assert await store.load_messages("no-such-thread") == []
    finally:
        await store.close()


async def test_save_upserts_by_id_and_keeps_the_position(memory: SqlMemory) -> None:
    await memory.save_messages("t1", conversation(3))
    edited = Message.assistant("edited", id="m1")
    await memory.save_messages("t1", [edited, Message.user("new", id="m3")])
    loaded = await memory.all_messages("t1")
    assert [m.id for m in loaded] == ["m0", "m1", "m2", "m3"]
    assert loaded[1].text == "edited"
    assert await memory.count_messages("t1") == 4


async def test_save_creates_the_thread_and_moves_updated_at(memory: SqlMemory) -> None:
    await memory.save_messages("t1", conversation(1), resource_id="u1")
    first = await memory.get_thread("t1")
    assert first is not None
    assert first.resource_id == "u1"
    await asyncio.sleep(0.002)
    await memory.save_messages("t1", [Message.user("again")], resource_id="u1")
    second = await memory.get_thread("t1")
    assert second is not None
    assert second.created_at == first.created_at
    assert second.updated_at > first.updated_at


async def test_a_thread_of_another_resource_is_neither_read_nor_written(memory: SqlMemory) -> None:
    await memory.save_messages("t1", conversation(2), resource_id="alice")
    with pytest.raises(ResourceMismatchError, match="alice"):
        await memory.load_messages("t1", resource_id="mallory")
    with pytest.raises(ResourceMismatchError):
        await memory.save_messages("t1", [Message.user("hi")], resource_id="mallory")
    assert await memory.count_messages("t1") == 2


async def test_concurrent_saves_all_land(memory: SqlMemory) -> None:
    await asyncio.gather(*(memory.save_messages(f"t{i % 3}", conversation(5, prefix=f"c{i}-")) for i in range(12)))
    counts = [await memory.count_messages(f"t{i}") for i in range(3)]
    assert counts == [20, 20, 20]


# --------------------------------------------------------------------------------------------- threads
async def test_thread_crud(memory: SqlMemory) -> None:
    created = await memory.create_thread("t1", resource_id="u1", title="Weather", metadata={"design": "d1"})
    assert created.id == "t1"
    assert await memory.get_thread("t1") == created
    with pytest.raises(ThreadExistsError):
        await memory.create_thread("t1")
    generated = await memory.create_thread()
    assert generated.id.startswith("thread_")

    renamed = await memory.rename_thread("t1", "Paris weather")
    assert renamed.title == "Paris weather"
    assert renamed.updated_at >= created.updated_at
    tagged = await memory.set_thread_metadata("t1", {"design": "d2"})
    assert tagged.metadata == {"design": "d2"}
    assert tagged.title == "Paris weather"
    with pytest.raises(ThreadNotFoundError):
        await memory.rename_thread("missing", "x")

    await memory.save_messages("t1", conversation(4))
    assert await memory.delete_thread("t1") is True
    assert await memory.delete_thread("t1") is False
    assert await memory.get_thread("t1") is None
    assert await memory.count_messages("t1") == 0


async def test_delete_cascades_to_messages_in_the_database(memory: SqlMemory, db_path: Path) -> None:
    await memory.save_messages("t1", conversation(4))
    await memory.save_messages("t2", conversation(2, prefix="x"))
    await memory.delete_thread("t1")
    assert table_counts(db_path) == {"threads": 1, "messages": 2}


async def test_list_threads_newest_first_with_search_and_paging(memory: SqlMemory) -> None:
    for index, title in enumerate(["Weather in Paris", "Refund 100%", "weather in Rome", "Small talk"]):
        await memory.create_thread(f"t{index}", resource_id="u1" if index < 3 else "u2", title=title)
        await asyncio.sleep(0.002)
    await memory.save_messages("t0", [Message.user("bump")])  # t0 becomes the most recent

    assert [t.id for t in await memory.list_threads()] == ["t0", "t3", "t2", "t1"]
    assert [t.id for t in await memory.list_threads(search="WEATHER")] == ["t0", "t2"]
    assert [t.id for t in await memory.list_threads(search="100%")] == ["t1"]
    assert [t.id for t in await memory.list_threads(search="0%")] == ["t1"]
    assert await memory.list_threads(search="_") == []  # wildcards are matched literally
    assert [t.id for t in await memory.list_threads(search="t3")] == ["t3"]  # ids match too
    assert [t.id for t in await memory.list_threads(resource_id="u2")] == ["t3"]
    assert [t.id for t in await memory.list_threads(limit=2, offset=1)] == ["t3", "t2"]


# --------------------------------------------------------------------------------------------- import/export
async def test_export_then_import_round_trips(memory: SqlMemory, tmp_path: Path) -> None:
    await memory.create_thread("t1", resource_id="u1", title="Round trip", metadata={"k": [1, 2]})
    await memory.save_messages("t1", [*conversation(3), rich_message()], resource_id="u1")
    exported = await memory.export_thread("t1")
    assert exported["version"] == 1
    assert exported["thread"]["resourceId"] == "u1"
    assert exported["messages"][3]["content"]["parts"][1]["toolInvocation"]["toolCallId"] == "call_1"

    other = SqlMemory(url_of(tmp_path / "other.db"))
    try:
        text = json.dumps(exported)  # through real JSON text, as a file would carry it
        assert await other.import_thread(text) == "t1"
        assert await other.export_thread("t1") == exported
        assert await other.all_messages("t1") == await memory.all_messages("t1")
    finally:
        await other.close()


async def test_export_of_a_missing_thread_is_refused(memory: SqlMemory) -> None:
    with pytest.raises(ThreadNotFoundError):
        await memory.export_thread("missing")


def _valid_document() -> dict[str, Any]:
    messages = [m.to_json() for m in conversation(4)]
    return {"version": 1, "thread": {"id": "imported", "title": "x"}, "messages": messages}


def _broken(change: Any) -> dict[str, Any]:
    document = _valid_document()
    change(document)
    return document


MALFORMED: list[tuple[str, Any, str]] = [
    ("not json", "{not json", "not valid JSON"),
    ("not an object", "[1, 2]", "expected a JSON object"),
    ("no version", _broken(lambda d: d.pop("version")), "version: Field required"),
    ("future version", _broken(lambda d: d.update(version=2)), "version: Input should be 1"),
    ("unknown key", _broken(lambda d: d.update(extra=1)), "extra: Extra inputs are not permitted"),
    ("no thread id", _broken(lambda d: d["thread"].pop("id")), "thread.id: Field required"),
    ("bad role", _broken(lambda d: d["messages"][2].update(role="robot")), "messages[2].role:"),
    (
        "part without text",
        _broken(lambda d: d["messages"][3]["content"]["parts"][0].pop("text")),
        "messages[3].content.parts[0].text: Field required",
    ),
    (
        "unknown part type",
        _broken(lambda d: d["messages"][1]["content"]["parts"][0].update(type="hologram")),
        "messages[1].content.parts[0]: unknown part type 'hologram'",
    ),
    ("bad date", _broken(lambda d: d["messages"][0].update(createdAt="yesterday")), "messages[0].createdAt:"),
    (
        "duplicate ids",
        _broken(lambda d: d["messages"][3].update(id=d["messages"][1]["id"])),
        "messages[3].id: 'm1' is also the id of messages[1]",
    ),
    (
        "foreign thread",
        _broken(lambda d: d["messages"][2].update(threadId="elsewhere")),
        "messages[2].threadId: 'elsewhere' is not the thread's id 'imported'",
    ),
]


@pytest.mark.parametrize(
    ("data", "reason"), [(data, reason) for _, data, reason in MALFORMED], ids=[name for name, _, _ in MALFORMED]
)
async def test_a_malformed_import_is_refused_with_the_reason_and_writes_nothing(
    memory: SqlMemory, db_path: Path, data: Any, reason: str
) -> None:
    await memory.save_messages("existing", conversation(2, prefix="e"))
    before = table_counts(db_path)
    with pytest.raises(ThreadImportError) as caught:
        await memory.import_thread(data)
    assert reason in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert table_counts(db_path) == before


async def test_an_import_that_collides_writes_nothing(memory: SqlMemory, db_path: Path) -> None:
    await memory.save_messages("imported", conversation(1, prefix="z"))
    before = table_counts(db_path)
    with pytest.raises(ThreadImportError, match=r"thread\.id: a thread with id 'imported' already exists"):
        await memory.import_thread(_valid_document())

    await memory.save_messages("other", [Message.user("taken", id="m3")])
    await memory.delete_thread("imported")
    before = table_counts(db_path)
    # m0..m2 are free, m3 is taken: the whole import is refused, m0..m2 included.
    with pytest.raises(ThreadImportError, match=r"messages\[3\].id: 'm3' is already stored in another thread"):
        await memory.import_thread(_valid_document())
    assert table_counts(db_path) == before
    assert await memory.get_thread("imported") is None


# --------------------------------------------------------------------------------------------- the database
async def test_a_fresh_database_is_at_head_in_wal_with_foreign_keys(memory: SqlMemory, db_path: Path) -> None:
    report = await memory.open()
    assert report.before == ()
    assert report.after == head_revisions()
    assert report.backup is None

    def pragmas(connection: sa.Connection) -> tuple[str, int, int]:
        return (
            connection.exec_driver_sql("PRAGMA journal_mode").scalar_one(),
            connection.exec_driver_sql("PRAGMA foreign_keys").scalar_one(),
            connection.exec_driver_sql("PRAGMA synchronous").scalar_one(),
        )

    assert await memory.run_sync(pragmas) == ("wal", 1, 1)  # synchronous 1 = NORMAL
    with closing(sqlite3.connect(db_path)) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [head_revisions()]


async def test_the_migrations_build_exactly_the_schema_module(memory: SqlMemory) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    await memory.open()

    def diff(connection: sa.Connection) -> list[Any]:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))

    assert await memory.run_sync(diff) == []


async def test_an_old_database_is_backed_up_then_upgraded(db_path: Path) -> None:
    """An application's revisions (``migrations=``) continue the runtime's: a database one revision behind is
    copied aside, then upgraded in one transaction."""
    engine = make_engine(sa.make_url(url_of(db_path)))
    with engine.begin() as connection:
        assert upgrade(connection, "0001") == ("0001",)
        connection.exec_driver_sql(
            "INSERT INTO threads (id, created_at, updated_at, metadata) "
            "VALUES ('old', '2025-01-01 00:00:00.000000', '2025-01-01 00:00:00.000000', '{}')"
        )
    engine.dispose()

    store = SqlMemory(url_of(db_path), migrations=APP_MIGRATIONS)
    try:
        report = await store.open()
        assert report.before == ("0001",)
        assert report.after == head_revisions(APP_MIGRATIONS) == ("t0002",)
        assert report.backup == db_path.with_name("threads.db.bak-0001")
        old = await store.get_thread("old")
        assert old is not None
        assert old.created_at.year == 2025
        await store.save_messages("old", [Message.user("still works")])
    finally:
        await store.close()
    with closing(sqlite3.connect(report.backup)) as backup:
        assert backup.execute("SELECT version_num FROM alembic_version").fetchall() == [("0001",)]
        assert backup.execute("SELECT id FROM threads").fetchall() == [("old",)]
        assert backup.execute("SELECT name FROM sqlite_master WHERE name = 'notes'").fetchall() == []
        assert backup.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with closing(sqlite3.connect(db_path)) as upgraded:
        assert upgraded.execute("SELECT version_num FROM alembic_version").fetchall() == [("t0002",)]
        assert upgraded.execute("SELECT count(*) FROM notes").fetchone() == (0,)


async def test_a_database_from_a_newer_version_is_refused_and_left_untouched(db_path: Path) -> None:
    store = SqlMemory(url_of(db_path))
    await store.save_messages("t1", conversation(3))
    await store.close()
    with closing(sqlite3.connect(db_path)) as connection, connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    before = snapshot(db_path)

    newer = SqlMemory(url_of(db_path))
    try:
        with pytest.raises(SchemaTooNewError) as caught:
            await newer.open()
        message = str(caught.value)
        assert "newer version of Processor Studio (revision 9999_from_the_future)" in message
        assert f"knows up to {', '.join(head_revisions())}" in message
        assert "Nothing was changed." in message
        with pytest.raises(SchemaTooNewError):  # every later call refuses too
            await newer.save_messages("t1", [Message.user("must not land")])
    finally:
        await newer.close()
    assert snapshot(db_path) == before


async def test_someone_elses_sqlite_file_is_refused_and_left_untouched(db_path: Path) -> None:
    with closing(sqlite3.connect(db_path)) as connection, connection:
        connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    before = snapshot(db_path)
    store = SqlMemory(url_of(db_path))
    try:
        with pytest.raises(ForeignDatabaseError, match=r"not a Processor Studio database .*invoices"):
            await store.open()
    finally:
        await store.close()
    assert snapshot(db_path) == before


async def test_create_false_refuses_a_missing_database(db_path: Path) -> None:
    store = SqlMemory(url_of(db_path), create=False)
    try:
        with pytest.raises(DatabaseMissingError):
            await store.load_messages("t1")
    finally:
        await store.close()
    assert names_in(db_path.parent) == []  # no database, no -wal/-shm: nothing was created


async def test_the_database_folder_is_created(tmp_path: Path) -> None:
    store = SqlMemory(url_of(tmp_path / "deep" / "er" / "threads.db"))
    try:
        await store.save_messages("t1", conversation(1))
    finally:
        await store.close()
    assert (tmp_path / "deep" / "er" / "threads.db").exists()


async def test_database_work_never_runs_on_the_event_loop_thread(memory: SqlMemory) -> None:
    threads: set[int] = set()

    def record(*_args: Any) -> None:
        threads.add(threading.get_ident())

    sa.event.listen(memory.engine, "before_cursor_execute", record)
    await memory.save_messages("t1", conversation(4))
    await memory.load_messages("t1")
    await memory.create_thread("t2")
    await memory.list_threads()
    await memory.export_thread("t1")
    await memory.delete_thread("t2")
    assert threads
    assert threading.get_ident() not in threads


async def test_the_garbage_collector_never_runs_on_the_worker_thread(memory: SqlMemory) -> None:
    """A collection finalises Qt objects too: it must run on the loop's (the UI) thread, never the store's."""
    collected_on: set[str] = set()

    def spy(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            collected_on.add(threading.current_thread().name)

    gc.callbacks.append(spy)
    try:
        for batch in range(4):
            await memory.save_messages("t1", conversation(400, prefix=f"g{batch}-"))
            await memory.all_messages("t1")
    finally:
        gc.callbacks.remove(spy)
    assert gc.isenabled()
    assert not [name for name in collected_on if name.startswith("sql-memory")]


async def test_a_cancelled_call_finishes_its_transaction_and_restores_the_collector(memory: SqlMemory) -> None:
    task = asyncio.create_task(memory.save_messages("t1", conversation(2000)))
    await asyncio.sleep(0.001)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    count = await memory.count_messages("t1")  # queued behind the save: all of it or none of it landed
    assert count in (0, 2000)
    assert gc.isenabled()


async def test_a_closed_memory_refuses_work(db_path: Path) -> None:
    store = SqlMemory(url_of(db_path))
    await store.save_messages("t1", conversation(1))
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        await store.load_messages("t1")


def test_a_negative_last_messages_is_refused() -> None:
    with pytest.raises(ValueError, match="last_messages"):
        SqlMemory("sqlite://", last_messages=-1)


async def test_an_in_memory_database_works() -> None:
    store = SqlMemory("sqlite://")
    try:
        await store.save_messages("t1", conversation(3))
        assert len(await store.load_messages("t1")) == 3
    finally:
        await store.close()


async def test_two_stores_on_one_file_write_side_by_side(db_path: Path) -> None:
    """Two stores (as two windows or processes would have) take turns for the write lock instead of failing."""
    first, second = SqlMemory(url_of(db_path)), SqlMemory(url_of(db_path))
    try:
        await first.open()
        await asyncio.gather(
            *(
                store.save_messages("shared", conversation(4, prefix=f"{name}{i}-"))
                for i in range(10)
                for name, store in (("a", first), ("b", second))
            )
        )
        assert await first.count_messages("shared") == await second.count_messages("shared") == 80
    finally:
        await first.close()
        await second.close()


async def test_two_applications_branching_from_one_revision_are_both_migrated(db_path: Path) -> None:
    """Two revision folders that each continue 0001 make a history with two heads: both are applied, both heads
    are stamped, and reopening finds the database current."""
    both = (*APP_MIGRATIONS, Path(__file__).parent / "app_migrations_b")
    store = SqlMemory(url_of(db_path), migrations=both)
    try:
        report = await store.open()
    finally:
        await store.close()
    assert report.after == head_revisions(both) == ("t0002", "u0002")
    with closing(sqlite3.connect(db_path)) as connection:
        assert sorted(connection.execute("SELECT version_num FROM alembic_version").fetchall()) == [
            ("t0002",),
            ("u0002",),
        ]
        assert connection.execute("SELECT count(*) FROM notes").fetchone() == (0,)
        assert connection.execute("SELECT count(*) FROM labels").fetchone() == (0,)
    again = SqlMemory(url_of(db_path), migrations=both)
    try:
        reopened = await again.open()
    finally:
        await again.close()
    assert (reopened.before, reopened.after, reopened.upgraded) == (("t0002", "u0002"), ("t0002", "u0002"), False)
