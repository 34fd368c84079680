"""``RunController``: runs an agent on the Qt thread's asyncio loop and re-tells the run as Qt signals.

    controller = RunController(store=store)                  # store: optional, saves runs and their traces
    agent = build_agent(design, on_violation=controller.record_violation)
    controller.chunk_received.connect(...)
    run_id = controller.start(agent, "hello", thread_id="t1")  # from a slot, while the qasync loop runs
    controller.stop()                                          # cancels; the run finishes with "abort"

One run at a time. The run is an asyncio task the controller keeps (never fire-and-forget). Every chunk is
re-emitted as it arrives (``chunk_received``; cheap, no other per-chunk work here); the controller is the run's
tracer and re-emits its trace events. A run ends with exactly one of:

- ``run_finished(run_id, result)`` — the stream ended. Tripwires and model errors are part of the stream (a
  ``tripwire``/``error`` chunk and ``result.tripwire``/``result.error``), so they finish normally; a stopped run
  finishes with ``result.finish_reason == "abort"``.
- ``run_failed(run_id, message)`` — an unexpected exception; ``message`` is one readable line (the traceback goes
  to the log, never to a dialog).

With a store (``studio.store.database.Store`` or anything with its async methods), the run's start is saved before it
streams, and its end, trace events and violations are saved in one go when it ends, before ``run_finished``. The
store does its work off the UI thread; a store failure is logged and never breaks the run.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal

from processors.agent import Agent
from processors.loop.stream import AgentStream
from processors.messages import new_id
from processors.models.recording import Recording
from processors.pipeline.debugger import Debugger
from processors.result import GenerateResult
from processors.tracing import TraceEvent, Tracer
from processors.tripwire import Violation
from studio.i18n import translate
from studio.system.warm_up import warm_up_finished
from studio.telemetry import Telemetry
from studio.telemetry import shared as telemetry_shared

logger = logging.getLogger(__name__)


def readable_failure(error: BaseException) -> str:
    """One line that says what went wrong, for the chat (no traceback)."""
    text = str(error).strip()
    name = type(error).__name__
    if text:
        return translate("RunController", "The run failed: {kind}: {error}").format(kind=name, error=text)
    return translate("RunController", "The run failed: {kind}").format(kind=name)


def outcome_of(result: GenerateResult) -> str:
    """The store's word for how a run ended."""
    if result.finish_reason == "abort":
        return "stopped"
    if result.tripwire is not None:
        return "tripwire"
    if result.finish_reason == "error":
        return "error"
    return "finished"


@dataclass(eq=False)
class _Run:
    run_id: str
    thread_id: str
    stream: AgentStream | None
    #: Raised by ``agent.stream()`` itself (a misconfigured agent): reported as ``run_failed`` by the task.
    setup_error: Exception | None = None
    model: str | None = None
    design_id: str | None = None
    design_json: str | None = None
    resource_id: str | None = None
    input_text: str | None = None
    #: What the model and tools said (the agent was built to record into it); saved with the run when it ends.
    recording: Recording | None = None
    task: asyncio.Task[None] | None = None
    #: While the run streams, ``stop()`` cancels the task; afterwards (saving, reporting) it has nothing to stop.
    cancellable: bool = False
    stop_requested: bool = False
    trace: list[TraceEvent] = field(default_factory=list)
    violations: list[tuple[str, Violation]] = field(default_factory=list)


class RunController(QObject):
    """Bridges one agent run at a time from asyncio to Qt signals (and, optionally, to the store)."""

    #: A run began streaming: (run_id, thread_id).
    run_started = Signal(str, str)
    #: A chunk of the run's stream arrived: (run_id, chunk). Up to thousands per second: keep slots cheap.
    chunk_received = Signal(str, object)
    #: A processor hook call was traced: (run_id, TraceEvent).
    trace_event_received = Signal(str, object)
    #: A processor reported a violation through ``record_violation``: (run_id, processor_id, Violation).
    violation_recorded = Signal(str, str, object)
    #: The run ended and its result is known: (run_id, GenerateResult). Tripwires and model errors end here too.
    run_finished = Signal(str, object)
    #: The run ended on an unexpected exception: (run_id, readable message).
    run_failed = Signal(str, str)

    def __init__(self, store: Any = None, parent: QObject | None = None, *, telemetry: Telemetry | None = None) -> None:
        super().__init__(parent)
        self._store = store
        #: OpenTelemetry export: asked at each run's start whether (and where) the run is sent.
        self._telemetry = telemetry if telemetry is not None else telemetry_shared()
        self._telemetry.prepare()  # when export is on, its setup starts now, on a thread, not at the first run
        self._run: _Run | None = None

    # ----------------------------------------------------------------------------------------- state
    @property
    def is_running(self) -> bool:
        return self._run is not None

    @property
    def run_id(self) -> str | None:
        """The current run's id (None when idle)."""
        return self._run.run_id if self._run is not None else None

    @property
    def store(self) -> Any:
        return self._store

    # ----------------------------------------------------------------------------------------- requests
    def start(
        self,
        agent: Agent,
        text: Any,
        *,
        thread_id: str,
        resource_id: str | None = None,
        design_id: str | None = None,
        design_json: str | None = None,
        recording: Recording | None = None,
        debugger: Debugger | None = None,
    ) -> str:
        """Start a run of ``agent`` on ``text`` as a task of the running loop; returns its run id at once.

        ``recording`` is the one ``agent`` records into (``build_agent(recording=...)``); the store keeps it with
        the run when the run ends, however it ends. ``debugger`` pauses the run at its breakpoints.

        Signals follow from the task (``run_started`` first). Raises :class:`RuntimeError` if a run is in progress
        or no asyncio loop is running.
        """
        if self._run is not None:
            raise RuntimeError(f"a run is already in progress ({self._run.run_id}); stop it first")
        loop = asyncio.get_running_loop()
        model = getattr(agent.model, "model_id", None) or str(agent.model)
        try:
            tracers: list[Tracer] = [self, *self._telemetry.tracers()]
            stream = agent.stream(
                text, thread_id=thread_id, resource_id=resource_id, tracers=tracers, debugger=debugger
            )
        except Exception as error:  # a misconfigured agent: told through run_failed like any run failure
            run = _Run(new_id("run"), thread_id, None, setup_error=error)
        else:
            run = _Run(stream.run_id, thread_id, stream)
        run.model, run.design_id, run.design_json, run.resource_id = model, design_id, design_json, resource_id
        run.input_text = text if isinstance(text, str) else None
        run.recording = recording
        self._run = run
        run.task = loop.create_task(self._drive(run), name=f"run {run.run_id}")
        run.task.add_done_callback(self._task_done)
        return run.run_id

    def stop(self) -> None:
        """Stop the current run: its model stream is closed and it finishes with ``finish_reason == "abort"``."""
        run = self._run
        if run is None or run.stop_requested:
            return
        run.stop_requested = True
        if run.cancellable and run.task is not None and not run.task.done():
            run.task.cancel()

    async def wait_finished(self) -> None:
        """Wait until the current run (if any) has ended and its signals were emitted."""
        run = self._run
        if run is not None and run.task is not None:
            await asyncio.wait({run.task})

    async def aclose(self) -> None:
        """Stop the current run and wait for it (for shutting the window down)."""
        self.stop()
        await self.wait_finished()

    # ----------------------------------------------------------------------------------------- runtime callbacks
    def on_trace_event(self, event: TraceEvent) -> None:
        """The run's tracer: re-emit the event (and keep it for the store)."""
        run = self._run
        if run is not None and self._store is not None:
            run.trace.append(event)
        if self._alive():
            self.trace_event_received.emit(event.run_id, event)

    def record_violation(self, processor_id: str, violation: Violation) -> None:
        """A processor's ``on_violation`` report, for the current run (pass this to ``build_agent(on_violation=)``)."""
        run = self._run
        if run is None:
            logger.warning("violation from %r outside a run: %s", processor_id, violation)
            return
        run.violations.append((processor_id, violation))
        if self._alive():
            self.violation_recorded.emit(run.run_id, processor_id, violation)

    # ----------------------------------------------------------------------------------------- the task
    async def _drive(self, run: _Run) -> None:
        run.cancellable = True
        if not self._alive():
            return
        self.run_started.emit(run.run_id, run.thread_id)
        try:
            await self._save(
                "start_run",
                lambda store: store.start_run(
                    run.run_id,
                    design_id=run.design_id,
                    thread_id=run.thread_id,
                    model=run.model,
                    **_given(resource_id=run.resource_id, design_json=run.design_json, input_text=run.input_text),
                ),
            )
            if run.setup_error is not None:
                raise run.setup_error
            assert run.stream is not None
            if run.stop_requested:  # stopped before it streamed
                raise asyncio.CancelledError
            await warm_up_finished()  # a first message sent at once: the model is read once, off the paint path
            emit = self.chunk_received.emit
            run_id = run.run_id
            async for chunk in run.stream:
                emit(run_id, chunk)
            result = await run.stream.result()
        except asyncio.CancelledError:
            run.cancellable = False
            result = await self._stopped_result(run)
            await self._end(run, result)
            raise  # never swallowed: the task ends cancelled, after run_finished told what the run did
        except Exception as error:
            run.cancellable = False
            logger.exception("run %s failed", run.run_id)
            await self._fail(run, readable_failure(error))
            return
        run.cancellable = False
        await self._end(run, result)

    async def _stopped_result(self, run: _Run) -> GenerateResult:
        """What a stopped run produced so far; its model stream is closed (``aclose``)."""
        if run.stream is None:
            return GenerateResult(run_id=run.run_id, finish_reason="abort", thread_id=run.thread_id)
        await run.stream.aclose()
        result = await run.stream.result()
        # A task cancelled inside the stream finalises the run before aclose() can mark it: say "abort" here.
        if result.finish_reason != "abort":
            result = result.model_copy(update={"finish_reason": "abort"})
        return result

    async def _end(self, run: _Run, result: GenerateResult) -> None:
        await self._save_trace(run)
        await self._save(
            "finish_run",
            lambda store: store.finish_run(
                run.run_id,
                outcome=outcome_of(result),
                finish_reason=result.finish_reason,
                usage=result.usage.model_dump(by_alias=True, exclude_none=True),
                tripwire=result.tripwire.model_dump(by_alias=True) if result.tripwire is not None else None,
                error=result.error,
            ),
        )
        self._release(run)
        if self._alive():
            self.run_finished.emit(run.run_id, result)

    async def _fail(self, run: _Run, message: str) -> None:
        await self._save_trace(run)
        await self._save(
            "finish_run",
            lambda store: store.finish_run(
                run.run_id, outcome="failed", finish_reason="error", usage=None, tripwire=None, error=message
            ),
        )
        self._release(run)
        if self._alive():
            self.run_failed.emit(run.run_id, message)

    def _release(self, run: _Run) -> None:
        if self._run is run:
            self._run = None

    def _task_done(self, task: asyncio.Task[None]) -> None:
        run = self._run
        if run is not None and run.task is task:  # the task ended without reporting (it was cancelled early)
            self._release(run)
            if self._alive():
                self.run_finished.emit(
                    run.run_id, GenerateResult(run_id=run.run_id, finish_reason="abort", thread_id=run.thread_id)
                )
        if not task.cancelled() and task.exception() is not None:  # a bug in the controller itself
            logger.error("run task %s ended with an exception", task.get_name(), exc_info=task.exception())

    # ----------------------------------------------------------------------------------------- store
    async def _save(self, what: str, save: Callable[[Any], Awaitable[object]]) -> None:
        """Write to the store, if there is one; a failure is logged, never raised: the chat goes on without its
        history."""
        if self._store is None:
            return
        try:
            await save(self._store)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.warning("could not save the run (%s)", what, exc_info=True)

    async def _save_trace(self, run: _Run) -> None:
        if self._store is None:
            return
        if run.trace:
            events, run.trace = list(run.trace), []  # the store keeps each one's dict and its summaries' codes
            await self._save("add_trace_events", lambda store: store.add_trace_events(run.run_id, events))
        for processor_id, violation in run.violations:
            await self._save("add_violation", _violation_saver(run.run_id, processor_id, violation))
        run.violations = []
        if run.recording is not None:  # kept even with no model step: a blocked input replays too
            recording, run.recording = run.recording, None
            await self._save("save_recording", lambda store: store.recordings.save_recording(run.run_id, recording))

    def _alive(self) -> bool:
        """False once the C++ object is gone (the window closed while a run was in flight)."""
        return shiboken6.isValid(self)


def _violation_saver(run_id: str, processor_id: str, violation: Violation) -> Callable[[Any], Awaitable[object]]:
    """Saves one violation of the run (bound now: the caller loops over the run's violations)."""
    code, params = getattr(violation, "code", None), getattr(violation, "params", None) or None
    return lambda store: store.add_violation(
        run_id, processor_id, violation.message, violation.detail, code=code, params=params
    )


def _given(**values: Any) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


__all__ = ["RunController", "outcome_of", "readable_failure"]
