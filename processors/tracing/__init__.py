"""Tracing: the events every hook call leaves, and who listens to them.

``events`` holds ``TraceEvent`` (one hook call of one processor: outcome, duration, state before and after) and the
``TraceHub`` that hands them to the tracers of a run. Exporters to other systems observe the same events.
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
