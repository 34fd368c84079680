"""The studio's store: agent designs, runs, trace events, violations and lab runs, beside the threads in one
database.

    store = Store()                                   # the user data dir's studio.db (``studio.system.paths``)
    agent = build_agent(design, memory=store.memory)   # threads and messages: the runtime's SqlMemory
    await store.start_run(run_id, design_id=..., thread_id=..., model=...)
    ...
    await store.add_trace_events(run_id, [event.to_dict() for event in tracer.events])
    await store.finish_run(run_id, outcome="finished", finish_reason="stop", usage=result.usage.model_dump())

A ``Store`` holds a :class:`~processors.memory.sql.SqlMemory` (composition): the same engine, worker thread,
schema checks and migrations. The studio's tables are its own (:mod:`studio.store.schema`), and so is their
history (:mod:`studio.store.migrations`), which continues the runtime's: one database, one history, two owners.
Every method is async and does its work off the event loop's thread, so the UI never waits on the disk.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection

from processors.memory.migrate import OpenReport
from processors.memory.prepared import Prepared
from processors.memory.records import ThreadRecord, utcnow
from processors.memory.schema import UnreadableJSON, threads
from processors.memory.sql import SqlMemory
from processors.memory.transfer import ImportProgress
from processors.tracing import TraceEvent
from studio.store.lab_runs import LabCaseRecord, LabRunRecord, LabRunsStore, RunNotFoundError
from studio.store.migrations import STUDIO_MIGRATIONS
from studio.store.recordings import RecordingsStore
from studio.store.records import DesignRecord, RunRecord, TripwireRecord, ViolationRecord
from studio.store.run_transfer import export_runs, import_runs, runs_extension, scrub_messages
from studio.store.schema import designs, runs, trace_events, violations
from studio.store.trash import ThreadTrashStore


class Store:
    """Designs, runs and traces (this class), threads and messages (:attr:`memory`), and beside them lab runs
    (:attr:`lab_runs`), run recordings (:attr:`recordings`) and the threads' trash (:attr:`trash`), in one database."""

    def __init__(self, url: str | URL | None = None, *, last_messages: int = 50, create: bool = True) -> None:
        if url is None:
            from studio.system.paths import database_url

            url = database_url()
        #: Threads and messages; hand it to agents as their ``memory``.
        self.memory = SqlMemory(url, last_messages, create=create, migrations=(STUDIO_MIGRATIONS,))
        #: Guardrail-lab runs and their cases.
        self.lab_runs = LabRunsStore(self.memory)
        #: What the model and the tools said in each run, for replays and reopened tool cards.
        self.recordings = RecordingsStore(self.memory)
        #: Deleted threads, restorable for ``TRASH_DAYS`` days (kept as this store's thread exports).
        self.trash = ThreadTrashStore(self.memory, self.export_thread, self.import_thread)

    def __repr__(self) -> str:
        return f"Store({self.memory!r})"

    async def open(self) -> OpenReport:
        """Open (check, back up, migrate) the database now rather than on first use."""
        return await self.memory.open()

    async def close(self) -> None:
        await self.memory.close()

    async def __aenter__(self) -> Store:
        await self.memory.__aenter__()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # ----------------------------------------------------------------------------------------- designs
    async def save_design(self, design_id: str, name: str, json_text: str) -> DesignRecord:
        """Insert or replace a design (its ``created_at`` is kept)."""
        now = utcnow()

        def work(connection: Connection) -> DesignRecord:
            changed = connection.execute(
                sa.update(designs).where(designs.c.id == design_id).values(name=name, json=json_text, updated_at=now)
            ).rowcount
            if not changed:
                connection.execute(
                    sa.insert(designs).values(id=design_id, name=name, json=json_text, created_at=now, updated_at=now)
                )
            return _design(connection.execute(sa.select(designs).where(designs.c.id == design_id)).one())

        return await self.memory.run_sync(work, write=True)

    async def get_design(self, design_id: str) -> DesignRecord | None:
        query = sa.select(designs).where(designs.c.id == design_id)

        def work(connection: Connection) -> DesignRecord | None:
            row = connection.execute(query).first()
            return None if row is None else _design(row)

        return await self.memory.run_sync(work)

    async def list_designs(self) -> list[DesignRecord]:
        """Every design, most recently saved first."""
        query = sa.select(designs).order_by(designs.c.updated_at.desc(), designs.c.id)
        return await self.memory.run_sync(lambda c: [_design(row) for row in c.execute(query)])

    async def delete_design(self, design_id: str) -> bool:
        """Delete a design (its runs keep its id and snapshot); False if there was none."""
        statement = sa.delete(designs).where(designs.c.id == design_id)
        return await self.memory.run_sync(lambda c: c.execute(statement).rowcount > 0, write=True)

    # ----------------------------------------------------------------------------------------- runs
    async def start_run(
        self,
        run_id: str,
        *,
        design_id: str | None = None,
        thread_id: str | None = None,
        model: str | None = None,
        resource_id: str | None = None,
        design_json: str | None = None,
        input_text: str | None = None,
    ) -> RunRecord:
        """Record that a run started; creates its thread if this is the thread's first run."""
        now = utcnow()

        def work(connection: Connection) -> RunRecord:
            if thread_id is not None:
                exists = _THREAD_EXISTS.execute(connection, {"thread_id": thread_id}).first()
                if exists is None:
                    thread = ThreadRecord(id=thread_id, resource_id=resource_id, created_at=now, updated_at=now)
                    connection.execute(sa.insert(threads).values(**thread.model_dump()))
            _INSERT_RUN.execute(
                connection,
                {
                    "id": run_id,
                    "design_id": design_id,
                    "design_json": design_json,
                    "thread_id": thread_id,
                    "model": model,
                    "started_at": now,
                    "input_text": input_text,
                },
            )
            return RunRecord(
                id=run_id,
                design_id=design_id,
                thread_id=thread_id,
                model=model,
                started_at=now,
                finished_at=None,
                outcome=None,
                finish_reason=None,
                usage=None,
                tripwire=None,
                error=None,
                design_json=design_json,
                input_text=input_text,
            )

        return await self.memory.run_sync(work, write=True)

    async def finish_run(
        self,
        run_id: str,
        *,
        outcome: str,
        finish_reason: str | None = None,
        usage: Mapping[str, Any] | None = None,
        tripwire: Mapping[str, Any] | None = None,
        error: str | None = None,
    ) -> None:
        """Record how a run ended. :class:`RunNotFoundError` if it was never started."""
        values = {
            "b_id": run_id,
            "finished_at": utcnow(),
            "outcome": outcome,
            "finish_reason": finish_reason,
            "usage": dict(usage) if usage is not None else None,
            "tripwire": dict(tripwire) if tripwire is not None else None,
            "error": error,
        }

        def work(connection: Connection) -> None:
            if _FINISH_RUN.execute(connection, values).rowcount == 0:
                raise RunNotFoundError(f"No run with id {run_id!r}")

        await self.memory.run_sync(work, write=True)

    async def add_trace_events(self, run_id: str, events: Sequence[Mapping[str, Any] | TraceEvent]) -> int:
        """Append trace events (``TraceEvent.to_dict()`` shape, or the events) in one transaction; returns how many."""
        rows = [_trace_row(run_id, _event_dict(event)) for event in events]
        if not rows:
            return 0

        def work(connection: Connection) -> int:
            _INSERT_TRACE_EVENTS.executemany(connection, rows)
            return len(rows)

        return await self.memory.run_sync(work, write=True)

    async def add_violation(
        self,
        run_id: str,
        processor_id: str,
        message: str,
        detail: Any = None,
        *,
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        """One ``on_violation`` report; ``code`` and ``params`` (``Violation.code``/``params``) let the inspector
        show its message in the reader's language."""
        statement = sa.insert(violations).values(
            run_id=run_id,
            processor_id=processor_id,
            message=message,
            detail=detail,
            code=code,
            params=params,
            created_at=utcnow(),
        )
        await self.memory.run_sync(lambda c: c.execute(statement), write=True)

    # ----------------------------------------------------------------------------------------- thread files
    async def export_thread(self, thread_id: str) -> dict[str, Any]:
        """The runtime's thread export, with the studio's runs (trace, violations, recordings) in its
        ``extensions`` (:mod:`studio.store.run_transfer`), and what the guards hid written as ``[REDACTED]``: the runs
        come scrubbed (``export_runs``), the messages are scrubbed here (``scrub_messages``, on a worker thread), so
        every caller gets a document fit to leave the studio."""
        document = await self.memory.export_thread(thread_id)
        exported = await self.memory.run_sync(lambda connection: export_runs(connection, thread_id))
        if exported:
            document["extensions"] = runs_extension(exported)
        return await asyncio.to_thread(scrub_messages, document)

    async def import_thread(
        self, data: Mapping[str, Any] | str | bytes, *, progress: ImportProgress | None = None
    ) -> str:
        """Import a thread export with its studio runs, in one transaction: any problem writes nothing."""
        return await self.memory.import_thread(data, progress=progress, extensions=import_runs)

    # ----------------------------------------------------------------------------------------- history
    async def get_run(self, run_id: str) -> RunRecord | None:
        query = sa.select(runs).where(runs.c.id == run_id)

        def work(connection: Connection) -> RunRecord | None:
            row = connection.execute(query).first()
            return None if row is None else _run(row)

        return await self.memory.run_sync(work)

    async def runs_for_thread(self, thread_id: str) -> list[RunRecord]:
        """The thread's runs, oldest first (the order of the conversation)."""
        query = sa.select(runs).where(runs.c.thread_id == thread_id).order_by(runs.c.started_at, runs.c.id)
        return await self.memory.run_sync(lambda c: [_run(row) for row in c.execute(query)])

    async def thread_history(
        self, thread_id: str
    ) -> tuple[list[RunRecord], dict[str, list[dict[str, Any]]], dict[str, list[ViolationRecord]]]:
        """Everything the inspector shows for a thread — its runs, their trace events and violations — read in one
        transaction with three queries, however many runs the thread has."""
        run_query = sa.select(runs).where(runs.c.thread_id == thread_id).order_by(runs.c.started_at, runs.c.id)
        run_ids = sa.select(runs.c.id).where(runs.c.thread_id == thread_id)
        event_query = sa.select(trace_events).where(trace_events.c.run_id.in_(run_ids)).order_by(trace_events.c.seq)
        violation_query = sa.select(violations).where(violations.c.run_id.in_(run_ids)).order_by(violations.c.seq)

        def work(
            connection: Connection,
        ) -> tuple[list[RunRecord], dict[str, list[dict[str, Any]]], dict[str, list[ViolationRecord]]]:
            records = [_run(row) for row in connection.execute(run_query)]
            events: dict[str, list[dict[str, Any]]] = {record.id: [] for record in records}
            for row in connection.execute(event_query):
                events[row.run_id].append(_trace_dict(row))
            found: dict[str, list[ViolationRecord]] = {record.id: [] for record in records}
            for row in connection.execute(violation_query):
                found[row.run_id].append(_violation(row))
            return records, events, found

        return await self.memory.run_sync(work)

    async def trace_for_run(self, run_id: str) -> list[dict[str, Any]]:
        """The run's trace events in the order they were added, each in ``TraceEvent.to_dict()`` shape."""
        query = sa.select(trace_events).where(trace_events.c.run_id == run_id).order_by(trace_events.c.seq)
        return await self.memory.run_sync(lambda c: [_trace_dict(row) for row in c.execute(query)])

    async def tripwires_for_thread(self, thread_id: str) -> list[TripwireRecord]:
        """Tripwires that ended runs of the thread, oldest first."""
        query = (
            sa.select(runs.c.id, runs.c.started_at, runs.c.tripwire)
            .where(runs.c.thread_id == thread_id, runs.c.tripwire.is_not(None))
            .order_by(runs.c.started_at, runs.c.id)
        )
        return await self.memory.run_sync(lambda c: [_tripwire(row) for row in c.execute(query) if row.tripwire])

    async def violations_for_run(self, run_id: str) -> list[ViolationRecord]:
        query = sa.select(violations).where(violations.c.run_id == run_id).order_by(violations.c.seq)
        return await self.memory.run_sync(lambda c: [_violation(row) for row in c.execute(query)])

    async def violations_for_thread(self, thread_id: str) -> list[ViolationRecord]:
        query = (
            sa.select(violations)
            .join(runs, runs.c.id == violations.c.run_id)
            .where(runs.c.thread_id == thread_id)
            .order_by(violations.c.seq)
        )
        return await self.memory.run_sync(lambda c: [_violation(row) for row in c.execute(query)])


# --------------------------------------------------------------------------------------------- a turn's statements
# Compiled once per database and run through the driver with ready rows (``Prepared``): building a SQLAlchemy statement
# with its values in it costs ~3x executing it, and executing one costs more in SQLAlchemy's per-row parameter work
# than in SQLite; every turn runs these (tests/bench/bench_store.py, tests/studio/store/test_turn_save_cost.py).
_THREAD_EXISTS = Prepared(sa.select(threads.c.id).where(threads.c.id == sa.bindparam("thread_id")))
_INSERT_RUN = Prepared(
    sa.insert(runs), keys=("id", "design_id", "design_json", "thread_id", "model", "started_at", "input_text")
)
_FINISH_RUN = Prepared(
    sa.update(runs)
    .where(runs.c.id == sa.bindparam("b_id"))
    .values(
        finished_at=sa.bindparam("finished_at"),
        outcome=sa.bindparam("outcome"),
        finish_reason=sa.bindparam("finish_reason"),
        usage=sa.bindparam("usage"),
        tripwire=sa.bindparam("tripwire"),
        error=sa.bindparam("error"),
    )
)


# --------------------------------------------------------------------------------------------- row mapping
def _design(row: Any) -> DesignRecord:
    return DesignRecord(
        id=row.id, name=row.name, json_text=row.json, created_at=row.created_at, updated_at=row.updated_at
    )


def _run(row: Any) -> RunRecord:
    unreadable = tuple(name for name in ("usage", "tripwire") if isinstance(getattr(row, name), UnreadableJSON))
    return RunRecord(
        id=row.id,
        design_id=row.design_id,
        thread_id=row.thread_id,
        model=row.model,
        started_at=row.started_at,
        finished_at=row.finished_at,
        outcome=row.outcome,
        finish_reason=row.finish_reason,
        usage=_readable(row.usage),
        tripwire=_readable(row.tripwire),
        error=row.error,
        design_json=row.design_json,
        input_text=row.input_text,
        unreadable=unreadable,
    )


def _readable(value: Any) -> Any:
    """A JSON column's value, None where it could not be read (``UnreadableJSON``, already logged)."""
    return None if isinstance(value, UnreadableJSON) else value


def _tripwire(row: Any) -> TripwireRecord:
    data: dict[str, Any] = row.tripwire
    return TripwireRecord(
        run_id=row.id,
        at=row.started_at,
        reason=str(data.get("reason", "")),
        processor_id=data.get("processorId", data.get("processor_id")),
        retry=bool(data.get("retry", False)),
        metadata=data.get("metadata"),
        code=data.get("code"),
        params=dict(data.get("params") or {}),
    )


def _violation(row: Any) -> ViolationRecord:
    return ViolationRecord(
        run_id=row.run_id,
        processor_id=row.processor_id,
        message=row.message,
        detail=row.detail,
        at=row.created_at,
        code=row.code,
        params=row.params if isinstance(row.params, dict) else {},
    )


#: ``TraceEvent.to_dict()`` keys → columns.
_TRACE_KEYS = {
    "stepNumber": "step_number",
    "hook": "hook",
    "processorId": "processor_id",
    "processorIndex": "processor_index",
    "startedAt": "started_at",
    "endedAt": "ended_at",
    "outcome": "outcome",
    "before": "before",
    "after": "after",
    "state": "state",
    "detail": "detail",
    "chunkStats": "chunk_stats",
    "summary": "summary",
}


#: A trace event's row: compiled once per database, its rows handed to the driver ready (``Prepared``): SQLAlchemy's
#: per-row parameter processing cost more than the insert (40 events a turn).
_INSERT_TRACE_EVENTS = Prepared(sa.insert(trace_events), keys=("run_id", *_TRACE_KEYS.values()))


def _event_dict(event: Mapping[str, Any] | TraceEvent) -> Mapping[str, Any]:
    """``to_dict()`` with the summaries' codes (``summary``) when the event's before/after carry them."""
    if not isinstance(event, TraceEvent):
        return event
    summary = event.summary_codes()
    return {**event.to_dict(), "summary": summary} if summary else event.to_dict()


def _trace_row(run_id: str, event: Mapping[str, Any]) -> dict[str, Any]:
    missing = [key for key in ("hook", "processorId", "startedAt", "endedAt", "outcome") if key not in event]
    if missing:
        raise ValueError(f"trace event without {', '.join(missing)}: {dict(event)!r}")
    row = {column: event.get(key) for key, column in _TRACE_KEYS.items()}
    row["run_id"] = run_id
    row["before"] = row["before"] or ""
    row["after"] = row["after"] or ""
    return row


def _trace_dict(row: Any) -> dict[str, Any]:
    event = {"runId": row.run_id}
    event.update({key: getattr(row, column) for key, column in _TRACE_KEYS.items()})
    if event.get("summary") is None:  # as TraceEvent.to_dict() writes it: only when a summary carries a code
        event.pop("summary", None)
    return event


__all__ = [
    "DesignRecord",
    "LabCaseRecord",
    "LabRunRecord",
    "RunNotFoundError",
    "RunRecord",
    "Store",
    "TripwireRecord",
    "ViolationRecord",
]
