"""The side-by-side table of the Lab window's Scores tab: one row per guard run alone, its columns from
:class:`lab.metrics.GuardColumns` (the same figures as ``processor-studio lab --side-by-side``)."""

from __future__ import annotations

from collections.abc import Sequence

from lab.metrics import GuardColumns
from studio.i18n import translate
from studio.models.lab_tables import Table, pct

__all__ = ["side_by_side_table"]


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def side_by_side_table(rows: Sequence[GuardColumns]) -> Table:
    """Guard, recall, FPR, ROC AUC, PR AUC, and the cost per case: milliseconds, tokens, USD."""
    table = Table(
        [
            translate("LabCurves", "Guard"),
            translate("LabTables", "Recall"),
            translate("LabTables", "FPR"),
            "ROC AUC",
            "PR AUC",
            translate("LabCurves", "ms per case"),
            translate("LabCurves", "tokens per case"),
            translate("LabCurves", "USD per case"),
        ]
    )
    for row in rows:
        table.rows.append(
            [
                row.guard,
                pct(row.recall),
                pct(row.fpr),
                _number(row.roc_auc, 3),
                _number(row.pr_auc, 3),
                _number(row.latency_ms, 1),
                _number(row.tokens, 0),
                _number(row.cost, 6),
            ]
        )
        table.filters.append([{}] * len(table.columns))
    return table
