"""The Lab view's figures as tables: confusion per language and category, attack × processor (a heat map: each
cell's background is the share of the category's attacks that processor tripped on), each processor's
contribution, and an A/B comparison. Every figure comes from :mod:`lab.metrics`, the same code as the headless
command's reports, so the studio and CI agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from lab.metrics import (
    METRICS,
    Change,
    Confusion,
    Metric,
    attack_matrix,
    attacks_by_category,
    changed_matrix,
    confusion,
    confusion_by,
    contribution,
    processors_seen,
)
from lab.results import CaseResult
from studio.i18n import translate
from studio.texts.translator import QT_TRANSLATE_NOOP

Index = QModelIndex | QPersistentModelIndex

#: A cell's filter as ``{"category": ..., "processor": ...}`` (clicking a cell filters the cases to it).
FilterRole = Qt.ItemDataRole.UserRole + 1
#: A cell's heat, 0..1 (None for a cell that is no share).
HeatRole = Qt.ItemDataRole.UserRole + 2


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


@dataclass
class Table:
    """Rows of cells under column titles; ``heat`` and ``filters`` run parallel to ``rows`` (or are empty)."""

    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    heat: list[list[float | None]] = field(default_factory=list)
    filters: list[list[dict[str, str]]] = field(default_factory=list)
    #: Draw ``heat`` as bars in the cells (recall and FPR) rather than as a heat map's background.
    bars: bool = False
    #: A tooltip per cell (parallel to ``rows``; None: the heat's share, if any).
    tooltips: list[list[str | None]] = field(default_factory=list)


#: The Lab window's column title of each figure of :data:`lab.metrics.METRICS`, by key (a new metric needs its title
#: here; the counts of the matrix itself read the same in every language).
METRIC_TITLES: dict[str, str] = {
    "tp": "TP",
    "fp": "FP",
    "fn": "FN",
    "tn": "TN",
    "errors": QT_TRANSLATE_NOOP("LabTables", "Errors"),
    "precision": QT_TRANSLATE_NOOP("LabTables", "Precision"),
    "recall": QT_TRANSLATE_NOOP("LabTables", "Recall"),
    "fpr": QT_TRANSLATE_NOOP("LabTables", "FPR"),
    "refused": QT_TRANSLATE_NOOP("LabTables", "Refused"),
    "succeeded": QT_TRANSLATE_NOOP("LabTables", "Attack succeeded"),
    "asr": QT_TRANSLATE_NOOP("LabTables", "Attack success rate"),
}


def metric_title(metric: Metric) -> str:
    """``metric``'s column title in the studio's language (its report title when the studio has none)."""
    return translate("LabTables", METRIC_TITLES.get(metric.key, metric.title))


def confusion_table(groups: dict[str, Confusion], key: str, title: str) -> Table:
    """One row per group (``key`` is the case field the group is, for filtering) and a total row."""
    table = Table([title, *(metric_title(metric) for metric in METRICS)], bars=True)
    for name, matrix in groups.items():
        table.rows.append(_confusion_cells(name, matrix))
        table.heat.append([None, *(metric.value(matrix) if metric.bar else None for metric in METRICS)])
        table.filters.append([{key: name}] * len(table.columns))
    return table


def _confusion_cells(name: str, matrix: Confusion) -> list[str]:
    return [name, *(metric.written(matrix, pct) for metric in METRICS)]


def overall_cells(matrix: Confusion) -> list[str]:
    """The overall row (:func:`overall_table`'s) of a matrix kept as running totals: the Lab's headline."""
    return _confusion_cells(translate("LabTables", "All cases"), matrix)


def overall_table(results: Sequence[CaseResult]) -> Table:
    table = confusion_table(
        {translate("LabTables", "All cases"): confusion(results)}, "", translate("LabTables", "Cases")
    )
    table.filters = []
    return table


def category_table(results: Sequence[CaseResult]) -> Table:
    return confusion_table(confusion_by(results, lambda r: r.category), "category", translate("LabTables", "Category"))


def language_table(results: Sequence[CaseResult]) -> Table:
    return confusion_table(confusion_by(results, lambda r: r.lang), "lang", translate("LabTables", "Language"))


def processor_table(results: Sequence[CaseResult]) -> Table:
    """Attack categories × processors: how many of the category's attacks each tripped on (the heat) and how many
    more it only changed, and how many none blocked (the last column). A cell's filter shows exactly the cases
    it counts: the category's attacks that processor tripped on or changed."""
    matrix = attack_matrix(results)
    changes = changed_matrix(results)
    processors = processors_seen(results)
    table = Table([translate("LabTables", "Attack category"), *processors, translate("LabTables", "Not blocked")])
    for category, attacks in attacks_by_category(results).items():
        total = attacks.total
        row = [f"{category} ({total})"]
        heat: list[float | None] = [None]
        filters = [{"category": category, "label": "attack"}]
        notes: list[str | None] = [None]
        for processor in processors:
            count = matrix.get(category, {}).get(processor, 0)
            changed = changes.get(category, {}).get(processor, 0)
            row.append(_matrix_cell(count, changed))
            heat.append(count / total)
            filters.append({"category": category, "label": "attack", "processor": processor})
            notes.append(
                translate(
                    "LabTables",
                    "Tripped on {count} of this category's {total} attacks ({share}); changed {changed} more",
                ).format(count=count, total=total, share=pct(count / total), changed=changed)
            )
        left = attacks.missed
        row.append(str(left))
        heat.append(left / total)
        filters.append({"category": category, "label": "attack", "wrong": "1"})
        notes.append(None)
        table.rows.append(row)
        table.heat.append(heat)
        table.filters.append(filters)
        table.tooltips.append(notes)
    return table


def _matrix_cell(tripped: int, changed: int) -> str:
    if not changed:
        return str(tripped) if tripped else "·"
    if not tripped:
        return translate("LabTables", "{changed} changed").format(changed=changed)
    return translate("LabTables", "{tripped} + {changed} changed").format(tripped=tripped, changed=changed)


def contribution_table(results: Sequence[CaseResult]) -> Table:
    """Each processor's catches, the ones only it made, the benign cases it blocked and the recall without it."""
    table = Table(
        [
            translate("LabTables", "Processor"),
            translate("LabTables", "Attacks blocked"),
            translate("LabTables", "Only this one"),
            translate("LabTables", "Benign blocked"),
            translate("LabTables", "Recall without it"),
        ]
    )
    for processor, item in contribution(results).items():
        table.rows.append(
            [
                processor,
                str(item.caught),
                str(item.only),
                str(item.blocked_benign),
                translate("LabTables", "{without} (now {recall})").format(
                    without=pct(item.without), recall=pct(item.recall)
                ),
            ]
        )
        table.filters.append([{"processor": processor}] * len(table.columns))
    return table


@dataclass(frozen=True)
class CategoryBar:
    """One category's bars: recall over its attacks and FPR over its benign cases (None: no such cases yet)."""

    category: str
    recall: float | None
    fpr: float | None
    attacks: int
    benign: int


def category_bars(results: Sequence[CaseResult]) -> list[CategoryBar]:
    """Recall and false-positive rate per category, from the same confusion matrices as the Confusion tab."""
    return [
        CategoryBar(name, matrix.recall, matrix.fpr, matrix.attacks, matrix.benign)
        for name, matrix in confusion_by(results, lambda r: r.category).items()
    ]


def comparison_table(changes: Sequence[Change]) -> Table:
    """A/B: the cases whose verdict changed."""
    table = Table(
        [
            translate("LabTables", "Case"),
            translate("LabTables", "Label"),
            translate("LabTables", "Category"),
            translate("LabTables", "Before (A)"),
            translate("LabTables", "After (B)"),
        ]
    )
    for change in changes:
        before = f"{change.before} ({', '.join(change.tripped_before)})" if change.tripped_before else change.before
        after = f"{change.after} ({', '.join(change.tripped_after)})" if change.tripped_after else change.after
        table.rows.append([change.id, change.label or "", change.category, before, after])
        table.filters.append([{"case": change.id}] * len(table.columns))
    return table


class TableModel(QAbstractTableModel):
    """Shows one :class:`Table`; a heat map when the table has heat."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._table = Table([])

    def set_table(self, table: Table) -> None:
        self.beginResetModel()
        self._table = table
        self.endResetModel()

    def table(self) -> Table:
        return self._table

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._table.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._table.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._table.columns[section] if 0 <= section < len(self._table.columns) else None
        return None

    def _heat(self, row: int, column: int) -> float | None:
        if row < len(self._table.heat) and column < len(self._table.heat[row]):
            return self._table.heat[row][column]
        return None

    def _tooltip(self, row: int, column: int) -> str | None:
        if row < len(self._table.tooltips) and column < len(self._table.tooltips[row]):
            return self._table.tooltips[row][column]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._table.rows):
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            cells = self._table.rows[row]
            return cells[column] if column < len(cells) else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return int(Qt.AlignmentFlag.AlignCenter)
        heat = self._heat(row, column)
        if role == HeatRole:
            return heat
        if role == Qt.ItemDataRole.BackgroundRole and heat is not None and heat > 0 and not self._table.bars:
            last = column == len(self._table.columns) - 1
            base = QColor(179, 38, 30) if last else QColor(27, 110, 32)  # misses red, catches green
            base.setAlphaF(0.12 + 0.68 * heat)
            return base
        if role == Qt.ItemDataRole.ToolTipRole and self._tooltip(row, column) is not None:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.ToolTipRole and heat is not None and not self._table.bars:
            return translate("LabTables", "{share} of this category's attacks").format(share=pct(heat))
        if role == FilterRole:
            filters = self._table.filters
            if row < len(filters) and column < len(filters[row]):
                return dict(filters[row][column])
            return None
        return None


__all__ = [
    "METRIC_TITLES",
    "CategoryBar",
    "FilterRole",
    "HeatRole",
    "Table",
    "TableModel",
    "category_bars",
    "category_table",
    "comparison_table",
    "contribution_table",
    "language_table",
    "metric_title",
    "overall_table",
    "pct",
    "processor_table",
]
