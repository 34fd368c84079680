"""The studio's tables have their own history (studio/store/migrations), continuing the runtime's, in one database."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from processors.memory import schema as runtime_schema
from processors.memory.engine import make_engine
from processors.memory.errors import SchemaTooNewError
from processors.memory.migrate import head_revisions, known_revisions, upgrade
from processors.memory.sql import SqlMemory
from studio.store import schema as store_schema
from studio.store.database import Store
from studio.store.migrations import STUDIO_MIGRATIONS

STUDIO = (STUDIO_MIGRATIONS,)


def url_of(path: Path) -> str:
    return f"sqlite:///{path}"


def tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as connection:
        return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def revisions(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as connection:
        return sorted(row[0] for row in connection.execute("SELECT version_num FROM alembic_version"))


async def test_the_studio_migrations_build_exactly_its_tables_beside_the_runtime(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    store = Store(url_of(tmp_path / "studio.db"))
    try:
        report = await store.open()
        assert report.after == head_revisions(STUDIO)
        combined = sa.MetaData()
        for table in [*runtime_schema.metadata.tables.values(), *store_schema.metadata.tables.values()]:
            table.to_metadata(combined)

        def diff(connection: sa.Connection) -> list[Any]:
            return list(compare_metadata(MigrationContext.configure(connection), combined))

        assert await store.memory.run_sync(diff) == []
    finally:
        await store.close()


async def test_the_runtime_alone_makes_only_threads_and_messages(tmp_path: Path) -> None:
    memory = SqlMemory(url_of(tmp_path / "threads.db"))
    try:
        report = await memory.open()
    finally:
        await memory.close()
    assert report.after == ("0001",)
    assert tables(tmp_path / "threads.db") == {"alembic_version", "threads", "messages"}
    assert set(runtime_schema.metadata.tables) == {"threads", "messages"}
    assert known_revisions() == {"0001"}


async def test_a_database_the_studio_made_before_the_split_opens_as_it_is(tmp_path: Path) -> None:
    """Revisions 0002 and 0003 kept their ids when they moved to studio/store/migrations: a user's database at 0003
    is at the studio's head, not unknown, and is neither backed up nor changed."""
    path = tmp_path / "studio.db"
    engine = make_engine(sa.make_url(url_of(path)))
    with engine.begin() as connection:
        assert upgrade(connection, "0003", extra=STUDIO) == ("0003",)
        connection.exec_driver_sql(
            "INSERT INTO threads (id, created_at, updated_at, metadata) "
            "VALUES ('t1', '2026-01-01 00:00:00.000000', '2026-01-01 00:00:00.000000', '{}')"
        )
        connection.exec_driver_sql(
            "INSERT INTO runs (id, thread_id, started_at, input_text) "
            "VALUES ('r1', 't1', '2026-01-01 00:00:00.000000', 'hello')"
        )
    engine.dispose()

    store = Store(url_of(path))
    try:
        report = await store.open()
        run = await store.get_run("r1")
    finally:
        await store.close()
    assert report.before == ("0003",)
    assert report.after == head_revisions(STUDIO)
    assert report.backup is None if report.after == ("0003",) else report.backup is not None
    assert (run.thread_id, run.input_text) == ("t1", "hello")


async def test_a_runtime_database_gains_the_studio_tables_after_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    memory = SqlMemory(url_of(path))
    await memory.create_thread("kept", title="from a script")
    await memory.close()
    assert revisions(path) == ["0001"]

    store = Store(url_of(path))
    try:
        report = await store.open()
        thread = await store.memory.get_thread("kept")
    finally:
        await store.close()
    assert (report.before, report.after) == (("0001",), head_revisions(STUDIO))
    assert report.backup == path.with_name("threads.db.bak-0001")
    assert thread is not None and thread.title == "from a script"
    assert {"designs", "runs", "trace_events", "violations"} <= tables(path)
    assert tables(report.backup) == {"alembic_version", "threads", "messages"}


async def test_the_runtime_alone_refuses_a_studio_database_and_says_which_store_opens_it(tmp_path: Path) -> None:
    path = tmp_path / "studio.db"
    store = Store(url_of(path))
    await store.open()
    await store.close()
    before = path.read_bytes()

    memory = SqlMemory(url_of(path))
    try:
        with pytest.raises(SchemaTooNewError) as caught:
            await memory.open()
    finally:
        await memory.close()
    message = str(caught.value)
    assert f"(revision {', '.join(head_revisions(STUDIO))})" in message
    assert "this version knows up to 0001" in message
    assert "only be opened with the studio's store" in message
    assert path.read_bytes() == before
