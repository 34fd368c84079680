"""The threads' trash on a real SQLite file: a deleted thread is kept with its runs, restored as it was (ids and
all, also after the studio restarted), and forgotten after TRASH_DAYS (issue 26 §2)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from processors import Agent
from processors.models import ScriptedModel
from studio.store.database import Store
from studio.store.trash import TRASH_DAYS
from tests.studio.store.test_database import event


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "studio.db"


@pytest.fixture
async def store(database: Path) -> AsyncIterator[Store]:
    opened = Store(f"sqlite:///{database}")
    yield opened
    await opened.close()


async def a_conversation(store: Store, title: str = "Refund for order 42") -> str:
    """A thread with a real exchange saved by an agent, and a studio run with its trace."""
    record = await store.memory.create_thread(title=title)
    agent = Agent(id="a", model=ScriptedModel(["Sure, I can help with that."]), memory=store.memory)
    await agent.generate("Where is my refund?", thread_id=record.id)
    await store.start_run("r1", thread_id=record.id, model="demo")
    await store.add_trace_events("r1", [event("r1", 0), event("r1", 1)])
    await store.finish_run("r1", outcome="finished", finish_reason="stop")
    return record.id


async def test_a_deleted_thread_leaves_the_list_and_comes_back_as_it_was(store: Store) -> None:
    thread_id = await a_conversation(store)
    before = await store.export_thread(thread_id)

    assert await store.trash.trash_thread(thread_id) is True

    assert await store.memory.list_threads() == []
    assert await store.memory.get_thread(thread_id) is None
    assert await store.get_run("r1") is None  # the runs went with it
    (trashed,) = await store.trash.trashed_threads()
    assert (trashed.thread_id, trashed.title) == (thread_id, "Refund for order 42")

    assert await store.trash.restore_thread() == thread_id

    assert await store.export_thread(thread_id) == before  # messages, runs, trace events: all of it
    assert [thread.id for thread in await store.memory.list_threads()] == [thread_id]
    assert await store.trash.trashed_threads() == []


async def test_the_trash_outlives_a_restart(database: Path) -> None:
    store = Store(f"sqlite:///{database}")
    thread_id = await a_conversation(store)
    await store.trash.trash_thread(thread_id)
    await store.close()

    reopened = Store(f"sqlite:///{database}")
    try:
        assert [trashed.thread_id for trashed in await reopened.trash.trashed_threads()] == [thread_id]
        assert await reopened.trash.restore_thread() == thread_id
        assert (await reopened.memory.get_thread(thread_id)) is not None
    finally:
        await reopened.close()


async def test_undo_brings_back_the_most_recent_deletion_first(store: Store) -> None:
    first = await a_conversation(store, "First")
    second = (await store.memory.create_thread(title="Second")).id
    await store.trash.trash_thread(first)
    await store.trash.trash_thread(second)
    assert [trashed.title for trashed in await store.trash.trashed_threads()] == ["Second", "First"]
    assert await store.trash.restore_thread() == second
    assert await store.trash.restore_thread() == first
    assert await store.trash.restore_thread() is None


async def test_nothing_to_delete_or_restore_changes_nothing(store: Store) -> None:
    assert await store.trash.trash_thread("no-such-thread") is False
    assert await store.trash.restore_thread() is None
    assert await store.trash.trashed_threads() == []


async def test_what_was_deleted_long_ago_is_forgotten(store: Store, database: Path) -> None:
    old = await a_conversation(store, "Old")
    recent = (await store.memory.create_thread(title="Recent")).id
    await store.trash.trash_thread(old)
    await store.trash.trash_thread(recent)
    with closing(sqlite3.connect(database)) as connection, connection:
        connection.execute(
            "UPDATE thread_trash SET deleted_at = datetime('now', ?) WHERE thread_id = ?",
            (f"-{TRASH_DAYS + 1} days", old),
        )

    assert await store.trash.empty_trash() == 1

    assert [trashed.thread_id for trashed in await store.trash.trashed_threads()] == [recent]
    assert await store.trash.empty_trash(older_than=timedelta(days=TRASH_DAYS)) == 0


async def test_a_thread_restored_before_a_crash_is_not_restored_twice(store: Store, database: Path) -> None:
    thread_id = await a_conversation(store)
    await store.trash.trash_thread(thread_id)
    document = await store.memory.run_sync(lambda c: c.exec_driver_sql("SELECT document FROM thread_trash").scalar())
    await store.import_thread(document)  # restored, and the studio stopped before the trash forgot it

    assert await store.trash.restore_thread() == thread_id
    assert await store.trash.trashed_threads() == []
    assert [thread.id for thread in await store.memory.list_threads()] == [thread_id]
