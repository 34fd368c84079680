"""Reading a thread through the driver (``queries.load``) gives exactly the messages SQLAlchemy's reading gave.

The reference below is the previous reading, kept plain: a Core ``select`` (SQLAlchemy's result processing) and
``Message.model_validate`` of each row, a placeholder for a row that cannot be read. Hypothesis draws threads of
messages — every part kind, any text, metadata, times in any zone — saved by the store itself, some rows then
damaged by hand (content that is not JSON or of the wrong shape, an unknown role, a time that is no time, an id
that is a number); both readings must agree message by message: equal, the same fields set, the same time zone
object, the same placeholders.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from processors.memory import queries
from processors.memory.engine import make_engine
from processors.memory.schema import messages, metadata
from processors.memory.scrub import scrub_parameters
from processors.messages import (
    DataPart,
    Message,
    MessageContent,
    ReasoningPart,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
)


def reference_load(connection: sa.Connection, thread_id: str, limit: int | None) -> list[Message]:
    """The previous ``queries.load`` (without the owner check), as it read."""
    query = sa.select(*queries._MESSAGE_COLUMNS).where(messages.c.thread_id == thread_id)
    if limit is None:
        rows = list(connection.execute(query.order_by(messages.c.seq)))
    else:
        rows = list(connection.execute(query.order_by(messages.c.seq.desc()).limit(limit)))
        rows.reverse()
    return [reference_message(row) for row in rows]


def reference_message(row: Any) -> Message:
    try:
        return Message.model_validate(
            {
                "id": row.id,
                "role": row.role,
                "createdAt": row.created_at,
                "threadId": row.thread_id,
                "resourceId": row.resource_id,
                "type": row.type,
                "content": MessageContent.model_validate_json(row.content),
            }
        )
    except (ValidationError, ValueError, TypeError) as error:
        return queries._placeholder(row, error)


any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | any_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3),
    max_leaves=4,
)
parts = st.one_of(
    st.builds(
        lambda text, extra: TextPart(text=text, provider_metadata=extra),
        any_text,
        st.none() | st.dictionaries(any_text, json_values, max_size=2),
    ),
    st.builds(lambda model: StepStartPart(model=model), st.none() | any_text),
    st.builds(lambda text: ReasoningPart(reasoning=text), any_text),
    st.builds(
        lambda state, call, name, args, result: ToolInvocationPart(
            tool_invocation=ToolInvocation(state=state, tool_call_id=call, tool_name=name, args=args, result=result)
        ),
        st.sampled_from(["call", "result", "output-error"]),
        any_text,
        any_text,
        json_values,
        json_values,
    ),
    st.builds(
        lambda kind, data: DataPart(type=kind, data=data), st.sampled_from(["data-progress", "data-x"]), json_values
    ),
)
moments = st.datetimes(
    min_value=datetime(1970, 1, 2),
    max_value=datetime(2200, 1, 1),
    timezones=st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=8))]),
)
stored_messages = st.builds(
    lambda key, role, moment, resource, kind, parts, text, extra: Message(
        id=f"msg_{key.hex}",
        role=role,
        created_at=moment,
        resource_id=resource,
        type=kind,
        content=MessageContent(parts=parts, content=text, metadata=extra),
    ),
    st.uuids(),
    st.sampled_from(["user", "assistant", "system", "signal"]),
    moments,
    st.none() | st.just("r1"),
    st.none() | st.just("v2"),
    st.lists(parts, max_size=3),
    st.none() | any_text,
    st.none() | st.dictionaries(any_text, json_values, max_size=3),
)
#: A hand edit or a disk error: column → stored value.
DAMAGES: list[dict[str, Any]] = [
    {"content": "{not json"},
    {"content": '{"parts": [{"type": "text"}]}'},
    {"content": '{"parts": 5}'},
    {"content": "[]"},
    {"role": "robot"},
    {"created_at": "not a time"},
    {"created_at": "2026-13-45 99:00:00"},
    {"id": 12345},
    {"type": 7},
]
damages = st.sampled_from(DAMAGES)


def damage(connection: sa.Connection, message_id: str, values: dict[str, Any]) -> None:
    """Store ``values`` as they are, past every type's processing (as a hand edit would)."""
    for column, value in values.items():
        connection.exec_driver_sql(f"UPDATE messages SET {column} = ? WHERE id = ?", (value, message_id))


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    engine = make_engine(sa.make_url(f"sqlite:///{tmp_path / 'threads.db'}"))
    sa.event.listen(engine, "before_cursor_execute", scrub_parameters, retval=True)
    metadata.create_all(engine)
    yield engine
    engine.dispose()


def same_message(new: Message, old: Message) -> None:
    assert new == old
    assert new.model_fields_set == old.model_fields_set
    assert new.content.model_fields_set == old.content.model_fields_set
    assert new.created_at.tzinfo is old.created_at.tzinfo
    assert new.model_dump_json() == old.model_dump_json()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    thread=st.lists(stored_messages, max_size=6, unique_by=lambda m: m.id),
    damaged=st.dictionaries(st.integers(0, 7), damages, max_size=3),
    limit=st.none() | st.integers(1, 10),
)
def test_reading_through_the_driver_gives_the_messages_sqlalchemy_gave(
    engine: sa.Engine, thread: list[Message], damaged: dict[int, dict[str, Any]], limit: int | None
) -> None:
    with engine.begin() as connection:
        connection.execute(messages.delete())
        queries.save(connection, "t1", thread, resource_id="r1")
        for index, change in damaged.items():
            if index < len(thread):
                values = {**change, "id": 12345 + index} if "id" in change else change  # ids stay unique
                damage(connection, thread[index].id, values)
    with engine.connect() as connection:
        new = queries.load(connection, "t1", None, limit)
        old = reference_load(connection, "t1", limit)
    assert len(new) == len(old) == (len(thread) if limit is None else min(limit, len(thread)))
    for new_message, old_message in zip(new, old, strict=True):
        same_message(new_message, old_message)


def test_a_thread_of_every_damage_reads_as_before(engine: sa.Engine) -> None:
    """Each damage once, beside intact messages: the placeholders (their logged problem included) are the same."""
    kinds = DAMAGES
    thread = [Message.user(f"message {index}", id=f"m{index}") for index in range(len(kinds) + 2)]
    with engine.begin() as connection:
        queries.save(connection, "t1", thread, resource_id=None)
        for message, change in zip(thread[1:], kinds, strict=False):
            damage(connection, message.id, change)
    with engine.connect() as connection:
        new = queries.load(connection, "t1", None, None)
        old = reference_load(connection, "t1", None)
    # the four contents and the role; the bad times read as the epoch, a number id or type as text (column affinity)
    assert sum(queries.is_unreadable(m) for m in new) == 5
    for new_message, old_message in zip(new, old, strict=True):
        same_message(new_message, old_message)


def test_reading_a_thread_fetches_its_rows_at_once_and_builds_no_statement(engine: sa.Engine) -> None:
    """Work counted, not time: SQLAlchemy's reading fetched and processed row by row (``fetchone`` per row, 10,001
    calls for the 10,000-message benchmark thread, tests/bench/bench_store.py) and each load built its query."""
    thread = [Message.user(f"message {index}", id=f"m{index}") for index in range(200)]
    with engine.begin() as connection:
        queries.save(connection, "t1", thread, resource_id=None)
    calls: list[str] = []

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        module = frame.f_globals.get("__name__", "")
        if event == "call" and module.startswith("sqlalchemy.") and frame.f_code.co_name in WATCHED:
            calls.append(f"{module}.{frame.f_code.co_name}")

    with engine.connect() as connection:
        queries.load(connection, "t1", None, None)  # compiled for this database once
        sys.setprofile(profile)
        try:
            every = queries.load(connection, "t1", None, None)
            last = queries.load(connection, "t1", None, 50)
        finally:
            sys.setprofile(None)
    assert [m.text for m in every] == [m.text for m in thread]
    assert [m.text for m in last] == [m.text for m in thread[-50:]]
    assert calls == []


#: SQLAlchemy's per-row fetch and its statement builders.
WATCHED = {"fetchone", "_fetchiter_impl", "select", "where", "order_by", "limit"}
