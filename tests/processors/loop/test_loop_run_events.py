"""The run's outer loop (``Run.events``) at its edges, through whole agent runs: a block or a retry from a chunk
outside the model's stream, a step budget that runs out while a failed model call is retried, and what the
``finish`` chunk says of calls left pending."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from processors import Processor, ProcessOutputStepArgs
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, ToolCall, Turn
from processors.models.base import Finish, ModelEvent, ModelRequest, TextDelta
from tests.processors.helpers import Abort, Fn, get_weather, kinds, make_agent, of_type, run_stream


async def test_a_blocked_step_start_ends_the_run_and_keeps_the_step_as_blocked() -> None:
    guard = Abort("guard", "process_output_stream", "no steps", when=lambda args: args.part.type == "step-start")
    model = ScriptedModel(["never streamed"])
    chunks, result = await run_stream(make_agent(model, output_processors=[guard]))
    assert kinds(chunks) == ["start", "tripwire"]
    assert model.requests == []  # blocked before the model was called
    [step] = result.steps
    assert (step.step_number, step.finish_reason, step.text) == (0, "tripwire", "")
    assert step.tripwire is not None
    assert (step.tripwire.reason, step.tripwire.processor_id) == ("no steps", "guard")
    assert (result.finish_reason, result.tripwire) == ("other", step.tripwire)


class RewriteAnswer(Processor):
    """Rewrites the step's answer in ``process_output_step``."""

    id = "rewrite"

    def process_output_step(self, args: ProcessOutputStepArgs) -> Any:
        for part in args.message_list.get.response.db()[-1].content.parts:
            if part.type == "text":
                part.text = "Rewritten."  # type: ignore[union-attr]
        return args.message_list


async def test_a_blocked_step_finish_keeps_the_steps_rewritten_answer() -> None:
    guard = Abort("guard", "process_output_stream", when=lambda args: args.part.type == "step-finish")
    model = ScriptedModel(["The model's answer."])
    chunks, result = await run_stream(make_agent(model, output_processors=[RewriteAnswer(), guard]))
    assert chunks[-1].type == "tripwire"
    [step] = result.steps
    assert step.text == "Rewritten."
    assert result.text == "Rewritten."


async def test_a_retry_from_a_later_steps_step_finish_numbers_the_next_step_on() -> None:
    """A retry asked on a chunk outside the model's stream (here a step's ``step-finish``) consumes one step of
    the budget: the retried call is the next step, as a retry from inside the stream is."""
    finishes: list[int] = []

    def second_finish_retried_once(args: Any) -> Any:
        if args.part.type == "step-finish":
            finishes.append(1)
            if len(finishes) == 2:
                args.abort("try again", retry=True)
        return args.part

    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]), "First.", "Second."])
    agent = make_agent(
        model,
        tools=[get_weather],
        max_processor_retries=1,
        max_steps=4,
        output_processors=[Fn("guard", process_output_stream=second_finish_retried_once)],
    )
    chunks, result = await run_stream(agent)
    assert [(step.step_number, step.finish_reason) for step in result.steps] == [
        (0, "tool-calls"),
        (1, "retry"),
        (2, "stop"),
    ]
    assert (result.text, result.finish_reason, len(model.requests)) == ("Second.", "stop", 3)
    assert chunks[-1].type == "finish"


async def test_a_failed_model_call_retried_until_the_step_budget_runs_out_ends_with_its_error() -> None:
    error = ModelAPIError(503, "overloaded", True)
    model = ScriptedModel([Turn(error=error)], repeat=True)
    agent = make_agent(model, max_steps=2, error_processors=[Fn("retry", process_api_error=lambda a: {"retry": True})])
    chunks, result = await run_stream(agent)
    assert len(model.requests) == 2
    assert kinds(chunks)[-2:] == ["step-finish", "error"]
    assert chunks[-1].payload.error == error.to_dict()  # type: ignore[union-attr]
    assert (result.finish_reason, result.error) == ("error", "Model call failed: overloaded")
    assert [(step.finish_reason, step.error) for step in result.steps] == [
        ("retry", "overloaded"),
        ("retry", "overloaded"),
    ]


async def test_a_run_the_step_budget_stopped_finishes_with_the_calls_it_left_pending() -> None:
    call = ToolCall("get_weather", {"city": "Oslo"}, id="c1")
    model = ScriptedModel([Turn(tool_calls=[call])], repeat=True)
    chunks, result = await run_stream(make_agent(model, tools=[get_weather], max_steps=1))
    [finish] = of_type(chunks, "finish")
    assert finish.to_wire()["payload"]["output"]["toolCalls"] == [
        {"toolCallId": "c1", "toolName": "get_weather", "args": {"city": "Oslo"}}
    ]
    assert result.finish_reason == "tool-calls"


async def test_the_finish_chunk_carries_the_whole_runs_text_and_usage() -> None:
    model = ScriptedModel([Turn(text="Looking. ", tool_calls=[ToolCall("get_weather", {"city": "Oslo"})]), "Sunny."])
    chunks, result = await run_stream(make_agent(model, tools=[get_weather]))
    [finish] = of_type(chunks, "finish")
    output = finish.payload.output  # type: ignore[union-attr]
    assert (output.text, output.tool_calls) == ("Looking. Sunny.", [])
    assert output.usage == result.usage
    assert result.usage.total_tokens == sum(step.usage.total_tokens for step in result.steps) > 0


def _breaks_on(kind: str, nth: int = 1) -> Fn:
    """A stream processor that returns something that is not a chunk for the ``nth`` chunk of type ``kind``."""
    seen: list[int] = []

    def process_output_stream(args: Any) -> Any:
        if args.part.type == kind:
            seen.append(1)
            if len(seen) == nth:
                return {"not": "a chunk"}
        return args.part

    return Fn("breaks", process_output_stream=process_output_stream)


async def test_a_stream_processor_breaking_mid_answer_keeps_what_was_streamed_with_the_error() -> None:
    model = ScriptedModel([Turn(text=["Hello ", "world", "!"])])
    chunks, result = await run_stream(make_agent(model, output_processors=[_breaks_on("text-delta", nth=2)]))
    assert chunks[-1].type == "error"
    assert chunks[-1].payload.error["name"] == "ProcessorContractError"  # type: ignore[union-attr]
    [step] = result.steps
    assert (step.text, step.finish_reason, step.tripwire) == ("Hello ", "error", None)
    [answer] = result.messages
    assert answer.text == "Hello "
    [error_part] = [part for part in answer.content.parts if part.type == "error"]
    assert error_part.error.name == "ProcessorContractError"  # type: ignore[union-attr]
    assert (result.text, result.finish_reason) == ("Hello ", "error")


async def test_a_stream_processor_breaking_on_step_finish_keeps_the_steps_rewritten_answer() -> None:
    model = ScriptedModel(["The model's answer."])
    chunks, result = await run_stream(make_agent(model, output_processors=[RewriteAnswer(), _breaks_on("step-finish")]))
    assert chunks[-1].type == "error"
    [step] = result.steps
    assert (step.text, step.finish_reason) == ("Rewritten.", "stop")
    assert result.text == "Rewritten."


async def test_a_run_that_fails_on_input_it_cannot_use_logs_the_failure_with_its_run_id(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="processors.loop.run"):
        chunks, result = await run_stream(make_agent(ScriptedModel(["never"])), 42)  # not a message
    assert kinds(chunks) == ["start", "error"]
    [record] = [record for record in caplog.records if record.name == "processors.loop.run"]
    assert record.getMessage() == f"run {result.run_id} failed"
    assert record.exc_info is not None
    assert record.exc_info[0] is TypeError


async def _stop_at(agent: Any, kind: str) -> Any:
    """Read the run's stream up to the first chunk of type ``kind``, stop it there, and return its result."""
    stream = agent.stream("hi")
    async for chunk in stream:
        if chunk.type == kind:
            break
    await stream.aclose()
    return await stream.result()


async def test_a_run_stopped_mid_answer_keeps_the_partial_step_as_aborted() -> None:
    result = await _stop_at(make_agent(ScriptedModel([Turn(text=["one ", "two ", "three"])])), "text-delta")
    assert [(step.text, step.finish_reason, step.tripwire) for step in result.steps] == [("one ", "abort", None)]
    assert (result.finish_reason, result.text) == ("abort", "one ")


async def test_a_run_stopped_after_its_step_was_accepted_keeps_the_steps_rewritten_answer() -> None:
    agent = make_agent(ScriptedModel(["The model's answer."]), output_processors=[RewriteAnswer()])
    result = await _stop_at(agent, "step-finish")
    assert [(step.text, step.finish_reason) for step in result.steps] == [("Rewritten.", "stop")]
    assert (result.finish_reason, result.text) == ("abort", "Rewritten.")


async def test_a_run_stopped_before_its_first_step_ends_as_aborted_with_no_steps() -> None:
    model = ScriptedModel(["never"])
    result = await _stop_at(make_agent(model), "start")
    assert (result.finish_reason, result.steps, result.text) == ("abort", [], "")
    assert model.requests == []


class MalformedUsage:
    """A model adapter with a bug: its finish event carries a plain dict where a ``Usage`` belongs."""

    provider = "custom"
    model_id = "custom/malformed-usage"

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield TextDelta("Hello ")
        yield Finish("stop", usage={"input_tokens": 1})  # type: ignore[arg-type]


async def test_a_bug_after_the_model_answered_ends_the_run_keeping_what_was_streamed_with_the_error() -> None:
    chunks, result = await run_stream(make_agent(MalformedUsage()))
    assert kinds(chunks)[-2:] == ["text-end", "error"]
    assert chunks[-1].payload.error["name"] == "AttributeError"  # type: ignore[union-attr]
    assert [(step.text, step.finish_reason, step.tripwire) for step in result.steps] == [("Hello ", "error", None)]
    [answer] = result.messages
    assert answer.text == "Hello "
    [error_part] = [part for part in answer.content.parts if part.type == "error"]
    assert error_part.error.name == "AttributeError"  # type: ignore[union-attr]
    assert (result.text, result.finish_reason) == ("Hello ", "error")
