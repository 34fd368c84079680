"""The threads' trash: a deleted thread is kept :data:`TRASH_DAYS` days, restorable, then forgotten.

Deleting a conversation by a slip of the Del key lost it with its runs and traces for good. Users expect what mail
clients and file managers do: the thing goes to a trash and "Undo" brings it back. The trash keeps the thread's
export with the studio's runs (:meth:`studio.store.database.Store.export_thread`: messages, trace events, violations,
recordings) and restores it through the same import a thread file goes through, so a restored thread is the
thread it was, ids and all. The thread itself leaves the ``threads`` table at once (the runtime and the threads
list never see a trashed thread); :meth:`ThreadTrashStore.empty_trash` forgets what is older than the limit.

Held by :class:`studio.store.database.Store` as ``store.trash``: the same database, worker thread and transactions
(through ``memory``), and the store's thread export and import, handed in as two functions.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from processors.memory.errors import ThreadImportError, ThreadNotFoundError
from processors.memory.records import utcnow
from processors.memory.schema import threads
from processors.memory.sql import SqlMemory
from studio.store.schema import thread_trash

__all__ = ["TRASH_DAYS", "ThreadTrashStore", "TrashedThread"]

#: The store's thread export with its studio runs (:meth:`studio.store.database.Store.export_thread`).
ExportThread = Callable[[str], Awaitable[dict[str, Any]]]
#: The store's thread import (:meth:`studio.store.database.Store.import_thread`): a document in, the thread's id out.
ImportThread = Callable[[str], Awaitable[str]]

#: How long a deleted thread stays restorable.
TRASH_DAYS = 30


@dataclass(frozen=True, slots=True)
class TrashedThread:
    """A thread in the trash: its id, its title when it was deleted, and when that was."""

    thread_id: str
    title: str | None
    deleted_at: datetime


class ThreadTrashStore:
    """Deleting a thread into the trash, restoring it, and emptying what is older than :data:`TRASH_DAYS`."""

    def __init__(self, memory: SqlMemory, export_thread: ExportThread, import_thread: ImportThread) -> None:
        self.memory = memory
        self._export_thread = export_thread
        self._import_thread = import_thread

    async def trash_thread(self, thread_id: str) -> bool:
        """Move the thread, with its runs, to the trash; False if there is no such thread."""
        try:
            document = await self._export_thread(thread_id)
        except ThreadNotFoundError:
            return False
        title = document.get("thread", {}).get("title")
        text = json.dumps(document, ensure_ascii=False)

        def work(connection: Connection) -> bool:
            connection.execute(sa.delete(thread_trash).where(thread_trash.c.thread_id == thread_id))
            connection.execute(
                sa.insert(thread_trash).values(thread_id=thread_id, title=title, deleted_at=utcnow(), document=text)
            )
            return bool(connection.execute(sa.delete(threads).where(threads.c.id == thread_id)).rowcount)

        return await self.memory.run_sync(work, write=True)

    async def trashed_threads(self) -> list[TrashedThread]:
        """What the trash holds, the most recently deleted first."""
        query = sa.select(thread_trash.c.thread_id, thread_trash.c.title, thread_trash.c.deleted_at).order_by(
            thread_trash.c.deleted_at.desc(), thread_trash.c.thread_id
        )
        return await self.memory.run_sync(
            lambda connection: [
                TrashedThread(row.thread_id, row.title, row.deleted_at) for row in connection.execute(query)
            ]
        )

    async def restore_thread(self, thread_id: str | None = None) -> str | None:
        """Bring a thread back from the trash (the most recently deleted one by default), runs and all; its id, or
        None when the trash holds no such thread."""

        def take(connection: Connection) -> Any:
            query = sa.select(thread_trash.c.thread_id, thread_trash.c.document)
            if thread_id is not None:
                query = query.where(thread_trash.c.thread_id == thread_id)
            return connection.execute(query.order_by(thread_trash.c.deleted_at.desc()).limit(1)).first()

        row = await self.memory.run_sync(take)
        if row is None:
            return None
        try:
            await self._import_thread(row.document)
        except ThreadImportError:
            if await self.memory.get_thread(row.thread_id) is None:
                raise
            # restored before, and the trash not emptied after (the studio stopped in between): nothing to import
        await self.memory.run_sync(
            lambda c: c.execute(sa.delete(thread_trash).where(thread_trash.c.thread_id == row.thread_id)), write=True
        )
        return str(row.thread_id)

    async def empty_trash(self, older_than: timedelta = timedelta(days=TRASH_DAYS)) -> int:
        """Forget the threads deleted longer than ``older_than`` ago; how many."""
        statement = sa.delete(thread_trash).where(thread_trash.c.deleted_at < utcnow() - older_than)
        return await self.memory.run_sync(lambda c: int(c.execute(statement).rowcount or 0), write=True)
