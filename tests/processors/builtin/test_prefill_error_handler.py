"""PrefillErrorHandler: one retry, with a "continue" reminder, when a provider refuses assistant prefill."""

from __future__ import annotations

import pytest

from processors import Agent
from processors.builtin.prefill_error_handler import REMINDER, PrefillErrorHandler
from processors.errors import ModelAPIError
from processors.memory.base import InMemoryMemory
from processors.models import ScriptedModel, Turn

PREFILL = "This model does not support assistant message prefill. The conversation must end with a user message."
ENDS_ON_ASSISTANT = [{"role": "user", "content": "Write a haiku"}, {"role": "assistant", "content": "Autumn"}]


async def test_retries_once_with_a_reminder_that_is_not_saved() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(400, PREFILL, False)), "leaves fall softly"])
    memory = InMemoryMemory()
    agent = Agent(id="a", model=model, memory=memory, error_processors=[PrefillErrorHandler()])
    result = await agent.generate(ENDS_ON_ASSISTANT, thread_id="t")
    assert result.text == "leaves fall softly" and result.finish_reason == "stop"
    assert len(model.requests) == 2
    assert model.requests[0].messages[-1]["role"] == "assistant"
    assert model.requests[1].messages[-1] == {"role": "user", "content": REMINDER}
    assert all(REMINDER not in m.text for m in await memory.load_messages("t"))


@pytest.mark.parametrize(
    "message",
    [
        "assistant response prefill is incompatible with enable_thinking",
        "Requests ending with a model turn are not supported by this model",
    ],
)
async def test_recognises_every_prefill_refusal(message: str) -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(400, message, False)), "ok"])
    result = await Agent(id="a", model=model, error_processors=[PrefillErrorHandler()]).generate(ENDS_ON_ASSISTANT)
    assert result.text == "ok"


async def test_the_body_and_the_cause_chain_are_searched() -> None:
    cause = ModelAPIError(400, "bad request", False, body={"error": {"message": PREFILL}})
    wrapped = ModelAPIError(400, "provider error", False)
    wrapped.__cause__ = cause
    assert PrefillErrorHandler.is_prefill_error(wrapped)
    assert not PrefillErrorHandler.is_prefill_error(ModelAPIError(400, "context length exceeded", False))


async def test_only_the_first_failure_is_retried_and_other_errors_are_left_alone() -> None:
    refusal = Turn(error=ModelAPIError(400, PREFILL, False))
    twice = ScriptedModel([refusal, refusal])
    result = await Agent(id="a", model=twice, error_processors=[PrefillErrorHandler()]).generate(ENDS_ON_ASSISTANT)
    assert len(twice.requests) == 2 and result.finish_reason == "error"

    other = ScriptedModel([Turn(error=ModelAPIError(500, "boom", True)), "ok"])
    result = await Agent(id="a", model=other, error_processors=[PrefillErrorHandler()]).generate("hi")
    assert len(other.requests) == 1 and result.finish_reason == "error"
