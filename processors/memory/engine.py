"""Making the SQLAlchemy engine: SQLite tuned for a desktop app's safety, any other URL passed through.

SQLite connections get ``journal_mode=WAL`` (readers never wait for the writer; a killed process leaves a
database that recovers on the next open), ``foreign_keys=ON`` (deleting a thread deletes its messages and runs)
and ``synchronous=NORMAL``. In WAL mode NORMAL never corrupts the database and keeps every committed transaction
when the *process* dies (SIGKILL, crash); only an OS crash or power cut may lose the last few commits. FULL
would fsync on every commit for that last case; the crash-safety test shows NORMAL keeps every finished turn.

Python's ``sqlite3`` module does not open a transaction before DDL and opens one lazily before DML, which breaks
transactional migrations and makes read-then-write transactions fail with ``SQLITE_BUSY`` under concurrency. So
the driver's own transaction handling is switched off and SQLAlchemy's ``begin`` emits ``BEGIN`` itself:
``BEGIN IMMEDIATE`` (take the write lock first) for connections marked with :data:`WRITE_OPTION`.

PostgreSQL has no database-wide write lock, and its default READ COMMITTED isolation lets two stores (two
windows, two processes) both find a thread or message id missing and both insert it, one then failing on the
unique key. So a write transaction there starts with ``pg_advisory_xact_lock`` on a fixed key: writers take turns,
as SQLite's ``BEGIN IMMEDIATE`` makes them, and the lock goes with the transaction's commit or rollback. Readers
never wait for it. Other backends are passed through unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine

#: Execution option marking a connection whose transaction will write (SQLite: ``BEGIN IMMEDIATE``).
WRITE_OPTION = "processors_write"

#: Seconds a SQLite connection waits for another process's write lock before failing.
SQLITE_BUSY_TIMEOUT = 30.0

#: The PostgreSQL advisory lock key that serialises the store's write transactions (a signed 64-bit constant).
PG_WRITE_LOCK_KEY = 0x70726F635F6D656D  # b"proc_mem"

_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA synchronous=NORMAL")


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def sqlite_file(url: URL) -> Path | None:
    """The database file of a ``sqlite:///path`` URL; None for in-memory or URI-style (``?uri=true``) URLs."""
    if not is_sqlite(url):
        return None
    database = url.database or ""
    if database in ("", ":memory:") or url.query.get("uri") or database.startswith("file:"):
        return None
    return Path(database).expanduser()


def make_engine(url: URL) -> Engine:
    """An engine for ``url``; connects lazily (creating it does no I/O)."""
    if not is_sqlite(url):
        engine = sa.create_engine(url, pool_pre_ping=True)
        if url.get_backend_name() == "postgresql":
            sa.event.listen(engine, "begin", _on_postgresql_begin)
        return engine
    engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT})
    sa.event.listen(engine, "connect", _on_sqlite_connect)
    sa.event.listen(engine, "begin", _on_sqlite_begin)
    return engine


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" listener below starts the transactions
    cursor = dbapi_connection.cursor()
    try:
        for pragma in _PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


def _on_sqlite_begin(connection: Connection) -> None:
    write = connection.get_execution_options().get(WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _on_postgresql_begin(connection: Connection) -> None:
    if connection.get_execution_options().get(WRITE_OPTION, False):
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_WRITE_LOCK_KEY})")


__all__ = ["PG_WRITE_LOCK_KEY", "SQLITE_BUSY_TIMEOUT", "WRITE_OPTION", "is_sqlite", "make_engine", "sqlite_file"]
