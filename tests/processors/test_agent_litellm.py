"""The whole pipeline over real litellm and HTTP: an Agent with LiteLLMModel against the local SSE server."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from processors import Agent, ProcessAPIErrorArgs, Processor, ProcessOutputStreamArgs, tool
from processors.memory import SqlMemory
from processors.models import LiteLLMModel
from tests.support.openai_server import OpenAIServer, ToolCallReply


@tool
def get_weather(city: str) -> dict[str, Any]:
    """Get the weather.

    Args:
        city: The city.
    """
    return {"city": city, "sky": "clear"}


class Shout(Processor):
    id = "shout"

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> Any:
        if args.part.type == "text-delta":
            return args.part.with_payload(text=args.part.payload.text.upper())  # type: ignore[union-attr]
        return args.part


class RetryTransient(Processor):
    id = "retry-transient"

    def __init__(self) -> None:
        self.seen: list[tuple[int | None, bool, float | None]] = []

    def process_api_error(self, args: ProcessAPIErrorArgs) -> Any:
        error = args.error
        self.seen.append((error.status_code, error.retryable, error.retry_after))  # type: ignore[attr-defined]
        return {"retry": bool(error.retryable)}  # type: ignore[attr-defined]


def model(server: OpenAIServer) -> LiteLLMModel:
    return LiteLLMModel("openai/test-model", api_base=server.base_url, api_key="sk-test")


async def test_tool_round_trip_over_http(openai_server: OpenAIServer) -> None:
    openai_server.reply_tool_calls(ToolCallReply("get_weather", ['{"ci', 'ty": "Oslo"}'], id="call_1"))
    openai_server.reply_text("It is ", "clear in Oslo.")
    agent = Agent(
        id="a", model=model(openai_server), instructions="Be brief.", tools=[get_weather], output_processors=[Shout()]
    )

    result = await agent.generate("Weather in Oslo?")

    assert result.text == "IT IS CLEAR IN OSLO."
    assert result.finish_reason == "stop"
    assert [s.finish_reason for s in result.steps] == ["tool-calls", "stop"]
    assert result.steps[0].tool_results == [
        {"tool_call_id": "call_1", "tool_name": "get_weather", "result": {"city": "Oslo", "sky": "clear"}}
    ]
    first, second = openai_server.requests
    assert first["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Oslo?"},
    ]
    assert first["tools"][0]["function"]["name"] == "get_weather"
    assert second["messages"][2:] == [
        {
            "role": "assistant",
            "tool_calls": [  # litellm leaves out the empty content
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '{"city": "Oslo", "sky": "clear"}'},
    ]


async def test_a_429_is_retried_by_an_error_processor(openai_server: OpenAIServer) -> None:
    openai_server.reply_error(429, "slow down", type="rate_limit_error", headers={"Retry-After": "2"})
    openai_server.reply_text("fine")
    retry = RetryTransient()
    agent = Agent(id="a", model=model(openai_server), error_processors=[retry])

    result = await agent.generate("hi")

    assert result.text == "fine"
    assert retry.seen == [(429, True, 2.0)]
    assert len(openai_server.requests) == 2
    assert [s.finish_reason for s in result.steps] == ["retry", "stop"]


async def test_a_401_ends_the_run_with_a_readable_error_chunk(openai_server: OpenAIServer) -> None:
    openai_server.reply_error(401, "Incorrect API key provided", type="invalid_request_error")
    retry = RetryTransient()
    agent = Agent(id="a", model=model(openai_server), error_processors=[retry])

    stream = agent.stream("hi")
    chunks = [chunk async for chunk in stream]
    result = await stream.result()

    assert chunks[-1].type == "error"
    assert chunks[-1].to_wire()["payload"]["error"]["statusCode"] == 401
    assert result.finish_reason == "error"
    assert "Incorrect API key provided" in (result.error or "")
    assert len(openai_server.requests) == 1  # not retryable: the error processor declined


async def test_a_captive_portal_page_ends_the_run_with_an_error_not_an_empty_answer(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.reply_html()
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    retry = RetryTransient()
    agent = Agent(id="a", model=model(openai_server), error_processors=[retry], memory=memory)

    stream = agent.stream("hi", thread_id="t1")
    chunks = [chunk async for chunk in stream]
    result = await stream.result()

    assert chunks[-1].type == "error" and not any(c.type == "finish" for c in chunks)
    error = chunks[-1].to_wire()["payload"]["error"]
    assert error["statusCode"] == 200
    assert "web page (HTTP 200, text/html" in error["message"] and "Sign in to Wi-Fi" in error["message"]
    assert retry.seen == [(200, False, None)]  # error processors see it; not retryable, so not retried
    assert (result.finish_reason, result.text) == ("error", "")
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "hi"), ("assistant", "")]
    assert [p.type for p in saved[-1].content.parts] == ["step-start", "error"]  # the thread shows what went wrong
    await memory.close()


async def test_a_dropped_stream_keeps_what_was_shown(openai_server: OpenAIServer) -> None:
    openai_server.reply_drop("Partial ", "answer")
    agent = Agent(id="a", model=model(openai_server))

    result = await agent.generate("hi")

    assert result.finish_reason == "error"
    assert result.text == "Partial answer"
    assert result.messages[-1].text == "Partial answer"
    assert [p.type for p in result.messages[-1].content.parts][-1] == "error"


async def test_closing_the_stream_closes_the_http_response(openai_server: OpenAIServer) -> None:
    openai_server.reply_text(*[f"w{i} " for i in range(200)], delay=0.02)
    agent = Agent(id="a", model=model(openai_server))
    stream = agent.stream("hi")
    async for chunk in stream:
        if chunk.type == "text-delta":
            break
    await stream.aclose()

    assert await openai_server.async_wait_until(lambda s: s.abandoned_streams == 1)
    result = await stream.result()
    assert result.finish_reason == "abort"


async def test_cancelling_the_consuming_task_closes_the_http_response(openai_server: OpenAIServer) -> None:
    openai_server.reply_text(*[f"w{i} " for i in range(200)], delay=0.02)
    agent = Agent(id="a", model=model(openai_server))
    started = asyncio.Event()

    async def consume() -> None:
        async for chunk in agent.stream("hi"):
            if chunk.type == "text-delta":
                started.set()

    task = asyncio.create_task(consume())
    await started.wait()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert await openai_server.async_wait_until(lambda s: s.abandoned_streams == 1)
