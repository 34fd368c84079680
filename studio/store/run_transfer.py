"""The studio's runs in a thread export: each run's record, trace, violations and recording, beside the messages.

The runtime's export format (:mod:`processors.memory.transfer`) knows threads and messages only; it carries other
programs' data in ``extensions`` without reading it. The studio puts its runs there under :data:`EXTENSION`, so a
thread exported from one studio and imported into another comes back with its inspector history and its
recordings — replayable through an edited chain on the other machine. A recording is the run's
``Recording.to_bytes()`` in base64 (compressed JSON, never a key).

Texts travel with their codes, so an imported run reads in the reader's language as the original did: a trace
event's ``summary`` (the codes and values of its before/after/detail, ``TraceEvent.summary_codes()``), a violation's
``code`` and ``params``, a tripwire's (inside ``tripwire``) and a stream abort's (inside ``chunkStats``). Each is left
out where there is none, and a file written before codes (without them) imports as before, its texts shown as
recorded.

An import is data: every run is validated (shape, ids, a readable recording of bounded size) before anything is
written, and refused with each problem named by its path (``extensions.processor-studio/runs[2].id: ...``); the
thread's own import then writes nothing either.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.engine import Connection

from processors.memory.errors import ThreadImportError
from processors.memory.transfer import ThreadExport, id_problem
from processors.models.recording import FORMAT_VERSION, Recording
from processors.problems import Problem, ProblemError, located, problem_of, pydantic_problem
from studio.store.schema import run_recordings, runs, trace_events, violations

#: The key of the studio's data in a thread export's ``extensions``.
EXTENSION = "processor-studio/runs"

#: The largest recording an import accepts, decompressed (a 10,000-chunk run is well under a megabyte).
MAX_RECORDING_BYTES = 64 * 1024 * 1024

#: The trace event keys a run export keeps (``TraceEvent.to_dict()`` minus ``runId``).
TRACE_KEYS = (
    "stepNumber", "hook", "processorId", "processorIndex", "startedAt", "endedAt", "outcome", "before", "after",
    "state", "detail", "chunkStats", "summary",
)  # fmt: skip


class ExportedTraceEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    stepNumber: int | None = None
    hook: str
    processorId: str
    processorIndex: int | None = None
    startedAt: float
    endedAt: float
    outcome: str
    before: str = ""
    after: str = ""
    state: Any = None
    detail: str | None = None
    chunkStats: Any = None
    #: The codes and values of ``before``/``after``/``detail`` by side (``Problem.to_dict()`` each), when coded.
    summary: dict[Literal["before", "after", "detail"], dict[str, Any]] | None = None


class ExportedViolation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    processorId: str
    message: str
    detail: Any = None
    at: datetime
    #: The message's code and values (``Violation.code``/``params``), when it has them.
    code: str | None = Field(default=None, max_length=255)
    params: dict[str, Any] | None = None


class ExportedRun(BaseModel):
    """One run as a thread export carries it."""

    model_config = ConfigDict(extra="forbid")

    id: str
    designId: str | None = None
    designJson: str | None = None
    model: str | None = None
    startedAt: datetime
    finishedAt: datetime | None = None
    outcome: str | None = None
    finishReason: str | None = None
    usage: dict[str, Any] | None = None
    tripwire: dict[str, Any] | None = None
    error: str | None = None
    inputText: str | None = None
    trace: list[ExportedTraceEvent] = []
    violations: list[ExportedViolation] = []
    #: ``Recording.to_bytes()`` in base64, or None for a run without one.
    recording: str | None = None


# --------------------------------------------------------------------------------------------- export
def export_runs(connection: Connection, thread_id: str) -> list[dict[str, Any]]:
    """The thread's runs, oldest first, each with its trace, violations and recording, JSON-ready."""
    rows = connection.execute(
        sa.select(runs).where(runs.c.thread_id == thread_id).order_by(runs.c.started_at, runs.c.id)
    ).all()
    ids = [row.id for row in rows]
    trace: dict[str, list[dict[str, Any]]] = {run_id: [] for run_id in ids}
    for event in connection.execute(
        sa.select(trace_events).where(trace_events.c.run_id.in_(ids)).order_by(trace_events.c.seq)
    ):
        trace[event.run_id].append(
            {key: getattr(event, _column(key)) for key in TRACE_KEYS if getattr(event, _column(key)) is not None}
        )
    found: dict[str, list[dict[str, Any]]] = {run_id: [] for run_id in ids}
    for violation in connection.execute(
        sa.select(violations).where(violations.c.run_id.in_(ids)).order_by(violations.c.seq)
    ):
        found[violation.run_id].append(
            {
                "processorId": violation.processor_id, "message": violation.message, "detail": violation.detail,
                "at": violation.created_at.isoformat(),
                **({"code": violation.code, "params": violation.params} if violation.code is not None else {}),
            }
        )  # fmt: skip
    recordings = {
        row.run_id: base64.b64encode(bytes(row.data)).decode("ascii")
        for row in connection.execute(sa.select(run_recordings).where(run_recordings.c.run_id.in_(ids)))
    }
    exported: list[dict[str, Any]] = []
    for row in rows:
        run = ExportedRun(
            id=row.id, designId=row.design_id, designJson=row.design_json, model=row.model, startedAt=row.started_at,
            finishedAt=row.finished_at, outcome=row.outcome, finishReason=row.finish_reason,
            usage=_plain_json(row.usage), tripwire=_plain_json(row.tripwire), error=row.error,
            inputText=row.input_text, recording=recordings.get(row.id),
        )  # fmt: skip
        data = run.model_dump(mode="json", exclude={"trace", "violations"})
        data["trace"], data["violations"] = trace[row.id], found[row.id]
        exported.append(data)
    return exported


def _column(key: str) -> str:
    return "".join("_" + char.lower() if char.isupper() else char for char in key)


def _plain_json(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


# --------------------------------------------------------------------------------------------- import
def check_runs(document: ThreadExport) -> list[tuple[ExportedRun, bytes | None]]:
    """The document's studio runs, validated whole; :class:`ThreadImportError` naming every problem."""
    data = document.extensions.get(EXTENSION)
    if data is None:
        return []
    where = f"extensions.{EXTENSION}"
    if not isinstance(data, list):
        got = Problem("runs:not_list", "expected a list of runs, got {kind}", kind=type(data).__name__)
        raise ThreadImportError([located(where, got)])
    problems: list[str] = []
    checked: list[tuple[ExportedRun, bytes | None]] = []
    seen: set[str] = set()
    for index, item in enumerate(data):
        here = f"{where}[{index}]"
        try:
            run = ExportedRun.model_validate(item)
        except ValidationError as error:
            problems += [
                located(f"{here}.{'.'.join(str(part) for part in e['loc'])}", pydantic_problem(e))
                for e in error.errors()
            ]
            continue
        problem = id_problem(run.id)
        if problem is not None:
            problems.append(located(f"{here}.id", problem))
        elif run.id in seen:
            problems.append(located(f"{here}.id", Problem("runs:twice", "{id!r} appears twice", id=run.id)))
        seen.add(run.id)
        try:
            recording = _recording_bytes(run.recording)
        except ValueError as error:
            problems.append(located(f"{here}.recording", problem_of(error) or str(error)))
            continue
        checked.append((run, recording))
    if problems:
        raise ThreadImportError(problems)
    return checked


def _recording_bytes(text: str | None) -> bytes | None:
    if text is None:
        return None
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ProblemError(Problem("runs:not_base64", "not base64: {error}", error=str(error))) from None
    inflater = zlib.decompressobj()
    try:
        plain = inflater.decompress(data, MAX_RECORDING_BYTES)
    except zlib.error as error:
        raise ProblemError(Problem("runs:unreadable", "not a readable recording: {error}", error=str(error))) from None
    if inflater.unconsumed_tail:
        raise ProblemError(
            Problem("runs:too_large", "larger than {size} MB decompressed", size=MAX_RECORDING_BYTES // (1024 * 1024))
        )
    Recording.from_bytes(zlib.compress(plain, 1))  # readable through and through (raises ValueError)
    return data


def import_runs(connection: Connection, document: ThreadExport) -> int:
    """Write the document's studio runs for its (just written) thread; returns how many. For
    ``SqlMemory.import_thread(extensions=...)``: raises :class:`ThreadImportError` before writing when a run is
    invalid or its id already stored, so the whole import writes nothing."""
    checked = check_runs(document)
    if not checked:
        return 0
    ids = [run.id for run, _ in checked]
    taken = {row[0] for row in connection.execute(sa.select(runs.c.id).where(runs.c.id.in_(ids)))}
    if taken:
        raise ThreadImportError(
            [
                located(f"extensions.{EXTENSION}", Problem("runs:stored", "run {id!r} is already stored", id=run_id))
                for run_id in sorted(taken)
            ]
        )
    thread_id = document.thread.id
    for run, recording in checked:
        connection.execute(
            sa.insert(runs).values(
                id=run.id, design_id=run.designId, design_json=run.designJson, thread_id=thread_id, model=run.model,
                started_at=run.startedAt, finished_at=run.finishedAt, outcome=run.outcome,
                finish_reason=run.finishReason, usage=run.usage, tripwire=run.tripwire, error=run.error,
                input_text=run.inputText,
            )
        )  # fmt: skip
        if run.trace:
            connection.execute(
                sa.insert(trace_events),
                [
                    {"run_id": run.id, **{_column(key): value for key, value in event.model_dump().items()}}
                    for event in run.trace
                ],
            )
        for violation in run.violations:
            connection.execute(
                sa.insert(violations).values(
                    run_id=run.id, processor_id=violation.processorId, message=violation.message,
                    detail=violation.detail, created_at=violation.at, code=violation.code,
                    params=violation.params if violation.code is not None else None,
                )
            )  # fmt: skip
        if recording is not None:
            chunks = Recording.from_bytes(recording).chunk_count
            connection.execute(
                sa.insert(run_recordings).values(
                    run_id=run.id, format=FORMAT_VERSION, chunk_count=chunks, data=recording
                )
            )
    return len(checked)


def runs_extension(exported: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``extensions`` for a thread export holding these runs."""
    return {EXTENSION: list(exported)}


__all__ = ["EXTENSION", "ExportedRun", "check_runs", "export_runs", "import_runs", "runs_extension"]
