"""LiteLLMModel against real litellm speaking HTTP to the local OpenAI-compatible server (``openai_server``).

Each call makes exactly one HTTP request (the adapter turns litellm's and the OpenAI client's own retries off),
so the tests assert the server's request count as well as the events and errors.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from processors.errors import ModelAPIError
from processors.models import litellm as adapter
from processors.models.base import (
    Finish,
    LanguageModel,
    ModelEvent,
    ModelRequest,
    ReasoningDelta,
    ResponseMetadata,
    TextDelta,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStart,
)
from processors.models.litellm import LiteLLMModel
from processors.models.litellm_errors import to_model_api_error
from processors.models.litellm_stream import StreamAssembler, finish_reason
from tests.support.openai_server import OpenAIServer, StreamReply, ToolCallReply

ROOT = Path(__file__).resolve().parents[3]
USER = [{"role": "user", "content": "hi"}]
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def make_model(server: OpenAIServer, **settings: Any) -> LiteLLMModel:
    # num_retries/max_retries are the adapter's defaults already; passing them keeps these tests honest if
    # the defaults ever change.
    settings.setdefault("num_retries", 0)
    settings.setdefault("max_retries", 0)
    return LiteLLMModel("openai/test-model", api_base=server.base_url, api_key="sk-test", **settings)


async def collect(model: LiteLLMModel, request: ModelRequest | None = None) -> list[ModelEvent]:
    return [event async for event in model.stream(request or ModelRequest(messages=USER))]


async def fail(model: LiteLLMModel, request: ModelRequest | None = None) -> tuple[list[ModelEvent], ModelAPIError]:
    """Events received before the call failed, and the error."""
    events: list[ModelEvent] = []

    async def drain() -> None:
        async for event in model.stream(request or ModelRequest(messages=USER)):
            events.append(event)

    with pytest.raises(ModelAPIError) as info:
        await drain()
    return events, info.value


def text_of(events: list[ModelEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# --- importing -------------------------------------------------------------------------------------------------


def test_importing_the_adapter_does_not_import_litellm() -> None:
    code = (
        "import sys\n"
        "import processors.models\n"
        "from processors.models.litellm import LiteLLMModel\n"
        "from processors.models import LiteLLMModel as Lazy, resolve_model\n"
        "LiteLLMModel('openai/x'); resolve_model('openai/y')\n"
        "assert Lazy is LiteLLMModel\n"
        "assert 'litellm' not in sys.modules, 'litellm was imported'\n"
        "assert 'openai' not in sys.modules, 'openai was imported'\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_litellm_is_frozen_out_of_the_collector_once_loaded() -> None:
    """litellm's ~400,000 import-time objects are moved to the permanent generation (gc.freeze) when the adapter
    loads it: a full collection no longer walks them (each one cost ~0.3 s of CPU and stalled the loop)."""
    code = (
        "import asyncio, gc, sys\n"
        "from processors.models.litellm import LiteLLMModel\n"
        "asyncio.run(LiteLLMModel('openai/x').prepare())\n"
        "litellm = sys.modules['litellm']\n"
        "assert gc.is_tracked(litellm.model_cost)\n"
        "assert not any(o is litellm.model_cost for o in gc.get_objects()), 'the price map is still collected'\n"
        "assert gc.get_freeze_count() > 100_000, gc.get_freeze_count()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_model_ids_and_protocol() -> None:
    model = LiteLLMModel("openai/gpt-4o-mini")
    assert isinstance(model, LanguageModel)
    assert (model.provider, model.model_id) == ("openai", "openai/gpt-4o-mini")
    assert LiteLLMModel("ollama_chat/llama3.2:1b").provider == "ollama_chat"


async def test_first_call_loads_litellm_quietly_and_offline(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("ok")
    await collect(make_model(openai_server))
    litellm = sys.modules["litellm"]
    assert litellm.suppress_debug_info is True
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"


# --- streaming --------------------------------------------------------------------------------------------------


async def test_text_is_streamed_in_order_with_usage(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("Hel", "lo", ", ", "world", prompt_tokens=12, completion_tokens=4)

    events = await collect(make_model(openai_server))

    assert isinstance(events[0], ResponseMetadata)
    assert events[0].response_id is not None
    assert events[0].response_id.startswith("chatcmpl-")
    assert events[0].model_id == "test-model"
    assert [e.text for e in events[1:-1] if isinstance(e, TextDelta)] == ["Hel", "lo", ", ", "world"]
    assert all(isinstance(e, TextDelta) for e in events[1:-1])  # no empty deltas for the role chunk
    finish = events[-1]
    assert isinstance(finish, Finish)
    assert (finish.finish_reason, finish.raw_finish_reason) == ("stop", "stop")
    assert (finish.usage.input_tokens, finish.usage.output_tokens, finish.usage.total_tokens) == (12, 4, 16)
    assert not finish.usage.reasoning_tokens  # litellm reports 0 when the provider sent no details
    assert len(openai_server.requests) == 1


async def test_request_body_carries_the_request(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("ok")
    model = make_model(openai_server, temperature=0.9, max_tokens=50)
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather in Paris?"}]
    schema = {"title": "Answer", "type": "object", "properties": {"text": {"type": "string"}}}
    request = ModelRequest(
        messages=messages,
        tools=[WEATHER_TOOL],
        tool_choice={"type": "tool", "toolName": "get_weather"},
        settings={"temperature": 0.2, "seed": 7, "stop": ["\n\n"]},
        provider_options={"logit_bias": {"50256": -100}, "extra_body": {"custom_field": [1]}, "metadata": {"k": 1}},
        response_format=schema,
    )

    await collect(model, request)

    [body] = openai_server.requests
    assert body["model"] == "test-model"
    assert body["messages"] == messages
    assert body["tools"] == [WEATHER_TOOL]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
    assert body["temperature"] == 0.2  # the request's settings win over the model's defaults
    assert body["max_tokens"] == 50
    assert body["seed"] == 7
    assert body["stop"] == ["\n\n"]
    assert body["logit_bias"] == {"50256": -100}
    assert body["custom_field"] == [1]  # extra_body is merged into the body by the OpenAI client
    assert "metadata" not in body  # litellm's own logging metadata, never sent
    assert request.provider_options["metadata"] == {"k": 1}  # ... and litellm's edits to it do not leak back
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["response_format"] == {"type": "json_schema", "json_schema": {"name": "Answer", "schema": schema}}
    assert openai_server.request_headers[0]["authorization"] == "Bearer sk-test"


@pytest.mark.parametrize("choice", ["auto", "none", "required"])
async def test_string_tool_choices_pass_through(openai_server: OpenAIServer, choice: str) -> None:
    openai_server.reply_text("ok")
    await collect(make_model(openai_server), ModelRequest(messages=USER, tools=[WEATHER_TOOL], tool_choice=choice))
    assert openai_server.requests[0]["tool_choice"] == choice


async def test_no_tools_sends_neither_tools_nor_tool_choice(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("ok")
    await collect(make_model(openai_server), ModelRequest(messages=USER, tool_choice="auto"))
    assert "tools" not in openai_server.requests[0]
    assert "tool_choice" not in openai_server.requests[0]
    assert "response_format" not in openai_server.requests[0]


async def test_tool_call_arguments_in_fragments_are_assembled(openai_server: OpenAIServer) -> None:
    openai_server.reply_tool_calls(ToolCallReply("get_weather", ['{"ci', 'ty": "Pa', 'ris"}'], id="call_1"))

    events = await collect(make_model(openai_server), ModelRequest(messages=USER, tools=[WEATHER_TOOL]))

    calls = [e for e in events if isinstance(e, ToolCallStart | ToolCallDelta | ToolCallComplete)]
    assert [type(e).__name__ for e in calls] == ["ToolCallStart"] + ["ToolCallDelta"] * 3 + ["ToolCallComplete"]
    start, *deltas, complete = calls
    assert isinstance(start, ToolCallStart)
    assert (start.tool_call_id, start.tool_name) == ("call_1", "get_weather")
    assert [d.args_text_delta for d in deltas if isinstance(d, ToolCallDelta)] == ['{"ci', 'ty": "Pa', 'ris"}']
    assert isinstance(complete, ToolCallComplete)
    assert (complete.tool_call_id, complete.tool_name, complete.arguments) == (
        "call_1",
        "get_weather",
        '{"city": "Paris"}',
    )
    finish = events[-1]
    assert isinstance(finish, Finish)
    assert (finish.finish_reason, finish.raw_finish_reason) == ("tool-calls", "tool_calls")


async def test_parallel_tool_calls_complete_in_index_order(openai_server: OpenAIServer) -> None:
    openai_server.reply_tool_calls(
        ToolCallReply("get_weather", ['{"city":', ' "Paris"}'], id="call_a"),
        ToolCallReply("get_time", ['{"tz": ', '"CET"', "}"], id="call_b"),
        content=["Let me check."],
    )

    events = await collect(make_model(openai_server), ModelRequest(messages=USER, tools=[WEATHER_TOOL]))

    assert text_of(events) == "Let me check."
    starts = [(e.tool_call_id, e.tool_name) for e in events if isinstance(e, ToolCallStart)]
    assert starts == [("call_a", "get_weather"), ("call_b", "get_time")]
    completes = [(e.tool_call_id, e.tool_name, e.arguments) for e in events if isinstance(e, ToolCallComplete)]
    assert completes == [("call_a", "get_weather", '{"city": "Paris"}'), ("call_b", "get_time", '{"tz": "CET"}')]
    # Every fragment belongs to the call it was streamed for.
    by_call: dict[str, str] = {}
    for e in events:
        if isinstance(e, ToolCallDelta):
            by_call[e.tool_call_id] = by_call.get(e.tool_call_id, "") + e.args_text_delta
    assert by_call == {"call_a": '{"city": "Paris"}', "call_b": '{"tz": "CET"}'}
    # Completions come after the last fragment and before Finish.
    kinds = [type(e).__name__ for e in events]
    assert kinds[-3:] == ["ToolCallComplete", "ToolCallComplete", "Finish"]


async def test_tool_call_without_provider_id_gets_one(openai_server: OpenAIServer) -> None:
    openai_server.reply_tool_calls(ToolCallReply("get_weather", '{"city": "Oslo"}', id=None))

    events = await collect(make_model(openai_server), ModelRequest(messages=USER, tools=[WEATHER_TOOL]))

    [start] = [e for e in events if isinstance(e, ToolCallStart)]
    [complete] = [e for e in events if isinstance(e, ToolCallComplete)]
    assert start.tool_call_id.startswith("call_")
    assert len(start.tool_call_id) > len("call_") + 16
    assert complete.tool_call_id == start.tool_call_id
    assert complete.arguments == '{"city": "Oslo"}'


async def test_reasoning_deltas_and_reasoning_tokens(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("42", reasoning=["Think", "ing..."], completion_tokens=9, reasoning_tokens=6)

    events = await collect(make_model(openai_server))

    assert [e.text for e in events if isinstance(e, ReasoningDelta)] == ["Think", "ing..."]
    assert text_of(events) == "42"
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("ReasoningDelta") < kinds.index("TextDelta")
    finish = events[-1]
    assert isinstance(finish, Finish)
    assert (finish.usage.output_tokens, finish.usage.reasoning_tokens) == (9, 6)


@pytest.mark.parametrize(("raw", "mapped"), [("length", "length"), ("content_filter", "content-filter")])
async def test_finish_reasons_from_the_provider(openai_server: OpenAIServer, raw: str, mapped: str) -> None:
    openai_server.reply_text("cut", finish_reason=raw)
    finish = (await collect(make_model(openai_server)))[-1]
    assert isinstance(finish, Finish)
    assert (finish.finish_reason, finish.raw_finish_reason) == (mapped, raw)


@pytest.mark.parametrize(
    ("raw", "had_tools", "mapped"),
    [
        ("stop", False, "stop"),
        ("length", False, "length"),
        ("tool_calls", True, "tool-calls"),
        ("function_call", True, "tool-calls"),
        ("content_filter", False, "content-filter"),
        (None, False, "unknown"),
        (None, True, "tool-calls"),
        ("end_turn_of_some_kind", False, "other"),
    ],
)
def test_finish_reason_mapping(raw: str | None, had_tools: bool, mapped: str) -> None:
    assert finish_reason(raw, had_tool_calls=had_tools) == mapped


def test_assembler_copes_with_late_names_reused_indexes_and_no_finish_reason() -> None:
    """Shapes litellm's other adapters produce; the OpenAI path never sends them, so feed dicts directly."""
    assembler = StreamAssembler("x/model")
    # fmt: off
    chunks: list[dict[str, Any]] = [
        {"id": "r1", "model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "c1", "function": {"arguments": '{"a"'}},  # name not known yet
        ]}}]},
        {"id": "r1", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"name": "f", "arguments": ": 1}"}},
        ]}}]},
        {"id": "r1", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "c2", "function": {"name": "g", "arguments": "{}"}},  # same index, new call
        ]}}]},
        {"id": "r1", "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2}},
    ]
    # fmt: on
    events = [event for chunk in chunks for event in assembler.feed(chunk)]
    events += list(assembler.finish())

    assert [type(e).__name__ for e in events] == [
        *["ResponseMetadata", "ToolCallStart", "ToolCallDelta", "ToolCallStart", "ToolCallDelta"],
        *["ToolCallComplete", "ToolCallComplete", "Finish"],
    ]
    assert [(e.tool_call_id, e.tool_name, e.arguments) for e in events if isinstance(e, ToolCallComplete)] == [
        ("c1", "f", '{"a": 1}'),
        ("c2", "g", "{}"),
    ]
    finish = events[-1]
    assert isinstance(finish, Finish)
    assert (finish.finish_reason, finish.raw_finish_reason) == ("tool-calls", None)
    assert (finish.usage.input_tokens, finish.usage.output_tokens, finish.usage.total_tokens) == (3, 2, 5)


class FakeStream:
    """Stands in for litellm's stream wrapper, to produce endings the OpenAI path of litellm never lets through."""

    def __init__(self, chunks: list[dict[str, Any]]) -> None:
        self.chunks = chunks
        self.closed = False

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return self._chunks()

    async def _chunks(self) -> AsyncIterator[dict[str, Any]]:
        for chunk in self.chunks:
            yield chunk

    async def aclose(self) -> None:
        self.closed = True


def fake_litellm(monkeypatch: pytest.MonkeyPatch, stream: FakeStream) -> None:
    async def acompletion(**kwargs: Any) -> FakeStream:
        return stream

    monkeypatch.setattr(adapter, "_litellm", type("FakeLiteLLM", (), {"acompletion": staticmethod(acompletion)}))


async def test_a_silent_end_without_finish_or_usage_is_a_retryable_drop(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = FakeStream([{"id": "r", "choices": [{"index": 0, "delta": {"content": "half an ans"}}]}])
    fake_litellm(monkeypatch, stream)

    events, error = await fail(LiteLLMModel("other/model"))

    assert text_of(events) == "half an ans"
    assert (error.status_code, error.message, error.retryable, error.provider) == (
        None,
        "The provider closed the stream before it finished",
        True,
        "other",
    )
    assert stream.closed


@pytest.mark.parametrize(("tool_calls", "mapped"), [(False, "unknown"), (True, "tool-calls")])
async def test_a_finished_stream_without_finish_reason(
    monkeypatch: pytest.MonkeyPatch, tool_calls: bool, mapped: str
) -> None:
    delta: dict[str, Any] = {"content": "ok"}
    if tool_calls:
        delta["tool_calls"] = [{"index": 0, "id": "c1", "function": {"name": "f", "arguments": "{}"}}]
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    stream = FakeStream([{"id": "r", "choices": [{"index": 0, "delta": delta}]}, {"choices": [], "usage": usage}])
    fake_litellm(monkeypatch, stream)

    events = await collect(LiteLLMModel("other/model"))

    finish = events[-1]
    assert isinstance(finish, Finish)
    assert (finish.finish_reason, finish.raw_finish_reason, finish.usage.total_tokens) == (mapped, None, 2)
    assert stream.closed


# --- HTTP errors ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
async def test_client_errors_are_not_retryable(openai_server: OpenAIServer, status: int) -> None:
    openai_server.reply_error(status, f"the server says no ({status})", code="some_code")

    events, error = await fail(make_model(openai_server))

    assert events == []
    assert error.status_code == status
    assert error.retryable is False
    assert error.message == f"the server says no ({status})"
    assert error.provider == "openai"
    assert error.body["error"]["code"] == "some_code"
    assert error.retry_after is None
    assert len(openai_server.requests) == 1


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503])
async def test_server_errors_and_throttling_are_retryable(openai_server: OpenAIServer, status: int) -> None:
    openai_server.reply_error(status, "try later", type="server_error")

    _, error = await fail(make_model(openai_server))

    assert (error.status_code, error.retryable, error.message) == (status, True, "try later")
    assert len(openai_server.requests) == 1


async def test_429_retry_after_seconds(openai_server: OpenAIServer) -> None:
    openai_server.reply_error(429, "Rate limit reached", type="requests", headers={"Retry-After": "7"})

    _, error = await fail(make_model(openai_server))

    assert (error.status_code, error.retryable, error.retry_after) == (429, True, 7.0)
    assert error.message == "Rate limit reached"
    assert len(openai_server.requests) == 1


async def test_retry_after_as_an_http_date(openai_server: OpenAIServer) -> None:
    # An hour ahead: the figure stays far from 0 however long the call takes on a loaded machine (the first
    # litellm call of a shuffled run also pays for importing litellm, which took over 30 s under load).
    when = email.utils.formatdate(time.time() + 3600, usegmt=True)
    openai_server.reply_error(503, "overloaded", headers={"Retry-After": when})

    _, error = await fail(make_model(openai_server))

    assert error.retry_after is not None
    assert 3000 <= error.retry_after <= 3601


async def test_retry_after_ms_wins(openai_server: OpenAIServer) -> None:
    openai_server.reply_error(429, "slow down", headers={"Retry-After": "7", "retry-after-ms": "1500"})
    _, error = await fail(make_model(openai_server))
    assert error.retry_after == 1.5


async def test_the_adapter_turns_litellm_retries_off_by_default(openai_server: OpenAIServer) -> None:
    """Without this the OpenAI client would send three requests and sleep between them."""
    openai_server.reply_error(500, "boom")
    openai_server.reply_error(500, "boom")
    model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")

    _, error = await fail(model)

    assert error.status_code == 500
    assert len(openai_server.requests) == 1


# --- broken connections -----------------------------------------------------------------------------------------


async def test_connection_dropped_mid_stream_is_retryable(openai_server: OpenAIServer) -> None:
    openai_server.reply_drop("partial ", "answer")

    events, error = await fail(make_model(openai_server))

    assert text_of(events) == "partial answer"  # what arrived before the drop was streamed
    assert not any(isinstance(e, Finish) for e in events)
    assert error.retryable is True
    assert error.status_code is None  # litellm reports a made-up 500; there was no HTTP error
    assert error.message.startswith("The provider closed the stream before it finished")
    assert len(openai_server.requests) == 1


@pytest.mark.parametrize(
    "reply",
    [
        StreamReply(content=["a"], drop_after=2, drop_mode="truncate"),  # clean HTTP end, no finish, no [DONE]
        StreamReply(content=["a"], omit_finish=True),  # [DONE] and usage, but never a finish_reason
    ],
    ids=["clean-end-without-done", "done-without-finish-reason"],
)
async def test_no_finish_reason_is_a_retryable_drop(openai_server: OpenAIServer, reply: StreamReply) -> None:
    openai_server.reply(reply)

    events, error = await fail(make_model(openai_server))

    assert text_of(events) == "a"
    assert (error.status_code, error.retryable) == (None, True)
    assert error.message.startswith("The provider closed the stream before it finished")


async def test_refused_connection_is_retryable() -> None:
    model = LiteLLMModel("openai/test-model", api_base=f"http://127.0.0.1:{free_port()}/v1", api_key="sk-test")

    _, error = await fail(model)

    assert (error.status_code, error.retryable) == (None, True)
    assert error.message.startswith("Could not reach the provider")
    assert isinstance(error.__cause__, Exception)  # litellm's exception is kept for debugging


async def test_timeout_is_retryable(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("late", headers_delay=60)  # without the timeout, the answer would come (no error)

    _, error = await fail(make_model(openai_server), ModelRequest(messages=USER, settings={"timeout": 0.3}))

    assert (error.status_code, error.retryable) == (None, True)
    assert error.message.startswith("The provider did not answer in time")


async def test_empty_script_is_a_visible_server_error(openai_server: OpenAIServer) -> None:
    _, error = await fail(make_model(openai_server))
    assert error.status_code == 500
    assert "no scripted reply left" in error.message


def test_unknown_exceptions_become_non_retryable_model_errors() -> None:
    error = to_model_api_error(ValueError("litellm.BadRequestError: OpenAIException - nonsense"), provider="openai")
    assert (error.status_code, error.retryable, error.message, error.provider) == (None, False, "nonsense", "openai")


# --- cancellation -----------------------------------------------------------------------------------------------


async def test_aclose_mid_stream_closes_the_connection(openai_server: OpenAIServer) -> None:
    openai_server.reply_text(*[f"t{i} " for i in range(50)], delay=0.05)
    stream = make_model(openai_server).stream(ModelRequest(messages=USER))
    assert isinstance(stream, AsyncGenerator)  # so it has aclose()

    seen = [await anext(stream) for _ in range(3)]
    assert [type(e).__name__ for e in seen] == ["ResponseMetadata", "TextDelta", "TextDelta"]
    await stream.aclose()

    assert await openai_server.async_wait_until(lambda s: s.abandoned_streams == 1, within=3)
    assert await openai_server.async_wait_until(lambda s: s.closed_connections == 1, within=3)


async def test_cancelling_the_consumer_closes_the_connection(openai_server: OpenAIServer) -> None:
    openai_server.reply_text(*[f"t{i} " for i in range(50)], delay=0.05)
    first_text = asyncio.Event()
    received: list[ModelEvent] = []

    async def consume() -> None:
        async for event in make_model(openai_server).stream(ModelRequest(messages=USER)):
            received.append(event)
            if isinstance(event, TextDelta):
                first_text.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(first_text.wait(), timeout=10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):  # never swallowed, never turned into a ModelAPIError
        await task

    assert await openai_server.async_wait_until(lambda s: s.abandoned_streams == 1, within=3)
    assert not any(isinstance(e, Finish) for e in received)


async def test_cancelling_before_the_response_starts_closes_the_connection(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("late", headers_delay=5)
    task = asyncio.create_task(collect(make_model(openai_server)))
    assert await openai_server.async_wait_until(lambda s: len(s.requests) == 1, within=10)

    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert await openai_server.async_wait_until(lambda s: s.abandoned_streams == 1, within=3)


# --- something other than the API answering ----------------------------------------------------------------------


async def test_an_html_page_with_status_200_is_an_error_saying_what_came_back(openai_server: OpenAIServer) -> None:
    openai_server.reply_html()  # a captive portal's sign-in page
    port = openai_server.base_url.split(":")[2].split("/")[0]

    events, error = await fail(make_model(openai_server))

    assert events == []
    assert (error.status_code, error.retryable, error.provider) == (200, False, "openai")
    assert "web page (HTTP 200, text/html; charset=utf-8, from 127.0.0.1:" + port + ")" in error.message
    assert "It begins: '<!DOCTYPE html><html><head><title>Sign in to Wi-Fi</title>" in error.message
    assert "/v1/chat/completions" not in error.message  # the host only: a path or query may carry a key


async def test_a_long_page_is_quoted_only_at_its_start(openai_server: OpenAIServer) -> None:
    openai_server.reply_html("<html><body>" + "Proxy says no. " * 5_000 + "</body></html>")

    _, error = await fail(make_model(openai_server))

    assert "It begins: '<html><body>Proxy says no. Proxy says no." in error.message
    assert len(error.message) < 600


async def test_a_plain_text_body_with_status_200_is_an_error_too(openai_server: OpenAIServer) -> None:
    openai_server.reply_html("Access denied by corporate proxy", content_type="text/plain")

    events, error = await fail(make_model(openai_server))

    assert not any(isinstance(e, TextDelta) for e in events)
    assert error.status_code == 200
    assert "something that is not a model stream (HTTP 200, text/plain" in error.message


async def test_a_whole_json_completion_where_a_stream_was_asked_for_is_an_error_not_an_empty_answer(
    openai_server: OpenAIServer,
) -> None:
    """A server that ignores ``stream: true`` and answers with one chat-completion document: litellm reads no event
    from it and makes up a "stop", which was an empty answer; it is an error saying what came back."""
    completion = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello"}, "finish_reason": "stop"}],
    }
    openai_server.reply_html(json.dumps(completion), content_type="application/json")

    events, error = await fail(make_model(openai_server))

    assert not any(isinstance(e, TextDelta) for e in events)
    assert error.status_code == 200 and not error.retryable
    assert "a whole JSON document where a stream was asked for" in error.message
    assert "(HTTP 200, application/json, from 127.0.0.1:" in error.message


async def test_an_empty_answer_streamed_as_sse_is_not_mistaken_for_a_page(openai_server: OpenAIServer) -> None:
    openai_server.reply_text()  # a model may legitimately say nothing

    events = await collect(make_model(openai_server))

    assert isinstance(events[-1], Finish) and events[-1].finish_reason == "stop"
    assert text_of(events) == ""


def test_without_the_http_response_the_headers_litellm_kept_still_tell_a_page() -> None:
    # Providers that do not stream through the openai client leave only the headers in ``_hidden_params``.
    response = type("Wrapper", (), {})()
    response._hidden_params = {  # type: ignore[attr-defined]
        "api_base": "https://portal.example:8443/v1beta/models/x:streamGenerateContent?key=SECRET",
        "additional_headers": {"llm_provider-content-type": "text/html"},
    }

    answer = adapter._http_answer(response)

    assert answer is not None and answer.is_page() and not answer.is_stream()
    assert (answer.status, answer.host) == (None, "portal.example:8443")  # the host only: the query holds a key


@pytest.mark.parametrize(
    ("content_type", "stream"),
    [
        ("text/event-stream", True),
        ("text/event-stream; charset=utf-8", True),
        ("application/x-ndjson", True),
        ("application/vnd.api+json", True),
        ("", True),  # unknown: trusted, as before
        ("text/plain", False),
        ("text/html", False),
    ],
)
def test_which_content_types_count_as_a_model_stream(content_type: str, stream: bool) -> None:
    assert adapter._HttpAnswer(200, content_type, "h").is_stream() is stream
