"""A damaged row costs that row: real SQLite files corrupted by raw ``UPDATE``s, read back through the store."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from processors import Agent
from processors.memory import SqlMemory
from processors.memory.queries import UNREADABLE_TEXT, is_unreadable
from processors.memory.schema import UNREADABLE_TIME
from processors.messages import Message
from processors.models import ScriptedModel
from studio.store.database import Store


def corrupt(path: Path, sql: str, *params: object) -> int:
    """Run a raw statement on the file, outside the store (as a disk error or a hand edit would)."""
    with closing(sqlite3.connect(path)) as connection:
        changed = connection.execute(sql, params).rowcount
        connection.commit()
    return changed


async def three_messages(memory: SqlMemory) -> list[Message]:
    messages = [Message.user("first"), Message.assistant("second"), Message.user("third")]
    await memory.save_messages("t1", messages)
    return messages


async def test_a_message_whose_content_is_not_json_is_a_placeholder_and_the_rest_reads(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "threads.db"
    async with SqlMemory(f"sqlite:///{path}") as memory:
        first, second, third = await three_messages(memory)
    assert corrupt(path, "UPDATE messages SET content = '{broken' WHERE id = ?", second.id) == 1

    async with SqlMemory(f"sqlite:///{path}") as memory:
        with caplog.at_level(logging.ERROR):
            shown = await memory.all_messages("t1")
        remembered = await memory.load_messages("t1")

    assert [m.id for m in shown] == [first.id, second.id, third.id]
    assert [m.text for m in shown] == ["first", UNREADABLE_TEXT, "third"]
    assert [is_unreadable(m) for m in shown] == [False, True, False]
    assert shown[1].role == "assistant"
    assert "could not be read" in caplog.text and second.id in caplog.text
    assert "broken" not in caplog.text  # the log names the row, not its (possibly private) text
    # an agent is not fed a notice about damaged data: it remembers the readable messages only
    assert [m.id for m in remembered] == [first.id, third.id]


async def test_content_of_the_wrong_shape_and_an_unknown_role_are_placeholders_too(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    async with SqlMemory(f"sqlite:///{path}") as memory:
        first, _, third = await three_messages(memory)
    corrupt(path, "UPDATE messages SET content = '{\"parts\": 5}' WHERE id = ?", first.id)
    corrupt(path, "UPDATE messages SET role = 'robot' WHERE id = ?", third.id)

    async with SqlMemory(f"sqlite:///{path}") as memory:
        shown = await memory.all_messages("t1")
    assert [m.text for m in shown] == [UNREADABLE_TEXT, "second", UNREADABLE_TEXT]
    assert shown[2].role == "assistant"  # a role that is no role cannot be kept; the placeholder still shows


async def test_an_unreadable_time_reads_as_the_epoch_and_the_thread_still_lists(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    async with SqlMemory(f"sqlite:///{path}") as memory:
        _, second, _ = await three_messages(memory)
    corrupt(path, "UPDATE messages SET created_at = 'yesterday' WHERE id = ?", second.id)
    corrupt(path, "UPDATE threads SET metadata = 'not json', updated_at = 'soon'")

    async with SqlMemory(f"sqlite:///{path}") as memory:
        shown = await memory.all_messages("t1")
        threads = await memory.list_threads()
    assert [m.text for m in shown] == ["first", "second", "third"]
    assert shown[1].created_at == UNREADABLE_TIME
    assert [(t.id, t.metadata, t.updated_at) for t in threads] == [("t1", {}, UNREADABLE_TIME)]


async def test_an_agent_keeps_talking_on_a_thread_with_a_damaged_message(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    async with SqlMemory(f"sqlite:///{path}") as memory:
        _, second, _ = await three_messages(memory)
    corrupt(path, "UPDATE messages SET content = 'garbage' WHERE id = ?", second.id)

    model = ScriptedModel(["still here"])
    async with SqlMemory(f"sqlite:///{path}") as memory:
        agent = Agent(id="a", model=model, memory=memory)
        result = await agent.generate("fourth", thread_id="t1")
        shown = await memory.all_messages("t1")
    assert result.text == "still here"
    sent = [m["content"] for m in model.requests[0].messages if m["role"] != "system"]
    assert sent == ["first", "third", "fourth"]
    assert [m.text for m in shown] == ["first", UNREADABLE_TEXT, "third", "fourth", "still here"]
    # the damaged row itself is left as it was: nothing overwrote it with the placeholder
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("SELECT content FROM messages WHERE id = ?", (second.id,)).fetchone() == ("garbage",)


async def test_a_run_whose_usage_or_tripwire_is_not_json_reads_with_those_fields_unreadable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "studio.db"
    async with Store(f"sqlite:///{path}") as store:
        await store.start_run("r1", thread_id="t1", model="demo")
        await store.finish_run("r1", outcome="finished", finish_reason="stop", usage={"inputTokens": 3})
        await store.start_run("r2", thread_id="t1", model="demo")
        await store.finish_run(
            "r2",
            outcome="tripwire",
            finish_reason="other",
            usage={"inputTokens": 4},
            tripwire={"reason": "no", "processorId": "p"},
        )
        await store.add_violation("r2", "p", "no", detail={"k": 1})
    corrupt(path, "UPDATE runs SET usage = '{bad' WHERE id = 'r1'")
    corrupt(path, "UPDATE runs SET tripwire = '[1,' WHERE id = 'r2'")
    corrupt(path, "UPDATE violations SET detail = 'nope'")

    async with Store(f"sqlite:///{path}") as store:
        with caplog.at_level(logging.ERROR):
            runs, events, violations = await store.thread_history("t1")
        tripwires = await store.tripwires_for_thread("t1")
        single = await store.get_run("r1")

    assert [(r.id, r.usage, r.unreadable) for r in runs] == [
        ("r1", None, ("usage",)),
        ("r2", {"inputTokens": 4}, ("tripwire",)),
    ]
    assert runs[1].tripwire is None and runs[1].outcome == "tripwire"  # the rest of the row is there
    assert single is not None and single.unreadable == ("usage",)
    assert tripwires == []
    assert [(v.message, v.detail) for v in violations["r2"]] == [("no", {})]
    assert events == {"r1": [], "r2": []}
    assert "could not be read" in caplog.text
