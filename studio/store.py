"""The studio's store: agent designs, runs, trace events, violations and lab runs, beside the threads in one
database.

    store = Store()                                   # the user data dir's studio.db (``studio.paths``)
    agent = build_agent(design, memory=store.memory)   # threads and messages: the runtime's SqlMemory
    await store.start_run(run_id, design_id=..., thread_id=..., model=...)
    ...
    await store.add_trace_events(run_id, [event.to_dict() for event in tracer.events])
    await store.finish_run(run_id, outcome="finished", finish_reason="stop", usage=result.usage.model_dump())

A ``Store`` wraps a :class:`~processors.memory.sql.SqlMemory` (composition): the same engine, worker thread,
schema checks and migrations. The studio's tables are its own (:mod:`studio.store_schema`), and so is their
history (:mod:`studio.migrations`), which continues the runtime's: one database, one history, two owners.
Every method is async and does its work off the event loop's thread, so the UI never waits on the disk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection

from processors.memory.errors import StoreError
from processors.memory.migrate import OpenReport
from processors.memory.records import ThreadRecord, utcnow
from processors.memory.schema import UnreadableJSON, threads
from processors.memory.sql import SqlMemory
from processors.memory.transfer import ImportProgress
from processors.models.replay import FORMAT_VERSION, RecordedToolCall, Recording
from processors.tracing import TraceEvent
from studio.migrations import STUDIO_MIGRATIONS
from studio.run_transfer import export_runs, import_runs, runs_extension
from studio.store_schema import designs, lab_cases, lab_runs, run_recordings, runs, trace_events, violations


class RunNotFoundError(StoreError, LookupError):
    """No run has the given id."""


@dataclass(frozen=True, slots=True)
class DesignRecord:
    """A saved agent design: its id, display name and the design's JSON text (``AgentDesign`` serialised)."""

    id: str
    name: str
    json_text: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One ``generate``/``stream`` call: what ran (design, model) on which thread, and how it ended."""

    id: str
    design_id: str | None
    thread_id: str | None
    model: str | None
    started_at: datetime
    finished_at: datetime | None
    #: The studio's word for the ending (e.g. ``finished``, ``tripwire``, ``error``, ``stopped``); None while running.
    outcome: str | None
    finish_reason: str | None
    usage: dict[str, Any] | None
    #: ``result.tripwire`` as a dict (``reason``, ``retry``, ``metadata``, ``processorId``) when a tripwire ended it.
    tripwire: dict[str, Any] | None
    error: str | None
    #: The design as it was when the run started (the design may have changed since).
    design_json: str | None = None
    #: The user's message that started the run (kept even when a guardrail kept it out of the thread).
    input_text: str | None = None
    #: Fields whose stored value could not be read (a damaged row); they read as None. Empty when all is well.
    unreadable: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TripwireRecord:
    """A tripwire that ended a run of a thread."""

    run_id: str
    at: datetime
    reason: str
    processor_id: str | None
    retry: bool
    metadata: Any


@dataclass(frozen=True, slots=True)
class ViolationRecord:
    """A processor's ``on_violation`` report: aborts, including ones a retry then recovered from."""

    run_id: str
    processor_id: str
    message: str
    detail: Any
    at: datetime


@dataclass(frozen=True, slots=True)
class LabRunRecord:
    """A guardrail-lab run: what ran (design snapshot, corpora, mode, settings), how far it got and its figures.

    ``status`` is ``running``, ``finished`` or ``cancelled``; a ``running`` record with no live run behind it was
    interrupted (the studio closed or crashed) and resumes like a cancelled one. ``resumes`` counts the times it
    was resumed."""

    id: str
    name: str
    design_id: str | None
    design_json: str
    design_fingerprint: str | None
    corpus: list[dict[str, Any]]
    mode: str
    settings: dict[str, Any]
    status: str
    total: int
    done: int
    resumes: int
    summary: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class LabCaseRecord:
    """One case of a lab run: the case (``Case.to_dict()``), its result once finished (``CaseResult.to_dict()``)
    and the thread it was opened as, if it was."""

    case_id: str
    position: int
    case: dict[str, Any]
    result: dict[str, Any] | None
    thread_id: str | None


class Store:
    """Designs, runs and traces (this class) and threads and messages (:attr:`memory`) in one database."""

    def __init__(self, url: str | URL | None = None, *, last_messages: int = 50, create: bool = True) -> None:
        if url is None:
            from studio.paths import database_url

            url = database_url()
        #: Threads and messages; hand it to agents as their ``memory``.
        self.memory = SqlMemory(url, last_messages, create=create, migrations=(STUDIO_MIGRATIONS,))

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
                exists = connection.execute(sa.select(threads.c.id).where(threads.c.id == thread_id)).first()
                if exists is None:
                    thread = ThreadRecord(id=thread_id, resource_id=resource_id, created_at=now, updated_at=now)
                    connection.execute(sa.insert(threads).values(**thread.model_dump()))
            connection.execute(
                sa.insert(runs).values(
                    id=run_id,
                    design_id=design_id,
                    design_json=design_json,
                    thread_id=thread_id,
                    model=model,
                    started_at=now,
                    input_text=input_text,
                )
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
        statement = (
            sa.update(runs)
            .where(runs.c.id == run_id)
            .values(
                finished_at=utcnow(),
                outcome=outcome,
                finish_reason=finish_reason,
                usage=dict(usage) if usage is not None else None,
                tripwire=dict(tripwire) if tripwire is not None else None,
                error=error,
            )
        )

        def work(connection: Connection) -> None:
            if connection.execute(statement).rowcount == 0:
                raise RunNotFoundError(f"No run with id {run_id!r}")

        await self.memory.run_sync(work, write=True)

    async def add_trace_events(self, run_id: str, events: Sequence[Mapping[str, Any] | TraceEvent]) -> int:
        """Append trace events (``TraceEvent.to_dict()`` shape, or the events) in one transaction; returns how many."""
        rows = [_trace_row(run_id, event.to_dict() if isinstance(event, TraceEvent) else event) for event in events]
        if not rows:
            return 0

        def work(connection: Connection) -> int:
            connection.execute(sa.insert(trace_events), rows)
            return len(rows)

        return await self.memory.run_sync(work, write=True)

    async def add_violation(self, run_id: str, processor_id: str, message: str, detail: Any = None) -> None:
        statement = sa.insert(violations).values(
            run_id=run_id, processor_id=processor_id, message=message, detail=detail, created_at=utcnow()
        )
        await self.memory.run_sync(lambda c: c.execute(statement), write=True)

    async def save_recording(self, run_id: str, recording: Recording | bytes) -> int:
        """Keep a run's recording (replacing any); returns its size in bytes. Compressed on the store's worker
        thread, so a 10,000-chunk recording costs the UI nothing. A recording never holds a key
        (:mod:`processors.models.replay`)."""

        def work(connection: Connection) -> int:
            if isinstance(recording, Recording):
                data, chunks = recording.to_bytes(), recording.chunk_count
            else:
                data, chunks = recording, Recording.from_bytes(recording).chunk_count
            connection.execute(sa.delete(run_recordings).where(run_recordings.c.run_id == run_id))
            connection.execute(
                sa.insert(run_recordings).values(run_id=run_id, format=FORMAT_VERSION, chunk_count=chunks, data=data)
            )
            return len(data)

        return await self.memory.run_sync(work, write=True)

    async def recording_bytes(self, run_id: str) -> bytes | None:
        """The run's recording as stored (``Recording.to_bytes()``), or None when the run has none."""
        query = sa.select(run_recordings.c.data).where(run_recordings.c.run_id == run_id)

        def work(connection: Connection) -> bytes | None:
            value = connection.execute(query).scalar_one_or_none()
            return None if value is None else bytes(value)

        return await self.memory.run_sync(work)

    async def recorded_tool_calls(self, thread_id: str) -> dict[str, list[RecordedToolCall]]:
        """What each run of the thread's tools returned, before any ``process_tool_result``, from the runs'
        recordings (decoded on the store's thread). A run without a readable recording is left out: its tool
        cards then show only what the model was given."""
        query = (
            sa.select(run_recordings.c.run_id, run_recordings.c.data)
            .join(runs, runs.c.id == run_recordings.c.run_id)
            .where(runs.c.thread_id == thread_id)
        )

        def work(connection: Connection) -> dict[str, list[RecordedToolCall]]:
            found: dict[str, list[RecordedToolCall]] = {}
            for row in connection.execute(query):
                try:
                    calls = Recording.from_bytes(bytes(row.data)).tool_calls
                except ValueError:
                    continue
                if calls:
                    found[row.run_id] = calls
            return found

        return await self.memory.run_sync(work)

    async def get_recording(self, run_id: str) -> Recording | None:
        """The run's recording, or None when it has none. Raises ``ValueError`` when the stored one is unreadable."""

        def work(connection: Connection) -> Recording | None:
            value = connection.execute(
                sa.select(run_recordings.c.data).where(run_recordings.c.run_id == run_id)
            ).scalar_one_or_none()
            return None if value is None else Recording.from_bytes(bytes(value))

        return await self.memory.run_sync(work)

    async def recorded_runs(self, thread_id: str) -> set[str]:
        """The ids of the thread's runs that have a recording (they can be replayed)."""
        query = (
            sa.select(run_recordings.c.run_id)
            .join(runs, runs.c.id == run_recordings.c.run_id)
            .where(runs.c.thread_id == thread_id)
        )
        return await self.memory.run_sync(lambda c: {str(row[0]) for row in c.execute(query)})

    # ----------------------------------------------------------------------------------------- thread files
    async def export_thread(self, thread_id: str) -> dict[str, Any]:
        """The runtime's thread export, with the studio's runs (trace, violations, recordings) in its
        ``extensions`` (:mod:`studio.run_transfer`)."""
        document = await self.memory.export_thread(thread_id)
        exported = await self.memory.run_sync(lambda connection: export_runs(connection, thread_id))
        if exported:
            document["extensions"] = runs_extension(exported)
        return document

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

    # ----------------------------------------------------------------------------------------- lab runs
    async def create_lab_run(
        self,
        lab_run_id: str,
        *,
        name: str,
        design_json: str,
        mode: str,
        cases: Sequence[Mapping[str, Any]],
        design_id: str | None = None,
        design_fingerprint: str | None = None,
        corpus: Sequence[Mapping[str, Any]] = (),
        settings: Mapping[str, Any] | None = None,
    ) -> LabRunRecord:
        """Save a new lab run (status ``running``) with every case it will run, in one transaction; each case
        needs an ``id``."""
        now = utcnow()
        values = {
            "id": lab_run_id,
            "name": name,
            "design_id": design_id,
            "design_json": design_json,
            "design_fingerprint": design_fingerprint,
            "corpus": [dict(item) for item in corpus],
            "mode": mode,
            "settings": dict(settings or {}),
            "status": "running",
            "total": len(cases),
            "done": 0,
            "resumes": 0,
            "summary": None,
            "created_at": now,
            "updated_at": now,
            "finished_at": None,
        }
        rows = [
            {"lab_run_id": lab_run_id, "case_id": str(case["id"]), "position": index, "case": dict(case)}
            for index, case in enumerate(cases)
        ]

        def work(connection: Connection) -> LabRunRecord:
            connection.execute(sa.insert(lab_runs).values(**values))
            if rows:
                connection.execute(sa.insert(lab_cases), rows)
            return _lab_run(connection.execute(sa.select(lab_runs).where(lab_runs.c.id == lab_run_id)).one())

        return await self.memory.run_sync(work, write=True)

    async def save_lab_results(self, lab_run_id: str, results: Sequence[Mapping[str, Any]]) -> int:
        """Record finished cases (``CaseResult.to_dict()``, by ``id``) in one transaction; returns the run's
        ``done`` count after it. :class:`RunNotFoundError` if there is no such lab run."""
        rows = [
            {"b_run": lab_run_id, "b_case": str(result["id"]), "outcome": result.get("outcome"), "result": dict(result)}
            for result in results
        ]
        statement = (
            sa.update(lab_cases)
            .where(lab_cases.c.lab_run_id == sa.bindparam("b_run"), lab_cases.c.case_id == sa.bindparam("b_case"))
            .values(outcome=sa.bindparam("outcome"), result=sa.bindparam("result"))
        )
        counted = sa.select(sa.func.count()).where(
            lab_cases.c.lab_run_id == lab_run_id, lab_cases.c.result.is_not(None)
        )

        def work(connection: Connection) -> int:
            if rows:
                connection.execute(statement, rows)
            done = int(connection.execute(counted).scalar_one())
            changed = connection.execute(
                sa.update(lab_runs).where(lab_runs.c.id == lab_run_id).values(done=done, updated_at=utcnow())
            ).rowcount
            if not changed:
                raise RunNotFoundError(f"No lab run with id {lab_run_id!r}")
            return done

        return await self.memory.run_sync(work, write=True)

    async def set_lab_run_status(
        self, lab_run_id: str, status: str, *, summary: Mapping[str, Any] | None = None, resumed: bool = False
    ) -> LabRunRecord:
        """Mark a lab run ``running`` (``resumed=True`` counts a resume), ``finished`` or ``cancelled``, with its
        summary when given. :class:`RunNotFoundError` if there is no such lab run."""
        now = utcnow()
        values: dict[str, Any] = {"status": status, "updated_at": now}
        if summary is not None:
            values["summary"] = dict(summary)
        values["finished_at"] = now if status in ("finished", "cancelled") else None
        if resumed:
            values["resumes"] = lab_runs.c.resumes + 1

        def work(connection: Connection) -> LabRunRecord:
            if not connection.execute(sa.update(lab_runs).where(lab_runs.c.id == lab_run_id).values(**values)).rowcount:
                raise RunNotFoundError(f"No lab run with id {lab_run_id!r}")
            return _lab_run(connection.execute(sa.select(lab_runs).where(lab_runs.c.id == lab_run_id)).one())

        return await self.memory.run_sync(work, write=True)

    async def list_lab_runs(self) -> list[LabRunRecord]:
        """Every lab run, newest first (without their cases)."""
        query = sa.select(lab_runs).order_by(lab_runs.c.created_at.desc(), lab_runs.c.id)
        return await self.memory.run_sync(lambda c: [_lab_run(row) for row in c.execute(query)])

    async def load_lab_run(self, lab_run_id: str) -> tuple[LabRunRecord, list[LabCaseRecord]] | None:
        """A lab run and its cases in the corpus's order, read in one transaction; None if there is none."""
        run_query = sa.select(lab_runs).where(lab_runs.c.id == lab_run_id)
        case_query = sa.select(lab_cases).where(lab_cases.c.lab_run_id == lab_run_id).order_by(lab_cases.c.position)

        def work(connection: Connection) -> tuple[LabRunRecord, list[LabCaseRecord]] | None:
            row = connection.execute(run_query).first()
            if row is None:
                return None
            return _lab_run(row), [_lab_case(case) for case in connection.execute(case_query)]

        return await self.memory.run_sync(work)

    async def set_lab_case_thread(self, lab_run_id: str, case_id: str, thread_id: str | None) -> None:
        """Remember the thread a case was opened as (None forgets it, e.g. once the thread is gone)."""
        statement = (
            sa.update(lab_cases)
            .where(lab_cases.c.lab_run_id == lab_run_id, lab_cases.c.case_id == case_id)
            .values(thread_id=thread_id)
        )
        await self.memory.run_sync(lambda c: c.execute(statement), write=True)

    async def delete_lab_run(self, lab_run_id: str) -> bool:
        """Delete a lab run and its cases (threads opened from its cases stay); False if there was none."""
        statement = sa.delete(lab_runs).where(lab_runs.c.id == lab_run_id)
        return await self.memory.run_sync(lambda c: c.execute(statement).rowcount > 0, write=True)


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


def _lab_run(row: Any) -> LabRunRecord:
    return LabRunRecord(
        id=row.id,
        name=row.name,
        design_id=row.design_id,
        design_json=row.design_json,
        design_fingerprint=row.design_fingerprint,
        corpus=list(_readable(row.corpus) or []),
        mode=row.mode,
        settings=dict(_readable(row.settings) or {}),
        status=row.status,
        total=row.total,
        done=row.done,
        resumes=row.resumes,
        summary=_readable(row.summary),
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
    )


def _lab_case(row: Any) -> LabCaseRecord:
    case = _readable(row.case)
    return LabCaseRecord(
        case_id=row.case_id,
        position=row.position,
        case=dict(case) if isinstance(case, dict) else {"id": row.case_id, "text": ""},
        result=_readable(row.result),
        thread_id=row.thread_id,
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
    )


def _violation(row: Any) -> ViolationRecord:
    return ViolationRecord(
        run_id=row.run_id, processor_id=row.processor_id, message=row.message, detail=row.detail, at=row.created_at
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
}


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
