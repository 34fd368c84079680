"""A model adapter that raises something other than ``ModelAPIError`` (a custom ``LanguageModel`` with a bug, a
provider library failing unexpectedly) is a failed model call: the stream ends with an ``error`` chunk naming the
model and what happened, the turn is saved, ``result()`` works, and error processors are asked as for API errors.
Cancellation is never turned into an error."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from processors import Agent, ModelAdapterError, ModelAPIError
from processors.memory import SqlMemory
from processors.models.base import Finish, ModelEvent, ModelRequest, TextDelta
from tests.processors.helpers import Fn, kinds, make_agent, run_stream, terminal_count


class Flaky:
    """A hand-written ``LanguageModel``: streams ``words``, then raises ``error`` (or finishes when it is None)."""

    provider = "custom"

    def __init__(self, words: list[str], error: BaseException | None, model_id: str = "custom/flaky") -> None:
        self.model_id = model_id
        self.words = words
        self.error = error
        self.calls = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        self.calls += 1
        for word in self.words:
            yield TextDelta(word)
        if self.error is not None:
            raise self.error
        yield Finish("stop")


class Eager:
    """A ``LanguageModel`` whose ``stream()`` is a plain method that fails before returning an iterator."""

    provider = "custom"
    model_id = "custom/eager"

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        raise KeyError("api_base")


class NotAnIterator:
    """A ``LanguageModel`` whose ``stream()`` returns a list: a programming error in the adapter."""

    provider = "custom"
    model_id = "custom/list"

    def stream(self, request: ModelRequest) -> Any:
        return [TextDelta("hi")]


async def test_a_mid_stream_exception_ends_with_an_error_chunk_and_the_turn_is_saved(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    model = Flaky(["Part", "ial "], ValueError("unexpected token in provider reply"))
    agent = Agent(id="a", model=model, memory=memory)

    chunks, result = await run_stream(agent, "hi", thread_id="t1")

    assert terminal_count(chunks) == 1 and chunks[-1].type == "error", kinds(chunks)
    payload = chunks[-1].payload.error  # type: ignore[union-attr]
    assert payload["modelId"] == "custom/flaky"
    assert payload["exception"] == "ValueError"
    assert payload["message"] == (
        "the model adapter for 'custom/flaky' raised ValueError: unexpected token in provider reply"
    )
    assert result.finish_reason == "error"
    assert result.error == f"Model call failed: {payload['message']}"
    assert result.text == "Partial "
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "hi"), ("assistant", "Partial ")]
    error_part = saved[-1].content.parts[-1]
    assert error_part.type == "error"
    assert "ValueError: unexpected token" in error_part.error.message  # type: ignore[union-attr]
    await memory.close()


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (Flaky([], RuntimeError("boom")), "the model adapter for 'custom/flaky' raised RuntimeError: boom"),
        (Eager(), "the model adapter for 'custom/eager' raised KeyError: 'api_base'"),
        (NotAnIterator(), "the model adapter for 'custom/list' raised TypeError: "),
    ],
    ids=["before-any-event", "stream-raises", "not-an-async-iterator"],
)
async def test_an_adapter_failing_before_any_event_ends_with_an_error_chunk(model: Any, expected: str) -> None:
    chunks, result = await run_stream(make_agent(model))

    assert terminal_count(chunks) == 1 and chunks[-1].type == "error", kinds(chunks)
    assert chunks[-1].payload.error["message"].startswith(expected)  # type: ignore[union-attr]
    assert result.finish_reason == "error"
    assert result.text == ""
    assert (await make_agent(Flaky([], RuntimeError("x"))).generate("again")).finish_reason == "error"


async def test_error_processors_see_it_as_a_model_api_error_with_the_original_as_cause() -> None:
    seen: list[BaseException] = []

    def retry_once(args: Any) -> Any:
        seen.append(args.error)
        return {"retry": True} if args.retry_count == 0 else None

    model = Flaky(["ok"], OSError("socket is gone"))
    agent = make_agent(model, error_processors=[Fn("retry", process_api_error=retry_once)])

    chunks, result = await run_stream(agent)

    assert len(seen) == 2 and model.calls == 2  # asked after each failure; retried once
    error = seen[0]
    assert isinstance(error, ModelAdapterError) and isinstance(error, ModelAPIError)
    assert isinstance(error.__cause__, OSError)
    assert (error.status_code, error.retryable, error.provider) == (None, False, "custom")
    assert chunks[-1].type == "error"
    assert [s.finish_reason for s in result.steps] == ["retry", "error"]


async def test_a_retried_adapter_failure_can_succeed() -> None:
    class FailsOnce(Flaky):
        async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
            self.error = RuntimeError("first call broke") if self.calls == 0 else None
            async for event in super().stream(request):
                yield event

    model = FailsOnce(["fine"], None)
    agent = make_agent(model, error_processors=[Fn("retry", process_api_error=lambda a: {"retry": True})])

    _chunks, result = await run_stream(agent)

    assert (result.finish_reason, result.text, model.calls) == ("stop", "fine", 2)


async def test_cancellation_raised_by_the_adapter_is_never_turned_into_an_error() -> None:
    agent = make_agent(Flaky(["a"], asyncio.CancelledError()))
    with pytest.raises(asyncio.CancelledError):
        await agent.generate("hi")


async def test_keyboard_interrupt_from_the_adapter_is_not_swallowed() -> None:
    agent = make_agent(Flaky([], KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        await agent.generate("hi")


async def test_a_history_that_cannot_be_loaded_ends_with_an_error_chunk_and_changes_nothing(tmp_path: Path) -> None:
    """The stream's contract holds when memory fails: ``start`` then one ``error`` naming the failure, no model
    call, and the damaged database left as it was (nothing saved)."""
    path = tmp_path / "threads.db"
    path.write_bytes(b"this is not a database, it is a text file with enough bytes to look like one" * 20)
    before = path.read_bytes()
    memory = SqlMemory(f"sqlite:///{path}")
    model = Flaky(["never"], None)
    agent = Agent(id="a", model=model, memory=memory)

    chunks, result = await run_stream(agent, "hi", thread_id="t1")
    await memory.close()

    assert kinds(chunks) == ["start", "error"]
    payload = chunks[-1].payload.error  # type: ignore[union-attr]
    assert payload["name"] == "DatabaseCorruptError"
    assert payload["message"].startswith("The conversation's history could not be loaded: DatabaseCorruptError: ")
    assert str(path) in payload["message"]
    assert result.finish_reason == "error" and result.error == payload["message"]
    assert model.calls == 0
    assert path.read_bytes() == before


async def test_input_the_run_cannot_use_ends_with_one_error_chunk_not_a_raw_exception() -> None:
    model = Flaky(["never"], None)
    agent = Agent(id="a", model=model)

    chunks, result = await run_stream(agent, 42)  # not a message, a list of them or text

    assert kinds(chunks) == ["start", "error"]
    payload = chunks[-1].payload.error  # type: ignore[union-attr]
    assert payload["name"] == "TypeError"
    assert payload["message"] == "The run failed: TypeError: 'int' object is not iterable"
    assert result.finish_reason == "error" and model.calls == 0
