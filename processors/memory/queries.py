"""The store's SQL: plain synchronous functions over a SQLAlchemy ``Connection``, one transaction's worth each.

:class:`~processors.memory.sql.SqlMemory` runs them on its worker thread inside a transaction; they never commit
and never touch the event loop. Kept apart from the async façade so each reads on its own.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any, NamedTuple, get_args

import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy.engine import Connection, Row

from processors.memory.errors import ResourceMismatchError
from processors.memory.prepared import Prepared
from processors.memory.records import ThreadRecord, utcnow
from processors.memory.schema import messages as messages_table
from processors.memory.schema import threads as threads_table
from processors.messages import Message, MessageContent, Role, TextPart
from processors.messages.surrogates import scrub_json

logger = logging.getLogger(__name__)

#: ``content.metadata`` key marking a placeholder for a stored message that could not be read.
UNREADABLE_KEY = "unreadable"

#: The text a placeholder shows where the unreadable message would be.
UNREADABLE_TEXT = "⚠ This message could not be read: its stored data is damaged. The rest of the thread is intact."

AnyRow = Row[*tuple[Any, ...]]

#: Ids per ``IN (...)`` list: far below every backend's bound-parameter limit.
_IN_BATCH = 500

_MESSAGE_COLUMNS = (
    messages_table.c.id,
    messages_table.c.thread_id,
    messages_table.c.resource_id,
    messages_table.c.role,
    messages_table.c.type,
    messages_table.c.created_at,
    messages_table.c.content,
)


def thread_row(connection: Connection, thread_id: str) -> AnyRow | None:
    return connection.execute(sa.select(threads_table).where(threads_table.c.id == thread_id)).first()


def thread_record(row: AnyRow) -> ThreadRecord:
    return ThreadRecord(
        id=row.id,
        resource_id=row.resource_id,
        title=row.title,
        created_at=row.created_at,
        updated_at=row.updated_at,
        metadata=row.metadata or {},
    )


def insert_thread(connection: Connection, record: ThreadRecord) -> None:
    connection.execute(
        sa.insert(threads_table).values(
            id=record.id,
            resource_id=record.resource_id,
            title=record.title,
            created_at=record.created_at,
            updated_at=record.updated_at,
            metadata=record.metadata,
        )
    )


def check_owner(thread_id: str, owner: str | None, resource_id: str | None) -> None:
    if resource_id is not None and owner is not None and owner != resource_id:
        raise ResourceMismatchError(f"Thread {thread_id!r} belongs to resource {owner!r}, not {resource_id!r}")


def load(
    connection: Connection, thread_id: str, resource_id: str | None, limit: int | None, *, placeholders: bool = True
) -> list[Message]:
    """The thread's last ``limit`` messages (every one if None), oldest first; another resource's thread is refused.

    A stored message that cannot be read becomes a placeholder (:func:`is_unreadable`), or is left out when
    ``placeholders`` is False (what an agent remembers: a model is not shown a notice about damaged data).
    """
    if limit == 0:
        return []
    if resource_id is not None:
        owner = _THREAD_OWNER.execute(connection, {"thread_id": thread_id}).first()
        if owner is not None:
            check_owner(thread_id, owner[0], resource_id)
    if limit is None:
        rows = _stored_rows(connection, _ALL_MESSAGES, {"thread_id": thread_id})
    else:
        rows = _stored_rows(connection, _LAST_MESSAGES, {"thread_id": thread_id, "limit": limit})
        rows.reverse()
    messages = [_message(*row) for row in rows]  # fast with the collector held off (see ``worker``)
    return messages if placeholders else [m for m in messages if not is_unreadable(m)]


class StoredRow(NamedTuple):
    """A stored message's columns, as :func:`load` reads them (``_MESSAGE_COLUMNS``' order)."""

    id: Any
    thread_id: Any
    resource_id: Any
    role: Any
    type: Any
    created_at: Any
    content: Any


# Read through the driver (``Prepared``): SQLAlchemy's result machinery cost a 10,000-message thread more than the
# database did (tests/bench/bench_store.py); the columns' own result processors are applied as it would.
_ALL_MESSAGES = Prepared(
    sa.select(*_MESSAGE_COLUMNS)
    .where(messages_table.c.thread_id == sa.bindparam("thread_id"))
    .order_by(messages_table.c.seq)
)
_LAST_MESSAGES = Prepared(
    sa.select(*_MESSAGE_COLUMNS)
    .where(messages_table.c.thread_id == sa.bindparam("thread_id"))
    .order_by(messages_table.c.seq.desc())
    .limit(sa.bindparam("limit"))
)


def _stored_rows(connection: Connection, query: Prepared, values: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The query's rows with its columns' result processors applied (column by column: one ``map`` each)."""
    rows = query.execute(connection, values).all()
    if not rows:
        return []
    columns: list[Iterable[Any]] = list(zip(*rows, strict=True))
    for index, read in enumerate(query.readers(connection.dialect)):
        if read is not None:
            columns[index] = map(read, columns[index])
    return list(zip(*columns, strict=True))


# The validators themselves: ``model_validate``/``model_validate_json`` add a Python call each, 10,000 a thread.
_validate_message = Message.__pydantic_validator__.validate_python
_validate_content = MessageContent.__pydantic_validator__.validate_json


def message_from_row(row: AnyRow | StoredRow) -> Message:
    """The stored message; a placeholder saying it is damaged when its row cannot be read (logged), so one bad
    row costs that message and not the thread."""
    return _message(row.id, row.thread_id, row.resource_id, row.role, row.type, row.created_at, row.content)


def _message(
    message_id: Any, thread_id: Any, resource_id: Any, role: Any, kind: Any, created_at: Any, content: Any
) -> Message:
    try:
        # The content parsed straight from its JSON text by pydantic-core is twice as fast as json.loads + validate.
        message: Message = _validate_message(
            {
                "id": message_id,
                "role": role,
                "createdAt": created_at,
                "threadId": thread_id,
                "resourceId": resource_id,
                "type": kind,
                "content": _validate_content(content),
            }
        )
        return message
    except (ValidationError, ValueError, TypeError) as error:
        row = StoredRow(message_id, thread_id, resource_id, role, kind, created_at, content)
        return _placeholder(row, error)


def _placeholder(row: AnyRow | StoredRow, error: Exception) -> Message:
    problem = f"{type(error).__name__}: {error}".splitlines()[0][:300]
    logger.error(
        "Message %r of thread %r could not be read and is shown as a placeholder: %s", row.id, row.thread_id, problem
    )
    role: Role = row.role if row.role in get_args(Role) else "assistant"
    content = MessageContent(
        parts=[TextPart(text=UNREADABLE_TEXT)], content=UNREADABLE_TEXT, metadata={UNREADABLE_KEY: problem}
    )
    return Message.model_construct(
        id=str(row.id),
        role=role,
        created_at=row.created_at,
        thread_id=row.thread_id,
        resource_id=row.resource_id,
        type=None,
        content=content,
    )


def is_unreadable(message: Message) -> bool:
    """Whether ``message`` is the placeholder of a stored message that could not be read."""
    metadata = message.content.metadata
    return metadata is not None and UNREADABLE_KEY in metadata


def message_row(message: Message, thread_id: str, resource_id: str | None) -> dict[str, Any]:
    return {
        "id": message.id,
        "thread_id": thread_id,
        "resource_id": message.resource_id if message.resource_id is not None else resource_id,
        "role": message.role,
        "type": message.type,
        "created_at": message.created_at,
        "content": content_json(message.content),
    }


def content_json(content: MessageContent) -> str:
    """The content as JSON text. A lone surrogate (half an emoji from a provider that split a pair) cannot be
    encoded: it is replaced with U+FFFD rather than losing the whole turn."""
    try:
        return content.model_dump_json(by_alias=True)
    except ValueError:  # PydanticSerializationError: "surrogates not allowed"
        scrubbed = MessageContent.model_validate(scrub_json(content.model_dump(mode="python", by_alias=True)))
        return scrubbed.model_dump_json(by_alias=True)


# The save path's statements are compiled once per database and run through the driver with ready rows
# (``Prepared``): building a SQLAlchemy statement with its values in it costs ~3x executing it, and executing one costs
# more in SQLAlchemy's per-row parameter work than in SQLite; a turn's save runs them every time
# (tests/bench/bench_store.py).
_THREAD_OWNER = Prepared(sa.select(threads_table.c.resource_id).where(threads_table.c.id == sa.bindparam("thread_id")))
_TOUCH_THREAD = Prepared(
    sa.update(threads_table)
    .where(threads_table.c.id == sa.bindparam("b_thread_id"))
    .values(updated_at=sa.bindparam("updated_at"))
)
_INSERT_MESSAGES = Prepared(
    sa.insert(messages_table), keys=("id", "thread_id", "resource_id", "role", "type", "created_at", "content")
)
_UPDATE_MESSAGE = Prepared(
    sa.update(messages_table)
    .where(messages_table.c.id == sa.bindparam("b_id"))
    .values(
        thread_id=sa.bindparam("thread_id"),
        resource_id=sa.bindparam("resource_id"),
        role=sa.bindparam("role"),
        type=sa.bindparam("type"),
        created_at=sa.bindparam("created_at"),
        content=sa.bindparam("content"),
    )
)


# SQLAlchemy's own execution: an expanding ``IN`` list is rendered per call (a Prepared one per count would be built
# on a turn whose count is new; this costs ~30 µs more).
_EXISTING_IDS = sa.select(messages_table.c.id).where(messages_table.c.id.in_(sa.bindparam("ids", expanding=True)))


def existing_ids(connection: Connection, ids: Iterable[str]) -> set[str]:
    wanted = list(dict.fromkeys(ids))
    found: set[str] = set()
    for start in range(0, len(wanted), _IN_BATCH):
        found.update(connection.execute(_EXISTING_IDS, {"ids": wanted[start : start + _IN_BATCH]}).scalars())
    return found


def save(connection: Connection, thread_id: str, messages: list[Message], resource_id: str | None) -> None:
    """Upsert ``messages`` by id into the thread (created if missing, ``updated_at`` moved).

    Portable on purpose: one SELECT of the ids already stored, then one INSERT and one UPDATE (each an
    executemany), rather than each backend's own ``ON CONFLICT`` dialect. An updated message keeps its ``seq``,
    so its place in the thread, and moves to this thread if it was in another (Mastra's upsert does the same).
    """
    now = utcnow()
    owner = _THREAD_OWNER.execute(connection, {"thread_id": thread_id}).first()
    if owner is None:
        insert_thread(connection, ThreadRecord(id=thread_id, resource_id=resource_id, created_at=now, updated_at=now))
    else:
        check_owner(thread_id, owner[0], resource_id)
        _TOUCH_THREAD.execute(connection, {"b_thread_id": thread_id, "updated_at": now})
    if not messages:
        return
    latest = {m.id: m for m in messages}  # the same id twice in one batch: the last one wins
    existing = existing_ids(connection, latest)
    inserts: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    for message in latest.values():
        row = message_row(message, thread_id, resource_id)
        if message.id in existing:
            row["b_id"] = row.pop("id")
            updates.append(row)
        else:
            inserts.append(row)
    _INSERT_MESSAGES.executemany(connection, inserts)
    _UPDATE_MESSAGE.executemany(connection, updates)


__all__ = [
    "UNREADABLE_KEY",
    "UNREADABLE_TEXT",
    "AnyRow",
    "StoredRow",
    "check_owner",
    "content_json",
    "existing_ids",
    "insert_thread",
    "is_unreadable",
    "load",
    "message_from_row",
    "message_row",
    "save",
    "thread_record",
    "thread_row",
]
