"""Tracing: the events every hook call leaves, and who listens to them.

``events`` holds ``TraceEvent`` (one hook call of one processor: outcome, duration, state before and after) and the
``TraceHub`` that hands them to the tracers of a run, with the run-level events (``RunStarted``, ``ModelCall``,
``RunFinished``) for tracers that define ``on_run_event``. ``otel`` (imported on its own, needs the ``otel`` extra)
is such a tracer: it exports runs as OpenTelemetry spans. ``redactions`` keeps what a run's guards masked, dropped or
blocked while an exporter watches the run, so that nothing leaving the machine carries it.
"""

from processors.tracing.events import (
    ModelCall,
    Outcome,
    RecordingTracer,
    RunEvent,
    RunFinished,
    RunStarted,
    TraceEvent,
    TraceHub,
    Tracer,
    snapshot_state,
)

__all__ = [
    "ModelCall",
    "Outcome",
    "RecordingTracer",
    "RunEvent",
    "RunFinished",
    "RunStarted",
    "TraceEvent",
    "TraceHub",
    "Tracer",
    "snapshot_state",
]
