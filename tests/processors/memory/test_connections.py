"""The store's worker keeps its SQLite connections between transactions (``HeldConnections``), on real files.

A pool checkout, the write mark and the hand-back cost more than an empty SQLite transaction; a turn's save is four
transactions. Counted here: checkouts (work, not time). And what holding must not change: a failed transaction
leaves the store working, ``close`` hands every connection back, a server's connections are still checked out (and
pre-pinged) for each transaction.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from processors.memory import SqlMemory
from processors.memory.errors import ResourceMismatchError
from processors.messages import Message


@pytest.fixture
async def memory(tmp_path: Path) -> AsyncIterator[SqlMemory]:
    store = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    yield store
    await store.close()


def count_checkouts(memory: SqlMemory) -> list[Any]:
    checkouts: list[Any] = []
    sa.event.listen(memory.engine, "checkout", lambda *args: checkouts.append(args))
    return checkouts


async def test_transactions_after_the_first_check_out_no_connection(memory: SqlMemory) -> None:
    await memory.save_messages("t1", [Message.user("first")])  # opens the database, holds the write connection
    await memory.load_messages("t1")  # and the read connection
    checkouts = count_checkouts(memory)

    for index in range(5):
        await memory.save_messages("t1", [Message.user(f"more {index}")])
        await memory.load_messages("t1")
    assert checkouts == []
    assert [m.text for m in await memory.all_messages("t1")] == ["first"] + [f"more {i}" for i in range(5)]


async def test_a_failed_transaction_rolls_back_and_the_next_ones_work(memory: SqlMemory) -> None:
    await memory.save_messages("t1", [Message.user("kept")], resource_id="alice")

    def half_done(connection: sa.Connection) -> None:
        connection.exec_driver_sql("UPDATE threads SET title = 'half done'")
        raise RuntimeError("the work failed")

    with pytest.raises(RuntimeError):
        await memory.run_sync(half_done, write=True)
    with pytest.raises(ResourceMismatchError):  # raised inside a write transaction, after its first statement
        await memory.save_messages("t1", [Message.user("refused")], resource_id="bob")
    with pytest.raises(sa.exc.IntegrityError):  # the driver's own failure
        await memory.run_sync(lambda c: c.exec_driver_sql("INSERT INTO threads (id) VALUES ('t2')"), write=True)

    await memory.save_messages("t1", [Message.user("after")], resource_id="alice")
    thread = await memory.get_thread("t1")
    assert thread is not None and thread.title is None
    assert [m.text for m in await memory.all_messages("t1")] == ["kept", "after"]


async def test_close_hands_every_connection_back(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    await memory.save_messages("t1", [Message.user("hi")])
    await memory.load_messages("t1")
    pool = memory.engine.pool
    assert pool.checkedout() == 2  # type: ignore[attr-defined]  # held: one to read, one to write
    await memory.close()
    assert pool.checkedout() == 0  # type: ignore[attr-defined]


async def test_a_server_connection_is_checked_out_for_each_transaction(postgres_url: str) -> None:
    """A server may drop a connection: the pool's pre-ping at checkout is what notices, so none is held."""
    memory = SqlMemory(postgres_url)
    try:
        await memory.save_messages("held-t1", [Message.user("first")])
        checkouts = count_checkouts(memory)
        await memory.save_messages("held-t1", [Message.user("second")])
        await memory.load_messages("held-t1")
        assert len(checkouts) == 2
        assert memory.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
        await memory.delete_thread("held-t1")
    finally:
        await memory.close()
