"""ToolCallFilter on a prompt it did not make: tool calls that are not objects, or hold no readable function.

An earlier ``process_llm_request`` processor may hand on such a prompt (the runner checks only that it is a list of
messages with a role). The filter leaves what it cannot read where it is, for the model to judge, and still removes
the calls it can read; it used to end the run with an ``AttributeError`` (``'str' object has no attribute 'get'``).
"""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent
from processors.builtin.tool_call_filter import ToolCallFilter
from processors.memory.base import InMemoryMemory
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.builtin.test_tool_call_filter import get_time
from tests.processors.helpers import Fn, get_weather

#: Entries of ``tool_calls`` with no string id: nothing can match them with a result, so they stay.
ODD: list[Any] = ["call_x", None, 7, ["w1"], {"function": {"name": 3}}, {"id": 5, "function": {"name": "get_time"}}]
#: A call with an id but no readable name: a remembered call like any other, so it leaves ("tool" names it).
NAMELESS = {"id": "nameless", "function": "get_weather"}


def add_odd_calls(args: Any) -> dict[str, Any]:
    """Puts the odd entries among the remembered step's calls, and one more assistant message holding only them."""
    prompt = [dict(message) for message in args.prompt]
    for message in prompt:
        if message.get("tool_calls"):
            message["tool_calls"] = [*ODD[:2], *message["tool_calls"], NAMELESS, *ODD[2:]]
    return {"prompt": [*prompt[:-1], {"role": "assistant", "content": None, "tool_calls": list(ODD)}, prompt[-1]]}


async def prompt_with_odd_calls(**options: Any) -> list[dict[str, Any]]:
    memory = InMemoryMemory()
    first = ScriptedModel(
        [
            Turn(
                text="Let me check.",
                tool_calls=[
                    ToolCall("get_weather", {"city": "Paris"}, id="w1"),
                    ToolCall("get_time", {"city": "Paris"}, id="t1"),
                ],
            ),
            "Sunny at noon.",
        ]
    )
    tools = [get_weather, get_time]
    await Agent(id="a", model=first, tools=tools, memory=memory).generate("Paris?", thread_id="t1")
    model = ScriptedModel(["ok"])
    odd = Fn("odd-calls", process_llm_request=add_odd_calls)
    agent = Agent(id="a", model=model, tools=tools, memory=memory, input_processors=[odd, ToolCallFilter(**options)])
    result = await agent.generate("more?", thread_id="t1")
    assert (result.finish_reason, result.text) == ("stop", "ok")
    return model.requests[0].messages


@pytest.mark.parametrize("preserve", [False, True])
async def test_calls_the_filter_cannot_read_stay_and_the_ones_it_can_read_leave(preserve: bool) -> None:
    prompt = await prompt_with_odd_calls(preserve_model_output=preserve)
    text = "Let me check."
    if preserve:
        text += "\n\nget_weather result:\nSunny in Paris\n\nget_time result:\nNoon in Paris\n\ntool result:\n"
    assert prompt == [
        {"role": "user", "content": "Paris?"},
        {"role": "assistant", "content": text, "tool_calls": ODD},
        {"role": "assistant", "content": "Sunny at noon."},
        {"role": "assistant", "content": None, "tool_calls": ODD},
        {"role": "user", "content": "more?"},
    ]


async def test_exclude_reads_a_name_only_from_a_call_that_has_one() -> None:
    prompt = await prompt_with_odd_calls(exclude=["get_time"])
    [calls] = [m["tool_calls"] for m in prompt if m.get("content") == "Let me check."]
    weather = {"id": "w1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    assert calls == [*ODD[:2], weather, NAMELESS, *ODD[2:]]  # NAMELESS has no name to compare with: kept
    assert [m.get("tool_call_id") for m in prompt if m["role"] == "tool"] == ["w1"]


def test_filter_called_directly_keeps_what_it_cannot_read() -> None:
    prompt: list[Any] = [
        {"role": "assistant", "content": None, "tool_calls": "not a list"},
        {"role": "assistant", "content": None, "tool_calls": ["x", {"id": "a", "function": {"name": "f"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "A"},
    ]
    assert ToolCallFilter().filter(prompt, {"a"}, {"a": "f"}) == [
        {"role": "assistant", "content": None, "tool_calls": "not a list"},
        {"role": "assistant", "content": None, "tool_calls": ["x"]},
    ]
