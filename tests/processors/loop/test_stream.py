"""``AgentStream.aclose()`` from anywhere: from another task while one iterates, before the first chunk, twice,
and from the iterating task itself. Each ends the iteration cleanly, closes the model's stream and leaves a result
(``finish_reason == "abort"``) with the turn saved. No test here measures time: each waits on an event."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest

from processors import Agent, AgentStream, StreamWriter, tool
from processors.chunks import AnyChunk
from processors.memory import SqlMemory
from processors.models import LiteLLMModel, ScriptedModel, ToolCall, Turn
from tests.processors.helpers import Fn, make_agent, streamed_text
from tests.support.openai_server import OpenAIServer

SLOW = Turn(text=[f"w{i} " for i in range(200)], delay=0.02)  # the consumer is always mid-stream when stopped


class Consumer:
    """A task that iterates a stream, with an event set once it has seen ``after`` text deltas."""

    def __init__(self, stream: AgentStream, after: int = 1) -> None:
        self.stream = stream
        self.after = after
        self.chunks: list[AnyChunk] = []
        self.started = asyncio.Event()
        self.task = asyncio.create_task(self._consume())

    async def _consume(self) -> str:
        async for chunk in self.stream:
            self.chunks.append(chunk)
            if sum(c.type == "text-delta" for c in self.chunks) >= self.after:
                self.started.set()
        return "ended cleanly"


async def test_aclose_from_another_task_ends_the_iteration_cleanly_and_leaves_a_result(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    model = ScriptedModel([SLOW])
    stream = Agent(id="a", model=model, memory=memory).stream("count", thread_id="t1")
    consumer = Consumer(stream, after=2)
    await consumer.started.wait()

    await stream.aclose()

    assert await consumer.task == "ended cleanly"  # not cancelled, no RuntimeError
    assert model.closed_early == 1
    result = await stream.result()
    assert result.finish_reason == "abort"
    seen = streamed_text(consumer.chunks)
    assert result.text == seen and seen.startswith("w0 w1 ")
    assert not any(c.type in ("finish", "error") for c in consumer.chunks)
    saved = await memory.all_messages("t1")  # aclose() returned after the save
    assert [(m.role, m.text) for m in saved] == [("user", "count"), ("assistant", seen)]
    assert [c async for c in stream] == []
    await memory.close()


async def test_aclose_from_another_task_without_asyncios_task_table(monkeypatch: pytest.MonkeyPatch) -> None:
    import processors.loop.stream

    monkeypatch.setattr(processors.loop.stream, "_CURRENT_TASKS", None)  # a Python without the private dict
    model = ScriptedModel([SLOW])
    stream = make_agent(model).stream("hi")
    consumer = Consumer(stream)
    await consumer.started.wait()

    await stream.aclose()

    assert await consumer.task == "ended cleanly"
    assert (await stream.result()).finish_reason == "abort"


async def test_aclose_twice_and_from_two_tasks_at_once_is_safe() -> None:
    model = ScriptedModel([SLOW])
    stream = make_agent(model).stream("hi")
    consumer = Consumer(stream)
    await consumer.started.wait()

    await asyncio.gather(stream.aclose(), stream.aclose())
    await stream.aclose()

    assert await consumer.task == "ended cleanly"
    assert model.closed_early == 1
    assert (await stream.result()).finish_reason == "abort"


async def test_aclose_before_iterating_leaves_an_empty_aborted_result() -> None:
    model = ScriptedModel(["never asked"])
    stream = make_agent(model).stream("hi")

    await stream.aclose()
    await stream.aclose()

    result = await stream.result()
    assert (result.finish_reason, result.text, result.steps) == ("abort", "", [])
    assert [c async for c in stream] == []
    assert model.requests == []


async def test_aclose_while_another_task_waits_for_the_first_chunk() -> None:
    model = ScriptedModel([Turn(text="late answer", delay=0.02)])
    stream = make_agent(model, memory=None).stream("hi")
    entered = asyncio.Event()

    async def consume() -> list[AnyChunk]:
        chunks = []
        entered.set()
        async for chunk in stream:
            chunks.append(chunk)
        return chunks

    task = asyncio.create_task(consume())
    await entered.wait()
    await _inside(stream)

    await stream.aclose()

    chunks = await task
    assert all(c.type not in ("finish", "error") for c in chunks)
    assert (await stream.result()).finish_reason == "abort"


async def test_aclose_from_the_iterating_task_between_chunks() -> None:
    model = ScriptedModel([SLOW])
    stream = make_agent(model).stream("hi")
    async for chunk in stream:
        if chunk.type == "text-delta":
            await stream.aclose()  # still inside the loop body: the generator is suspended, not running
    assert model.closed_early == 1
    result = await stream.result()
    assert (result.finish_reason, result.text) == ("abort", "w0 ")


async def test_a_cancellation_from_someone_else_is_never_swallowed() -> None:
    stream = make_agent(ScriptedModel([SLOW])).stream("hi")
    consumer = Consumer(stream)
    await consumer.started.wait()

    consumer.task.cancel()  # the owner cancels the task too: that must win
    await stream.aclose()

    with pytest.raises(asyncio.CancelledError):
        await consumer.task
    assert (await stream.result()).finish_reason == "abort"


async def test_result_while_closing_from_another_task_does_not_fail() -> None:
    stream = make_agent(ScriptedModel([SLOW])).stream("hi")
    consumer = Consumer(stream)
    await consumer.started.wait()

    closing = asyncio.create_task(stream.aclose())
    await consumer.task
    result = await stream.result()
    await closing

    assert result.finish_reason == "abort"


async def test_aclose_from_another_task_while_a_tool_runs_cancels_the_tool() -> None:
    cancelled = asyncio.Event()
    outcome: dict[str, bool] = {"finished": False}

    @tool
    async def slow(writer: StreamWriter) -> str:
        """A tool that waits until it is cancelled."""
        await writer.custom({"type": "data-started", "data": 1})
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise
        outcome["finished"] = True
        return "late"

    model = ScriptedModel([Turn(tool_calls=[ToolCall("slow", {}, id="c1")]), "never"])
    stream = make_agent(model, tools=[slow]).stream("hi")
    started = asyncio.Event()

    async def consume() -> str:
        async for chunk in stream:
            if chunk.type == "data-started":
                started.set()
        return "ended cleanly"

    task = asyncio.create_task(consume())
    await started.wait()

    await stream.aclose()

    assert await task == "ended cleanly"
    await cancelled.wait()
    assert outcome == {"finished": False}
    assert len(model.requests) == 1
    assert (await stream.result()).finish_reason == "abort"


async def test_a_second_iterating_task_gets_a_clear_error() -> None:
    stream = make_agent(ScriptedModel([SLOW])).stream("hi")
    consumer = Consumer(stream)
    await consumer.started.wait()
    await _inside(stream)  # deltas are paced, so the consumer soon waits inside __anext__

    with pytest.raises(RuntimeError, match="being iterated by another task"):
        await stream.__anext__()

    await stream.aclose()
    assert await consumer.task == "ended cleanly"


async def test_a_processor_that_swallows_the_cancellation_still_lets_the_iteration_end() -> None:
    entered = asyncio.Event()

    async def stubborn(args: Any) -> Any:
        if args.part.type == "text-delta" and args.part.payload.text == "w1 ":
            entered.set()
            with contextlib.suppress(asyncio.CancelledError):  # a badly written processor
                await asyncio.Event().wait()
        return args.part

    stream = make_agent(
        ScriptedModel([SLOW]), output_processors=[Fn("stubborn", process_output_stream=stubborn)]
    ).stream("hi")
    left_cancelling: list[int] = []

    async def consume() -> str:
        async for _chunk in stream:
            pass
        left_cancelling.append(asyncio.current_task().cancelling())  # type: ignore[union-attr]
        return "ended cleanly"

    task = asyncio.create_task(consume())
    await entered.wait()

    await stream.aclose()

    assert await task == "ended cleanly"
    assert left_cancelling == [0]  # the cancellation aclose() asked for was taken back
    result = await stream.result()
    assert (result.finish_reason, result.text) == ("abort", "w0 w1 ")


# --- over real litellm and HTTP -----------------------------------------------------------------------------------


async def test_aclose_from_another_task_closes_the_http_stream(openai_server: OpenAIServer, tmp_path: Path) -> None:
    openai_server.reply_text(*[f"w{i} " for i in range(200)], delay=0.02)
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")
    stream = Agent(id="a", model=model, memory=memory).stream("count", thread_id="t1")
    consumer = Consumer(stream, after=2)
    await consumer.started.wait()

    await stream.aclose()

    assert await consumer.task == "ended cleanly"
    assert await openai_server.async_wait_until(lambda s: s.abandoned_streams == 1)
    result = await stream.result()
    assert result.finish_reason == "abort"
    seen = streamed_text(consumer.chunks)
    assert result.text == seen and seen.startswith("w0 w1 ")
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "count"), ("assistant", seen)]
    await memory.close()


async def test_aclose_from_another_task_before_the_response_starts(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("late", headers_delay=30)
    model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")
    stream = Agent(id="a", model=model).stream("hi")
    task = asyncio.create_task(_drain(stream))
    assert await openai_server.async_wait_until(lambda s: len(s.requests) == 1, within=30)

    await stream.aclose()

    assert await task == ["start", "step-start"]
    assert await openai_server.async_wait_until(lambda s: s.abandoned_streams == 1)
    assert (await stream.result()).finish_reason == "abort"


async def _drain(stream: AgentStream) -> list[str]:
    return [chunk.type async for chunk in stream]


async def _inside(stream: AgentStream) -> None:
    """Wait until a task is inside the stream's ``__anext__`` (the run's generator is running for it)."""
    while stream._consumer is None:
        await asyncio.sleep(0)
