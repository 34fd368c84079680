"""OpenTelemetry export: a run as spans following the GenAI semantic conventions, for any OTLP backend.

:class:`OtelTracer` is an ordinary tracer (``agent.stream(..., tracers=[OtelTracer()])``). It turns what the run
reports into a tree of spans::

    invoke_agent {agent name}                gen_ai.operation.name, gen_ai.agent.name/id, gen_ai.conversation.id,
    │                                        token usage and finish reason of the whole run; a tripwire as an event
    ├── process_input {processor id}         processor.id, .hook, .outcome, .index, .step; an abort as a
    │                                        ``tripwire`` event; the span's times are the hook call's own
    ├── chat {model}                         one per model call: gen_ai.request.model, gen_ai.provider.name,
    │                                        gen_ai.usage.input_tokens/output_tokens, gen_ai.response.finish_reasons
    └── process_output_stream {id}, ...      (per-chunk calls summarised per step, with chunk counts)

Spans are made after the fact, with the start and end times the events carry: a run's spans are kept until it
ends, then made and handed to the SDK's ``BatchSpanProcessor`` (its own thread), never sent from the event loop.

What leaves the machine follows the GenAI conventions: no message or processor text unless capture is turned on
(``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true``, or ``capture_content=True``), and with it on, what the
run's guards masked, dropped or blocked is scrubbed out of every text (:mod:`processors.tracing.redactions`).

``opentelemetry`` is imported when a tracer is made, never at import time: the runtime works without it.
:func:`tracer_from_env` builds one from the standard ``OTEL_*`` variables (None when they name no endpoint or
``OTEL_SDK_DISABLED`` is true); :func:`otlp_tracer` builds one for an explicit endpoint (the studio's Settings).
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from processors.tracing.events import ModelCall, RunEvent, RunFinished, RunStarted, TraceEvent
from processors.tracing.redactions import hidden, release, scrub, watch

if TYPE_CHECKING:
    from opentelemetry.context import Context
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Span, Tracer

logger = logging.getLogger(__name__)

#: The instrumentation scope the spans are reported under.
SCOPE = "processors"
#: The service name when ``OTEL_SERVICE_NAME`` (or ``service.name`` in ``OTEL_RESOURCE_ATTRIBUTES``) sets none.
DEFAULT_SERVICE_NAME = "processor-studio"
ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
#: The GenAI conventions' switch for message content in telemetry: ``true`` sends it (redacted), anything else not.
CAPTURE_VARIABLE = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"


def otel_available() -> bool:
    """Whether the optional ``otel`` extra (opentelemetry-sdk and the OTLP/HTTP exporter) is installed."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("opentelemetry.sdk.trace", "opentelemetry.exporter.otlp.proto.http.trace_exporter")
    )


def _ns(seconds: float) -> int:
    return int(seconds * 1_000_000_000)


@dataclass(slots=True)
class _SpanData:
    """A span as the run told it, kept until the run ends: sent then, with what the guards hid scrubbed out."""

    name: str
    kind: str
    attributes: dict[str, Any]
    start: float
    end: float | None = None
    events: list[tuple[str, dict[str, Any], float]] = field(default_factory=list)
    #: The span's error description, when it failed.
    error: str | None = None


@dataclass(slots=True)
class _Run:
    root: _SpanData
    children: list[_SpanData] = field(default_factory=list)


def _scrubbed(value: Any, hidden_values: frozenset[str]) -> Any:
    if isinstance(value, str):
        return scrub(value, hidden_values)
    if isinstance(value, (list, tuple)):
        return tuple(scrub(item, hidden_values) if isinstance(item, str) else item for item in value)
    return value


class OtelTracer:
    """A tracer that records runs as OpenTelemetry spans on ``tracer_provider`` (the global one by default).

    One instance may watch many runs at once (they are told apart by run id). :meth:`shutdown` flushes and stops the
    provider it was given; the global provider is left alone.

    Privacy, as the GenAI semantic conventions ask: text — ``processor.before`` / ``processor.after`` (they quote
    the messages), tripwire reasons and error descriptions (a processor, a judge or a provider wrote them, and they
    may quote the messages) — is sent only with ``capture_content`` (off by default); without it a span still says
    which processor tripped and which kind of error it was (``error.type``). Either
    way a run's spans are held until it ends and every text in them — names, attributes, events, statuses — is
    scrubbed of what the run's guards masked, dropped or blocked (:mod:`processors.tracing.redactions`), so the
    pre-redaction text never leaves the machine, even from spans made before the guard ran.
    """

    def __init__(self, tracer_provider: TracerProvider | None = None, *, capture_content: bool = False) -> None:
        from opentelemetry import trace

        self._trace = trace
        self._provider = tracer_provider
        self._tracer: Tracer = (
            tracer_provider.get_tracer(SCOPE) if tracer_provider is not None else trace.get_tracer(SCOPE)
        )
        #: Whether message and processor text is sent (redacted); off unless the user turned it on.
        self.capture_content = capture_content
        #: Each run in progress: its spans, sent when it ends.
        self._runs: dict[str, _Run] = {}

    # ------------------------------------------------------------------------------------------ the tracer API
    def on_run_event(self, event: RunEvent) -> None:
        if isinstance(event, ModelCall):
            self._model_call(event)
        elif isinstance(event, RunStarted):
            self._run_started(event)
        elif isinstance(event, RunFinished):
            self._run_finished(event)

    def on_trace_event(self, event: TraceEvent) -> None:
        attributes: dict[str, Any] = {
            "processor.id": event.processor_id,
            "processor.hook": event.hook,
            "processor.outcome": event.outcome,
            "processor.run_id": event.run_id,
        }
        if event.processor_index is not None:
            attributes["processor.index"] = event.processor_index
        if event.step_number is not None:
            attributes["processor.step"] = event.step_number
        if self.capture_content and event.before:
            attributes["processor.before"] = event.before
        if self.capture_content and event.after:
            attributes["processor.after"] = event.after
        if event.tool_call_id is not None:
            attributes["gen_ai.tool.call.id"] = event.tool_call_id
        if event.chunk_stats is not None:
            for key in ("count", "changed", "held", "dropped"):
                attributes[f"processor.chunks.{key}"] = int(event.chunk_stats.get(key, 0))
            attributes["processor.chunks.seconds"] = float(event.chunk_stats.get("seconds", 0.0))
        span = _SpanData(f"{event.hook} {event.processor_id}", "INTERNAL", attributes, event.started_at, event.ended_at)
        if event.outcome == "aborted":
            span.events.append(
                (
                    "tripwire",
                    {**self._reason(event.detail), "tripwire.processor_id": event.processor_id},
                    event.ended_at,
                )
            )
        elif event.outcome == "raised":
            span.error = self._description(event.detail or "raised")
            attributes["error.type"] = "processor_error"
        self._add(event.run_id, span)

    # ------------------------------------------------------------------------------------------ lifecycle
    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        """Send what is batched now (a run just ended and the process may stop)."""
        if self._provider is None:
            return True
        return self._provider.force_flush(timeout_millis)

    def shutdown(self) -> None:
        """End the runs still open (as stopped), flush, and stop the provider this tracer was given."""
        for run_id, run in list(self._runs.items()):
            run.root.attributes["processor.run.finish_reason"] = "abort"
            self._send(run_id, run)
        self._runs.clear()
        if self._provider is not None:
            self._provider.shutdown()

    # ------------------------------------------------------------------------------------------ spans
    def _reason(self, reason: str | None) -> dict[str, str]:
        """A tripwire's reason, as an event attribute: text a processor wrote (a judge's may quote the message),
        so only with capture on."""
        return {"tripwire.reason": reason or ""} if self.capture_content else {}

    def _description(self, text: str) -> str:
        """An error span's description: the error's text with capture on; without, none (``error.type`` says
        which kind of error; a model's or processor's message may quote what it was given)."""
        return text if self.capture_content else ""

    def _add(self, run_id: str, span: _SpanData) -> None:
        """Keep ``span`` with its run until the run ends (a run this tracer never saw start: sent now, alone)."""
        run = self._runs.get(run_id)
        if run is not None:
            run.children.append(span)
        else:
            self._emit(span, None, hidden(run_id))

    def _run_started(self, event: RunStarted) -> None:
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": event.agent_name,
            "gen_ai.agent.id": event.agent_id,
            "processor.run_id": event.run_id,
        }
        if event.thread_id:
            attributes["gen_ai.conversation.id"] = event.thread_id
        if event.resource_id:
            attributes["processor.resource_id"] = event.resource_id
        watch(event.run_id)
        self._runs[event.run_id] = _Run(
            _SpanData(f"invoke_agent {event.agent_name}", "INTERNAL", attributes, event.started_at)
        )

    def _model_call(self, event: ModelCall) -> None:
        # litellm's "openai/gpt-4o" is the provider and the model: the conventions want them apart
        model = event.model_id.removeprefix(f"{event.provider}/") if event.provider else event.model_id
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": model,
            "gen_ai.provider.name": event.provider,
            "gen_ai.system": event.provider,
            "gen_ai.usage.input_tokens": event.input_tokens,
            "gen_ai.usage.output_tokens": event.output_tokens,
            "processor.step": event.step_number,
            "processor.model_call.outcome": event.outcome,
            "processor.run_id": event.run_id,
        }
        if event.finish_reason is not None:
            attributes["gen_ai.response.finish_reasons"] = [event.finish_reason]
        if event.from_cache:
            attributes["processor.from_cache"] = True
        span = _SpanData(f"chat {model}", "CLIENT", attributes, event.started_at, event.ended_at)
        if event.outcome == "error":
            attributes["error.type"] = "model_error"
            span.error = self._description(event.detail or "model call failed")
        elif event.outcome == "aborted":
            span.events.append(("tripwire", self._reason(event.detail), event.ended_at))
        self._add(event.run_id, span)

    def _run_finished(self, event: RunFinished) -> None:
        run = self._runs.pop(event.run_id, None)
        if run is None:
            return
        root = run.root
        root.attributes["gen_ai.usage.input_tokens"] = event.input_tokens
        root.attributes["gen_ai.usage.output_tokens"] = event.output_tokens
        root.attributes["gen_ai.response.finish_reasons"] = [event.finish_reason]
        root.attributes["processor.run.steps"] = event.steps
        if event.tripwire is not None:
            root.events.append(
                (
                    "tripwire",
                    {
                        **self._reason(str(event.tripwire.get("reason", ""))),
                        "tripwire.processor_id": str(event.tripwire.get("processor_id") or ""),
                        "tripwire.retry": bool(event.tripwire.get("retry", False)),
                    },
                    event.ended_at,
                )
            )
        if event.error is not None:
            root.attributes["error.type"] = "run_error"
            root.error = self._description(event.error)
        root.end = event.ended_at
        self._send(event.run_id, run)

    def _send(self, run_id: str, run: _Run) -> None:
        """Make the run's spans, every text scrubbed of what its guards hid, and forget those values."""
        hidden_values = hidden(run_id)
        release(run_id)
        context = self._trace.set_span_in_context(self._emit(run.root, None, hidden_values))
        for child in run.children:
            self._emit(child, context, hidden_values)

    def _emit(self, data: _SpanData, context: Context | None, hidden_values: frozenset[str]) -> Span:
        span = self._tracer.start_span(
            scrub(data.name, hidden_values),
            context=context,
            kind=getattr(self._trace.SpanKind, data.kind),
            attributes={key: _scrubbed(value, hidden_values) for key, value in data.attributes.items()},
            start_time=_ns(data.start),
        )
        for name, attributes, timestamp in data.events:
            span.add_event(
                name, {key: _scrubbed(value, hidden_values) for key, value in attributes.items()}, _ns(timestamp)
            )
        if data.error is not None:
            description = scrub(data.error, hidden_values) or None
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, description))
        span.end(end_time=_ns(data.end) if data.end is not None else None)
        return span


def otlp_tracer(
    endpoint: str | None = None, *, service_name: str | None = None, capture_content: bool = False
) -> OtelTracer:
    """A tracer exporting over OTLP/HTTP (protobuf), batched on the SDK's own thread.

    ``endpoint`` is the full traces URL (``http://host:4318/v1/traces``); None lets the exporter read the ``OTEL_*``
    variables. ``service_name`` None keeps ``OTEL_SERVICE_NAME`` (default :data:`DEFAULT_SERVICE_NAME`).
    ``capture_content`` sends message and processor text (redacted); off by default.
    """
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create()
    if service_name is not None or str(resource.attributes.get("service.name", "")).startswith("unknown_service"):
        resource = resource.merge(Resource.create({"service.name": service_name or DEFAULT_SERVICE_NAME}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    return OtelTracer(provider, capture_content=capture_content)


def capture_from_env(environ: Mapping[str, str] | None = None) -> bool | None:
    """What :data:`CAPTURE_VARIABLE` says: True or False, None when it is unset (then the caller's choice holds)."""
    env = os.environ if environ is None else environ
    value = env.get(CAPTURE_VARIABLE, "").strip().lower()
    return None if not value else value == "true"


def env_enabled(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the standard variables ask for export: an OTLP endpoint is named and the SDK is not disabled."""
    env = os.environ if environ is None else environ
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return any(env.get(name, "").strip() for name in ENDPOINT_VARIABLES)


def tracer_from_env(environ: Mapping[str, str] | None = None, *, capture_content: bool = False) -> OtelTracer | None:
    """A tracer when the ``OTEL_*`` variables ask for one (see :func:`env_enabled`), else None.

    It captures message and processor text when :data:`CAPTURE_VARIABLE` is ``true`` (``capture_content`` when the
    variable is unset). Without the ``otel`` extra installed it logs why and returns None: observability never
    stops a run.
    """
    if not env_enabled(environ):
        return None
    if not otel_available():
        logger.warning("OTEL_* variables name an endpoint, but opentelemetry-sdk is not installed: no traces sent")
        return None
    env = os.environ if environ is None else environ
    endpoint = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip()
    if not endpoint:  # the general endpoint is a base URL: the signal's path is appended (the specification's rule)
        endpoint = env["OTEL_EXPORTER_OTLP_ENDPOINT"].strip().rstrip("/") + "/v1/traces"
    captured = capture_from_env(env)
    return otlp_tracer(
        endpoint,
        service_name=env.get("OTEL_SERVICE_NAME", "").strip() or None,
        capture_content=capture_content if captured is None else captured,
    )


__all__ = [
    "CAPTURE_VARIABLE",
    "DEFAULT_SERVICE_NAME",
    "ENDPOINT_VARIABLES",
    "OtelTracer",
    "capture_from_env",
    "env_enabled",
    "otel_available",
    "otlp_tracer",
    "tracer_from_env",
]
