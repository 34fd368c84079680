"""One step's pieces (``processors.loop.step``), through whole agent runs on scripted models: how model events become
chunks (reasoning, text and tool-call blocks opened and closed in order, with their ids), the message the step's
reducer builds from them, the record handed to ``process_llm_response`` and its replay as a cached answer, and
tool-call arguments that are empty, not JSON, or JSON no message could hold."""

from __future__ import annotations

from typing import Any

from processors import Agent, tool
from processors.models import ScriptedModel, ToolCall, Turn
from processors.usage import Usage
from tests.processors.helpers import Fn, RecordAndReplay, get_weather, kinds, make_agent, of_type, run_stream


def wire(chunks: list[Any], message_id: str) -> list[tuple[str, dict[str, Any]]]:
    """Each model chunk's type and wire payload, with the step's message id written as ``M``."""
    out = []
    for chunk in chunks:
        if chunk.type in ("start", "step-start", "step-finish", "finish", "tool-result", "response-metadata"):
            continue
        payload = chunk.to_wire()["payload"]
        if "id" in payload:
            payload["id"] = payload["id"].replace(message_id, "M")
        out.append((chunk.type, payload))
    return out


def first_message_id(chunks: list[Any]) -> str:
    return str(of_type(chunks, "step-start")[0].payload.message_id)  # type: ignore[union-attr]


# ----------------------------------------------------------------------------------------- events → chunks
async def test_reasoning_text_and_a_streamed_tool_call_come_as_blocks_in_order() -> None:
    model = ScriptedModel(
        [
            Turn(
                reasoning="think hard", text="answer", tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]
            ),
            "done",
        ]
    )
    chunks, result = await run_stream(make_agent(model, tools=[get_weather]))
    message_id = first_message_id(chunks)
    first_step = chunks[: kinds(chunks).index("step-finish")]
    assert wire(first_step, message_id) == [
        ("reasoning-start", {"id": "M-reasoning"}),
        ("reasoning-delta", {"id": "M-reasoning", "text": "think "}),
        ("reasoning-delta", {"id": "M-reasoning", "text": "hard"}),
        ("reasoning-end", {"id": "M-reasoning"}),
        ("text-start", {"id": "M"}),
        ("text-delta", {"id": "M", "text": "answer"}),
        ("text-end", {"id": "M"}),
        ("tool-call-input-streaming-start", {"toolCallId": "c1", "toolName": "get_weather"}),
        ("tool-call-delta", {"toolCallId": "c1", "argsTextDelta": '{"city": "Oslo"}'}),
        ("tool-call-input-streaming-end", {"toolCallId": "c1"}),
        ("tool-call", {"toolCallId": "c1", "toolName": "get_weather", "args": {"city": "Oslo"}}),
    ]
    assert result.steps[0].reasoning == "think hard"
    [answer] = result.messages
    assert answer.id == message_id
    assert [part.type for part in answer.content.parts] == [
        "step-start",
        "reasoning",
        "text",
        "tool-invocation",
        "step-start",
        "text",
    ]
    assert answer.content.parts[1].reasoning == "think hard"  # type: ignore[union-attr]


async def test_the_response_metadata_chunk_names_the_response_and_the_model() -> None:
    model = ScriptedModel(["ok"], model_id="m-1")
    chunks, _result = await run_stream(make_agent(model))
    [metadata] = of_type(chunks, "response-metadata")
    payload = metadata.to_wire()["payload"]
    assert payload["modelId"] == "m-1"
    assert payload["id"].startswith("resp_")


async def test_reasoning_alone_closes_before_a_tool_call_in_one_piece_and_at_the_finish() -> None:
    model = ScriptedModel(
        [
            Turn(
                reasoning="look it up", tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1", streamed=False)]
            ),
            Turn(reasoning="nothing to say"),
        ]
    )
    chunks, result = await run_stream(make_agent(model, tools=[get_weather]))
    first_id = first_message_id(chunks)
    first, second = (
        [chunk.type for chunk in part if not chunk.type.startswith(("start", "step-start", "response", "tool-result"))]
        for part in _split_steps(chunks)
    )
    assert first == [
        "reasoning-start",
        "reasoning-delta",
        "reasoning-delta",
        "reasoning-delta",
        "reasoning-end",
        "tool-call",
    ]
    assert second == ["reasoning-start", "reasoning-delta", "reasoning-delta", "reasoning-delta", "reasoning-end"]
    assert (result.text, result.steps[1].reasoning) == ("", "nothing to say")
    [answer] = result.messages
    assert answer.id == first_id
    assert [part.type for part in answer.content.parts] == [
        "step-start",
        "reasoning",
        "tool-invocation",
        "step-start",
        "reasoning",
    ]
    assert answer.content.content is None


def _split_steps(chunks: list[Any]) -> list[list[Any]]:
    steps: list[list[Any]] = [[]]
    for chunk in chunks:
        if chunk.type == "step-finish":
            steps.append([])
        else:
            steps[-1].append(chunk)
    return steps[:-1]


async def test_a_tool_call_in_one_piece_after_text_closes_the_text_first() -> None:
    model = ScriptedModel(
        [
            Turn(text="Let me check.", tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1", streamed=False)]),
            "ok",
        ]
    )
    chunks, _result = await run_stream(make_agent(model, tools=[get_weather]))
    first = _split_steps(chunks)[0]
    assert [chunk.type for chunk in first if chunk.type.startswith(("text", "tool"))] == [
        "text-start",
        "text-delta",
        "text-delta",
        "text-delta",
        "text-end",
        "tool-call",
    ]


# ----------------------------------------------------------------------------------------- the record and its replay
async def test_process_llm_response_gets_a_finish_record_with_the_reason_and_the_usage() -> None:
    seen: list[list[dict[str, Any]]] = []
    model = ScriptedModel([Turn(text="cut", finish_reason="length", usage=Usage(input_tokens=3, output_tokens=2))])
    agent = make_agent(model, input_processors=[Fn("rec", process_llm_response=lambda a: seen.append(a.chunks))])
    await run_stream(agent)
    [chunks] = seen
    assert chunks[-1] == {
        "type": "finish",
        "payload": {
            "stepResult": {"reason": "length"},
            "output": {"usage": {"inputTokens": 3, "outputTokens": 2, "totalTokens": 0}},
        },
    }


async def test_a_recorded_answer_replays_as_the_same_stream_reason_and_usage() -> None:
    cache = RecordAndReplay()
    model = ScriptedModel(
        [Turn(reasoning="hm", text="the answer", finish_reason="length", usage=Usage(input_tokens=4, output_tokens=3))]
    )
    agent = Agent(id="a", model=model, input_processors=[cache])
    live_chunks, live = await run_stream(agent, "q")
    replayed_chunks, replayed = await run_stream(agent, "q")
    assert len(model.requests) == 1
    assert replayed.steps[0].from_cache is True
    assert (replayed.text, replayed.finish_reason, replayed.steps[0].reasoning) == ("the answer", "length", "hm")
    assert (replayed.usage.input_tokens, replayed.usage.output_tokens) == (4, 3)
    assert kinds(replayed_chunks) == kinds(live_chunks)
    assert live.text == replayed.text
    assert {chunk.run_id for chunk in replayed_chunks} == {replayed.run_id}  # type: ignore[union-attr]


async def test_a_cached_text_block_left_open_is_closed_once_at_the_finish() -> None:
    cached = [
        {"type": "text-start", "payload": {"id": "t"}},
        {"type": "text-delta", "payload": {"id": "t", "text": "open"}},
        {"type": "finish", "payload": {"stepResult": {"reason": "stop"}, "output": {"usage": {"inputTokens": 1}}}},
    ]
    closed = [*cached[:2], {"type": "text-end", "payload": {"id": "t"}}, cached[2]]
    for answer, expected_reason in ((cached, "stop"), (closed, "stop")):
        cache = Fn("cache", process_llm_request=lambda args, answer=answer: {"response": {"chunks": answer}})
        chunks, result = await run_stream(make_agent(ScriptedModel([]), input_processors=[cache]))
        assert [k for k in kinds(chunks) if k.startswith("text")] == ["text-start", "text-delta", "text-end"]
        assert (result.text, result.finish_reason, result.usage.input_tokens) == ("open", expected_reason, 1)


# ----------------------------------------------------------------------------------------- tool-call arguments
@tool
def greet(name: str = "you") -> str:
    """Greet someone.

    Args:
        name: Who to greet.
    """
    return f"hello {name}"


async def test_blank_arguments_call_the_tool_without_arguments() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("greet", "  ", id="c1")]), "ok"])
    chunks, _result = await run_stream(make_agent(model, tools=[greet]))
    [call] = of_type(chunks, "tool-call")
    assert call.payload.args == {}  # type: ignore[union-attr]
    [result] = of_type(chunks, "tool-result")
    assert result.payload.result == "hello you"  # type: ignore[union-attr]


async def test_arguments_no_message_could_hold_are_quoted_in_the_tool_error() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("greet", '{"name": NaN}', id="c1")]), "ok"])
    chunks, result = await run_stream(make_agent(model, tools=[greet]))
    [call] = of_type(chunks, "tool-call")
    assert call.to_wire()["payload"]["args"] == '{"name": NaN}'
    assert repr(call.payload.args) == '{"name": NaN}'  # type: ignore[union-attr]
    [error] = of_type(chunks, "tool-error")
    assert error.to_wire()["payload"]["args"] == '{"name": NaN}'
    assert result.text == "ok"


async def test_a_lone_surrogate_in_the_arguments_becomes_a_replacement_character() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("greet", '{"name": "A\\ud83d"}', id="c1")]), "ok"])
    chunks, _result = await run_stream(make_agent(model, tools=[greet]))
    [result] = of_type(chunks, "tool-result")
    assert result.payload.result == "hello A\ufffd"  # type: ignore[union-attr]
