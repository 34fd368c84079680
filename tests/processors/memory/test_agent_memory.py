"""An Agent with SqlMemory: what it remembers, and what it saves once every processor has run."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from processors import Agent, Processor
from processors.memory import SqlMemory
from processors.messages import DataPart
from processors.models import ScriptedModel


@pytest.fixture
async def memory(tmp_path: Path) -> AsyncIterator[SqlMemory]:
    store = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    yield store
    await store.close()


def chat(messages: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """A prompt as (role, content) pairs, without the system messages."""
    return [(m["role"], m.get("content")) for m in messages if m["role"] != "system"]


async def test_the_second_call_remembers_the_first_turn(memory: SqlMemory) -> None:
    model = ScriptedModel(["Hello Ada!", "You are Ada."])
    agent = Agent(id="a", model=model, instructions="Be brief.", memory=memory)

    await agent.generate("I am Ada.", thread_id="t1", resource_id="u1")
    result = await agent.generate("Who am I?", thread_id="t1", resource_id="u1")

    assert result.text == "You are Ada."
    assert chat(model.requests[0].messages) == [("user", "I am Ada.")]
    assert chat(model.requests[1].messages) == [
        ("user", "I am Ada."),
        ("assistant", "Hello Ada!"),
        ("user", "Who am I?"),
    ]
    stored = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in stored] == [
        ("user", "I am Ada."),
        ("assistant", "Hello Ada!"),
        ("user", "Who am I?"),
        ("assistant", "You are Ada."),
    ]
    thread = await memory.get_thread("t1")
    assert thread is not None
    assert thread.resource_id == "u1"


async def test_the_remembered_messages_are_the_memory_source(memory: SqlMemory) -> None:
    seen: dict[str, list[str]] = {}

    class Peek(Processor):
        id = "peek"

        def process_input(self, args: Any) -> Any:
            seen["remembered"] = [m.text for m in args.message_list.get.remembered.db()]
            seen["input"] = [m.text for m in args.message_list.get.input.db()]
            return args.messages

    agent = Agent(id="a", model=ScriptedModel(["one", "two"]), memory=memory, input_processors=[Peek()])
    await agent.generate("first", thread_id="t1")
    await agent.generate("second", thread_id="t1")
    assert seen == {"remembered": ["first", "one"], "input": ["second"]}


async def test_last_messages_is_honoured(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}", last_messages=2)
    try:
        model = ScriptedModel(["a1", "a2", "a3"])
        agent = Agent(id="a", model=model, memory=memory)
        for text in ("q1", "q2", "q3"):
            await agent.generate(text, thread_id="t1")
        assert chat(model.requests[2].messages) == [("user", "q2"), ("assistant", "a2"), ("user", "q3")]
        assert await memory.count_messages("t1") == 6  # all are stored; only the last two are remembered
    finally:
        await memory.close()


async def test_transient_data_chunks_are_streamed_but_not_saved(memory: SqlMemory) -> None:
    class Progress(Processor):
        id = "progress"

        def process_output_step(self, args: Any) -> Any:
            args.writer.custom({"type": "data-progress", "data": {"percent": 50}, "transient": True})
            args.writer.custom({"type": "data-citation", "data": {"url": "https://example.org"}, "id": "c1"})
            return []

    agent = Agent(id="a", model=ScriptedModel(["Answer."]), memory=memory, output_processors=[Progress()])
    stream = agent.stream("question", thread_id="t1")
    kinds = [chunk.type async for chunk in stream]
    await stream.result()
    assert "data-progress" in kinds
    assert "data-citation" in kinds

    stored = await memory.all_messages("t1")
    data_parts = [p for m in stored for p in m.content.parts if isinstance(p, DataPart)]
    assert [(p.type, p.data, p.id) for p in data_parts] == [("data-citation", {"url": "https://example.org"}, "c1")]
    assert [m.text for m in stored if m.role == "assistant"] == ["Answer."]


async def test_the_response_is_saved_as_the_processors_left_it(memory: SqlMemory) -> None:
    class Redact(Processor):
        id = "redact"

        def process_output_result(self, args: Any) -> Any:
            return [
                m.with_text(m.text.replace("1234", "[card]")) if m.role == "assistant" else m for m in args.messages
            ]

    agent = Agent(id="a", model=ScriptedModel(["Your card is 1234."]), memory=memory, output_processors=[Redact()])
    await agent.generate("my card?", thread_id="t1")
    stored = await memory.all_messages("t1")
    assert [m.text for m in stored] == ["my card?", "Your card is [card]."]


async def test_a_tripwire_in_process_output_result_saves_no_response(memory: SqlMemory) -> None:
    class RejectAnswer(Processor):
        id = "reject-answer"

        def process_output_result(self, args: Any) -> Any:
            args.abort("answer leaks a secret")

    model = ScriptedModel(["The secret is 42.", "I cannot say."])
    agent = Agent(id="a", model=model, memory=memory, output_processors=[RejectAnswer()])
    result = await agent.generate("what is the secret?", thread_id="t1")
    assert result.tripwire is not None
    assert result.tripwire.reason == "answer leaks a secret"

    stored = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in stored] == [("user", "what is the secret?")]
    later = Agent(id="a", model=model, memory=memory)
    await later.generate("and now?", thread_id="t1")
    assert "The secret is 42." not in str(model.requests[1].messages)


async def test_a_tripwire_in_process_input_saves_nothing(memory: SqlMemory) -> None:
    class BlockSecrets(Processor):
        id = "block-secrets"

        def process_input(self, args: Any) -> Any:
            if "password" in args.messages[-1].text:
                args.abort("password in input")
            return args.messages

    agent = Agent(id="a", model=ScriptedModel(["ok"]), memory=memory, input_processors=[BlockSecrets()])
    result = await agent.generate("my password is hunter2", thread_id="t1")
    assert result.tripwire is not None
    assert await memory.count_messages("t1") == 0
