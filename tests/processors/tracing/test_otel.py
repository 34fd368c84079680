"""OpenTelemetry export (issue 15 §2): a run becomes a GenAI-convention span tree, and costs nothing untraced."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from processors import Processor
from processors.loop.run_tracing import RunTracing
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import ModelCall, RecordingTracer, RunFinished, RunStarted, TraceEvent, snapshot_state
from processors.tracing.otel import OtelTracer, env_enabled, tracer_from_env
from processors.usage import Usage
from tests.processors.helpers import Abort, get_weather, make_agent, run_stream


def usage(inp: int, out: int) -> Usage:
    return Usage(input_tokens=inp, output_tokens=out, total_tokens=inp + out)


class RejectFirstAnswer(Processor):
    """Sends the first step back (a retry tripwire) and watches tool results."""

    id = "reject-first"

    def process_output_step(self, args: Any) -> Any:
        if args.step_number == 0:
            args.abort("too vague", retry=True)
        return args.message_list

    def process_tool_result(self, args: Any) -> Any:
        return None


class BlockEverything(Processor):
    id = "block"

    def process_input(self, args: Any) -> Any:
        args.abort("not allowed")


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


def otel(exporter: InMemorySpanExporter, *, capture: bool = False) -> OtelTracer:
    """A tracer into ``exporter``; ``capture`` sends message and processor text (off, as by default)."""
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return OtelTracer(provider, capture_content=capture)


def children(spans: tuple[ReadableSpan, ...], parent: ReadableSpan) -> list[ReadableSpan]:
    assert parent.context is not None
    found = [s for s in spans if s.parent is not None and s.parent.span_id == parent.context.span_id]
    return sorted(found, key=lambda s: (s.start_time or 0, s.name))


async def test_a_run_with_a_tool_call_a_tripwire_and_a_retry_is_one_span_tree(exporter: InMemorySpanExporter) -> None:
    model = ScriptedModel(
        [
            Turn(text="Maybe.", usage=usage(10, 2)),
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")], usage=usage(20, 5)),
            Turn(text="Sunny.", usage=usage(30, 3)),
        ]
    )
    guard = RejectFirstAnswer()
    agent = make_agent(model, tools=[get_weather], output_processors=[guard], max_processor_retries=1)
    tracer = otel(exporter)
    _, result = await run_stream(agent, "weather?", thread_id="t-1", tracers=[tracer])
    assert result.finish_reason == "stop"
    spans = exporter.get_finished_spans()

    roots = [s for s in spans if s.parent is None]
    assert [s.name for s in roots] == ["invoke_agent agent"]
    root = roots[0]
    assert root.kind is SpanKind.INTERNAL
    assert dict(root.attributes or {}) == {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "agent",
        "gen_ai.agent.id": "agent",
        "gen_ai.conversation.id": "t-1",
        "processor.run_id": result.run_id,
        "gen_ai.usage.input_tokens": 60,
        "gen_ai.usage.output_tokens": 10,
        "gen_ai.response.finish_reasons": ("stop",),
        "processor.run.steps": 3,
    }
    assert root.events == ()  # the run itself was not stopped by a tripwire

    below = children(spans, root)
    assert len(below) == len(spans) - 1  # everything hangs from the agent span
    chats = [s for s in below if s.name.startswith("chat ")]
    assert [s.name for s in chats] == ["chat scripted"] * 3
    assert [dict(s.attributes or {}) for s in chats] == [
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "scripted",
            "gen_ai.provider.name": "scripted",
            "gen_ai.system": "scripted",
            "gen_ai.usage.input_tokens": inp,
            "gen_ai.usage.output_tokens": out,
            "gen_ai.response.finish_reasons": (reason,),
            "processor.step": step,
            "processor.model_call.outcome": "finished",
            "processor.run_id": result.run_id,
        }
        for step, inp, out, reason in [(0, 10, 2, "stop"), (1, 20, 5, "tool-calls"), (2, 30, 3, "stop")]
    ]
    assert all(s.kind is SpanKind.CLIENT for s in chats)

    hooks = [s for s in below if not s.name.startswith("chat ")]
    assert [
        (s.name, (s.attributes or {})["processor.step"], (s.attributes or {})["processor.outcome"]) for s in hooks
    ] == [
        ("process_output_step reject-first", 0, "aborted"),
        ("process_output_step reject-first", 1, "passed"),
        ("process_tool_result reject-first", 1, "passed"),
        ("process_output_step reject-first", 2, "passed"),
    ]
    aborted = hooks[0]
    assert dict(aborted.attributes or {}) == {
        "processor.id": "reject-first",
        "processor.hook": "process_output_step",
        "processor.outcome": "aborted",
        "processor.run_id": result.run_id,
        "processor.index": 0,
        "processor.step": 0,
    }  # no processor.before / .after: message text is sent only when capture is on
    assert [(e.name, dict(e.attributes or {})) for e in aborted.events] == [
        ("tripwire", {"tripwire.processor_id": "reject-first"})  # the reason is processor text: capture only
    ]
    assert aborted.events[0].timestamp == aborted.end_time
    assert (hooks[2].attributes or {})["gen_ai.tool.call.id"] == "c1"
    # The hook spans carry the hook call's own times: inside the run, after their step's model call began.
    for span in below:
        assert span.start_time is not None and span.end_time is not None
        assert root.start_time is not None and root.end_time is not None
        assert root.start_time <= span.start_time <= span.end_time <= root.end_time
    assert chats[0].end_time <= hooks[0].start_time  # type: ignore[operator]
    assert hooks[0].end_time <= chats[1].start_time  # type: ignore[operator]


async def test_a_run_a_tripwire_stops_carries_it_as_an_event_of_the_agent_span(exporter: InMemorySpanExporter) -> None:
    agent = make_agent(ScriptedModel(["never"]), input_processors=[BlockEverything()])
    _, result = await run_stream(agent, tracers=[otel(exporter, capture=True)])
    assert result.finish_reason == "other"
    spans = {s.name: s for s in exporter.get_finished_spans()}
    assert sorted(spans) == ["invoke_agent agent", "process_input block"]  # no model call was made
    root = spans["invoke_agent agent"]
    assert "gen_ai.conversation.id" not in (root.attributes or {})
    assert [(e.name, dict(e.attributes or {})) for e in root.events] == [
        ("tripwire", {"tripwire.reason": "not allowed", "tripwire.processor_id": "block", "tripwire.retry": False})
    ]
    assert (root.attributes or {})["gen_ai.response.finish_reasons"] == ("other",)
    assert root.status.status_code is StatusCode.UNSET


async def test_a_failed_model_call_is_an_error_span(exporter: InMemorySpanExporter) -> None:
    from processors.errors import ModelAPIError

    agent = make_agent(ScriptedModel([Turn(error=ModelAPIError(503, "overloaded", False))]))
    _, result = await run_stream(agent, tracers=[otel(exporter, capture=True)])
    assert result.finish_reason == "error"
    chat = next(s for s in exporter.get_finished_spans() if s.name.startswith("chat "))
    assert chat.status.status_code is StatusCode.ERROR
    assert chat.status.description == "overloaded"
    assert (chat.attributes or {})["processor.model_call.outcome"] == "error"
    assert "gen_ai.response.finish_reasons" not in (chat.attributes or {})


async def test_the_run_events_reach_tracers_that_ask_and_not_the_others() -> None:
    recording = RecordingTracer()

    class OldStyle:  # a tracer written before run events existed
        def __init__(self) -> None:
            self.events: list[TraceEvent] = []

        def on_trace_event(self, event: TraceEvent) -> None:
            self.events.append(event)

    old = OldStyle()
    agent = make_agent(ScriptedModel(["Hello."]), output_processors=[RejectFirstAnswer()], max_processor_retries=0)
    await run_stream(agent, tracers=[recording, old])
    assert [type(e) for e in recording.run_events] == [RunStarted, ModelCall, RunFinished]
    assert [e.hook for e in old.events] == [e.hook for e in recording.events] == ["process_output_step"]


# --------------------------------------------------------------------------------------------- zero cost when off
class CallCounter:
    """Counts calls of the given functions while installed as the profiler (observes; replaces nothing)."""

    def __init__(self, *functions: Any) -> None:
        self.codes = {fn.__code__: fn.__qualname__ for fn in functions}
        self.calls: dict[str, int] = dict.fromkeys(self.codes.values(), 0)

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in self.codes:
            self.calls[self.codes[frame.f_code]] += 1

    def __enter__(self) -> CallCounter:
        sys.setprofile(self)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)


TRACE_BUILDERS = (
    TraceEvent.__init__,
    RunStarted.__init__,
    ModelCall.__init__,
    RunFinished.__init__,
    RunTracing.trace_run_start,
    RunTracing.trace_model_call,
    RunTracing.trace_run_end,
    snapshot_state,
)


class Echo(Processor):
    id = "echo"

    def process_input(self, args: Any) -> Any:
        return args.messages

    def process_output_stream(self, args: Any) -> Any:
        return args.part


@pytest.mark.parametrize("traced", [False, True])
async def test_no_tracer_means_no_trace_event_is_ever_built(traced: bool) -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]), "Cold and dark."])
    agent = make_agent(model, tools=[get_weather], input_processors=[Echo()], output_processors=[Echo()])
    tracers = [RecordingTracer()] if traced else []
    with CallCounter(*TRACE_BUILDERS) as counter:
        _, result = await run_stream(agent, tracers=tracers)
    assert result.text == "Cold and dark."
    if traced:  # the counter sees them when they are built...
        assert counter.calls["RunStarted.__init__"] == counter.calls["RunFinished.__init__"] == 1
        assert counter.calls["ModelCall.__init__"] == 2
        assert counter.calls["TraceEvent.__init__"] > 0
    else:  # ...and nothing at all is built for an untraced run
        assert counter.calls == dict.fromkeys(counter.calls, 0)


# --------------------------------------------------------------------------------------------- enabling
@pytest.mark.parametrize(
    ("environ", "enabled"),
    [
        ({}, False),
        ({"OTEL_SERVICE_NAME": "x"}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, True),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, True),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "false"}, True),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "  "}, False),
    ],
)
def test_export_is_on_only_when_the_otel_variables_name_an_endpoint(environ: dict[str, str], enabled: bool) -> None:
    assert env_enabled(environ) is enabled
    tracer = tracer_from_env(environ)
    assert (tracer is not None) is enabled
    if tracer is not None:
        tracer.shutdown()


def test_the_runtime_imports_and_runs_without_opentelemetry() -> None:
    import subprocess

    code = (
        "import sys; sys.modules['opentelemetry'] = None\n"  # `import opentelemetry...` now fails, as uninstalled
        "import asyncio, processors, processors.tracing.otel as otel\n"
        "from processors.models import ScriptedModel\n"
        "assert otel.tracer_from_env({}) is None\n"
        "agent = processors.Agent(id='a', model=ScriptedModel(['ok']))\n"
        "print(asyncio.run(agent.generate('hi')).text)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


async def test_a_stream_guard_that_retries_marks_its_model_call_aborted(exporter: InMemorySpanExporter) -> None:
    guard = Abort(
        "no-bad",
        "process_output_stream",
        "bad word",
        retry=True,
        when=lambda args: "bad" in getattr(args.part.payload, "text", ""),
    )
    agent = make_agent(
        ScriptedModel(["a bad answer", "a good answer"]), output_processors=[guard], max_processor_retries=1
    )
    recording = RecordingTracer()
    _, result = await run_stream(agent, tracers=[otel(exporter, capture=True), recording])
    assert result.text == "a good answer"
    spans = exporter.get_finished_spans()
    chats = sorted((s for s in spans if s.name.startswith("chat ")), key=lambda s: s.start_time or 0)
    assert [(s.attributes or {})["processor.model_call.outcome"] for s in chats] == ["aborted", "finished"]
    assert [(e.name, dict(e.attributes or {})) for e in chats[0].events] == [
        ("tripwire", {"tripwire.reason": "bad word"})
    ]
    stream_spans = [s for s in spans if s.name == "process_output_stream no-bad"]
    assert [
        ((s.attributes or {})["processor.step"], (s.attributes or {})["processor.outcome"]) for s in stream_spans
    ] == [
        (0, "aborted"),
        (1, "passed"),
    ]
    stats = [e.chunk_stats or {} for e in recording.events if e.hook == "process_output_stream"]
    assert [(s.attributes or {})["processor.chunks.count"] for s in stream_spans] == [x["count"] for x in stats]
    assert [(s.attributes or {})["processor.chunks.dropped"] for s in stream_spans] == [x["dropped"] for x in stats]


async def test_a_run_stopped_by_its_consumer_still_ends_its_spans(exporter: InMemorySpanExporter) -> None:
    agent = make_agent(ScriptedModel([Turn(text=["one ", "two ", "three"], delay=0.01)]))
    stream = agent.stream("hi", tracers=[otel(exporter)])
    async for chunk in stream:
        if chunk.type == "text-delta":
            break
    await stream.aclose()
    result = await stream.result()
    assert result.finish_reason == "abort"
    spans = {s.name: s for s in exporter.get_finished_spans()}
    assert sorted(spans) == ["chat scripted", "invoke_agent agent"]
    assert (spans["chat scripted"].attributes or {})["processor.model_call.outcome"] == "stopped"
    assert "gen_ai.response.finish_reasons" not in (spans["chat scripted"].attributes or {})
    assert (spans["invoke_agent agent"].attributes or {})["gen_ai.response.finish_reasons"] == ("abort",)


async def test_without_capture_errors_and_tripwires_carry_no_text(exporter: InMemorySpanExporter) -> None:
    from processors.errors import ModelAPIError

    agent = make_agent(ScriptedModel([Turn(error=ModelAPIError(503, "overloaded: your text 'secret plan'", False))]))
    _, result = await run_stream(agent, "my secret plan", tracers=[otel(exporter)])
    assert result.finish_reason == "error"
    spans = exporter.get_finished_spans()
    chat = next(s for s in spans if s.name.startswith("chat "))
    assert chat.status.status_code is StatusCode.ERROR and not chat.status.description
    assert (chat.attributes or {})["error.type"] == "model_error"
    assert not any("secret plan" in span.to_json() for span in spans)

    exporter.clear()
    blocked = make_agent(ScriptedModel(["never"]), input_processors=[BlockEverything()])
    await run_stream(blocked, tracers=[otel(exporter)])
    root = next(s for s in exporter.get_finished_spans() if s.name.startswith("invoke_agent "))
    assert [dict(e.attributes or {}) for e in root.events] == [
        {"tripwire.processor_id": "block", "tripwire.retry": False}
    ]
