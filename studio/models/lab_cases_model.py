"""The Lab view's case table: a Qt table model over :class:`lab.runner.CaseResult` values, and its filter.

Results arrive in batches (the lab controller gathers them for a frame or so), each batch one
``beginInsertRows``, so a 1,000-case run costs the view a few dozen inserts, not a thousand resets.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor

from lab.runner import CaseResult
from studio.i18n import translate

Index = QModelIndex | QPersistentModelIndex

#: The case's id (str), for "open this case as a thread".
CaseIdRole = Qt.ItemDataRole.UserRole + 1
#: The :class:`CaseResult` itself.
ResultRole = Qt.ItemDataRole.UserRole + 2

COLUMNS = ("case", "label", "category", "lang", "outcome", "tripped", "reason", "latency")

WRONG = QColor("#b3261e")
RIGHT = QColor("#1b6e20")


def column_titles() -> list[str]:
    return [
        translate("LabCasesModel", "Case"),
        translate("LabCasesModel", "Label"),
        translate("LabCasesModel", "Category"),
        translate("LabCasesModel", "Language"),
        translate("LabCasesModel", "Outcome"),
        translate("LabCasesModel", "Tripped"),
        translate("LabCasesModel", "Reason"),
        translate("LabCasesModel", "Latency (ms)"),
    ]


def outcome_text(outcome: str) -> str:
    """An outcome as the reader's language says it (the filters and the store keep the wire value)."""
    words = {
        "blocked": translate("LabCasesModel", "blocked"),
        "modified": translate("LabCasesModel", "modified"),
        "passed": translate("LabCasesModel", "passed"),
        "error": translate("LabCasesModel", "error"),
    }
    return words.get(outcome, outcome)


def label_text(label: str) -> str:
    """A case's label as the reader's language says it; a corpus's own label shows as it is."""
    words = {"attack": translate("LabCasesModel", "attack"), "benign": translate("LabCasesModel", "benign")}
    return words.get(label, label)


def is_wrong(result: CaseResult) -> bool:
    """An attack that got through, a benign case blocked, or a case that broke: what a designer looks at first."""
    if result.outcome == "error":
        return True
    if result.label == "attack":
        return result.outcome != "blocked"
    if result.label == "benign":
        return result.outcome == "blocked"
    return result.as_expected is False


#: The roles :meth:`LabCasesModel.data` answers; every other role a view asks for is ``None`` at once.
ANSWERED_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.UserRole,
        CaseIdRole,
        ResultRole,
    }
)


class LabCasesModel(QAbstractTableModel):
    """The finished cases of the lab run on show, in the order they finished."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._results: list[CaseResult] = []
        #: Each row's shown texts, made on its first paint: every batch of results repaints the whole table, and
        #: remaking the texts (translations, whitespace folding) for every visible cell each time showed in a profile.
        self._cells: list[tuple[Any, ...] | None] = []
        self._titles = column_titles()

    def set_results(self, results: list[CaseResult]) -> None:
        self.beginResetModel()
        self._results = list(results)
        self._cells = [None] * len(self._results)
        self.endResetModel()

    def add_results(self, results: list[CaseResult]) -> None:
        if not results:
            return
        first = len(self._results)
        self.beginInsertRows(QModelIndex(), first, first + len(results) - 1)
        self._results.extend(results)
        self._cells.extend([None] * len(results))
        self.endInsertRows()

    def results(self) -> list[CaseResult]:
        return list(self._results)

    def result(self, row: int) -> CaseResult | None:
        return self._results[row] if 0 <= row < len(self._results) else None

    def row_of(self, case_id: str) -> int:
        return next((row for row, result in enumerate(self._results) if result.id == case_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._results)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._titles[section] if 0 <= section < len(self._titles) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in ANSWERED_ROLES or not index.isValid():  # most of what a paint asks: answered first
            return None
        row = index.row()
        if not 0 <= row < len(self._results):
            return None
        result = self._results[row]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._shown(row)[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "case":
                return result.text
            if column == "reason":
                return result.reason or result.error
            if column == "tripped":
                return "\n".join(f"{hit.processor} · {hit.hook} · {hit.outcome}" for hit in result.hits) or None
            return None
        if role == Qt.ItemDataRole.ForegroundRole and column == "outcome":
            return WRONG if is_wrong(result) else RIGHT
        if role == Qt.ItemDataRole.TextAlignmentRole and column == "latency":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == CaseIdRole:
            return result.id
        if role == ResultRole:
            return result
        if role == Qt.ItemDataRole.UserRole:  # the sort key
            return result.latency_ms if column == "latency" else self._shown(row)[index.column()]
        return None

    def _shown(self, row: int) -> tuple[Any, ...]:
        cells = self._cells[row]
        if cells is None:
            result = self._results[row]
            cells = self._cells[row] = tuple(self._display(result, column) for column in COLUMNS)
        return cells

    @staticmethod
    def _display(result: CaseResult, column: str) -> Any:
        if column == "case":
            text = " ".join(result.text.split())
            return f"{result.id} · {text[:80]}"
        if column == "label":
            return label_text(result.label or "")
        if column == "category":
            return result.category
        if column == "lang":
            return result.lang
        if column == "outcome":
            return outcome_text(result.outcome)
        if column == "tripped":
            return ", ".join(result.caught_by)
        if column == "reason":
            return " ".join((result.reason or result.error or "").split())[:200]
        return f"{result.latency_ms:.1f}"


class LabCasesFilter(QSortFilterProxyModel):
    """Shows the cases matching every filter set: outcome, label, category, language, processor, "only the wrong
    ones" and a search over id, text and reason. An empty filter matches everything."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(Qt.ItemDataRole.UserRole)
        self._filters: dict[str, str] = {}
        self._wrong_only = False
        self._search = ""

    def set_filter(self, name: str, value: str) -> None:
        """``name`` is outcome, label, category, lang or processor; an empty value clears it."""
        self.beginFilterChange()
        if value:
            self._filters[name] = value
        else:
            self._filters.pop(name, None)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filters(self) -> dict[str, str]:
        return dict(self._filters)

    def set_wrong_only(self, wrong_only: bool) -> None:
        self.beginFilterChange()
        self._wrong_only = wrong_only
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_search(self, text: str) -> None:
        self.beginFilterChange()
        self._search = text.strip().casefold()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        if not isinstance(model, LabCasesModel):
            return True
        result = model.result(source_row)
        if result is None:
            return False
        if self._wrong_only and not is_wrong(result):
            return False
        for name, value in self._filters.items():
            if name == "processor":
                if value not in result.caught_by:
                    return False
                continue
            actual = getattr(result, name, None)
            if name in ("category", "lang"):
                actual = actual or "(none)"  # as the metrics name an empty group
            if actual != value:
                return False
        if self._search:
            haystack = f"{result.id}\n{result.text}\n{result.reason or ''}".casefold()
            if self._search not in haystack:
                return False
        return True


__all__ = ["CaseIdRole", "LabCasesFilter", "LabCasesModel", "ResultRole", "is_wrong"]
