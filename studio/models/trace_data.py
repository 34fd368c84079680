"""The inspector's data, in pure Python: every run's timeline tree plus its tripwires, violations and chunks.

:class:`InspectorData` is fed the facts of live runs (``start_run``, ``add_event``, ``add_chunk``,
``add_violation``, ``finish_run``) or a run's stored history (``load_run``, from the store's
``TraceEvent.to_dict()`` shapes) and builds the tree of ``studio.models.trace_nodes``. Qt adapters
(``studio.models.trace_model``) subscribe as listeners and turn the notifications into
``beginInsertRows``/``endInsertRows``; nothing here imports Qt. Chunks are the hot path: ``add_chunk`` only
appends to a buffer, and ``flush_chunks`` moves the buffer into the capped logs with one notification.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from processors.chunks import TripwireChunk, chunk_from_wire
from processors.problems import Problem
from processors.tracing import TraceEvent
from studio.models.judge_failures import JudgeFailures
from studio.models.trace_nodes import CallNode, HookNode, Node, PhaseNode, RunNode, hook_rank
from studio.models.trace_rows import (
    MAX_DATA_ROWS,
    MAX_LOG_ROWS,
    ChunkRow,
    LogRow,
    RowLog,
    TripwireRow,
    ViolationRow,
    chunk_summary,
    chunk_type,
    field_of,
    tripwire_row,
    violation_row,
)


# --------------------------------------------------------------------------------------------- history
@dataclass(slots=True)
class RunHistory:
    """One stored run, as the store gives it back: what :meth:`InspectorData.load_run` reads."""

    run_id: str
    events: Sequence[Mapping[str, Any] | TraceEvent]
    tripwire: Mapping[str, Any] | Any | None = None
    violations: Sequence[Mapping[str, Any] | Any] = ()
    thread_id: str | None = None
    #: The store's outcome word (``finished``, ``tripwire``, ``error``, ``stopped``) and finish reason.
    status: str | None = None
    finish_reason: str | None = None
    error: str | None = None
    #: Recorded chunks (``to_wire()`` dicts or chunk objects), when the caller has them.
    chunks: Sequence[Any] = field(default_factory=list)


def _summary(data: Mapping[str, Any], side: str) -> str:
    """``before``/``after`` as stored, with its code and values when the event kept them (``summary``)."""
    text = str(data.get(side) or "")
    coded = (data.get("summary") or {}).get(side)
    if isinstance(coded, Mapping):
        return Problem.from_dict({**coded, "text": text})
    return text


def event_from_dict(data: Mapping[str, Any] | TraceEvent) -> TraceEvent:
    """A ``TraceEvent`` from its ``to_dict()`` shape (camelCase keys; snake_case accepted too)."""
    if isinstance(data, TraceEvent):
        return data

    def get(camel: str, snake: str, default: Any = None) -> Any:
        return data.get(camel, data.get(snake, default))

    return TraceEvent(
        run_id=get("runId", "run_id", ""),
        step_number=get("stepNumber", "step_number"),
        hook=data["hook"],
        processor_id=get("processorId", "processor_id", ""),
        processor_index=get("processorIndex", "processor_index"),
        started_at=float(get("startedAt", "started_at", 0.0)),
        ended_at=float(get("endedAt", "ended_at", 0.0)),
        outcome=data.get("outcome", "passed"),
        before=_summary(data, "before"),
        after=_summary(data, "after"),
        state=data.get("state") or {},
        detail=_summary(data, "detail") if data.get("detail") is not None else None,
        chunk_stats=get("chunkStats", "chunk_stats"),
        tool_call_id=get("toolCallId", "tool_call_id"),
    )


# --------------------------------------------------------------------------------------------- the store
class TreeListener(Protocol):
    def nodes_inserting(self, parent: Node | None, first: int, last: int) -> None: ...
    def nodes_inserted(self) -> None: ...
    def nodes_changed(self, nodes: Sequence[Node]) -> None: ...
    def tree_resetting(self) -> None: ...
    def tree_reset(self) -> None: ...


class InspectorData:
    """Everything the inspector shows, for any number of runs. Pure Python; Qt models listen to it."""

    def __init__(self, *, log_cap: int = MAX_LOG_ROWS, data_cap: int = MAX_DATA_ROWS) -> None:
        self.runs: list[RunNode] = []
        self._runs: dict[str, RunNode] = {}
        self.tripwires: RowLog[TripwireRow] = RowLog()
        self.violations: RowLog[ViolationRow] = RowLog()
        self.data_chunks: RowLog[ChunkRow] = RowLog(data_cap)
        self.chunks: RowLog[LogRow] = RowLog(log_cap)
        #: Every chunk type seen, in first-seen order (the raw log's type filter offers them).
        self.chunk_types: dict[str, None] = {}
        self.tree_listeners: list[TreeListener] = []
        self._pending: list[tuple[int, float, str, Any]] = []
        self._seq = 0
        self._judges = JudgeFailures()

    # ----------------------------------------------------------------------------------------- look-ups
    def run(self, run_id: str) -> RunNode | None:
        return self._runs.get(run_id)

    def aborted_call(self, run_id: str, processor_id: str | None = None, occurrence: int = -1) -> CallNode | None:
        """The run's call that aborted (by ``processor_id`` if given); the last one unless ``occurrence`` says."""
        run = self._runs.get(run_id)
        if run is None:
            return None
        calls = [
            call
            for call in run.calls()
            if call.event.outcome == "aborted" and (processor_id is None or call.event.processor_id == processor_id)
        ]
        if not calls:
            return None
        try:
            return calls[occurrence]
        except IndexError:
            return calls[-1]

    def tripwire_index(self, run_id: str) -> int | None:
        return next((row for row, tripwire in enumerate(self.tripwires) if tripwire.run_id == run_id), None)

    def call_for_tripwire(self, row: int) -> CallNode | None:
        """The timeline call that tripped the tripwire in row ``row`` of :attr:`tripwires`."""
        tripwire = self.tripwires[row]
        return self.aborted_call(tripwire.run_id, tripwire.processor_id) or self.aborted_call(tripwire.run_id)

    def call_for_violation(self, row: int) -> CallNode | None:
        """The aborted call a violation reported: the n-th abort of that processor in that run for its n-th report."""
        violation = self.violations[row]
        occurrence = sum(
            1
            for earlier in range(row)
            if self.violations[earlier].run_id == violation.run_id
            and self.violations[earlier].processor_id == violation.processor_id
        )
        return self.aborted_call(violation.run_id, violation.processor_id, occurrence)

    # ----------------------------------------------------------------------------------------- live facts
    def start_run(self, run_id: str, thread_id: str | None = None, *, started_at: float | None = None) -> RunNode:
        """Add a run (or return it if known). ``started_at`` defaults to now."""
        existing = self._runs.get(run_id)
        if existing is not None:
            if thread_id is not None:
                existing.thread_id = thread_id
            return existing
        run = RunNode(run_id, thread_id, len(self.runs) + 1, time.time() if started_at is None else started_at)
        self._insert(None, self.runs, len(self.runs), run)
        self._runs[run_id] = run
        return run

    def add_event(self, event: TraceEvent | Mapping[str, Any], run_id: str | None = None) -> CallNode:
        """Place one trace event in its run's tree (the run is added if it was not started)."""
        event = event_from_dict(event)
        run = self._runs.get(run_id or event.run_id)
        if run is None:
            run = self.start_run(run_id or event.run_id, started_at=event.started_at)
        phase = self._phase(run, self._phase_key(event))
        hook = self._hook(phase, event.hook)
        call = CallNode(hook, event)
        call.judge_failure = self._judges.see(event)
        if call.judge_failure is not None:
            run.judge_failures.append(call.judge_failure)
        self._insert(hook, hook.children, len(hook.children), call)
        touched: list[Node] = []
        node: Node | None = hook
        while node is not None:
            node.seconds += call.seconds
            node.counts[event.outcome] = node.counts.get(event.outcome, 0) + 1
            touched.append(node)
            node = node.parent
        self._changed(touched)
        return call

    def add_chunk(self, run_id: str, chunk: Any) -> None:
        """The hot path: O(1), nothing is shown until :meth:`flush_chunks`. A tripwire chunk is recorded at once."""
        self._seq += 1
        self._pending.append((self._seq, time.time(), run_id, chunk))
        if isinstance(chunk, TripwireChunk):
            self.add_tripwire(run_id, chunk.payload)

    def flush_chunks(self) -> int:
        """Move buffered chunks into the raw log (and ``data-*`` ones into the data list): one insert each."""
        pending, self._pending = self._pending, []
        if not pending:
            return 0
        types = self.chunk_types
        rows: list[LogRow] = []
        data_rows: list[ChunkRow] = []
        for seq, at, run_id, chunk in pending:
            kind = chunk_type(chunk)
            if kind not in types:
                types[kind] = None
            if kind.startswith("data-"):
                data_rows.append(ChunkRow(seq, at, run_id, chunk))
            rows.append((seq, at, run_id, kind, chunk_summary(chunk)))
        self.chunks.extend(rows)
        self.data_chunks.extend(data_rows)
        return len(pending)

    def add_tripwire(self, run_id: str, tripwire: Any) -> TripwireRow:
        """Record the tripwire that ended a run (once per run: the chunk and the result report the same one)."""
        run = self._runs.get(run_id) or self.start_run(run_id)
        if run.tripwire is None:
            run.tripwire = tripwire_row(run_id, tripwire)
            self.tripwires.extend([run.tripwire])
        return run.tripwire

    def add_violation(self, run_id: str, processor_id: str | None, violation: Any) -> ViolationRow:
        row = violation_row(run_id, processor_id, violation)
        self.violations.extend([row])
        return row

    def finish_run(self, run_id: str, result: Any) -> None:
        """The run ended with ``result`` (a ``GenerateResult`` or anything with its fields)."""
        self.flush_chunks()
        run = self._runs.get(run_id) or self.start_run(run_id)
        tripwire = field_of(result, "tripwire")
        if tripwire is not None:
            self.add_tripwire(run_id, tripwire)
        run.finish_reason = field_of(result, "finish_reason", "finishReason")
        run.error = field_of(result, "error")
        run.warnings = list(field_of(result, "warnings", default=[]) or [])
        run.status = (
            "stopped"
            if run.finish_reason == "abort"
            else "tripwire"
            if tripwire is not None
            else "error"
            if run.finish_reason == "error"
            else "finished"
        )
        run.ended_at = time.time()
        self._changed([run])

    def fail_run(self, run_id: str, message: str) -> None:
        self.flush_chunks()
        run = self._runs.get(run_id) or self.start_run(run_id)
        run.status, run.error, run.ended_at = "failed", message, time.time()
        self._changed([run])

    # ----------------------------------------------------------------------------------------- history
    def load_run(
        self,
        run_id: str,
        events: Sequence[Mapping[str, Any] | TraceEvent],
        tripwire: Any = None,
        violations: Sequence[Any] = (),
        *,
        thread_id: str | None = None,
        status: str | None = None,
        finish_reason: str | None = None,
        error: str | None = None,
        chunks: Sequence[Any] = (),
    ) -> RunNode:
        """Rebuild a stored run: its trace events (``to_dict()`` shape), tripwire, violations and any chunks."""
        parsed = [event_from_dict(event) for event in events]
        started = min((event.started_at for event in parsed), default=None)
        run = self.start_run(run_id, thread_id, started_at=started)
        for event in parsed:
            self.add_event(event, run_id)
        for chunk in chunks:
            self.add_chunk(run_id, _chunk_object(chunk))
        self.flush_chunks()
        if tripwire is not None:
            self.add_tripwire(run_id, tripwire)
        for violation in violations:
            self.add_violation(run_id, None, violation)
        run.status = status or ("tripwire" if tripwire is not None else "finished")
        run.finish_reason, run.error = finish_reason, error
        run.ended_at = max((event.ended_at for event in parsed), default=started)
        self._changed([run])
        return run

    def load_history(self, runs: Iterable[RunHistory]) -> None:
        for history in runs:
            self.load_run(
                history.run_id,
                history.events,
                history.tripwire,
                history.violations,
                thread_id=history.thread_id,
                status=history.status,
                finish_reason=history.finish_reason,
                error=history.error,
                chunks=history.chunks,
            )

    def clear(self) -> None:
        for listener in self.tree_listeners:
            listener.tree_resetting()
        self.runs, self._runs, self._pending, self._seq = [], {}, [], 0
        self._judges = JudgeFailures()
        for listener in self.tree_listeners:
            listener.tree_reset()
        self.chunk_types = {}
        for log in (self.tripwires, self.violations, self.data_chunks, self.chunks):
            log.clear()

    # ----------------------------------------------------------------------------------------- internals
    @staticmethod
    def _phase_key(event: TraceEvent) -> tuple[int, int]:
        if event.hook == "process_input" or event.step_number is None:
            return (0, -1)
        if event.hook == "process_output_result":
            return (2, 0)
        return (1, event.step_number)

    def _phase(self, run: RunNode, key: tuple[int, int]) -> PhaseNode:
        phase = run.phases_by_key.get(key)
        if phase is None:
            phase = run.phases_by_key[key] = PhaseNode(run, key)
            row = bisect.bisect([p.key for p in run.children], key)  # type: ignore[attr-defined]
            self._insert(run, run.children, row, phase)
        return phase

    def _hook(self, phase: PhaseNode, hook: str) -> HookNode:
        for node in phase.children:
            if node.hook == hook:  # type: ignore[attr-defined]
                return node  # type: ignore[return-value]
        node = HookNode(phase, hook)
        rank = hook_rank(hook)
        row = bisect.bisect([hook_rank(h.hook) for h in phase.children], rank)  # type: ignore[attr-defined]
        self._insert(phase, phase.children, row, node)
        return node

    def _insert(self, parent: Node | None, siblings: list[Any], row: int, node: Node) -> None:
        for listener in self.tree_listeners:
            listener.nodes_inserting(parent, row, row)
        siblings.insert(row, node)
        for index in range(row, len(siblings)):
            siblings[index].row = index
        for listener in self.tree_listeners:
            listener.nodes_inserted()

    def _changed(self, nodes: Sequence[Node]) -> None:
        for listener in self.tree_listeners:
            listener.nodes_changed(nodes)


def _chunk_object(chunk: Any) -> Any:
    """A recorded chunk back as a chunk object (wire dicts are read with the runtime's reader)."""
    if isinstance(chunk, Mapping):
        return chunk_from_wire(dict(chunk))
    return chunk
