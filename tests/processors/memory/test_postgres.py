"""SqlMemory and the studio's Store on a real PostgreSQL server (issue 4: "any SQLAlchemy URL").

The server is the throwaway cluster of ``tests/support/postgres.py``. Tests share its ``postgres_url`` database
with ids of their own (``uid()``), or take a ``new_postgres_url`` database when they need an empty one.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from processors import Agent
from processors.memory import Memory, SqlMemory
from processors.memory.engine import make_engine
from processors.memory.errors import ThreadImportError
from processors.memory.migrate import head_revisions, upgrade
from processors.memory.schema import messages as messages_table
from processors.memory.schema import metadata
from processors.memory.schema import threads as threads_table
from processors.messages import DataPart, Message, MessageContent, TextPart, ToolInvocation, ToolInvocationPart
from processors.models import ScriptedModel
from processors.tracing import TraceEvent
from studio.store.database import Store

APP_MIGRATIONS = (Path(__file__).parent / "app_migrations",)

# Until tests/conftest.py lists "tests.support.postgres" in ``pytest_plugins``.


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture
async def memory(postgres_url: str) -> AsyncIterator[SqlMemory]:
    store = SqlMemory(postgres_url)
    yield store
    await store.close()


def conversation(count: int, prefix: str) -> list[Message]:
    return [
        (Message.user if i % 2 == 0 else Message.assistant)(f"{prefix}{i}", id=f"{prefix}{i}") for i in range(count)
    ]


def rich_message(message_id: str) -> Message:
    return Message(
        id=message_id,
        role="assistant",
        content=MessageContent(
            parts=[
                TextPart(text="Looking it up. ✓ ünïcode"),
                ToolInvocationPart(
                    tool_invocation=ToolInvocation(
                        state="result",
                        tool_call_id="call_1",
                        tool_name="weather",
                        args={"city": "Paris", "x": None},
                        result={"temp": 21},
                    )
                ),
                DataPart(type="data-progress", data={"done": 3, "of": None}, id="p1"),
            ],
            content="Looking it up.",
            metadata={"source": "test"},
        ),
    )


def _counts(connection: sa.Connection) -> dict[str, int]:
    return {
        name: int(connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())
        for name, table in (("threads", threads_table), ("messages", messages_table))
    }


async def table_counts(memory: SqlMemory) -> dict[str, int]:
    counts: dict[str, int] = await memory.run_sync(_counts)
    return counts


# --------------------------------------------------------------------------------------------- the database
async def test_a_fresh_database_is_migrated_to_head(new_postgres_url: str) -> None:
    assert new_postgres_url.startswith("postgresql+psycopg://postgres@127.0.0.1:")
    async with SqlMemory(new_postgres_url) as memory:
        report = memory._report
        assert report is not None
        assert (report.before, report.after, report.backup) == ((), head_revisions(), None)
        assert memory.engine.dialect.name == "postgresql"
        again = await memory.open()
        assert again.after == head_revisions()
        assert await table_counts(memory) == {"threads": 0, "messages": 0}
    async with SqlMemory(new_postgres_url) as reopened:  # a second open finds it at head and changes nothing
        assert reopened._report is not None
        assert not reopened._report.upgraded


async def test_the_migrations_build_exactly_the_schema_module(new_postgres_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    def diff(connection: sa.Connection) -> list[Any]:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))

    async with SqlMemory(new_postgres_url) as memory:
        assert await memory.run_sync(diff) == []


async def test_an_old_database_is_upgraded_in_place(new_postgres_url: str) -> None:
    engine = make_engine(sa.make_url(new_postgres_url))
    try:
        with engine.begin() as connection:
            assert upgrade(connection, "0001") == ("0001",)
            connection.exec_driver_sql(
                "INSERT INTO threads (id, created_at, updated_at, metadata) "
                "VALUES ('old', '2024-01-01 00:00:00+00', '2024-01-01 00:00:00+00', '{}')"
            )
    finally:
        engine.dispose()
    async with SqlMemory(new_postgres_url, migrations=APP_MIGRATIONS) as memory:
        report = memory._report
        assert report is not None
        assert (report.before, report.after, report.backup) == (("0001",), ("t0002",), None)
        thread = await memory.get_thread("old")
        assert thread is not None
        assert thread.created_at.tzinfo is not None
        assert thread.created_at.year == 2024


# --------------------------------------------------------------------------------------------- the protocol
async def test_it_is_a_memory_that_remembers_the_last_fifty_messages_by_default(memory: SqlMemory) -> None:
    store: Memory = memory  # the protocol's type: mypy checks the signatures
    thread = uid("t")
    p = uid("m")
    messages = conversation(55, p)
    await store.save_messages(thread, messages, resource_id="u1")
    loaded = await store.load_messages(thread, resource_id="u1")
    assert [m.id for m in loaded] == [m.id for m in messages[5:]]
    assert [m.id for m in await store.load_messages(thread, last_messages=3)] == [f"{p}52", f"{p}53", f"{p}54"]


async def test_saved_messages_load_back_equal_in_order(memory: SqlMemory) -> None:
    thread = uid("t")
    p = uid("m")
    messages = [*conversation(4, p), rich_message(f"{p}-rich")]
    await memory.save_messages(thread, messages, resource_id="u1")
    loaded = await memory.load_messages(thread, resource_id="u1")
    assert [m.id for m in loaded] == [m.id for m in messages]
    for original, back in zip(messages, loaded, strict=True):
        assert back.content == original.content
        assert back.role == original.role
        assert back.created_at == original.created_at  # microseconds and the UTC zone survive
        assert back.created_at.tzinfo is not None
        assert back.created_at.utcoffset() == UTC.utcoffset(None)
        assert (back.thread_id, back.resource_id) == (thread, "u1")


async def test_load_gives_the_last_n_in_chronological_order(postgres_url: str) -> None:
    thread = uid("t")
    p = uid("m")
    async with SqlMemory(postgres_url, last_messages=3) as store:
        await store.save_messages(thread, conversation(10, p))
        assert [m.id for m in await store.load_messages(thread)] == [f"{p}7", f"{p}8", f"{p}9"]
        assert [m.id for m in await store.load_messages(thread, last_messages=5)] == [f"{p}{i}" for i in range(5, 10)]
        assert await store.load_messages(thread, last_messages=0) == []
        assert len(await store.all_messages(thread)) == 10
        assert await store.load_messages(uid("no-such-thread")) == []


async def test_save_upserts_by_id_and_keeps_the_position(memory: SqlMemory) -> None:
    thread = uid("t")
    p = uid("m")
    await memory.save_messages(thread, conversation(3, p))
    first = await memory.get_thread(thread)
    await memory.save_messages(thread, [Message.assistant("edited", id=f"{p}1"), Message.user("new", id=f"{p}3")])
    loaded = await memory.all_messages(thread)
    assert [m.id for m in loaded] == [f"{p}0", f"{p}1", f"{p}2", f"{p}3"]
    assert loaded[1].text == "edited"
    assert await memory.count_messages(thread) == 4
    later = await memory.get_thread(thread)
    assert first is not None and later is not None
    assert later.updated_at >= first.updated_at


# --------------------------------------------------------------------------------------------- threads
async def test_threads_are_created_listed_renamed_and_deleted_with_their_messages(memory: SqlMemory) -> None:
    owner = uid("u")
    ids = [uid("t") for _ in range(4)]
    for thread_id, title in zip(ids, ["Weather in Paris", "Refund 100%", "weather in Rome", "Small talk"], strict=True):
        await memory.create_thread(thread_id, resource_id=owner, title=title, metadata={"k": [1, 2]})
    await memory.save_messages(ids[0], conversation(3, uid("m")), resource_id=owner)  # the most recent now

    listed = await memory.list_threads(resource_id=owner)
    assert [t.id for t in listed] == [ids[0], ids[3], ids[2], ids[1]]
    assert listed[1].metadata == {"k": [1, 2]}
    assert [t.id for t in await memory.list_threads(resource_id=owner, search="WEATHER")] == [ids[0], ids[2]]
    assert [t.id for t in await memory.list_threads(resource_id=owner, search="0%")] == [ids[1]]
    assert await memory.list_threads(resource_id=owner, search="_") == []  # wildcards are literal
    assert [t.id for t in await memory.list_threads(search=ids[3])] == [ids[3]]  # ids match too
    assert [t.id for t in await memory.list_threads(resource_id=owner, limit=2, offset=1)] == [ids[3], ids[2]]

    renamed = await memory.rename_thread(ids[1], "Refund done")
    assert renamed.title == "Refund done"
    assert (await memory.list_threads(resource_id=owner))[0].id == ids[1]

    before = await table_counts(memory)
    assert await memory.delete_thread(ids[0]) is True  # its 3 messages go with it (ON DELETE CASCADE)
    assert await table_counts(memory) == {"threads": before["threads"] - 1, "messages": before["messages"] - 3}
    assert await memory.delete_thread(ids[0]) is False
    assert await memory.all_messages(ids[0]) == []


# --------------------------------------------------------------------------------------------- import/export
async def test_export_then_import_round_trips(memory: SqlMemory, new_postgres_url: str) -> None:
    thread = uid("t")
    p = uid("m")
    await memory.create_thread(thread, resource_id="u1", title="Round trip", metadata={"k": [1, 2]})
    await memory.save_messages(thread, [*conversation(3, p), rich_message(f"{p}-rich")], resource_id="u1")
    exported = await memory.export_thread(thread)

    async with SqlMemory(new_postgres_url) as other:  # another database: the ids are free there
        assert await other.import_thread(json.dumps(exported)) == thread
        assert await other.export_thread(thread) == exported
        assert await other.all_messages(thread) == await memory.all_messages(thread)


async def test_a_malformed_import_writes_nothing(memory: SqlMemory) -> None:
    thread = uid("t")
    p = uid("m")
    await memory.save_messages(uid("existing"), conversation(2, uid("e")))
    document: dict[str, Any] = {
        "version": 1,
        "thread": {"id": thread},
        "messages": [m.to_json() for m in conversation(4, p)],
    }
    document["messages"][3]["content"]["parts"][0].pop("text")
    before = await table_counts(memory)
    with pytest.raises(ThreadImportError, match=r"messages\[3\]\.content\.parts\[0\]\.text: Field required"):
        await memory.import_thread(document)
    assert await table_counts(memory) == before
    assert await memory.get_thread(thread) is None


async def test_an_import_that_collides_writes_nothing(memory: SqlMemory) -> None:
    thread = uid("t")
    p = uid("m")
    await memory.save_messages(uid("other"), [Message.user("taken", id=f"{p}3")])
    document = {"version": 1, "thread": {"id": thread}, "messages": [m.to_json() for m in conversation(4, p)]}
    before = await table_counts(memory)
    with pytest.raises(ThreadImportError, match="is already stored in another thread"):
        await memory.import_thread(document)
    assert await table_counts(memory) == before
    assert await memory.get_thread(thread) is None


# --------------------------------------------------------------------------------------------- an agent
async def test_an_agent_remembers_the_previous_turn(memory: SqlMemory) -> None:
    thread = uid("t")
    model = ScriptedModel(["Hello Ada!", "You are Ada."])
    agent = Agent(id="a", model=model, instructions="Be brief.", memory=memory)

    await agent.generate("I am Ada.", thread_id=thread, resource_id="u1")
    result = await agent.generate("Who am I?", thread_id=thread, resource_id="u1")

    assert result.text == "You are Ada."
    prompt = [(m["role"], m.get("content")) for m in model.requests[1].messages if m["role"] != "system"]
    assert prompt == [("user", "I am Ada."), ("assistant", "Hello Ada!"), ("user", "Who am I?")]
    assert [(m.role, m.text) for m in await memory.all_messages(thread)] == [
        ("user", "I am Ada."),
        ("assistant", "Hello Ada!"),
        ("user", "Who am I?"),
        ("assistant", "You are Ada."),
    ]


# --------------------------------------------------------------------------------------------- the studio
def event(run_id: str, index: int) -> TraceEvent:
    return TraceEvent(
        run_id=run_id,
        step_number=0,
        hook="process_input",
        processor_id=f"p{index}",
        processor_index=index,
        started_at=100.0 + index,
        ended_at=100.5 + index,
        outcome="passed",
        before="1 message",
        after="1 message",
        state={"n": index},
        detail=None,
        chunk_stats=None,
    )


async def test_the_studio_store_records_runs_traces_and_history(new_postgres_url: str) -> None:
    thread = uid("t")
    first, second = uid("r"), uid("r")
    async with Store(new_postgres_url) as store:
        started = await store.start_run(
            first, design_id="d1", thread_id=thread, model="scripted", design_json='{"v": 1}', input_text="hi"
        )
        assert started.outcome is None
        assert await store.memory.get_thread(thread) is not None  # created by its first run
        assert await store.add_trace_events(first, [event(first, 0), event(first, 1)]) == 2
        await store.add_violation(first, "p1", "blocked", {"why": "test"})
        await store.finish_run(
            first,
            outcome="finished",
            finish_reason="stop",
            usage={"inputTokens": 3, "outputTokens": 5, "totalTokens": 8},
        )
        await store.start_run(second, thread_id=thread)
        await store.finish_run(second, outcome="tripwire", tripwire={"reason": "nope", "processorId": "p0"})

        run = await store.get_run(first)
        assert run is not None
        assert (run.outcome, run.finish_reason, run.usage, run.tripwire, run.error, run.input_text) == (
            "finished",
            "stop",
            {"inputTokens": 3, "outputTokens": 5, "totalTokens": 8},
            None,
            None,
            "hi",
        )
        assert run.finished_at is not None and run.finished_at >= run.started_at

        records, events, violations = await store.thread_history(thread)
        assert [r.id for r in records] == [first, second]
        assert events[second] == []
        assert events[first] == [e.to_dict() for e in (event(first, 0), event(first, 1))]
        assert [(v.processor_id, v.message, v.detail) for v in violations[first]] == [
            ("p1", "blocked", {"why": "test"})
        ]
        assert [(t.run_id, t.reason, t.processor_id) for t in await store.tripwires_for_thread(thread)] == [
            (second, "nope", "p0")
        ]

        assert await store.memory.delete_thread(thread) is True  # its runs, traces and violations go with it
        assert await store.get_run(first) is None
        assert await store.trace_for_run(first) == []
        assert await store.violations_for_run(first) == []


# --------------------------------------------------------------------------------------------- concurrency
async def test_two_stores_write_side_by_side(postgres_url: str) -> None:
    """Two stores (two windows or processes) creating the same new threads and upserting the same message ids at
    once: writers take turns (as SQLite's ``BEGIN IMMEDIATE`` makes them) instead of failing on a unique key."""
    first, second = SqlMemory(postgres_url), SqlMemory(postgres_url)
    try:
        await first.open()
        await second.open()
        for _ in range(5):
            thread = uid("shared")
            p = uid("m")
            await asyncio.gather(
                *(
                    store.save_messages(thread, conversation(4, p if i % 2 else f"{p}{name}{i}-"))
                    for i in range(6)
                    for name, store in (("a", first), ("b", second))
                )
            )
            assert await first.count_messages(thread) == await second.count_messages(thread) == 4 * 6 + 4
    finally:
        await first.close()
        await second.close()


async def test_postgres_stores_lone_surrogates_replaced_and_reads_a_damaged_message_as_a_placeholder(
    memory: SqlMemory,
) -> None:
    from processors.memory.queries import UNREADABLE_TEXT
    from processors.messages.surrogates import REPLACEMENT

    thread = uid("t")
    first, second = Message.user("half \ud83d", id=uid("m")), Message.assistant("fine", id=uid("m"))
    await memory.create_thread(thread, title="title \udc00")
    await memory.save_messages(thread, [first, second])
    await memory.run_sync(
        lambda c: c.execute(
            sa.update(messages_table).where(messages_table.c.id == second.id).values(content="{broken")
        ),
        write=True,
    )
    shown = await memory.all_messages(thread)
    assert [m.text for m in shown] == [f"half {REPLACEMENT}", UNREADABLE_TEXT]
    assert (await memory.get_thread(thread)).title == f"title {REPLACEMENT}"  # type: ignore[union-attr]
