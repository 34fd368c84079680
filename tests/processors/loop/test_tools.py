"""Tools in the loop (item 11): every tool failure becomes a tool-error the model sees on the next step."""

from __future__ import annotations

from typing import Any

from processors import tool
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.helpers import (
    INSTRUCTIONS,
    Fn,
    explode,
    get_weather,
    kinds,
    make_agent,
    of_type,
    run_stream,
    system,
    user,
)


def tool_messages(request: Any) -> list[dict[str, Any]]:
    return [m for m in request.messages if m["role"] == "tool"]


async def _run_failing_call(call: ToolCall) -> tuple[list[Any], Any, ScriptedModel, list[str]]:
    tool_results_seen: list[str] = []
    model = ScriptedModel([Turn(text="Trying.", tool_calls=[call]), "Recovered."])
    agent = make_agent(
        model,
        tools=[get_weather, explode],
        output_processors=[Fn("watch", process_tool_result=lambda a: tool_results_seen.append(a.tool_call_id))],
    )
    chunks, result = await run_stream(agent, "go")
    return chunks, result, model, tool_results_seen


async def test_invalid_json_arguments_become_a_tool_error_the_model_sees() -> None:
    chunks, result, model, seen = await _run_failing_call(ToolCall("get_weather", "{bad json", id="c1"))
    errors = of_type(chunks, "tool-error")
    assert len(errors) == 1
    wire = errors[0].to_wire()["payload"]
    assert (wire["toolCallId"], wire["toolName"]) == ("c1", "get_weather")
    assert "Invalid JSON" in str(wire["error"])
    assert of_type(chunks, "tool-result") == []
    assert seen == []  # process_tool_result only runs for successful tools
    assert len(model.requests) == 2
    assert model.requests[1].messages[:2] == [system(INSTRUCTIONS), user("go")]
    call_message = model.requests[1].messages[2]
    assert call_message["role"] == "assistant"
    assert call_message["tool_calls"][0]["id"] == "c1"
    assert call_message["tool_calls"][0]["function"] == {"name": "get_weather", "arguments": "{bad json"}
    (tool_message,) = tool_messages(model.requests[1])
    assert tool_message["tool_call_id"] == "c1"
    assert "Invalid JSON" in tool_message["content"]
    assert result.text == "Trying.Recovered."
    assert result.finish_reason == "stop"
    assert kinds(chunks)[-1] == "finish"


async def test_invalid_arguments_become_a_tool_error_the_model_sees() -> None:
    chunks, result, model, seen = await _run_failing_call(ToolCall("get_weather", {"town": "Paris"}, id="c1"))
    (error,) = of_type(chunks, "tool-error")
    assert "city" in str(error.payload.error)
    assert error.payload.args == {"town": "Paris"}
    (tool_message,) = tool_messages(model.requests[1])
    assert tool_message["tool_call_id"] == "c1"
    assert "city" in tool_message["content"]
    assert seen == []
    assert result.text == "Trying.Recovered."


async def test_a_raising_tool_becomes_a_tool_error_the_model_sees() -> None:
    chunks, result, model, seen = await _run_failing_call(ToolCall("explode", {"reason": "test"}, id="c1"))
    (error,) = of_type(chunks, "tool-error")
    assert "kaboom: test" in str(error.payload.error)
    (tool_message,) = tool_messages(model.requests[1])
    assert "kaboom: test" in tool_message["content"]
    assert seen == []
    assert result.finish_reason == "stop"
    assert result.steps[0].tool_results[0]["tool_call_id"] == "c1"
    assert "kaboom: test" in result.steps[0].tool_results[0]["error"]


async def test_an_unknown_tool_becomes_a_tool_error_the_model_sees() -> None:
    chunks, result, model, _seen = await _run_failing_call(ToolCall("teleport", {"to": "Mars"}, id="c1"))
    (error,) = of_type(chunks, "tool-error")
    assert error.payload.tool_name == "teleport"
    assert "teleport" in str(error.payload.error)
    assert "not found" in str(error.payload.error)
    (tool_message,) = tool_messages(model.requests[1])
    assert tool_message["tool_call_id"] == "c1"
    assert "teleport" in tool_message["content"]
    assert result.text == "Trying.Recovered."


async def test_tool_errors_are_recorded_in_the_history() -> None:
    _, result, _, _ = await _run_failing_call(ToolCall("explode", {"reason": "x"}, id="c1"))
    (invocation,) = [inv for m in result.messages for inv in m.tool_invocations]
    assert invocation.state == "output-error"
    assert "kaboom: x" in (invocation.error_text or "")


async def test_several_tools_in_one_step_succeed_and_fail_independently() -> None:
    model = ScriptedModel(
        [
            Turn(
                tool_calls=[
                    ToolCall("get_weather", {"city": "Paris"}, id="a"),
                    ToolCall("explode", {"reason": "r"}, id="b"),
                    ToolCall("get_weather", {"city": "Rome"}, id="c"),
                ]
            ),
            "All done.",
        ]
    )
    agent = make_agent(model, tools=[get_weather, explode])
    chunks, result = await run_stream(agent)
    assert [(c.type, c.payload.tool_call_id) for c in chunks if c.type in ("tool-result", "tool-error")] == [
        ("tool-result", "a"),
        ("tool-error", "b"),
        ("tool-result", "c"),
    ]
    tools = tool_messages(model.requests[1])
    assert [(m["tool_call_id"], m["content"]) for m in tools if m["tool_call_id"] != "b"] == [
        ("a", "Sunny in Paris"),
        ("c", "Sunny in Rome"),
    ]
    assert [m["tool_call_id"] for m in tools] == ["a", "b", "c"]
    assert result.text == "All done."


async def test_tool_result_chunk_and_next_prompt() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]), "Sunny!"])
    chunks, result = await run_stream(make_agent(model, tools=[get_weather]), "weather?")
    (res,) = of_type(chunks, "tool-result")
    assert res.to_wire()["payload"] == {
        "toolCallId": "c1",
        "toolName": "get_weather",
        "result": "Sunny in Paris",
        "args": {"city": "Paris"},
    }
    assert model.requests[1].messages == [
        system(INSTRUCTIONS),
        user("weather?"),
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "Sunny in Paris"},
    ]
    assert result.steps[0].finish_reason == "tool-calls"
    assert result.steps[1].finish_reason == "stop"


async def test_tool_results_serialise_structured_values() -> None:
    @tool
    def forecast(city: str) -> dict[str, Any]:
        """Forecast."""
        return {"city": city, "days": [1, 2]}

    model = ScriptedModel([Turn(tool_calls=[ToolCall("forecast", {"city": "Oslo"}, id="c1")]), "ok"])
    chunks, _ = await run_stream(make_agent(model, tools=[forecast]))
    assert of_type(chunks, "tool-result")[0].payload.result == {"city": "Oslo", "days": [1, 2]}
    (tool_message,) = tool_messages(model.requests[1])
    assert tool_message["content"] == '{"city": "Oslo", "days": [1, 2]}'


async def test_the_loop_stops_at_max_steps_even_with_pending_tool_calls() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "X"})])], repeat=True)
    chunks, result = await run_stream(make_agent(model, tools=[get_weather], max_steps=2))
    assert len(model.requests) == 2
    assert len(result.steps) == 2
    assert kinds(chunks)[-1] == "finish"
    assert result.finish_reason == "tool-calls"


async def test_active_tools_per_call_limit_what_the_model_is_offered() -> None:
    model = ScriptedModel(["ok"])
    await make_agent(model, tools=[get_weather, explode]).generate("q", active_tools=["explode"])
    assert [t["function"]["name"] for t in model.requests[0].tools] == ["explode"]


async def test_tool_not_in_active_tools_is_refused() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "X"}, id="c1")]), "ok"])
    chunks, _ = await run_stream(make_agent(model, tools=[get_weather, explode]), active_tools=["explode"])
    assert [c.payload.tool_call_id for c in of_type(chunks, "tool-error")] == ["c1"]
    assert of_type(chunks, "tool-result") == []


async def test_tool_receives_the_request_context() -> None:
    from processors import RequestContext

    @tool
    def whoami(request_context: RequestContext) -> str:
        """Who is asking."""
        return str(request_context.get("user"))

    ctx = RequestContext()
    ctx.set("user", "ada")
    model = ScriptedModel([Turn(tool_calls=[ToolCall("whoami", {}, id="c1")]), "ok"])
    chunks, _ = await run_stream(make_agent(model, tools=[whoami]), request_context=ctx)
    assert of_type(chunks, "tool-result")[0].payload.result == "ada"


async def test_a_none_result_still_runs_process_tool_result() -> None:
    seen: list[Any] = []

    @tool
    def nothing() -> None:
        """Returns nothing."""
        return None

    model = ScriptedModel([Turn(tool_calls=[ToolCall("nothing", {}, id="c1")]), "ok"])
    agent = make_agent(
        model,
        tools=[nothing],
        output_processors=[Fn("w", process_tool_result=lambda a: seen.append((a.tool_call_id, a.result)))],
    )
    chunks, _ = await run_stream(agent)
    assert seen == [("c1", None)]
    assert [c.payload.tool_call_id for c in of_type(chunks, "tool-result")] == ["c1"]
