"""The lab benchmark's asyncio server (``tests/bench/sse_server.py``) answers what the test suite's server answers
for the benchmark's reply, as litellm reads it: the benchmark's figures may use either."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from processors import ModelAPIError
from processors.models import LiteLLMModel
from processors.models.base import ModelRequest
from tests.bench.sse_server import DELAY, REPLY, BenchServer
from tests.support.openai_server import OpenAIServer


async def events(base_url: str) -> list[Any]:
    model = LiteLLMModel("openai/bench-model", api_base=base_url, api_key="sk-local")
    request = ModelRequest(messages=[{"role": "user", "content": "hello"}])
    return [event async for event in model.stream(request)]


def comparable(stream: list[Any]) -> list[Any]:
    """The events without the response id (each server makes its own)."""

    def fields(event: Any) -> dict[str, Any]:
        names = [name for cls in type(event).__mro__ for name in getattr(cls, "__slots__", ())]
        return {name: repr(getattr(event, name, None)) for name in names if name not in ("id", "response_id")}

    return [(type(event).__name__, fields(event)) for event in stream]


async def test_the_bench_server_streams_what_the_test_server_streams(openai_server: OpenAIServer) -> None:
    openai_server.reply_text(*REPLY, headers_delay=DELAY)
    expected = await events(openai_server.base_url)
    server = await BenchServer().start()
    try:
        got = await events(server.base_url)
        again = await events(server.base_url)  # a second call on the kept-alive connection
    finally:
        await server.stop()
    assert comparable(got) == comparable(expected) == comparable(again)
    assert "".join(getattr(event, "text", "") for event in got) == "".join(REPLY)
    assert server.requests == 2 and server.limited == 0


async def test_the_bench_servers_rate_limit_window_answers_429_with_retry_after_at_once() -> None:
    """As the test server's error replies: no delay before a 429 (a refused call does not wait 200 ms)."""
    server = await BenchServer(delay=0.0, limit_after=2, limit_seconds=60).start()
    try:
        assert await events(server.base_url)
        server.delay = 3600.0  # an answer would never come in time: the 429 must not wait for it
        with pytest.raises(ModelAPIError) as refused:
            await asyncio.wait_for(events(server.base_url), 60)
    finally:
        await server.stop()
    assert refused.value.status_code == 429 and refused.value.retry_after == 1.0 and refused.value.retryable
    assert "slow down" in str(refused.value)
    assert server.requests == 2 and server.limited == 1
