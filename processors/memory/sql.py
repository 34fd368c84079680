"""``SqlMemory``: threads and messages in a SQL database through SQLAlchemy 2 (SQLite by default).

    memory = SqlMemory("sqlite:///threads.db", last_messages=50)       # or "postgresql+psycopg://..."
    agent = Agent(id="support", model=..., memory=memory)
    await agent.generate("hello", thread_id="t1", resource_id="u1")
    await memory.close()

The API is async, but the work is plain synchronous SQLAlchemy run on one worker thread per store
(:class:`~processors.memory.worker.Worker`): one code path for every database, the event loop (the studio's UI
thread) never waits on disk, and SQLite sees one writer at a time from this process. Every call is one
transaction. The database is opened — checked, backed up and migrated (:mod:`processors.memory.migrate`) — by
the first call, or explicitly with :meth:`SqlMemory.open`.

Messages are stored in the ``Message`` shape with their ``content`` (parts, text, metadata) as JSON. A thread's
order is the order messages were first saved (``seq``); saving a message again updates it in place.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection

from processors.memory import diagnose, queries
from processors.memory.connections import HeldConnections
from processors.memory.engine import make_engine, sqlite_file
from processors.memory.errors import (
    StoreError,
    ThreadExistsError,
    ThreadImportError,
    ThreadNotFoundError,
)
from processors.memory.migrate import OpenReport, open_database
from processors.memory.records import ThreadRecord, utcnow
from processors.memory.schema import messages as messages_table
from processors.memory.schema import threads as threads_table
from processors.memory.scrub import scrub_parameters
from processors.memory.transfer import ImportProgress, ThreadExport, export_document, parse_import
from processors.memory.worker import Worker
from processors.messages import Message, new_id
from processors.messages.surrogates import scrub_json
from processors.problems import Problem, located

T = TypeVar("T")

#: Messages inserted per statement by an import (one transaction for all of them).
IMPORT_BATCH = 1000


class SqlMemory:
    """Thread memory in a SQL database. Implements :class:`processors.memory.Memory`, plus thread management."""

    def __init__(
        self,
        url: str | URL = "sqlite:///threads.db",
        last_messages: int = 50,
        *,
        create: bool = True,
        migrations: Sequence[Path] = (),
    ) -> None:
        """``migrations``: revision folders of an application that keeps its own tables in this database (the
        studio's store); they continue the runtime's history, so one database has one history."""
        if last_messages < 0:
            raise ValueError(f"last_messages must be 0 or more, got {last_messages}")
        self.url = sa.make_url(url)
        #: How many of a thread's latest messages a run remembers.
        self.last_messages = last_messages
        self.create = create
        self.migrations = tuple(Path(path) for path in migrations)
        #: The synchronous engine (creating it connects to nothing). Use it only through :meth:`run_sync`.
        self.engine = make_engine(self.url)
        # Every string bound to a statement is made encodable first: a lone surrogate costs one character, not
        # the transaction (titles, design names, imported threads, run records, trace text alike).
        sa.event.listen(self.engine, "before_cursor_execute", scrub_parameters, retval=True)
        self._worker = Worker("sql-memory")
        self._connections = HeldConnections(self.engine)  # used on the worker thread only
        self._report: OpenReport | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"SqlMemory({self.url.render_as_string(hide_password=True)!r}, last_messages={self.last_messages})"

    # ----------------------------------------------------------------------------------------- plumbing
    async def open(self) -> OpenReport:
        """Open the database now (every other call does it too): refuse, back up and migrate as needed."""
        return await self._submit(self._ensure_open)

    async def run_sync(self, work: Callable[[Connection], T], *, write: bool = False) -> T:
        """Run ``work(connection)`` in one transaction on the store's worker thread and return its result.

        ``write=True`` takes the write lock when the transaction starts (SQLite ``BEGIN IMMEDIATE``, PostgreSQL
        an advisory transaction lock), which avoids lock-upgrade failures and duplicate-key races when another
        process writes too. Whoever extends the store (the studio) goes through here, so its queries share the
        thread, the transaction rules and the schema check.
        """
        return await self._submit(functools.partial(self._transaction, work, write))

    async def close(self) -> None:
        """Finish queued work, close every connection and stop the worker thread. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._worker.run(self._dispose)
        finally:
            self._worker.shutdown()

    async def __aenter__(self) -> SqlMemory:
        try:
            await self.open()
        except BaseException:
            await self.close()  # a refused database must not leave the worker thread behind
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _submit(self, work: Callable[[], T]) -> T:
        if self._closed:
            raise StoreError(f"{self!r} is closed")
        return await self._worker.run(functools.partial(self._explained, work))

    def _explained(self, work: Callable[[], T]) -> T:
        """Run ``work``; a SQLite error about the file itself (damaged, read-only) becomes a store error saying
        what is wrong and what the user can do (:mod:`processors.memory.diagnose`), not a raw driver error."""
        try:
            return work()
        except sa.exc.DBAPIError as error:
            path = sqlite_file(self.url)
            explained = None if path is None else diagnose.translate(error, path)
            if explained is None:
                raise
            raise explained from error

    def _ensure_open(self) -> OpenReport:
        if self._report is None:
            self._report = open_database(self.engine, self.url, create=self.create, extra=self.migrations)
        return self._report

    def _transaction(self, work: Callable[[Connection], T], write: bool) -> T:
        self._ensure_open()
        with self._connections.transaction(write) as connection:
            return work(connection)

    def _dispose(self) -> None:
        try:
            self._connections.close()
        finally:
            self.engine.dispose()

    # ----------------------------------------------------------------------------------------- the protocol
    async def load_messages(
        self, thread_id: str, *, resource_id: str | None = None, last_messages: int | None = None
    ) -> list[Message]:
        """The thread's last ``last_messages`` messages (default: this store's), oldest first."""
        limit = self.last_messages if last_messages is None else last_messages
        if limit < 0:
            raise ValueError(f"last_messages must be 0 or more, got {limit}")
        load = functools.partial(
            queries.load, thread_id=thread_id, resource_id=resource_id, limit=limit, placeholders=False
        )
        return await self.run_sync(load)

    async def save_messages(
        self, thread_id: str, messages: Sequence[Message], *, resource_id: str | None = None
    ) -> None:
        """Insert or update ``messages`` by id, in one transaction; creates the thread if needed and touches it."""
        batch = list(messages)
        await self.run_sync(
            functools.partial(queries.save, thread_id=thread_id, messages=batch, resource_id=resource_id), write=True
        )

    # ----------------------------------------------------------------------------------------- threads
    async def all_messages(self, thread_id: str) -> list[Message]:
        """Every message of the thread, oldest first (the studio's full history view); a message whose stored
        data cannot be read is a placeholder saying so (``queries.is_unreadable``)."""
        return await self.run_sync(functools.partial(queries.load, thread_id=thread_id, resource_id=None, limit=None))

    async def count_messages(self, thread_id: str) -> int:
        query = sa.select(sa.func.count()).select_from(messages_table).where(messages_table.c.thread_id == thread_id)
        return await self.run_sync(lambda c: int(c.execute(query).scalar_one()))

    async def create_thread(
        self,
        thread_id: str | None = None,
        *,
        resource_id: str | None = None,
        title: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> ThreadRecord:
        """Create an empty thread (a fresh id unless given); :class:`ThreadExistsError` if the id is taken."""
        now = utcnow()
        record = ThreadRecord(
            id=thread_id or new_id("thread"),
            resource_id=resource_id,
            title=title,
            created_at=now,
            updated_at=now,
            metadata=dict(metadata or {}),
        )

        def work(connection: Connection) -> ThreadRecord:
            if queries.thread_row(connection, record.id) is not None:
                raise ThreadExistsError(f"A thread with id {record.id!r} already exists")
            queries.insert_thread(connection, record)
            return record

        return await self.run_sync(work, write=True)

    async def get_thread(self, thread_id: str) -> ThreadRecord | None:
        def work(connection: Connection) -> ThreadRecord | None:
            row = queries.thread_row(connection, thread_id)
            return None if row is None else queries.thread_record(row)

        return await self.run_sync(work)

    async def list_threads(
        self,
        *,
        resource_id: str | None = None,
        search: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[ThreadRecord]:
        """Threads, most recently updated first; ``search`` matches the title or id (case-insensitive)."""
        query = sa.select(threads_table).order_by(
            threads_table.c.updated_at.desc(), threads_table.c.created_at.desc(), threads_table.c.id
        )
        if resource_id is not None:
            query = query.where(threads_table.c.resource_id == resource_id)
        if search:
            needle = search.lower()
            query = query.where(
                sa.or_(
                    sa.func.lower(threads_table.c.title).contains(needle, autoescape=True),
                    sa.func.lower(threads_table.c.id).contains(needle, autoescape=True),
                )
            )
        if limit is not None:
            query = query.limit(limit)
        if offset:
            query = query.offset(offset)
        return await self.run_sync(lambda c: [queries.thread_record(row) for row in c.execute(query)])

    async def rename_thread(self, thread_id: str, title: str | None) -> ThreadRecord:
        """Set the thread's title (None clears it); moves ``updated_at``, as Mastra's ``updateThread`` does."""
        return await self._update_thread(thread_id, {"title": title})

    async def set_thread_metadata(self, thread_id: str, metadata: Mapping[str, Any]) -> ThreadRecord:
        """Replace the thread's metadata (JSON-safe values); moves ``updated_at``."""
        return await self._update_thread(thread_id, {"metadata": dict(metadata)})

    async def _update_thread(self, thread_id: str, values: dict[str, Any]) -> ThreadRecord:
        statement = (
            sa.update(threads_table).where(threads_table.c.id == thread_id).values(**values, updated_at=utcnow())
        )

        def work(connection: Connection) -> ThreadRecord:
            if connection.execute(statement).rowcount == 0:
                raise ThreadNotFoundError(f"No thread with id {thread_id!r}")
            row = queries.thread_row(connection, thread_id)
            assert row is not None
            return queries.thread_record(row)

        return await self.run_sync(work, write=True)

    async def delete_thread(self, thread_id: str) -> bool:
        """Delete the thread with its messages (and the studio's runs of it); False if there was none."""
        statement = sa.delete(threads_table).where(threads_table.c.id == thread_id)
        return await self.run_sync(lambda c: c.execute(statement).rowcount > 0, write=True)

    # ----------------------------------------------------------------------------------------- import/export
    async def export_thread(self, thread_id: str) -> dict[str, Any]:
        """The thread as a JSON-ready dict: ``{"version": 1, "thread": {...}, "messages": [...]}``."""

        def work(connection: Connection) -> dict[str, Any]:
            row = queries.thread_row(connection, thread_id)
            if row is None:
                raise ThreadNotFoundError(f"No thread with id {thread_id!r}")
            document = export_document(queries.thread_record(row), queries.load(connection, thread_id, None, None))
            scrubbed: dict[str, Any] = scrub_json(document)  # JSON columns may hold "\ud83d" escapes: an export
            return scrubbed  # must be writable as UTF-8

        return await self.run_sync(work)

    async def import_thread(
        self,
        data: Mapping[str, Any] | str | bytes,
        *,
        progress: ImportProgress | None = None,
        extensions: Callable[[Connection, ThreadExport], object] | None = None,
    ) -> str:
        """Store an exported thread; returns its id. Validated whole first: on any problem, nothing is written.

        Raises :class:`ThreadImportError` (a ``ValueError``) listing each problem by path, also when the thread
        id or a message id is already stored. Parsing and checking run on the store's worker thread too (a big
        export takes seconds); ``progress(phase, done, total)`` is called there as they advance (see
        :data:`~processors.memory.transfer.ImportProgress`), and an exception it raises stops the import with
        nothing written. ``extensions(connection, document)`` runs in the same transaction once the thread and its
        messages are written: a program that keeps its own tables beside the threads (the studio's runs) stores
        ``document.extensions`` there; an exception it raises (a :class:`ThreadImportError` naming the problem)
        writes nothing at all.
        """
        report = progress or (lambda _phase, _done, _total: None)
        document = await self._submit(functools.partial(parse_import, data, progress=report))

        def work(connection: Connection) -> str:
            thread = document.thread
            if queries.thread_row(connection, thread.id) is not None:
                exists = Problem("thread:exists", "a thread with id {id!r} already exists", id=thread.id)
                raise ThreadImportError([located("thread.id", exists)])
            taken = queries.existing_ids(connection, [m.id for m in document.messages])
            if taken:
                where = {m.id: i for i, m in enumerate(document.messages)}
                raise ThreadImportError(
                    [
                        located(
                            f"messages[{where[i]}].id",
                            Problem("thread:message_taken", "{id!r} is already stored in another thread", id=i),
                        )
                        for i in sorted(taken)
                    ]
                )
            queries.insert_thread(connection, thread)
            total = len(document.messages)
            report("writing", 0, total)
            for start in range(0, total, IMPORT_BATCH):
                batch = document.messages[start : start + IMPORT_BATCH]
                connection.execute(
                    sa.insert(messages_table), [queries.message_row(m, thread.id, m.resource_id) for m in batch]
                )
                report("writing", start + len(batch), total)
            if extensions is not None:
                extensions(connection, document)
            return thread.id

        return await self.run_sync(work, write=True)


__all__ = ["SqlMemory", "ThreadRecord"]
