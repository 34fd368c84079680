"""Trace events: one per hook call of each processor, for observers such as the studio's inspector.

Tracing costs nothing when nobody subscribed: the runner checks ``tracer.active`` once and skips all work.
``process_output_stream`` runs per chunk, so per-chunk calls are summarised per step and processor
(count, changed, held, dropped, total time), keeping the individual entries only where a processor changed,
held, dropped or aborted a chunk. *Held* chunks are ones a processor returned ``None`` for and let out later in
the step (a stream guard's buffer); *dropped* ones never came back out.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from processors.problems import Problem

logger = logging.getLogger(__name__)

#: ``held`` (stream hooks only): text held back and let out later, unchanged — a summarised stream event whose
#: processor changed no text but held some.
Outcome = Literal["passed", "held", "changed", "dropped", "aborted", "raised"]


@dataclass(slots=True)
class TraceEvent:
    """One hook call (or, for ``process_output_stream``, one step's worth of them, with ``chunk_stats``)."""

    run_id: str
    step_number: int | None
    hook: str
    processor_id: str
    processor_index: int | None
    started_at: float
    ended_at: float
    outcome: Outcome
    #: Short human summary of what went in and came out (``"3 messages → 2 messages"``).
    before: str = ""
    after: str = ""
    #: The processor's state after the call (a JSON-safe copy).
    state: dict[str, Any] = field(default_factory=dict)
    #: The abort reason, or the exception text, when ``outcome`` is aborted/raised.
    detail: str | None = None
    #: For summarised stream events: ``{"count", "changed", "held", "dropped", "seconds", "changes": [...]}``.
    chunk_stats: dict[str, Any] | None = None
    #: For ``process_tool_result`` events: the call, and what the tool itself returned (before any processor), so
    #: an observer can show it next to what the model was given (the ``tool-result`` chunk). Observers only:
    #: ``to_dict`` leaves the result out, so a store keeps only what the processors let through.
    tool_call_id: str | None = None
    tool_result: Any = None

    @property
    def duration(self) -> float:
        return self.ended_at - self.started_at

    def to_dict(self) -> dict[str, Any]:
        return {
            "runId": self.run_id,
            "stepNumber": self.step_number,
            "hook": self.hook,
            "processorId": self.processor_id,
            "processorIndex": self.processor_index,
            "startedAt": self.started_at,
            "endedAt": self.ended_at,
            "outcome": self.outcome,
            "before": self.before,
            "after": self.after,
            "state": self.state,
            "detail": self.detail,
            "chunkStats": self.chunk_stats,
            **({"toolCallId": self.tool_call_id} if self.tool_call_id is not None else {}),
        }

    def summary_codes(self) -> dict[str, Any]:
        """``before``/``after``/``detail`` (an abort's reason) that carry a code (a
        :class:`~processors.problems.Problem`), as their dicts: what lets a store show them in the reader's language
        later (``to_dict`` keeps its shape: a store asks for these beside it)."""
        return {
            side: text.to_dict()
            for side, text in (("before", self.before), ("after", self.after), ("detail", self.detail))
            if isinstance(text, Problem)
        }


@dataclass(slots=True)
class RunStarted:
    """A run began (before ``process_input``). Built only when a tracer listens."""

    run_id: str
    agent_id: str
    agent_name: str
    thread_id: str | None
    resource_id: str | None
    started_at: float


@dataclass(slots=True)
class ModelCall:
    """One call of the model (one step's stream, or a processor's cached answer replayed), after it ended."""

    run_id: str
    step_number: int
    provider: str
    model_id: str
    started_at: float
    ended_at: float
    input_tokens: int = 0
    output_tokens: int = 0
    #: The model's own reason (``stop``, ``tool-calls``, ``length``...); None when the call did not finish.
    finish_reason: str | None = None
    #: Why the call ended early: the model's error, or a processor's abort of its stream (``outcome`` says which).
    detail: str | None = None
    outcome: Literal["finished", "error", "aborted", "stopped"] = "finished"
    from_cache: bool = False


@dataclass(slots=True)
class RunFinished:
    """A run ended (its result is final; memory may still be saving)."""

    run_id: str
    ended_at: float
    finish_reason: str
    input_tokens: int = 0
    output_tokens: int = 0
    steps: int = 0
    #: The run's tripwire (``reason``, ``retry``, ``metadata``, ``processor_id``) when one ended it.
    tripwire: dict[str, Any] | None = None
    error: str | None = None


#: Run-level events: told to tracers that have an ``on_run_event`` method (see :class:`TraceHub.emit_run`).
RunEvent = RunStarted | ModelCall | RunFinished


class Tracer(Protocol):
    """An observer of trace events. ``on_trace_event`` must be quick: it runs on the run's task.

    A tracer may also define ``on_run_event(event: RunEvent)`` to hear when runs start and end and each model call;
    it is optional (looked up when the event is emitted), so tracers written before it keep working unchanged.
    """

    def on_trace_event(self, event: TraceEvent) -> None: ...


class TraceHub:
    """The run's fan-out to observers. ``active`` is False when there is nobody to tell."""

    __slots__ = ("_observers",)

    def __init__(self, observers: list[Tracer] | None = None) -> None:
        self._observers: list[Tracer] = list(observers or [])

    @property
    def active(self) -> bool:
        return bool(self._observers)

    def subscribe(self, observer: Tracer) -> Callable[[], None]:
        self._observers.append(observer)
        return lambda: self._observers.remove(observer) if observer in self._observers else None

    def emit(self, event: TraceEvent) -> None:
        for observer in list(self._observers):
            try:
                observer.on_trace_event(event)
            except Exception:  # an observer must never break a run
                logger.exception("trace observer %r failed", observer)

    def emit_run(self, event: RunEvent) -> None:
        """Tell the observers that want run-level events (an ``on_run_event`` method); the others never see them."""
        for observer in list(self._observers):
            method = getattr(observer, "on_run_event", None)
            if method is None:
                continue
            try:
                method(event)
            except Exception:  # an observer must never break a run
                logger.exception("trace observer %r failed", observer)


class RecordingTracer:
    """Keeps every event in ``events`` (tests, the CLI demo, exporting a run's trace)."""

    def __init__(self) -> None:
        self.events: list[TraceEvent] = []
        #: Run starts and ends and model calls, apart from the hook events.
        self.run_events: list[RunEvent] = []

    def on_trace_event(self, event: TraceEvent) -> None:
        self.events.append(event)

    def on_run_event(self, event: RunEvent) -> None:
        self.run_events.append(event)


def snapshot_state(state: dict[str, Any]) -> dict[str, Any]:
    """A JSON-safe deep copy of a processor's state, so later mutation does not rewrite history."""
    try:
        return json.loads(json.dumps(state, default=repr))  # type: ignore[no-any-return]
    except (TypeError, ValueError):
        return {key: repr(value) for key, value in copy.copy(state).items()}
