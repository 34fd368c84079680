"""The turn is saved before the terminal chunk is handed out, and a stopped run keeps what the user saw."""

from __future__ import annotations

from pathlib import Path

from processors import Agent
from processors.memory import SqlMemory
from processors.models import ScriptedModel, Turn


async def test_a_client_that_stops_at_finish_finds_the_turn_saved(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 't.db'}")
    agent = Agent(id="a", model=ScriptedModel(["Hello there."]), memory=memory)
    async for chunk in agent.stream("hi", thread_id="t1"):
        if chunk.type == "finish":
            break
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "hi"), ("assistant", "Hello there.")]
    await memory.close()


async def test_a_stopped_run_keeps_the_question_and_the_partial_answer(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 't.db'}")
    model = ScriptedModel([Turn(text="one two three four five six", delay=0.02)])
    agent = Agent(id="a", model=model, memory=memory)
    stream = agent.stream("count", thread_id="t1")
    async for chunk in stream:
        if chunk.type == "text-delta":
            break
    await stream.aclose()  # returns once the stopped run's turn is saved
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "count"), ("assistant", "one ")]
    result = await stream.result()
    assert result.finish_reason == "abort"
    assert result.text == "one "
    assert model.closed_early == 1
    await memory.close()
