"""The loop's tool calls (``processors.loop.tool_calls``) at their edges, through whole agent runs: the exact words
of a tool error, what a step and the history record of each call, what ``process_tool_result`` is given and what
its trace says, and a tool that raises something other than an ``Exception``."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from processors import Message, tool
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import Fn, explode, get_weather, make_agent, of_type, run_stream


def tool_messages(request: Any) -> list[dict[str, Any]]:
    return [m for m in request.messages if m["role"] == "tool"]


def invocations(result: Any) -> list[Any]:
    return [invocation for message in result.messages for invocation in message.tool_invocations]


def replace_result(call_id: str, name: str, value: Any) -> dict[str, Any]:
    """What a processor passes to ``update_tool_invocation`` to replace a tool's result."""
    return {
        "type": "tool-invocation",
        "tool_invocation": {"state": "result", "tool_call_id": call_id, "tool_name": name, "result": value},
    }


# ------------------------------------------------------------------------------------------ tool errors
async def test_an_unknown_tools_error_lists_the_tools_there_are_in_name_order() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("teleport", {"to": "Mars"}, id="c1")]), "ok"])
    chunks, _result = await run_stream(make_agent(model, tools=[get_weather, explode]))
    message = "Tool 'teleport' not found. Available tools: explode, get_weather"
    assert [chunk.payload.error for chunk in of_type(chunks, "tool-error")] == [message]  # type: ignore[union-attr]
    assert [m["content"] for m in tool_messages(model.requests[1])] == [message]


async def test_an_unknown_tool_of_an_agent_without_tools_says_there_are_none() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("teleport", {}, id="c1")]), "ok"])
    chunks, _result = await run_stream(make_agent(model))
    assert [chunk.payload.error for chunk in of_type(chunks, "tool-error")] == [  # type: ignore[union-attr]
        "Tool 'teleport' not found. Available tools: none"
    ]


async def test_a_raising_tools_error_names_the_tool_and_the_exceptions_type_and_is_kept_as_an_error() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("explode", {"reason": "x"}, id="c1")]), "ok"])
    chunks, result = await run_stream(make_agent(model, tools=[explode]))
    message = "Tool 'explode' failed: RuntimeError: kaboom: x"
    [error] = of_type(chunks, "tool-error")
    assert error.to_wire()["payload"] == {
        "toolCallId": "c1",
        "toolName": "explode",
        "args": {"reason": "x"},
        "error": message,
    }
    assert [m["content"] for m in tool_messages(model.requests[1])] == [message]
    assert result.steps[0].tool_results == [{"tool_call_id": "c1", "tool_name": "explode", "error": message}]
    [invocation] = invocations(result)
    assert invocation.model_dump() == {
        "state": "output-error",
        "tool_call_id": "c1",
        "tool_name": "explode",
        "args": {"reason": "x"},
        "result": None,
        "is_error": True,
        "error_text": message,
        "blocked_by": None,
    }


# ----------------------------------------------------------------------------------------- tool results
async def test_a_tools_result_is_recorded_on_its_step_and_in_the_history() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]), "ok"])
    _chunks, result = await run_stream(make_agent(model, tools=[get_weather]))
    assert result.steps[0].tool_results == [
        {"tool_call_id": "c1", "tool_name": "get_weather", "result": "Sunny in Oslo"}
    ]
    assert result.steps[1].tool_results == []
    [invocation] = invocations(result)
    assert invocation.model_dump() == {
        "state": "result",
        "tool_call_id": "c1",
        "tool_name": "get_weather",
        "args": {"city": "Oslo"},
        "result": "Sunny in Oslo",
        "is_error": None,
        "error_text": None,
        "blocked_by": None,
    }


def edit_call(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """What a processor passes to ``update_tool_invocation`` to rewrite a pending call's arguments."""
    return {
        "type": "tool-invocation",
        "tool_invocation": {"state": "call", "tool_call_id": call_id, "tool_name": name, "args": args},
    }


async def test_the_history_keeps_the_arguments_a_tool_ran_with() -> None:
    """Results are committed in call order after every call ran, so a ``process_tool_result`` of the first call
    may edit the second call's arguments in the list; the second tool ran with the model's, and the history
    pairs its result with them. (A ``process_output_step`` edit of a call is refused before any tool runs:
    tests/processors/loop/test_output_step_tool_calls.py.)"""

    def edit(args: Any) -> None:
        if args.tool_call_id == "c1":
            args.message_list.update_tool_invocation(edit_call("c2", "get_weather", {"city": "Rome"}))

    calls = [ToolCall("get_weather", {"city": "Paris"}, id="c1"), ToolCall("get_weather", {"city": "Oslo"}, id="c2")]
    model = ScriptedModel([Turn(tool_calls=calls), "ok"])
    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("edit", process_tool_result=edit)])
    chunks, result = await run_stream(agent)
    results = [chunk.payload.result for chunk in of_type(chunks, "tool-result")]  # type: ignore[union-attr]
    assert results == ["Sunny in Paris", "Sunny in Oslo"]
    second = invocations(result)[1]
    assert (second.state, second.args, second.result) == ("result", {"city": "Oslo"}, "Sunny in Oslo")


async def test_the_history_keeps_the_arguments_of_a_failed_call() -> None:
    def edit(args: Any) -> None:
        if args.tool_call_id == "c1":
            args.message_list.update_tool_invocation(edit_call("c2", "explode", {}))

    calls = [ToolCall("get_weather", {"city": "Paris"}, id="c1"), ToolCall("explode", {"reason": "r"}, id="c2")]
    model = ScriptedModel([Turn(tool_calls=calls), "ok"])
    agent = make_agent(model, tools=[get_weather, explode], output_processors=[Fn("edit", process_tool_result=edit)])
    _chunks, result = await run_stream(agent)
    second = invocations(result)[1]
    assert (second.state, second.args) == ("output-error", {"reason": "r"})


# ------------------------------------------------------------------------------------- process_tool_result
async def test_process_tool_result_runs_for_a_processor_after_one_without_it() -> None:
    seen: list[tuple[str, Any]] = []
    passthrough = Fn("stream-only", process_output_stream=lambda args: args.part)
    watch = Fn("watch", process_tool_result=lambda args: seen.append((args.tool_call_id, args.result)))
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]), "ok"])
    chunks, _result = await run_stream(make_agent(model, tools=[get_weather], output_processors=[passthrough, watch]))
    assert seen == [("c1", "Sunny in Oslo")]
    # a processor that only looked leaves the tool's result as it was
    assert [chunk.payload.result for chunk in of_type(chunks, "tool-result")] == ["Sunny in Oslo"]  # type: ignore[union-attr]
    assert [m["content"] for m in tool_messages(model.requests[1])] == ["Sunny in Oslo"]


async def test_process_tool_result_is_given_the_call_and_the_steps_so_far() -> None:
    seen: list[dict[str, Any]] = []

    def watch(args: Any) -> None:
        seen.append(
            {
                "step_number": args.step_number,
                "steps": [(step.step_number, [c["tool_call_id"] for c in step.tool_calls]) for step in args.steps],
                "tool": (args.tool_name, args.tool_call_id, args.args, args.result),
                "roles": [message.role for message in args.messages],
                "system": args.system_messages,
            }
        )

    model = ScriptedModel(
        [
            Turn(text="Looking.", tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]),
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Rome"}, id="c2")]),
            "ok",
        ]
    )
    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("watch", process_tool_result=watch)])
    await run_stream(agent)
    assert seen == [
        {
            "step_number": 0,
            "steps": [(0, ["c1"])],
            "tool": ("get_weather", "c1", {"city": "Oslo"}, "Sunny in Oslo"),
            "roles": ["user", "assistant"],
            "system": [{"role": "system", "content": "You are terse."}],
        },
        {
            "step_number": 1,
            "steps": [(0, ["c1"]), (1, ["c2"])],
            "tool": ("get_weather", "c2", {"city": "Rome"}, "Sunny in Rome"),
            "roles": ["user", "assistant"],
            "system": [{"role": "system", "content": "You are terse."}],
        },
    ]


async def test_a_replaced_result_is_what_the_next_processor_the_stream_and_the_model_see() -> None:
    seen: list[Any] = []

    def redact(args: Any) -> None:
        args.message_list.update_tool_invocation(replace_result(args.tool_call_id, args.tool_name, "[redacted]"))

    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]), "ok"])
    agent = make_agent(
        model,
        tools=[get_weather],
        output_processors=[
            Fn("redact", process_tool_result=redact),
            Fn("watch", process_tool_result=lambda args: seen.append(args.result)),
        ],
    )
    tracer = RecordingTracer()
    chunks, result = await run_stream(agent, tracers=[tracer])
    assert seen == ["[redacted]"]
    assert [chunk.payload.result for chunk in of_type(chunks, "tool-result")] == ["[redacted]"]  # type: ignore[union-attr]
    assert [m["content"] for m in tool_messages(model.requests[1])] == ["[redacted]"]
    assert result.steps[0].tool_results == [{"tool_call_id": "c1", "tool_name": "get_weather", "result": "[redacted]"}]
    traced = [
        (e.processor_id, e.outcome, e.before, e.after, e.tool_call_id, e.tool_result)
        for e in tracer.events
        if e.hook == "process_tool_result"
    ]
    assert traced == [  # the trace keeps what the tool itself returned next to what each processor saw
        ("redact", "changed", "get_weather → Sunny in Oslo", "get_weather → [redacted]", "c1", "Sunny in Oslo"),
        ("watch", "passed", "get_weather → [redacted]", "get_weather → [redacted]", "c1", "Sunny in Oslo"),
    ]


async def test_a_message_process_tool_result_adds_is_part_of_the_response() -> None:
    def note(args: Any) -> list[Message]:
        return [*args.messages, Message.user("Checked by the tool guard.")]

    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]), "ok"])
    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("note", process_tool_result=note)])
    _chunks, result = await run_stream(agent, "q")
    assert [(m.role, m.text) for m in result.messages] == [
        ("assistant", ""),
        ("user", "Checked by the tool guard."),
        ("assistant", "ok"),
    ]
    assert model.requests[1].messages[-1] == {"role": "user", "content": "Checked by the tool guard."}


# ------------------------------------------------------------------------------------ traced descriptions
def _traced_results(tracer: RecordingTracer) -> list[tuple[str, str]]:
    return [(e.before, e.after) for e in tracer.events if e.hook == "process_tool_result"]


async def _trace_tool_returning(value: Any, replacement: Any = None) -> list[tuple[str, str]]:
    @tool
    def lookup() -> Any:
        """Returns a fixed value."""
        return value

    def replace(args: Any) -> None:
        if replacement is not None:
            args.message_list.update_tool_invocation(replace_result(args.tool_call_id, args.tool_name, replacement))

    model = ScriptedModel([Turn(tool_calls=[ToolCall("lookup", {}, id="c1")]), "ok"])
    agent = make_agent(model, tools=[lookup], output_processors=[Fn("r", process_tool_result=replace)])
    tracer = RecordingTracer()
    chunks, _result = await run_stream(agent, tracers=[tracer])
    assert chunks[-1].type == "finish"
    return _traced_results(tracer)


async def test_the_trace_shows_a_structured_result_as_json() -> None:
    assert await _trace_tool_returning({"city": "Oslo", "days": [1, 2]}) == [
        ('lookup → {"city": "Oslo", "days": [1, 2]}', 'lookup → {"city": "Oslo", "days": [1, 2]}')
    ]


@pytest.mark.parametrize(
    ("length", "shown"),
    [(79, "a" * 79), (80, "a" * 80), (81, "a" * 79 + "…"), (200, "a" * 79 + "…")],
)
async def test_the_trace_cuts_a_result_longer_than_80_characters_to_79_and_an_ellipsis(length: int, shown: str) -> None:
    assert await _trace_tool_returning("a" * length) == [(f"lookup → {shown}", f"lookup → {shown}")]


async def test_the_trace_shows_a_replaced_result_that_is_not_plain_json_as_text() -> None:
    """A processor may put any value in the invocation; describing it must not fail the run."""
    replacement = {"checked": datetime.date(2026, 12, 1)}
    assert await _trace_tool_returning("raw", replacement) == [("lookup → raw", 'lookup → {"checked": "2026-12-01"}')]


# ---------------------------------------------------------------------------------- beyond Exception
TOOL_CHUNKS = ("tool-call", "tool-result", "tool-error")


class Halt(BaseException):
    """Not an ``Exception``: like a cancellation or an interpreter exit, it must never become a tool error."""


async def test_a_tool_raising_a_base_exception_stops_the_run_after_the_results_before_it() -> None:
    @tool
    async def halt() -> str:
        """Raises something that is not an Exception."""
        raise Halt("stop")

    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1"), ToolCall("halt", {}, id="c2")]),
            "never",
        ]
    )
    seen: list[Any] = []

    async def read() -> None:
        async for chunk in make_agent(model, tools=[get_weather, halt]).stream("hi"):
            seen.append(chunk)

    with pytest.raises(Halt, match="stop"):
        await read()
    assert [(chunk.type, chunk.payload.tool_call_id) for chunk in seen if chunk.type in TOOL_CHUNKS] == [  # type: ignore[union-attr]
        ("tool-call", "c1"),
        ("tool-call", "c2"),
        ("tool-result", "c1"),
    ]
    assert len(model.requests) == 1
