"""ToolCallFilter at its edges: the exact prompt the model receives for each option, calls of one step split by
``exclude``, the ``filter_after_tool_steps`` bounds, and the text ``preserve_model_output`` writes (issue 16).

Each test pins a behaviour mutation testing found unchecked; see tests/README.md.
"""

from __future__ import annotations

from typing import Any

from processors import Agent
from processors.builtin.tool_call_filter import ToolCallFilter
from processors.memory.base import InMemoryMemory
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.builtin.test_tool_call_filter import get_time
from tests.processors.helpers import get_weather

WEATHER = {"id": "w1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
TIME = {"id": "t1", "type": "function", "function": {"name": "get_time", "arguments": '{"city": "Paris"}'}}


async def prompt_after_history(**options: Any) -> list[dict[str, Any]]:
    """What the model receives on a thread that remembers one step calling get_weather and get_time (with text)."""
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
    agent = Agent(id="a", model=model, tools=tools, memory=memory, input_processors=[ToolCallFilter(**options)])
    await agent.generate("more?", thread_id="t1")
    return model.requests[0].messages


async def test_every_remembered_call_leaves_and_the_text_of_its_message_stays() -> None:
    assert await prompt_after_history() == [
        {"role": "user", "content": "Paris?"},
        {"role": "assistant", "content": "Let me check."},
        {"role": "assistant", "content": "Sunny at noon."},
        {"role": "user", "content": "more?"},
    ]


async def test_an_empty_exclude_list_filters_every_tool() -> None:
    assert await prompt_after_history(exclude=[]) == await prompt_after_history()


async def test_exclude_splits_the_calls_of_one_step() -> None:
    assert await prompt_after_history(exclude=["get_time"]) == [
        {"role": "user", "content": "Paris?"},
        {"role": "assistant", "content": "Let me check.", "tool_calls": [WEATHER]},
        {"role": "tool", "tool_call_id": "w1", "content": "Sunny in Paris"},
        {"role": "assistant", "content": "Sunny at noon."},
        {"role": "user", "content": "more?"},
    ]


async def test_excluding_a_tool_that_was_not_called_leaves_the_prompt_alone() -> None:
    prompt = await prompt_after_history(exclude=["search"])
    assert prompt[1] == {"role": "assistant", "content": "Let me check.", "tool_calls": [WEATHER, TIME]}
    assert [m.get("tool_call_id") for m in prompt if m["role"] == "tool"] == ["w1", "t1"]


async def test_preserve_model_output_appends_each_result_after_the_messages_own_text() -> None:
    prompt = await prompt_after_history(preserve_model_output=True)
    assert prompt[1] == {
        "role": "assistant",
        "content": "Let me check.\n\nget_weather result:\nSunny in Paris\n\nget_time result:\nNoon in Paris",
    }
    assert len(prompt) == 4


async def test_preserve_model_output_with_exclude_keeps_the_other_call() -> None:
    prompt = await prompt_after_history(exclude=["get_time"], preserve_model_output=True)
    assert prompt[1] == {
        "role": "assistant",
        "content": "Let me check.\n\nget_time result:\nNoon in Paris",
        "tool_calls": [WEATHER],
    }


async def two_tool_steps(filter_after_tool_steps: int) -> list[list[str]]:
    """The tool calls (by tool name) in each prompt of a call that makes two tool steps."""
    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
            Turn(tool_calls=[ToolCall("get_time", {"city": "Paris"})]),
            "Done.",
        ]
    )
    guard = ToolCallFilter(filter_after_tool_steps=filter_after_tool_steps)
    await Agent(id="a", model=model, tools=[get_weather, get_time], input_processors=[guard]).generate("Paris?")
    return [
        [call["function"]["name"] for m in request.messages for call in m.get("tool_calls") or []]
        + ["result" for m in request.messages if m["role"] == "tool"]
        for request in model.requests
    ]


async def test_filter_after_zero_tool_steps_filters_this_calls_own_calls_too() -> None:
    assert await two_tool_steps(0) == [[], [], []]


async def test_filter_after_more_tool_steps_than_were_made_keeps_them_all() -> None:
    assert await two_tool_steps(5) == [[], ["get_weather", "result"], ["get_weather", "get_time", "result", "result"]]


async def test_filter_after_two_tool_steps_keeps_exactly_two() -> None:
    assert await two_tool_steps(2) == [[], ["get_weather", "result"], ["get_weather", "get_time", "result", "result"]]
    assert await two_tool_steps(1) == [[], ["get_weather", "result"], ["get_time", "result"]]


def test_what_preserve_model_output_writes_for_each_shape_of_result() -> None:
    """A result given as content parts is joined, a missing one is empty, an unnamed call is "tool"."""
    prompt: list[dict[str, Any]] = [
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Checking"}, {"type": "text", "text": " now."}, "junk"],
            "tool_calls": [
                {"id": "a", "function": {"name": "parts"}},
                {"id": "b", "function": {"name": "missing"}},
                {"id": "c"},
                {"id": "d", "function": {"name": "number"}},
                {"id": "e", "function": {"name": "kept"}},
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "a",
            "content": [{"type": "text", "text": "one"}, {"type": "image_url"}, {"text": "two"}, 3],
        },
        {"role": "tool", "tool_call_id": "c", "content": "unnamed output"},
        {"role": "tool", "tool_call_id": "d", "content": 42},
    ]
    guard = ToolCallFilter(preserve_model_output=True)
    names = {"a": "parts", "b": "missing", "d": "number"}
    (message,) = guard.filter(prompt, {"a", "b", "c", "d"}, names)
    assert message == {
        "role": "assistant",
        "content": "Checking now.\n\nparts result:\nonetwo\n\nmissing result:\n\n\ntool result:\nunnamed output"
        "\n\nnumber result:\n42",
        "tool_calls": [{"id": "e", "function": {"name": "kept"}}],
    }


def test_a_message_left_with_nothing_is_dropped_and_one_with_text_is_kept() -> None:
    prompt: list[dict[str, Any]] = [
        {"role": "assistant", "content": None, "tool_calls": [{"id": "a"}]},
        {"role": "tool", "tool_call_id": "a", "content": "x"},
        {"role": "assistant", "content": "Kept.", "tool_calls": [{"id": "b"}]},
        {"role": "tool", "tool_call_id": "b", "content": "y"},
        {"role": "tool", "tool_call_id": "other", "content": "z"},
    ]
    assert ToolCallFilter().filter(prompt, {"a", "b"}, {}) == [
        {"role": "assistant", "content": "Kept."},
        {"role": "tool", "tool_call_id": "other", "content": "z"},
    ]
