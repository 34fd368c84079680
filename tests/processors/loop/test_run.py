"""The loop's own decisions (``processors.loop.run``), through whole agent runs: what a step asks the model, how a
stream that stops short or a cached answer that cannot be replayed ends the run, what a thread's owner check does,
and what the trace and the result say. Real agents, real ``ScriptedModel``s, real SQLite memory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from processors import Agent, ModelAPIError
from processors.memory import SqlMemory
from processors.models import ScriptedModel
from processors.models.base import ModelEvent, ModelRequest, TextDelta
from processors.models.scripted import ToolCall, Turn
from processors.tracing import ModelCall, RecordingTracer
from tests.processors.helpers import (
    Abort,
    Fn,
    get_weather,
    kinds,
    make_agent,
    of_type,
    run_stream,
    terminal_count,
    user,
)


class Unfinished:
    """A ``LanguageModel`` whose stream ends without a ``Finish`` event (a provider that hung up cleanly)."""

    provider = "custom"
    model_id = "custom/unfinished"

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield TextDelta("half ")
        yield TextDelta("an answer")


def cache(chunks: list[dict[str, Any]], pid: str = "cache") -> Fn:
    """An input processor answering every step from a cache (``process_llm_request``'s ``response``)."""
    return Fn(pid, process_llm_request=lambda args: {"response": {"chunks": chunks}})


# ----------------------------------------------------------------------------------------- the model request
async def test_each_instruction_is_a_system_message_before_the_users() -> None:
    model = ScriptedModel(["ok"])
    agent = Agent(id="a", model=model, instructions=["Be terse.", "Answer in French."])
    await run_stream(agent, "hi")
    [request] = model.requests
    assert request.messages[:3] == [
        {"role": "system", "content": "Be terse."},
        {"role": "system", "content": "Answer in French."},
        {"role": "user", "content": "hi"},
    ]


async def test_a_step_with_tools_lets_the_model_choose_unless_told() -> None:
    model = ScriptedModel(["ok", "ok"])
    agent = make_agent(model, tools=[get_weather])
    await run_stream(agent, "hi")
    await run_stream(agent, "hi", tool_choice="required")
    assert [request.tool_choice for request in model.requests] == ["auto", "required"]
    assert [tool["function"]["name"] for tool in model.requests[0].tools] == ["get_weather"]


async def test_a_step_without_tools_sends_no_tool_choice() -> None:
    model = ScriptedModel(["ok", "ok"])
    agent = make_agent(model)
    await run_stream(agent, "hi")
    await run_stream(agent, "hi", tool_choice="required")
    assert [(request.tools, request.tool_choice) for request in model.requests] == [([], None), ([], None)]


async def test_active_tools_narrow_the_tools_sent_and_an_empty_list_sends_none() -> None:
    model = ScriptedModel(["ok", "ok"])
    agent = make_agent(model, tools=[get_weather])
    await run_stream(agent, "hi", active_tools=["get_weather"])
    await run_stream(agent, "hi", active_tools=[])
    assert [len(request.tools) for request in model.requests] == [1, 0]
    assert model.requests[1].tool_choice is None


async def test_settings_and_provider_options_reach_the_model_as_copies() -> None:
    model = ScriptedModel(["ok"])
    agent = make_agent(model, model_settings={"temperature": 0.2}, provider_options={"openai": {"user": "u"}})
    await run_stream(agent, "hi", model_settings={"seed": 7})
    [request] = model.requests
    assert request.settings == {"temperature": 0.2, "seed": 7}
    assert request.provider_options == {"openai": {"user": "u"}}
    request.settings["seed"] = 8
    request.provider_options["x"] = 1
    assert agent.model_settings == {"temperature": 0.2}
    assert agent.provider_options == {"openai": {"user": "u"}}


async def test_context_messages_follow_the_input_in_the_prompt_and_are_not_saved(tmp_path: Path) -> None:
    model = ScriptedModel(["ok"])
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(id="a", model=model, memory=memory)
    _chunks, result = await run_stream(agent, "hi", thread_id="t1", context=[user("extra context")])
    assert [m["content"] for m in model.requests[0].messages] == ["hi", "extra context"]
    assert result.finish_reason == "stop"
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "hi"), ("assistant", "ok")]
    await memory.close()


async def test_a_message_id_chosen_in_process_input_step_names_the_step_and_its_message() -> None:
    chooser = Fn("chooser", process_input_step=lambda args: {"message_id": "msg-chosen"})
    agent = make_agent(ScriptedModel(["ok"]), input_processors=[chooser])
    chunks, result = await run_stream(agent, "hi")
    [start] = of_type(chunks, "step-start")
    assert start.payload.message_id == "msg-chosen"  # type: ignore[union-attr]
    [finish] = of_type(chunks, "step-finish")
    assert finish.payload.message_id == "msg-chosen"  # type: ignore[union-attr]
    assert [m.id for m in result.messages] == ["msg-chosen"]


async def test_each_step_records_the_model_that_answered_it() -> None:
    model = ScriptedModel(["ok"], model_id="scripted/one")
    agent = make_agent(model)
    _chunks, result = await run_stream(agent, "hi")
    [step] = result.steps
    assert step.model_id == "scripted/one"
    assert step.from_cache is False


# ----------------------------------------------------------------------------------------- ending early
async def test_a_stream_that_ends_without_finishing_is_a_failed_call_that_keeps_its_text() -> None:
    agent = make_agent(Unfinished())
    chunks, result = await run_stream(agent, "hi")
    assert terminal_count(chunks) == 1
    error = chunks[-1]
    assert error.type == "error"
    payload = error.payload.error  # type: ignore[union-attr]
    assert (payload["name"], payload["message"]) == ("ModelAPIError", "The model stream ended before it finished")
    assert (payload["statusCode"], payload["retryable"]) == (None, True)
    assert result.error == "Model call failed: The model stream ended before it finished"
    assert result.finish_reason == "error"
    assert result.text == "half an answer"
    assert [step.finish_reason for step in result.steps] == ["error"]


async def test_a_cached_answer_needs_no_finish_and_ends_as_stop() -> None:
    model = ScriptedModel([])
    chunks = [{"type": "text-delta", "payload": {"id": "t", "text": "from cache"}}]
    agent = make_agent(model, input_processors=[cache(chunks)])
    stream_chunks, result = await run_stream(agent, "hi")
    assert model.requests == []
    assert result.text == "from cache"
    assert result.finish_reason == "stop"
    assert result.steps[0].from_cache is True
    assert stream_chunks[-1].type == "finish"


async def test_a_cached_answer_that_cannot_be_replayed_names_the_processor_not_the_model() -> None:
    model = ScriptedModel(["never"])
    broken = [{"type": "text-delta", "payload": {"id": "t", "text": ["not", "text"]}}]
    agent = make_agent(model, input_processors=[cache(broken, "the-cache")])
    chunks, result = await run_stream(agent, "hi")
    assert model.requests == []
    assert terminal_count(chunks) == 1
    error = chunks[-1].payload.error  # type: ignore[union-attr]
    assert error["name"] == "ProcessorContractError"
    assert error["processorId"] == "the-cache"
    assert error["hook"] == "process_llm_request"
    assert error["message"].startswith(
        "Processor 'the-cache' returned a response from process_llm_request whose chunks cannot be replayed: "
        "ValidationError: "
    )
    assert result.finish_reason == "error"
    assert result.error == error["message"]


async def test_a_thread_of_another_resource_is_refused_before_the_model_is_called(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    model = ScriptedModel(["first", "second"])
    agent = Agent(id="a", model=model, memory=memory)
    await run_stream(agent, "mine", thread_id="t1", resource_id="alice")
    chunks, result = await run_stream(agent, "theirs", thread_id="t1", resource_id="bob")
    assert len(model.requests) == 1
    assert kinds(chunks) == ["start", "error"]
    assert result.finish_reason == "error"
    assert result.error == (
        "The conversation's history could not be loaded: ResourceMismatchError: "
        "Thread 't1' belongs to resource 'alice', not 'bob'"
    )
    saved = await memory.all_messages("t1")
    assert [m.text for m in saved] == ["mine", "first"]
    await memory.close()


# ----------------------------------------------------------------------------------------- tracing
async def test_the_trace_tells_each_model_call_with_its_outcome() -> None:
    tracer = RecordingTracer()
    model = ScriptedModel([Turn(text="ok", usage=None)], model_id="scripted/one")
    agent = make_agent(model)
    _chunks, result = await run_stream(agent, "hi", tracers=[tracer])
    calls = [event for event in tracer.run_events if isinstance(event, ModelCall)]
    assert len(calls) == 1
    call = calls[0]
    assert call.run_id == result.run_id
    assert (call.step_number, call.provider, call.model_id) == (0, "scripted", "scripted/one")
    assert (call.outcome, call.finish_reason, call.from_cache, call.detail) == ("finished", "stop", False, None)
    assert call.started_at <= call.ended_at


async def test_the_trace_tells_a_failed_model_call_and_a_cached_one() -> None:
    tracer = RecordingTracer()
    agent = make_agent(Unfinished())
    await run_stream(agent, "hi", tracers=[tracer])
    [failed] = [event for event in tracer.run_events if isinstance(event, ModelCall)]
    assert (failed.outcome, failed.finish_reason) == ("error", None)
    assert failed.detail == "The model stream ended before it finished"

    tracer = RecordingTracer()
    chunks = [{"type": "text-delta", "payload": {"id": "t", "text": "cached"}}]
    agent = make_agent(ScriptedModel([]), input_processors=[cache(chunks)])
    await run_stream(agent, "hi", tracers=[tracer])
    [cached] = [event for event in tracer.run_events if isinstance(event, ModelCall)]
    assert (cached.outcome, cached.from_cache, cached.finish_reason) == ("finished", True, "stop")


# ----------------------------------------------------------------------------------------- the steps
async def test_a_stream_processor_that_breaks_the_contract_mid_answer_keeps_what_was_streamed() -> None:
    def breaks(args: Any) -> Any:
        if args.part.type == "text-delta" and args.part.payload.text == "two ":
            return {"not": "a chunk"}
        return args.part

    model = ScriptedModel([Turn(text=["one ", "two ", "three"])])
    agent = make_agent(model, output_processors=[Fn("breaks", process_output_stream=breaks)])
    chunks, result = await run_stream(agent)
    assert terminal_count(chunks) == 1
    error = chunks[-1].payload.error  # type: ignore[union-attr]
    assert (error["name"], error["processorId"], error["hook"]) == (
        "ProcessorContractError",
        "breaks",
        "process_output_stream",
    )
    assert result.text == "one "
    assert [step.finish_reason for step in result.steps] == ["error"]
    [answer] = result.messages
    assert answer.text == "one "
    error_part = answer.content.parts[-1]
    assert error_part.type == "error"
    assert error_part.error.name == "ProcessorContractError"  # type: ignore[union-attr]
    assert error_part.error.message.startswith("Processor 'breaks' returned dict")  # type: ignore[union-attr]


async def test_the_api_retry_count_starts_again_after_an_accepted_step() -> None:
    failure = ModelAPIError(503, "busy", True)
    model = ScriptedModel(
        [
            Turn(error=failure),
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"})]),
            Turn(error=failure),
            "Sunny.",
        ]
    )
    retry = Fn("retry", process_api_error=lambda args: {"retry": True})
    agent = make_agent(model, tools=[get_weather], error_processors=[retry], max_processor_retries=1)
    _chunks, result = await run_stream(agent)
    assert result.finish_reason == "stop"
    assert result.text == "Sunny."
    assert len(model.requests) == 4


async def test_a_stream_processors_trace_is_summarised_once_per_step() -> None:
    tracer = RecordingTracer()
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"})]), "Sunny."])
    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("s", process_output_stream=lambda a: a.part)])
    await run_stream(agent, tracers=[tracer])
    events = [event for event in tracer.events if event.hook == "process_output_stream"]
    assert [event.step_number for event in events] == [0, 1]
    assert all(event.chunk_stats is not None and event.chunk_stats["count"] > 0 for event in events)


async def test_the_step_budget_ends_a_run_that_keeps_calling_tools() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"})])], repeat=True)
    agent = make_agent(model, tools=[get_weather])
    chunks, result = await run_stream(agent, max_steps=2)
    assert len(model.requests) == 2
    assert len(result.steps) == 2
    assert kinds(chunks)[-1] == "finish"
    assert result.finish_reason == "tool-calls"


def step_finish_guard() -> Abort:
    """Rejects the first step when its step-finish chunk passes the output stream, asking for a retry."""
    return Abort(
        "finish-guard",
        "process_output_stream",
        reason="not that",
        retry=True,
        when=lambda args: args.part.type == "step-finish" and args.retry_count == 0,
    )


async def test_a_retry_asked_on_the_step_finish_retracts_the_accepted_step() -> None:
    model = ScriptedModel(["first", "second"])
    agent = make_agent(model, output_processors=[step_finish_guard()], max_processor_retries=1)
    chunks, result = await run_stream(agent)
    reasons = [chunk.payload.step_result.reason for chunk in of_type(chunks, "step-finish")]  # type: ignore[union-attr]
    assert reasons == ["retry", "stop"]
    assert result.text == "second"
    assert [(step.finish_reason, step.rejected_text) for step in result.steps] == [("retry", "first"), ("stop", None)]
    assert kinds(chunks)[-1] == "finish"


async def test_a_retry_asked_on_the_last_allowed_step_ends_with_the_tripwire() -> None:
    model = ScriptedModel(["first", "second"])
    agent = make_agent(model, output_processors=[step_finish_guard()], max_processor_retries=1)
    chunks, result = await run_stream(agent, max_steps=1)
    assert len(model.requests) == 1
    assert chunks[-1].type == "tripwire"
    assert result.tripwire is not None
    assert (result.tripwire.reason, result.tripwire.retry) == ("not that", True)


async def test_a_step_finish_blocked_without_a_retry_keeps_the_accepted_answer() -> None:
    guard = Abort(
        "finish-guard", "process_output_stream", reason="stop here", when=lambda a: a.part.type == "step-finish"
    )
    chunks, result = await run_stream(make_agent(ScriptedModel(["the answer"]), output_processors=[guard]))
    assert chunks[-1].type == "tripwire"
    assert result.text == "the answer"
    assert [step.finish_reason for step in result.steps] == ["stop"]
