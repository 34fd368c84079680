"""The database's tables, as SQLAlchemy Core: threads and messages, and the studio's designs, runs and traces.

The studio's tables live here too, although only the studio reads them: one database file means one migration
history, and a thread reopened later finds its runs and trace events beside its messages (deleting a thread
deletes them with it, by foreign key). They are plain SQL: nothing here imports the studio.

This module describes the *current* schema for queries. The migrations in ``migrations/versions`` create it
and must keep describing it: change both together (a test compares them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect

logger = logging.getLogger(__name__)

#: What a stored time that cannot be read is read as (the start of the Unix epoch, UTC).
UNREADABLE_TIME = datetime(1970, 1, 1, tzinfo=UTC)

#: Constraint names are fixed (not left to each backend) so later migrations can name what they alter.
NAMING_CONVENTION = {
    "pk": "pk_%(table_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)

#: An auto-incrementing 64-bit key: ``INTEGER PRIMARY KEY`` on SQLite (the rowid), ``BIGSERIAL`` elsewhere.
SeqKey = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


class UTCDateTime(sa.TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend.

    SQLite has no time zone type: SQLAlchemy stores naive text there, so values are converted to naive UTC on
    the way in and marked UTC on the way out. PostgreSQL keeps ``TIMESTAMP WITH TIME ZONE``.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

    def result_processor(self, dialect: Dialect, coltype: Any) -> Callable[[Any], datetime | None]:
        """Like the default, but a value that is no time (a damaged row) is logged and read as
        :data:`UNREADABLE_TIME`, so it costs that one value, not every query that touches its row."""
        inner = self.impl_instance.result_processor(dialect, coltype)
        convert = self.process_result_value

        def process(value: Any) -> datetime | None:
            try:
                return convert(inner(value) if inner is not None else value, dialect)
            except (ValueError, TypeError, OverflowError) as error:
                logger.error(
                    "A stored time could not be read (%s); it is read as %s", error, UNREADABLE_TIME.isoformat()
                )
                return UNREADABLE_TIME

        return process


class UnreadableJSON(dict[str, Any]):
    """What a JSON column holds when its stored text is not JSON (a damaged row): an *empty dict*, so code that
    does not know about damage reads "nothing" and carries on, while code that does can tell by ``isinstance``
    and say so. :attr:`raw` keeps the start of the stored text; :attr:`error` says what was wrong with it."""

    def __init__(self, raw: str = "", error: str = "") -> None:
        super().__init__()
        self.raw = raw
        self.error = error

    def __repr__(self) -> str:
        return f"UnreadableJSON(raw={self.raw!r}, error={self.error!r})"


class TolerantJSON(sa.TypeDecorator[Any]):
    """``JSON`` that reads a value that is not JSON as an :class:`UnreadableJSON` (logged) instead of failing.

    The default JSON type raises on the first bad value, and with it the whole query: one row damaged by a
    disk error or a hand edit would make the thread — or, at start-up, the studio — impossible to open. The
    column's type in the database is plain ``JSON``; only reading differs.
    """

    impl = sa.JSON
    cache_ok = True

    def result_processor(self, dialect: Dialect, coltype: Any) -> Callable[[Any], Any] | None:
        inner = self.impl_instance.result_processor(dialect, coltype)
        if inner is None:  # the driver parses JSON itself (PostgreSQL): it never stores text that is not JSON
            return None

        def process(value: Any) -> Any:
            try:
                return inner(value)
            except (ValueError, TypeError, RecursionError) as error:
                raw = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
                # the length, not the text: a damaged value may still hold a user's words
                logger.error(
                    "A stored JSON value (%d characters) could not be read and is left out: %s", len(raw), error
                )
                return UnreadableJSON(raw[:200], str(error))

        return process


threads = sa.Table(
    "threads",
    metadata,
    sa.Column("id", sa.String(255), primary_key=True),
    sa.Column("resource_id", sa.String(255), nullable=True),
    sa.Column("title", sa.Text, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.Column("metadata", TolerantJSON, nullable=False),
    sa.Index("ix_threads_updated_at", "updated_at"),
    sa.Index("ix_threads_resource_id_updated_at", "resource_id", "updated_at"),
)

#: One row per message. ``seq`` orders a thread's messages (insertion order, kept when a message is updated);
#: ``content`` is the message's ``content`` object (parts, flattened text, metadata) as JSON text.
messages = sa.Table(
    "messages",
    metadata,
    sa.Column("seq", SeqKey, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(255), nullable=False, unique=True),
    sa.Column("thread_id", sa.String(255), sa.ForeignKey("threads.id", ondelete="CASCADE"), nullable=False),
    sa.Column("resource_id", sa.String(255), nullable=True),
    sa.Column("role", sa.String(32), nullable=False),
    sa.Column("type", sa.String(64), nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("content", sa.Text, nullable=False),
    sa.Index("ix_messages_thread_id_seq", "thread_id", "seq"),
)

__all__ = [
    "UNREADABLE_TIME",
    "SeqKey",
    "TolerantJSON",
    "UTCDateTime",
    "UnreadableJSON",
    "messages",
    "metadata",
    "threads",
]
