"""A tool result an output processor blocks leaves a consistent turn: the call is kept (the tool did run) with an
``output-error`` that says a processor blocked its result, never the result itself, in the saved thread, in
``result.messages``, in the step's record, in the stream (a ``tool-error`` chunk before the one terminal chunk) and
in the next turn's prompt (a tool message answering the call, which a provider requires).

Mastra 1.71 enqueues the tripwire and leaves the call without a result (the thread then holds a call no provider
would accept back); here the run ends the same way, and the call is answered with what happened.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from processors import Agent, tool
from processors.memory import SqlMemory
from processors.messages import ToolInvocationPart
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.helpers import TERMINAL, Abort, Fn, collect, get_weather, kinds, of_type, run_stream

BLOCKED = "The tool's result was blocked by processor 'guard'"
UNUSED = "No result: the run ended before this tool call was answered (blocked by processor 'guard')"


def invocations(messages: list[Any]) -> list[Any]:
    return [
        part.tool_invocation
        for message in messages
        for part in message.content.parts
        if isinstance(part, ToolInvocationPart)
    ]


def model(*calls: ToolCall) -> ScriptedModel:
    return ScriptedModel([Turn(text="Checking.", tool_calls=list(calls)), "Next turn."])


async def blocked_turn(tmp_path: Path, guard: Any, *calls: ToolCall) -> tuple[Any, ...]:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    scripted = model(*calls)
    agent = Agent(id="a", model=scripted, tools=[get_weather], memory=memory, output_processors=[guard])
    chunks, result = await run_stream(agent, "weather?", thread_id="t1")
    saved = await memory.all_messages("t1")
    next_result = await Agent(id="a", model=scripted, tools=[get_weather], memory=memory).generate(
        "and now?", thread_id="t1"
    )
    await memory.close()
    return chunks, result, saved, scripted.requests[-1].messages, next_result


def paris(call_id: str = "c1") -> ToolCall:
    return ToolCall("get_weather", {"city": "Paris"}, id=call_id)


async def test_a_result_blocked_in_process_tool_result_answers_the_call_with_an_error(tmp_path: Path) -> None:
    chunks, result, saved, prompt, next_result = await blocked_turn(
        tmp_path, Abort("guard", "process_tool_result", "result holds a secret"), paris()
    )
    # the stream: the call's outcome, then exactly one terminal chunk
    assert kinds(chunks)[-2:] == ["tool-error", "tripwire"]
    assert sum(kinds(chunks).count(kind) for kind in TERMINAL) == 1
    [error] = of_type(chunks, "tool-error")
    assert (error.payload.tool_call_id, error.payload.error) == ("c1", BLOCKED)  # type: ignore[union-attr]
    assert (error.payload.tool_name, error.payload.args) == ("get_weather", {"city": "Paris"})  # type: ignore[union-attr]
    assert not of_type(chunks, "tool-result")
    assert result.tripwire.reason == "result holds a secret"
    # the result, the step and the saved thread agree: the call stands, answered with the block, never the result
    for messages in (result.messages, saved):
        [call] = invocations(messages)
        assert (call.state, call.tool_call_id, call.error_text, call.result) == ("output-error", "c1", BLOCKED, None)
        assert (call.args, call.is_error) == ({"city": "Paris"}, True)
        assert all("Sunny" not in message.text for message in messages)
    assert result.steps[0].tool_results == [{"tool_call_id": "c1", "tool_name": "get_weather", "error": BLOCKED}]
    # the next turn's prompt answers the call (a provider rejects a call without its tool message)
    calls = [m for m in prompt if m["role"] == "assistant" and m.get("tool_calls")]
    assert [c["id"] for m in calls for c in m["tool_calls"]] == ["c1"]
    assert {"role": "tool", "tool_call_id": "c1", "content": BLOCKED} in prompt
    assert all("Sunny" not in str(m.get("content")) for m in prompt)
    assert next_result.text == "Next turn."


async def test_the_calls_after_a_blocked_one_are_answered_as_unused(tmp_path: Path) -> None:
    guard = Abort("guard", "process_tool_result", "no", when=lambda args: args.tool_call_id == "c1")
    chunks, result, saved, prompt, _next = await blocked_turn(tmp_path, guard, paris("c1"), paris("c2"))
    assert kinds(chunks)[-3:] == ["tool-error", "tool-error", "tripwire"]
    assert [c.payload.error for c in of_type(chunks, "tool-error")] == [BLOCKED, UNUSED]  # type: ignore[union-attr]
    for messages in (result.messages, saved):
        assert [(c.tool_call_id, c.state, c.error_text, c.result) for c in invocations(messages)] == [
            ("c1", "output-error", BLOCKED, None),
            ("c2", "output-error", UNUSED, None),
        ]
    assert [r["error"] for r in result.steps[0].tool_results] == [BLOCKED, UNUSED]
    assert [m["tool_call_id"] for m in prompt if m["role"] == "tool"] == ["c1", "c2"]


async def test_a_tool_result_chunk_blocked_by_a_stream_processor_is_not_kept_either(tmp_path: Path) -> None:
    """The result passed ``process_tool_result`` but a stream guard stops its chunk: the client never saw it, so
    the thread and the next prompt do not get it either."""
    guard = Abort("guard", "process_output_stream", "no", when=lambda args: args.part.type == "tool-result")
    chunks, result, saved, prompt, _next = await blocked_turn(tmp_path, guard, paris())
    assert kinds(chunks)[-2:] == ["tool-error", "tripwire"]
    for messages in (result.messages, saved):
        [call] = invocations(messages)
        assert (call.state, call.error_text, call.result) == ("output-error", BLOCKED, None)
        assert call.args == {"city": "Paris"}  # the undone result leaves the call as the model made it
    assert result.steps[0].tool_results == [{"tool_call_id": "c1", "tool_name": "get_weather", "error": BLOCKED}]
    assert all("Sunny" not in str(m.get("content")) for m in prompt)


async def test_a_result_that_breaks_the_contract_leaves_the_call_answered_as_unused(tmp_path: Path) -> None:
    broken = Fn("guard", process_tool_result=lambda args: "not messages")
    chunks, result, saved, prompt, _next = await blocked_turn(tmp_path, broken, paris())
    assert kinds(chunks)[-1] == "error"
    assert sum(kinds(chunks).count(kind) for kind in TERMINAL) == 1
    for messages in (result.messages, saved):
        [call] = invocations(messages)
        assert call.state == "output-error"
        assert call.error_text == "No result: the run ended before this tool call was answered (it failed)"
    assert [m["tool_call_id"] for m in prompt if m["role"] == "tool"] == ["c1"]


async def test_a_run_stopped_while_its_tool_runs_saves_the_call_answered_as_stopped(tmp_path: Path) -> None:
    started = asyncio.Event()

    @tool
    async def slow_lookup(city: str) -> str:
        """Look a city up, slowly.

        Args:
            city: The city.
        """
        started.set()
        await asyncio.Event().wait()
        return "never"

    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    call = ToolCall("slow_lookup", {"city": "Paris"}, id="c1")
    agent = Agent(
        id="a", model=ScriptedModel([Turn(text="Checking.", tool_calls=[call])]), tools=[slow_lookup], memory=memory
    )
    stream = agent.stream("weather?", thread_id="t1")
    consumer = asyncio.ensure_future(collect(stream))
    await asyncio.wait_for(started.wait(), 5)
    await stream.aclose()
    await asyncio.wait_for(consumer, 5)
    result = await stream.result()
    saved = await memory.all_messages("t1")
    await memory.close()
    stopped = "No result: the run ended before this tool call was answered (it was stopped)"
    assert result.finish_reason == "abort"
    for messages in (result.messages, saved):
        [answered] = invocations(messages)
        assert (answered.state, answered.error_text, answered.result) == ("output-error", stopped, None)
    assert result.steps[0].tool_results == [{"tool_call_id": "c1", "tool_name": "slow_lookup", "error": stopped}]
