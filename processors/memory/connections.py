"""``HeldConnections``: the store's worker thread keeps its SQLite connections between transactions.

Checking a connection out of SQLAlchemy's pool, marking it for writing and handing it back cost more than an empty
SQLite transaction itself (~70 of ~120 µs), and a turn's save is four transactions (``tests/bench/bench_store.py``).
The pool keeps the driver's connection open between checkouts anyway; holding SQLAlchemy's ``Connection`` around it
only skips the bookkeeping. Two are held — one for reads, one marked with :data:`WRITE_OPTION` (``BEGIN IMMEDIATE``)
— so neither's options change between transactions. A transaction that fails gives its connection back (the next
one checks out afresh, as every transaction did before), and :meth:`close` gives both back before the engine is
disposed.

Only SQLite's are held: a server's connection can be dropped by the server, and the pool's pre-ping (which checks
it at checkout) is what notices. Used only from the worker thread (:class:`~processors.memory.worker.Worker`), as
SQLAlchemy requires of a connection.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import Connection, Engine

from processors.memory.engine import WRITE_OPTION, is_sqlite


class HeldConnections:
    """The worker thread's connections: held between transactions on SQLite, checked out for each elsewhere."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.hold = is_sqlite(engine.url)
        self._held: dict[bool, Connection] = {}

    @contextmanager
    def transaction(self, write: bool) -> Iterator[Connection]:
        """A connection inside one transaction (committed when the block ends, rolled back if it raises)."""
        if not self.hold:
            with self._connect(write) as fresh, fresh.begin():
                yield fresh
            return
        connection = self._held.get(write)
        if connection is None or connection.closed:
            connection = self._held[write] = self._connect(write)
        try:
            with connection.begin():
                yield connection
        except BaseException:
            self._release(write)
            raise

    def close(self) -> None:
        """Give the held connections back to the pool (before the engine is disposed)."""
        for write in list(self._held):
            self._release(write)

    def _connect(self, write: bool) -> Connection:
        connection = self.engine.connect()
        if write:
            connection.execution_options(**{WRITE_OPTION: True})
        return connection

    def _release(self, write: bool) -> None:
        connection = self._held.pop(write, None)
        if connection is not None:
            connection.close()


__all__ = ["HeldConnections"]
