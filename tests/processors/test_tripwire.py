"""abort(): TripWire semantics in every hook, the tripwire chunk's wire shape, on_violation, default reason."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Processor, TripWire, Violation
from processors.errors import ModelAPIError
from processors.memory import InMemoryMemory
from processors.models import ScriptedModel, ToolCall, Turn
from processors.pipeline.processor import HOOKS, LANE_HOOKS
from tests.processors.helpers import (
    Abort,
    Fn,
    get_weather,
    kinds,
    make_agent,
    of_type,
    run_stream,
    terminal_count,
)

TOOL_TURN = Turn(text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")])

#: How many model calls happen before an abort in each hook stops the run.
MODEL_CALLS = {
    "process_input": 0,
    "process_input_step": 0,
    "process_llm_request": 0,
    "process_llm_response": 1,
    "process_output_stream": 1,
    "process_output_step": 1,
    "process_tool_result": 1,
    "process_output_result": 2,
    "process_api_error": 1,
}


def lane_of(hook: str) -> str:
    return next(lane for lane, hooks in LANE_HOOKS.items() if hook in hooks)


def model_for(hook: str) -> ScriptedModel:
    if hook == "process_api_error":
        return ScriptedModel([Turn(error=ModelAPIError(500, "down")), "never"])
    return ScriptedModel([TOOL_TURN, "Done."])


def only_on_text(hook: str) -> Any:
    if hook == "process_output_stream":
        return lambda args: args.part.type == "text-delta"
    return None


def build(
    hook: str, guard: Processor, *, extra_lanes: dict[str, list[Any]] | None = None, **options: Any
) -> tuple[Any, ScriptedModel]:
    lanes: dict[str, list[Any]] = {"input": [], "output": [], "error": []}
    lanes[lane_of(hook)].append(guard)
    for lane, items in (extra_lanes or {}).items():
        lanes[lane].extend(items)
    model = model_for(hook)
    agent = make_agent(
        model,
        tools=[get_weather],
        input_processors=lanes["input"],
        output_processors=lanes["output"],
        error_processors=lanes["error"],
        **options,
    )
    return agent, model


@pytest.mark.parametrize("hook", HOOKS)
async def test_abort_in_any_hook_ends_the_stream_with_one_tripwire_chunk(hook: str) -> None:
    guard = Abort("guard", hook, f"blocked in {hook}", metadata={"hook": hook}, when=only_on_text(hook))
    later_calls: list[str] = []
    results: list[str] = []

    def later(args: Any) -> Any:
        if hook != "process_output_stream" or args.part.type == "text-delta":
            later_calls.append(hook)
        return args.part if hook == "process_output_stream" else None

    extra: dict[str, list[Any]] = {lane_of(hook): [Fn("later", **{hook: later})]}
    if hook != "process_output_result":
        extra.setdefault("output", []).append(Fn("result-watch", process_output_result=lambda a: results.append("ran")))
    agent, model = build(hook, guard, extra_lanes=extra)
    stream = agent.stream("hi")
    chunks = [c async for c in stream]
    result = await stream.result()

    assert kinds(chunks)[-1] == "tripwire"
    assert terminal_count(chunks) == 1
    assert chunks[-1].to_wire() == {
        "type": "tripwire",
        "runId": stream.run_id,
        "from": "AGENT",
        "payload": {"reason": f"blocked in {hook}", "retry": False, "metadata": {"hook": hook}, "processorId": "guard"},
    }
    assert result.run_id == stream.run_id
    assert result.tripwire is not None
    assert (result.tripwire.reason, result.tripwire.retry, result.tripwire.metadata, result.tripwire.processor_id) == (
        f"blocked in {hook}",
        False,
        {"hook": hook},
        "guard",
    )
    assert result.finish_reason == "other"
    assert later_calls == []  # later processors of that hook do not run
    assert results == []  # nothing runs after the tripwire, process_output_result included
    assert len(model.requests) == MODEL_CALLS[hook]
    assert guard.violations == [Violation(processor_id="guard", message=f"blocked in {hook}", detail={"hook": hook})]


@pytest.mark.parametrize("hook", HOOKS)
async def test_generate_reports_the_tripwire(hook: str) -> None:
    guard = Abort("guard", hook, "nope", metadata=[1, 2], when=only_on_text(hook))
    agent, _ = build(hook, guard)
    result = await agent.generate("hi")
    assert result.finish_reason == "other"
    assert result.tripwire.model_dump() == {
        "reason": "nope",
        "retry": False,
        "metadata": [1, 2],
        "processor_id": "guard",
    }


@pytest.mark.parametrize("hook", HOOKS)
async def test_default_reason_names_the_processor(hook: str) -> None:
    guard = Abort("my-guard", hook, None, when=only_on_text(hook))
    agent, _ = build(hook, guard)
    chunks, result = await run_stream(agent)
    assert result.tripwire.reason == "Tripwire triggered by my-guard"
    assert chunks[-1].payload.reason == "Tripwire triggered by my-guard"
    assert guard.violations[0].message == "Tripwire triggered by my-guard"


@pytest.mark.parametrize(
    "hook",
    [
        "process_input",
        "process_input_step",
        "process_llm_request",
        "process_llm_response",
        "process_api_error",
        "process_output_result",
    ],
)
async def test_retry_is_only_reported_where_there_is_no_model_output_to_retry(hook: str) -> None:
    guard = Abort("guard", hook, "again?", retry=True)
    agent, model = build(hook, guard, max_processor_retries=3)
    chunks, result = await run_stream(agent)
    assert len(model.requests) == MODEL_CALLS[hook]
    assert result.tripwire.retry is True
    assert chunks[-1].to_wire()["payload"]["retry"] is True
    assert result.finish_reason == "other"
    assert guard.calls == 1


async def test_input_tripwire_never_calls_the_model_and_gives_empty_text() -> None:
    guard = Abort(
        "block-secrets",
        "process_input",
        "secret in input",
        metadata={"k": 1},
        when=lambda a: "secret" in a.messages[-1].text,
    )
    model = ScriptedModel(["should not be said"])
    agent = make_agent(model, input_processors=[guard])
    chunks, result = await run_stream(agent, "my secret is 42")
    assert model.requests == []
    assert result.text == ""
    assert of_type(chunks, "text-delta") == []
    assert of_type(chunks, "step-start") == []
    assert result.tripwire.metadata == {"k": 1}
    ok = await agent.generate("nothing to hide")
    assert ok.tripwire is None
    assert ok.text == "should not be said"


async def test_blocked_input_is_not_saved_to_memory() -> None:
    memory = InMemoryMemory()
    guard = Abort("guard", "process_input", "no")
    agent = make_agent(ScriptedModel(["x"]), input_processors=[guard], memory=memory)
    await agent.generate("my secret", thread_id="t")
    assert memory.threads.get("t", []) == []


async def test_stream_abort_keeps_the_text_already_streamed() -> None:
    guard = Abort(
        "stop-bad",
        "process_output_stream",
        "bad word",
        when=lambda a: a.part.type == "text-delta" and "bad" in a.part.payload.text,
    )
    model = ScriptedModel([Turn(text=["one ", "two ", "bad ", "four"])])
    agent = make_agent(model, output_processors=[guard])
    chunks, result = await run_stream(agent)
    assert [c.payload.text for c in of_type(chunks, "text-delta")] == ["one ", "two "]
    assert result.text == "one two "
    assert kinds(chunks)[-1] == "tripwire"


@pytest.mark.parametrize("trigger", ["step-start", "text-start", "tool-call", "step-finish", "tool-result", "finish"])
async def test_stream_abort_on_any_chunk_type_ends_with_a_tripwire(trigger: str) -> None:
    guard = Abort("chunk-guard", "process_output_stream", f"no {trigger}", when=lambda a: a.part.type == trigger)
    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(model, tools=[get_weather], output_processors=[guard])
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-1] == "tripwire"
    assert terminal_count(chunks) == 1
    assert trigger not in kinds(chunks)
    assert result.tripwire is not None
    assert result.tripwire.processor_id == "chunk-guard"
    assert result.tripwire.reason == f"no {trigger}"
    assert result.finish_reason == "other"
    assert [v.message for v in guard.violations] == [f"no {trigger}"]


async def test_output_step_abort_marks_the_step() -> None:
    guard = Abort("judge", "process_output_step", "not good", metadata={"score": 0.2})
    agent = make_agent(ScriptedModel(["weak answer"]), output_processors=[guard])
    result = await agent.generate("hi")
    assert result.steps[-1].tripwire is not None
    assert result.steps[-1].tripwire.reason == "not good"
    assert result.tripwire.metadata == {"score": 0.2}


async def test_tool_result_abort_does_not_commit_or_stream_the_result() -> None:
    guard = Abort("scan", "process_tool_result", "prompt injection in tool output")
    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(model, tools=[get_weather], output_processors=[guard])
    chunks, result = await run_stream(agent)
    assert of_type(chunks, "tool-result") == []
    assert len(model.requests) == 1
    invocations = [inv for m in result.messages for inv in m.tool_invocations]
    assert [(inv.state, inv.result, inv.error_text) for inv in invocations] == [
        ("output-error", None, "The tool's result was blocked by processor 'scan'")
    ]
    assert result.tripwire.reason == "prompt injection in tool output"


async def test_output_result_abort_clears_the_text_and_saves_no_response() -> None:
    memory = InMemoryMemory()
    guard = Abort("final", "process_output_result", "rejected")
    agent = make_agent(ScriptedModel(["bad final answer"]), output_processors=[guard], memory=memory)
    result = await agent.generate("hi", thread_id="t")
    assert result.text == ""
    assert result.finish_reason == "other"
    assert "assistant" not in [m.role for m in memory.threads.get("t", [])]


async def test_on_violation_errors_are_swallowed_and_async_callbacks_awaited() -> None:
    seen: list[Violation] = []

    class Broken(Processor):
        id = "broken-alert"

        def process_input(self, args: Any) -> Any:
            args.abort("stop", metadata={"why": "test"})

        def on_violation(self, violation: Violation) -> None:
            seen.append(violation)
            raise RuntimeError("alerting is down")

    class AsyncAlert(Processor):
        id = "async-alert"

        def process_input(self, args: Any) -> Any:
            args.abort("stop too")

        async def on_violation(self, violation: Violation) -> None:
            seen.append(violation)

    chunks, result = await run_stream(make_agent(ScriptedModel(["x"]), input_processors=[Broken()]))
    assert result.tripwire.reason == "stop"
    assert kinds(chunks)[-1] == "tripwire"
    await make_agent(ScriptedModel(["x"]), input_processors=[AsyncAlert()]).generate("hi")
    assert seen == [
        Violation(processor_id="broken-alert", message="stop", detail={"why": "test"}),
        Violation(processor_id="async-alert", message="stop too", detail=None),
    ]


async def test_on_violation_is_not_called_without_an_abort() -> None:
    guard = Abort("guard", "process_input", "x", when=lambda a: False)
    await make_agent(ScriptedModel(["fine"]), input_processors=[guard]).generate("hi")
    assert guard.violations == []


async def test_a_tripwire_raised_directly_is_attributed_to_its_processor() -> None:
    def raise_it(args: Any) -> Any:
        raise TripWire("raised directly", metadata={"m": 1})

    agent = make_agent(ScriptedModel(["x"]), input_processors=[Fn("direct", process_input=raise_it)])
    chunks, result = await run_stream(agent)
    assert result.tripwire.processor_id == "direct"
    assert chunks[-1].to_wire()["payload"] == {
        "reason": "raised directly",
        "retry": False,
        "metadata": {"m": 1},
        "processorId": "direct",
    }


async def test_abort_raises_tripwire_and_never_returns() -> None:
    caught: list[TripWire] = []

    def hook(args: Any) -> Any:
        try:
            args.abort("inner", retry=True, metadata={"a": 1})
        except TripWire as tripwire:
            caught.append(tripwire)
        return None

    await make_agent(ScriptedModel(["ok"]), input_processors=[Fn("catcher", process_input=hook)]).generate("hi")
    assert len(caught) == 1
    assert (caught[0].reason, caught[0].retry, caught[0].metadata, caught[0].processor_id) == (
        "inner",
        True,
        {"a": 1},
        "catcher",
    )


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
async def test_stream_abort_marks_the_step_and_calls_on_violation(is_async: bool) -> None:
    violations: list[Violation] = []

    class SyncGuard(Processor):
        id = "stream-guard"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.type == "text-delta" and "bad" in args.part.payload.text:
                args.abort("bad chunk", metadata={"text": args.part.payload.text})
            return args.part

        def on_violation(self, violation: Violation) -> None:
            violations.append(violation)

    class AsyncGuard(SyncGuard):
        async def process_output_stream(self, args: Any) -> Any:
            return SyncGuard.process_output_stream(self, args)

    model = ScriptedModel([Turn(text=["good ", "bad"])])
    agent = make_agent(model, output_processors=[AsyncGuard() if is_async else SyncGuard()])
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-1] == "tripwire"
    assert chunks[-1].to_wire()["payload"] == {
        "reason": "bad chunk",
        "retry": False,
        "metadata": {"text": "bad"},
        "processorId": "stream-guard",
    }
    assert violations == [Violation(processor_id="stream-guard", message="bad chunk", detail={"text": "bad"})]
    assert result.text == "good "
    assert result.steps[-1].tripwire is not None  # a rejected step keeps its tripwire (reference B-85)
    assert result.steps[-1].tripwire.reason == "bad chunk"


async def test_a_structural_processor_without_the_base_class_can_abort() -> None:
    class Plain:
        id = "plain-guard"

        def process_input(self, args: Any) -> Any:
            args.abort()

    chunks, result = await run_stream(make_agent(ScriptedModel(["x"]), input_processors=[Plain()]))
    assert result.tripwire.reason == "Tripwire triggered by plain-guard"
    assert result.tripwire.processor_id == "plain-guard"
    assert kinds(chunks)[-1] == "tripwire"
