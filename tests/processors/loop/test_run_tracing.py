"""A run's own trace events (``processors.loop.run_tracing``): the run started, each model call, the run finished,
with the figures an observer (the inspector, the OpenTelemetry exporter) shows. Real agents and a
``RecordingTracer``."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from processors import Agent, ModelAPIError
from processors.models import ScriptedModel
from processors.models.base import Finish, ModelEvent, ModelRequest, TextDelta
from processors.models.scripted import Turn
from processors.tracing import ModelCall, RecordingTracer, RunFinished, RunStarted
from processors.usage import Usage
from tests.processors.helpers import Abort, make_agent, run_stream


def run_events(tracer: RecordingTracer, kind: type) -> list[Any]:
    return [event for event in tracer.run_events if isinstance(event, kind)]


async def test_a_run_starts_and_finishes_with_its_figures() -> None:
    tracer = RecordingTracer()
    before = time.time()
    model = ScriptedModel([Turn(text="ok", usage=Usage(input_tokens=11, output_tokens=3))])
    agent = Agent(id="support", name="Support desk", model=model)
    _chunks, result = await run_stream(agent, "hi", thread_id="t1", resource_id="u1", tracers=[tracer])
    [started] = run_events(tracer, RunStarted)
    assert (started.run_id, started.agent_id, started.agent_name) == (result.run_id, "support", "Support desk")
    assert (started.thread_id, started.resource_id) == ("t1", "u1")
    [finished] = run_events(tracer, RunFinished)
    assert finished.run_id == result.run_id
    assert (finished.finish_reason, finished.input_tokens, finished.output_tokens) == ("stop", 11, 3)
    assert (finished.steps, finished.tripwire, finished.error) == (1, None, None)
    assert before <= started.started_at <= finished.ended_at <= time.time()
    assert tracer.run_events[0] is started
    assert tracer.run_events[-1] is finished


async def test_an_agent_without_a_name_is_traced_by_its_id() -> None:
    tracer = RecordingTracer()
    await run_stream(Agent(id="plain", model=ScriptedModel(["ok"])), "hi", tracers=[tracer])
    [started] = run_events(tracer, RunStarted)
    assert (started.agent_name, started.thread_id, started.resource_id) == ("plain", None, None)


async def test_a_tripped_run_finishes_with_its_tripwire() -> None:
    tracer = RecordingTracer()
    agent = make_agent(ScriptedModel(["never"]), input_processors=[Abort("guard", "process_input", metadata={"k": 1})])
    await run_stream(agent, tracers=[tracer])
    [finished] = run_events(tracer, RunFinished)
    assert finished.finish_reason == "other"
    assert finished.tripwire == {"reason": "blocked", "retry": False, "metadata": {"k": 1}, "processor_id": "guard"}
    assert finished.steps == 0


async def test_a_failed_run_finishes_with_its_error() -> None:
    tracer = RecordingTracer()
    agent = make_agent(ScriptedModel([Turn(error=ModelAPIError(500, "exploded", False))]))
    _chunks, result = await run_stream(agent, tracers=[tracer])
    [finished] = run_events(tracer, RunFinished)
    assert finished.finish_reason == "error"
    assert finished.error == result.error == "Model call failed: exploded"
    [call] = run_events(tracer, ModelCall)
    assert (call.outcome, call.detail, call.finish_reason) == ("error", "exploded", None)


async def test_a_model_call_reports_its_usage_and_reason() -> None:
    tracer = RecordingTracer()
    model = ScriptedModel(
        [Turn(text="cut", finish_reason="length", usage=Usage(input_tokens=9, output_tokens=100))], model_id="m/1"
    )
    await run_stream(make_agent(model), tracers=[tracer])
    [call] = run_events(tracer, ModelCall)
    assert (call.input_tokens, call.output_tokens, call.finish_reason) == (9, 100, "length")
    assert (call.provider, call.model_id, call.outcome) == ("scripted", "m/1", "finished")
    assert call.started_at <= call.ended_at


async def test_a_stream_aborted_by_a_processor_is_an_aborted_call() -> None:
    tracer = RecordingTracer()
    guard = Abort("stream-guard", "process_output_stream", reason="leak", when=lambda a: a.part.type == "text-delta")
    await run_stream(make_agent(ScriptedModel(["secret"]), output_processors=[guard]), tracers=[tracer])
    [call] = run_events(tracer, ModelCall)
    assert (call.outcome, call.detail, call.finish_reason) == ("aborted", "leak", None)


async def test_a_call_the_consumer_stopped_is_a_stopped_call() -> None:
    tracer = RecordingTracer()
    agent = make_agent(ScriptedModel([Turn(text=["a ", "b ", "c ", "d "])]))
    stream = agent.stream("hi", tracers=[tracer])
    async for chunk in stream:
        if chunk.type == "text-delta":
            break
    await stream.aclose()
    [call] = run_events(tracer, ModelCall)
    assert call.outcome == "stopped"
    assert call.finish_reason is None
    [finished] = run_events(tracer, RunFinished)
    assert finished.finish_reason == "abort"


class Unnamed:
    """A ``LanguageModel`` whose provider and model id are left empty."""

    provider = None
    model_id = None

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield TextDelta("hi")
        yield Finish("stop")


async def test_a_model_that_names_no_provider_is_traced_with_empty_names() -> None:
    tracer = RecordingTracer()
    await run_stream(make_agent(Unnamed()), tracers=[tracer])
    [call] = run_events(tracer, ModelCall)
    assert (call.provider, call.model_id, call.outcome) == ("", "", "finished")


class Interrupted:
    """A ``LanguageModel`` interrupted (Ctrl+C) after its first word."""

    provider = "custom"
    model_id = "custom/interrupted"

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield TextDelta("hi")
        raise KeyboardInterrupt


async def test_a_call_interrupted_before_it_finished_is_a_stopped_call() -> None:
    tracer = RecordingTracer()
    agent = make_agent(Interrupted())
    with pytest.raises(KeyboardInterrupt):
        await agent.generate("hi", tracers=[tracer])
    [call] = run_events(tracer, ModelCall)
    assert (call.outcome, call.finish_reason, call.model_id) == ("stopped", None, "custom/interrupted")
