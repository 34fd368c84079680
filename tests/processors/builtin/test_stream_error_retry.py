"""StreamErrorRetry: transient failures are retried (Retry-After honoured, capped); 401/403 never are."""

from __future__ import annotations

import time
from typing import Any

import pytest

from processors import Agent
from processors.builtin.base import InvalidOptionsError
from processors.builtin.stream_error_retry import StreamErrorRetry
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, Turn


async def run(retry: StreamErrorRetry, *turns: Any) -> tuple[Any, ScriptedModel]:
    model = ScriptedModel(list(turns))
    result = await Agent(id="a", model=model, error_processors=[retry]).generate("hi")
    return result, model


async def test_a_rate_limit_is_retried_after_its_retry_after() -> None:
    started = time.monotonic()
    result, model = await run(
        StreamErrorRetry(), Turn(error=ModelAPIError(429, "slow down", True, retry_after=0.05)), "ok"
    )
    assert result.text == "ok" and len(model.requests) == 2
    assert time.monotonic() - started >= 0.05


async def test_retry_after_is_capped() -> None:
    retry = StreamErrorRetry(max_retry_after_ms=10)
    result, _ = await run(retry, Turn(error=ModelAPIError(429, "slow down", True, retry_after=30)), "ok")
    assert result.text == "ok"
    assert retry.delay_seconds(ModelAPIError(429, "x", True, retry_after=30), 0) == 0.01


@pytest.mark.parametrize("status", [401, 403])
async def test_auth_failures_are_never_retried(status: int) -> None:
    retry = StreamErrorRetry(delay_ms=0, retry_unknown_errors=True, matchers=["denied"])
    result, model = await run(retry, Turn(error=ModelAPIError(status, "denied", True)), "ok")
    assert len(model.requests) == 1 and result.finish_reason == "error"


async def test_invalid_key_messages_are_terminal_whatever_the_status() -> None:
    retry = StreamErrorRetry(delay_ms=0, retry_unknown_errors=True)
    assert not retry.should_retry(ModelAPIError(400, "Incorrect API key provided: sk-...", True))


async def test_the_budget_is_max_retries() -> None:
    failure = Turn(error=ModelAPIError(503, "overloaded", True))
    result, model = await run(StreamErrorRetry(max_retries=2, delay_ms=0), failure, failure, failure, "late")
    assert len(model.requests) == 3 and result.finish_reason == "error"


async def test_a_dropped_stream_is_retried() -> None:
    dropped = Turn(text="partial answer that", error=ModelAPIError(None, "socket hang up", False), error_after=2)
    result, model = await run(StreamErrorRetry(delay_ms=0), dropped, "complete answer")
    assert len(model.requests) == 2 and result.text == "complete answer"


async def test_unknown_errors_need_a_matcher_or_the_option() -> None:
    odd = Turn(error=ModelAPIError(400, "quota bucket empty", False))
    result, model = await run(StreamErrorRetry(delay_ms=0), odd, "ok")
    assert len(model.requests) == 1 and result.finish_reason == "error"
    result, model = await run(StreamErrorRetry(delay_ms=0, matchers=["quota bucket"]), odd, "ok")
    assert result.text == "ok"
    result, model = await run(StreamErrorRetry(delay_ms=0, retry_unknown_errors=True), odd, "ok")
    assert result.text == "ok"


def test_backoff_grows_and_is_capped() -> None:
    retry = StreamErrorRetry(delay_ms=100, backoff=3, max_delay_ms=500)
    error = ModelAPIError(500, "boom", True)
    assert [retry.delay_seconds(error, n) for n in range(3)] == [0.1, 0.3, 0.5]


@pytest.mark.parametrize(
    ("options", "field"),
    [({"max_retries": -1}, "max_retries"), ({"delay_ms": -5}, "delay_ms"), ({"matchers": ["(bad"]}, "matchers")],
)
def test_bad_options_name_the_field(options: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptionsError, match=field):
        StreamErrorRetry(**options)
