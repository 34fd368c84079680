"""What the studio's store hands back: frozen records of designs, runs, tripwires and violations.

Plain dataclasses, apart from the queries that fill them (:mod:`studio.store.database`), so views and controllers can
name them without pulling in SQLAlchemy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


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
    #: The reason's code and values (``TripwireData``), None and empty for one stored before codes existed.
    code: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ViolationRecord:
    """A processor's ``on_violation`` report: aborts, including ones a retry then recovered from."""

    run_id: str
    processor_id: str
    message: str
    detail: Any
    at: datetime
    #: The message's code and values (``Violation.code``/``params``); None and empty for a free message or a row
    #: stored before violations kept codes.
    code: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
