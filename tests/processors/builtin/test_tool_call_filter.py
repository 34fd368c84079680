"""ToolCallFilter: earlier tool calls leave the prompt, never the stored history."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent
from processors.builtin.base import InvalidOptionsError
from processors.builtin.tool_call_filter import ToolCallFilter
from processors.memory.base import InMemoryMemory
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tools import tool
from tests.processors.helpers import get_weather


@tool
def get_time(city: str) -> str:
    """Get the time in a city.

    Args:
        city: The city name.
    """
    return f"Noon in {city}"


def tool_roles(messages: list[dict[str, Any]]) -> list[str]:
    names = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            names.append(call["function"]["name"])
        if message["role"] == "tool":
            names.append("result")
    return names


async def remembered_tool_run(memory: InMemoryMemory) -> None:
    """A first conversation turn that called get_weather and get_time, saved to thread t1."""
    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {"city": "Paris"})]),
            "Sunny at noon.",
        ]
    )
    await Agent(id="a", model=model, tools=[get_weather, get_time], memory=memory).generate("Paris?", thread_id="t1")


async def test_history_tool_calls_leave_the_prompt_but_this_calls_stay() -> None:
    memory = InMemoryMemory()
    await remembered_tool_run(memory)
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Rome"}, id="rome")]), "Also sunny."])
    agent = Agent(
        id="a", model=model, tools=[get_weather, get_time], memory=memory, input_processors=[ToolCallFilter()]
    )
    result = await agent.generate("And Rome?", thread_id="t1")
    assert result.text == "Also sunny."
    first, second = (request.messages for request in model.requests)
    assert tool_roles(first) == []  # the remembered calls and results are gone
    spoken = [m["content"] for m in first if m["role"] in ("user", "assistant")]
    assert spoken == ["Paris?", "Sunny at noon.", "And Rome?"]
    assert tool_roles(second) == ["get_weather", "result"]  # this call's own tool step is kept
    saved = await memory.load_messages("t1")
    assert sum(len(m.tool_invocations) for m in saved) == 3  # history itself is untouched


async def test_exclude_filters_only_the_named_tools() -> None:
    memory = InMemoryMemory()
    await remembered_tool_run(memory)
    model = ScriptedModel(["ok"])
    agent = Agent(
        id="a",
        model=model,
        tools=[get_weather, get_time],
        memory=memory,
        input_processors=[ToolCallFilter(exclude=["get_time"])],
    )
    await agent.generate("more?", thread_id="t1")
    assert tool_roles(model.requests[0].messages) == ["get_weather", "result"]


async def test_filter_after_tool_steps_keeps_only_the_latest_tool_steps() -> None:
    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
            Turn(tool_calls=[ToolCall("get_time", {"city": "Paris"})]),
            "Done.",
        ]
    )
    agent = Agent(
        id="a", model=model, tools=[get_weather, get_time], input_processors=[ToolCallFilter(filter_after_tool_steps=1)]
    )
    await agent.generate("Paris?")
    assert tool_roles(model.requests[1].messages) == ["get_weather", "result"]
    assert tool_roles(model.requests[2].messages) == ["get_time", "result"]


async def test_preserve_model_output_keeps_what_the_tool_said_as_text() -> None:
    memory = InMemoryMemory()
    await remembered_tool_run(memory)
    model = ScriptedModel(["ok"])
    agent = Agent(
        id="a",
        model=model,
        tools=[get_weather, get_time],
        memory=memory,
        input_processors=[ToolCallFilter(preserve_model_output=True)],
    )
    await agent.generate("more?", thread_id="t1")
    sent = model.requests[0].messages
    assert tool_roles(sent) == []
    summary = next(m["content"] for m in sent if m["role"] == "assistant" and "result:" in (m["content"] or ""))
    assert "get_weather result:\nSunny in Paris" in summary and "get_time result:\nNoon in Paris" in summary


def test_bad_options_name_the_field() -> None:
    with pytest.raises(InvalidOptionsError, match="filter_after_tool_steps"):
        ToolCallFilter(filter_after_tool_steps=-1)
