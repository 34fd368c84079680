"""What the lab controller reads back from the store: a case and its result from a stored row, a lab run's
design info for its reports, the compact summary kept in the list of lab runs, and an A/B comparison.

Plain functions and values (no Qt), shared by the controller's collaborators.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

from lab.corpus import Case, case_from_dict
from lab.metrics import Change, Confusion
from lab.results import CaseResult
from studio.design.agent_design import AgentDesign, DesignError
from studio.store.database import LabCaseRecord, LabRunRecord

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Comparison:
    """A/B of two lab runs: their figures, the cases whose verdict changed, and the ids of the cases only one of
    them has (not compared: two runs over different corpora)."""

    a: LabRunRecord
    b: LabRunRecord
    before: Confusion
    after: Confusion
    changes: list[Change]
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)


def result_of(row: LabCaseRecord) -> CaseResult | None:
    """A stored result, None when there is none or it cannot be read (a damaged row: the case runs again)."""
    if row.result is None:
        return None
    try:
        return CaseResult.from_dict(row.result)
    except (TypeError, ValueError, AttributeError):
        logger.warning("the stored result of case %s could not be read", row.case_id)
        return None


def results_of(rows: list[LabCaseRecord]) -> list[CaseResult]:
    """The readable results of stored rows, in their order."""
    return [result for result in map(result_of, rows) if result is not None]


def recordings_of(rows: list[LabCaseRecord]) -> dict[str, str]:
    """Case id → the model's recorded answers (a ``model`` or ``replay`` run's results keep them)."""
    recordings: dict[str, str] = {}
    for row in rows:
        recording = (row.result or {}).get("recording")
        if isinstance(recording, str) and recording:
            recordings[row.case_id] = recording
    return recordings


def case_of(row: LabCaseRecord) -> Case:
    return case_from_dict(row.case, default_id=row.case_id, source=str(row.case.get("source", "")))


def design_info_of(record: LabRunRecord) -> dict[str, Any]:
    """The ``design`` object of a stored lab run's reports."""
    name = record.name
    with contextlib.suppress(DesignError):
        name = AgentDesign.from_json(record.design_json).name
    return {"id": record.design_id, "name": name, "fingerprint": record.design_fingerprint}


def compact(figures: dict[str, Any]) -> dict[str, Any]:
    """The summary kept with a lab run in the list: the figures, not the per-case id lists."""
    return {key: value for key, value in figures.items() if key not in ("uncaught", "redundant")}


__all__ = [
    "Comparison",
    "case_of",
    "compact",
    "design_info_of",
    "recordings_of",
    "result_of",
    "results_of",
]
