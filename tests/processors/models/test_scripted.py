"""ScriptedModel (item 13): scripted turns, word-sized deltas, tool calls, errors, usage, recorded requests."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from processors import Processor
from processors.errors import ModelAPIError
from processors.models import (
    Finish,
    LanguageModel,
    ModelRequest,
    ReasoningDelta,
    ResponseMetadata,
    ScriptedModel,
    TextDelta,
    ToolCall,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStart,
    Turn,
)
from processors.models.scripted import split_words
from processors.usage import Usage
from tests.processors.helpers import INSTRUCTIONS, get_weather, make_agent, of_type, run_stream, system, user


def request(text: str = "hi") -> ModelRequest:
    return ModelRequest(messages=[{"role": "user", "content": text}])


async def events(model: ScriptedModel, req: ModelRequest | None = None) -> list[Any]:
    return [event async for event in model.stream(req or request())]


async def _drain_into(model: ScriptedModel, received: list[Any]) -> None:
    async for event in model.stream(request()):
        received.append(event)


def texts(evs: list[Any]) -> list[str]:
    return [e.text for e in evs if isinstance(e, TextDelta)]


def test_is_a_language_model() -> None:
    model = ScriptedModel([], model_id="demo")
    assert isinstance(model, LanguageModel)
    assert (model.provider, model.model_id) == ("scripted", "demo")


def test_split_words_keeps_whitespace() -> None:
    assert split_words("Hello there,  world!") == ["Hello ", "there,  ", "world!"]
    assert "".join(split_words(" a  b ")) == " a  b "


async def test_a_string_turn_streams_word_sized_text_deltas() -> None:
    evs = await events(ScriptedModel(["Hello there, world!"]))
    assert isinstance(evs[0], ResponseMetadata)
    assert texts(evs) == ["Hello ", "there, ", "world!"]
    assert isinstance(evs[-1], Finish)
    assert evs[-1].finish_reason == "stop"


async def test_a_string_turn_through_the_agent() -> None:
    chunks, result = await run_stream(make_agent(ScriptedModel(["Hello there, world!"])))
    assert [c.payload.text for c in of_type(chunks, "text-delta")] == ["Hello ", "there, ", "world!"]
    assert result.text == "Hello there, world!"
    assert result.finish_reason == "stop"


async def test_a_list_text_is_streamed_as_exact_deltas() -> None:
    evs = await events(ScriptedModel([Turn(text=["He", "llo", " w", "orld"])]))
    assert texts(evs) == ["He", "llo", " w", "orld"]


async def test_tool_calls_are_streamed_with_json_arguments() -> None:
    model = ScriptedModel(
        [
            Turn(
                text="Checking.",
                tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1"), ToolCall("other", {"n": 1})],
            )
        ]
    )
    evs = await events(model)
    starts = [(e.tool_call_id, e.tool_name) for e in evs if isinstance(e, ToolCallStart)]
    deltas = [(e.tool_call_id, e.args_text_delta) for e in evs if isinstance(e, ToolCallDelta)]
    completes = [(e.tool_call_id, e.tool_name, e.arguments) for e in evs if isinstance(e, ToolCallComplete)]
    assert starts[0] == ("c1", "get_weather")
    assert starts[1][1] == "other"
    generated = starts[1][0]
    assert isinstance(generated, str)
    assert generated
    assert generated != "c1"
    assert deltas == [("c1", '{"city": "Paris"}'), (generated, '{"n": 1}')]
    assert completes == [("c1", "get_weather", '{"city": "Paris"}'), (generated, "other", '{"n": 1}')]
    assert json.loads(completes[0][2]) == {"city": "Paris"}
    assert evs[-1].finish_reason == "tool-calls"


async def test_generated_tool_call_ids_are_unique_across_calls() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("a")]), Turn(tool_calls=[ToolCall("a")])])
    first = await events(model)
    second = await events(model)
    ids = [e.tool_call_id for e in first + second if isinstance(e, ToolCallComplete)]
    assert len(set(ids)) == 2


async def test_string_arguments_are_sent_raw() -> None:
    evs = await events(ScriptedModel([Turn(tool_calls=[ToolCall("t", "{bad json", id="x")])]))
    assert [e.arguments for e in evs if isinstance(e, ToolCallComplete)] == ["{bad json"]


async def test_reasoning_comes_before_text() -> None:
    evs = await events(ScriptedModel([Turn(reasoning="think first", text="then answer")]))
    kinds = [type(e).__name__ for e in evs if isinstance(e, (ReasoningDelta, TextDelta))]
    assert kinds == ["ReasoningDelta", "ReasoningDelta", "TextDelta", "TextDelta"]
    assert [e.text for e in evs if isinstance(e, ReasoningDelta)] == ["think ", "first"]


async def test_an_error_turn_raises_before_any_event() -> None:
    failure = ModelAPIError(429, "slow down", True)
    model = ScriptedModel([Turn(error=failure)])
    received: list[Any] = []
    with pytest.raises(ModelAPIError) as info:
        await _drain_into(model, received)
    assert info.value is failure
    assert received == []
    assert len(model.requests) == 1


async def test_error_after_some_deltas_drops_the_stream() -> None:
    model = ScriptedModel([Turn(text=["a", "b", "c"], error=ModelAPIError(502, "dropped"), error_after=2)])
    received: list[Any] = []
    with pytest.raises(ModelAPIError, match="dropped"):
        await _drain_into(model, received)
    assert texts(received) == ["a", "b"]


async def test_error_turn_through_the_agent_is_an_error_chunk() -> None:
    chunks, result = await run_stream(make_agent(ScriptedModel([Turn(error=ModelAPIError(503, "overloaded"))])))
    assert chunks[-1].type == "error"
    assert chunks[-1].payload.error["message"] == "overloaded"
    assert chunks[-1].payload.error["statusCode"] == 503
    assert result.finish_reason == "error"


async def test_finish_reason_and_usage_overrides() -> None:
    usage = Usage(input_tokens=10, output_tokens=4, total_tokens=14)
    model = ScriptedModel([Turn(text="cut", finish_reason="length", usage=usage)])
    evs = await events(model)
    assert (evs[-1].finish_reason, evs[-1].usage) == ("length", usage)
    model2 = ScriptedModel([Turn(text="cut", finish_reason="length", usage=usage)])
    result = await make_agent(model2).generate("hi")
    assert result.finish_reason == "length"
    assert result.usage == usage
    assert result.steps[0].usage == usage


async def test_usage_is_summed_over_steps() -> None:
    u1 = Usage(input_tokens=1, output_tokens=2, total_tokens=3)
    u2 = Usage(input_tokens=10, output_tokens=20, total_tokens=30)
    model = ScriptedModel(
        [Turn(tool_calls=[ToolCall("get_weather", {"city": "X"})], usage=u1), Turn(text="ok", usage=u2)]
    )
    result = await make_agent(model, tools=[get_weather]).generate("hi")
    assert result.usage == Usage(input_tokens=11, output_tokens=22, total_tokens=33)


async def test_requests_record_every_call_in_openai_chat_format() -> None:
    model = ScriptedModel(
        [Turn(text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]), "Sunny."]
    )
    await make_agent(model, tools=[get_weather]).generate("weather?")
    assert len(model.requests) == 2
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("weather?")]
    assert model.requests[1].messages == [
        system(INSTRUCTIONS),
        user("weather?"),
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "Sunny in Paris"},
    ]
    assert model.requests[0].tools[0]["type"] == "function"
    assert model.requests[0].tools[0]["function"]["name"] == "get_weather"


async def test_recorded_requests_are_copies() -> None:
    model = ScriptedModel(["ok"])
    req = request("original")
    await events(model, req)
    req.messages[0]["content"] = "mutated"
    assert model.requests[0].messages == [user("original")]


async def test_running_out_of_turns_is_a_clear_error() -> None:
    model = ScriptedModel(["only one"], model_id="tiny")
    await events(model)
    with pytest.raises(ModelAPIError, match="no scripted turn left"):
        await events(model)
    assert model.remaining == 0


async def test_repeat_cycles_the_script() -> None:
    model = ScriptedModel(["a", "b"], repeat=True)
    got = [texts(await events(model)) for _ in range(5)]
    assert got == [["a"], ["b"], ["a"], ["b"], ["a"]]


async def test_callable_turns_see_the_request() -> None:
    model = ScriptedModel([lambda req: f"you said {req.messages[-1]['content']}"])
    assert texts(await events(model, request("ping"))) == ["you ", "said ", "ping"]


async def test_add_appends_turns() -> None:
    model = ScriptedModel([])
    model.add("x", Turn(text="y"))
    assert model.remaining == 2
    assert texts(await events(model)) == ["x"]
    assert texts(await events(model)) == ["y"]


async def test_delay_paces_deltas_and_closing_early_is_counted() -> None:
    model = ScriptedModel([Turn(text=["a", "b", "c", "d"], delay=0.03)])
    stream = model.stream(request())
    started = asyncio.get_running_loop().time()
    received = []
    async for event in stream:
        received.append(event)
        if isinstance(event, TextDelta):
            break
    assert asyncio.get_running_loop().time() - started >= 0.025
    await stream.aclose()
    assert model.closed_early == 1
    full = ScriptedModel(["done"])
    await events(full)
    assert full.closed_early == 0


async def test_a_finished_stream_is_not_counted_as_closed_early() -> None:
    model = ScriptedModel(["a b"])
    await make_agent(model).generate("hi")
    assert model.closed_early == 0


# ---------------------------------------------------------------------------------------------- one-piece tool calls
async def test_a_tool_call_can_come_in_one_piece() -> None:
    evs = await events(
        ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1", streamed=False)])])
    )
    assert not [e for e in evs if isinstance(e, (ToolCallStart, ToolCallDelta))]
    assert [(e.tool_call_id, e.tool_name, e.arguments) for e in evs if isinstance(e, ToolCallComplete)] == [
        ("c1", "get_weather", '{"city": "Paris"}')
    ]


class TypeTracker(Processor):
    """Records each part's type and the types accumulated in ``stream_parts`` so far."""

    id = "state-tracking-processor"

    def __init__(self) -> None:
        self.captured: list[tuple[str, list[str]]] = []

    def process_output_stream(self, args: Any) -> Any:
        self.captured.append((args.part.type, [p.type for p in args.stream_parts]))
        return args.part


# Ported from Mastra's processors/output-processor-tool-execution.test.ts, "should filter intermediate finish
# chunks and maintain state during tool execution": its MockLanguageModelV2 streams a lone ``tool-call`` part (no
# input-streaming parts); the processor sees the tool call right after the response metadata and one finish.
async def test_a_one_piece_tool_call_reaches_stream_processors_right_after_the_response_metadata() -> None:
    tracker = TypeTracker()
    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1", streamed=False)]),
            "The tool executed successfully!",
        ]
    )
    chunks, result = await run_stream(make_agent(model, tools=[get_weather], output_processors=[tracker]))

    seen = [kind for kind, _ in tracker.captured]
    assert seen.count("finish") == 1
    metadata = seen.index("response-metadata")
    assert seen[metadata + 1] == "tool-call"
    _kind, accumulated = tracker.captured[metadata + 1]
    assert accumulated[-2:] == ["response-metadata", "tool-call"]
    assert not [c for c in chunks if c.type.startswith("tool-call-")]  # no input-streaming chunks at all
    assert result.text == "The tool executed successfully!"


def _comparable(chunks: list[Any]) -> list[Any]:
    """Chunks as wire dicts without their ids and the input-streaming chunks a one-piece call does not have."""
    out = []
    for chunk in chunks:
        if chunk.type.startswith("tool-call-"):
            continue
        wire = chunk.to_wire()
        wire.pop("runId", None)
        payload = wire.get("payload")
        if isinstance(payload, dict):
            for key in ("id", "messageId", "startedAt", "timestamp"):
                payload.pop(key, None)
            payload.pop("metadata", None)
            payload.pop("messages", None)
        out.append(wire)
    return out


async def test_the_loop_handles_a_one_piece_tool_call_as_it_handles_a_streamed_one() -> None:
    async def run(streamed: bool) -> tuple[list[Any], Any, ScriptedModel]:
        model = ScriptedModel(
            [
                Turn(
                    text="Checking.",
                    tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1", streamed=streamed)],
                ),
                "Sunny.",
            ]
        )
        chunks, result = await run_stream(make_agent(model, tools=[get_weather]), "weather?")
        return chunks, result, model

    streamed_chunks, streamed_result, streamed_model = await run(True)
    piece_chunks, piece_result, piece_model = await run(False)

    assert [c.type for c in streamed_chunks if c.type.startswith("tool-call-")] == [
        "tool-call-input-streaming-start",
        "tool-call-delta",
        "tool-call-input-streaming-end",
    ]
    assert [c.type for c in piece_chunks if c.type.startswith("tool-call-")] == []
    assert [c.type for c in piece_chunks] == [c.type for c in streamed_chunks if not c.type.startswith("tool-call-")]
    assert _comparable(piece_chunks) == _comparable(streamed_chunks)
    assert piece_model.requests[1].messages == streamed_model.requests[1].messages
    assert piece_result.text == streamed_result.text == "Checking.Sunny."
    assert [m.to_json()["content"]["parts"] for m in piece_result.messages] == [
        m.to_json()["content"]["parts"] for m in streamed_result.messages
    ]
    assert piece_result.steps[0].tool_results == streamed_result.steps[0].tool_results
