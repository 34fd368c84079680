"""The store's lab runs: a guardrail-lab run (design snapshot, corpora, settings, status, figures) and its cases,
saved as they finish so a cancelled, crashed or killed run resumes where it stopped.

Held by :class:`studio.store.database.Store` as ``store.lab_runs`` (the same database, worker thread and transactions,
through ``memory``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from processors.memory.errors import StoreError
from processors.memory.records import utcnow
from processors.memory.schema import UnreadableJSON
from processors.memory.sql import SqlMemory
from studio.store.schema import lab_cases, lab_runs, runs


class RunNotFoundError(StoreError, LookupError):
    """No run has the given id."""


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


@dataclass(frozen=True, slots=True)
class DesignVersion:
    """A design snapshot runs ran with: its JSON, when it last ran, and where (``"lab"`` or ``"chat"``), so a
    picker can name it as the lab runs list does ("as in lab run 12-06 08:23")."""

    json_text: str
    last_run_at: datetime
    last_run_in: str


class LabRunsStore:
    """Lab runs and their cases (see the module docstring)."""

    def __init__(self, memory: SqlMemory) -> None:
        self.memory = memory

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

    async def design_versions(self, limit: int = 100) -> list[DesignVersion]:
        """The design snapshots that lab runs and chat runs ran with, newest first and one per text, each with when
        and where it last ran: the versions of a design a user may run again or compare."""
        chat = (
            sa.select(runs.c.design_json.label("json"), sa.func.max(runs.c.started_at).label("at"))
            .where(runs.c.design_json.is_not(None))
            .group_by(runs.c.design_json)
        )
        lab = sa.select(lab_runs.c.design_json.label("json"), sa.func.max(lab_runs.c.created_at).label("at")).group_by(
            lab_runs.c.design_json
        )

        def work(connection: Connection) -> list[DesignVersion]:
            latest: dict[str, DesignVersion] = {}
            for where, query in (("chat", chat), ("lab", lab)):
                for row in connection.execute(query):
                    known = latest.get(row.json)
                    if known is None or row.at > known.last_run_at:
                        latest[row.json] = DesignVersion(row.json, row.at, where)
            return sorted(latest.values(), key=lambda version: version.last_run_at, reverse=True)[:limit]

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


__all__ = ["DesignVersion", "LabCaseRecord", "LabRunRecord", "LabRunsStore", "RunNotFoundError"]
