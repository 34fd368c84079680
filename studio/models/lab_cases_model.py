"""The Lab view's case table: a Qt table model over :class:`lab.runner.CaseResult` values, and its filter.

Results arrive in batches (the lab controller gathers them for a frame or so), each batch one
``beginInsertRows``, so a 1,000-case run costs the view a few dozen inserts, not a thousand resets. A batch may
also be *held*: kept out of the row count the views see until :meth:`LabCasesModel.show_held` (or Qt's
``fetchMore``, which a view calls when it is scrolled to its end). Any change of the row count makes a
:class:`QTableView` lay out and repaint its whole viewport, even for rows that land below it; the cases panel
holds the rows a batch adds while the table does not show its end, so a streaming run repaints the table about
once a second instead of for every batch. Filtering and sorting show the held rows first: they always go over
every result.
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

from lab.results import CaseResult
from studio.i18n import translate

Index = QModelIndex | QPersistentModelIndex

#: The case's id (str), for "open this case as a thread".
CaseIdRole = Qt.ItemDataRole.UserRole + 1
#: The :class:`CaseResult` itself.
ResultRole = Qt.ItemDataRole.UserRole + 2
#: A cell as the case table paints it, ``(text, colour or None, alignment)``: one call per cell instead of the ten
#: roles a :class:`QStyledItemDelegate` asks for (see :class:`studio.views.lab_case_delegate.CaseCellDelegate`).
CellRole = Qt.ItemDataRole.UserRole + 3

COLUMNS = ("case", "label", "category", "lang", "outcome", "tripped", "turn", "reason", "latency")

WRONG = QColor("#b3261e")
RIGHT = QColor("#1b6e20")
LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
#: A cell as :data:`CellRole` gives it: its text, its colour (None: the palette's) and its alignment.
Cell = tuple[str, QColor | None, int]


def column_titles() -> list[str]:
    return [
        translate("LabCasesModel", "Case"),
        translate("LabCasesModel", "Label"),
        translate("LabCasesModel", "Category"),
        translate("LabCasesModel", "Language"),
        translate("LabCasesModel", "Outcome"),
        translate("LabCasesModel", "Tripped"),
        translate("LabCasesModel", "Turn"),
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


def turn_text(result: CaseResult) -> str:
    """A conversation case's "Turn" cell: the turn a processor stopped, or that none of its turns was stopped (a
    one-call case: nothing)."""
    if not result.conversation:
        return ""
    if result.tripped_turn is not None:
        return str(result.tripped_turn)
    return translate("LabCasesModel", "none of {count}").format(count=len(result.conversation))


def conversation_text(result: CaseResult) -> str | None:
    """A conversation case's turns as its tooltip shows them: each user turn, its outcome and who tripped in it."""
    if not result.conversation:
        return None
    lines = []
    for turn in result.conversation:
        said = " ".join(turn.user.split())
        said = said if len(said) <= 120 else said[:119] + "…"
        tripped = f" ({', '.join(turn.tripped)})" if turn.tripped else ""
        lines.append(
            translate("LabCasesModel", "Turn {number}: {text} → {outcome}{tripped}").format(
                number=turn.turn, text=said, outcome=outcome_text(turn.outcome), tripped=tripped
            )
        )
    return "\n".join(lines)


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
        CellRole,
    }
)


class LabCasesModel(QAbstractTableModel):
    """The finished cases of the lab run on show: in the order they finish while a run streams, in the corpus's
    order once it has ended (the controller resets the model then)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._results: list[CaseResult] = []
        #: How many of ``_results`` the views see (the rest are held: see the module's docstring).
        self._exposed = 0
        #: Each row's cells (:data:`Cell`), made on its first paint: every batch of results repaints the whole table,
        #: and remaking the texts (translations, whitespace folding) for every visible cell each time showed in a
        #: profile.
        self._cells: list[tuple[Cell, ...] | None] = []
        self._titles = column_titles()

    def set_results(self, results: list[CaseResult]) -> None:
        self.beginResetModel()
        self._results = list(results)
        self._exposed = len(self._results)
        self._cells = [None] * len(self._results)
        self.endResetModel()

    def add_results(self, results: list[CaseResult], *, hold: bool = False) -> None:
        """Append ``results``; with ``hold`` the views see them only once :meth:`show_held` is called (rows held
        before stay held either way: the rows shown are always the first ones)."""
        if not results:
            return
        self._results.extend(results)
        self._cells.extend([None] * len(results))
        if not hold:
            self.show_held()

    def held(self) -> int:
        """How many results the views do not see yet."""
        return len(self._results) - self._exposed

    def show_held(self) -> None:
        """Let the views see every result (one ``rowsInserted`` for all the held ones)."""
        if self._exposed == len(self._results):
            return
        self.beginInsertRows(QModelIndex(), self._exposed, len(self._results) - 1)
        self._exposed = len(self._results)
        self.endInsertRows()

    def canFetchMore(self, parent: Index) -> bool:
        """Qt asks this when a view shows its last row (scrolled to the end, or not full): held rows are shown."""
        return not parent.isValid() and self._exposed < len(self._results)

    def fetchMore(self, parent: Index) -> None:
        if not parent.isValid():
            self.show_held()

    def results(self) -> list[CaseResult]:
        """Every result, the held ones too."""
        return list(self._results)

    def result(self, row: int) -> CaseResult | None:
        return self._results[row] if 0 <= row < len(self._results) else None

    def row_of(self, case_id: str) -> int:
        return next((row for row, result in enumerate(self._results) if result.id == case_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else self._exposed

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
        if not 0 <= row < self._exposed:
            return None
        if role == CellRole:  # the delegate's one question per painted cell: answered first
            return self._shown(row)[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._shown(row)[index.column()][0]
        result = self._results[row]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "case":
                return conversation_text(result) or result.text
            if column == "turn":
                return conversation_text(result)
            if column == "reason":
                return result.reason or result.error
            if column == "tripped":
                return "\n".join(f"{hit.processor} · {hit.hook} · {hit.outcome}" for hit in result.hits) or None
            return None
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._shown(row)[index.column()][1]
        if role == Qt.ItemDataRole.TextAlignmentRole and column == "latency":
            return RIGHT_ALIGNED
        if role == CaseIdRole:
            return result.id
        if role == ResultRole:
            return result
        if role == Qt.ItemDataRole.UserRole:  # the sort key
            return result.latency_ms if column == "latency" else self._shown(row)[index.column()][0]
        return None

    def _shown(self, row: int) -> tuple[Cell, ...]:
        cells = self._cells[row]
        if cells is None:
            result = self._results[row]
            colour = WRONG if is_wrong(result) else RIGHT
            cells = self._cells[row] = tuple(
                (
                    self._display(result, column),
                    colour if column == "outcome" else None,
                    RIGHT_ALIGNED if column == "latency" else LEFT,
                )
                for column in COLUMNS
            )
        return cells

    @staticmethod
    def _display(result: CaseResult, column: str) -> str:
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
        if column == "turn":
            return turn_text(result)
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

    def _show_held(self) -> None:
        """A filter or an order goes over every result: the ones a streaming run holds back are shown first."""
        model = self.sourceModel()
        if isinstance(model, LabCasesModel):
            model.show_held()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._show_held()
        super().sort(column, order)

    def set_filter(self, name: str, value: str) -> None:
        """``name`` is outcome, label, category, lang or processor; an empty value clears it."""
        self._show_held()
        self.beginFilterChange()
        if value:
            self._filters[name] = value
        else:
            self._filters.pop(name, None)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filters(self) -> dict[str, str]:
        return dict(self._filters)

    def set_wrong_only(self, wrong_only: bool) -> None:
        self._show_held()
        self.beginFilterChange()
        self._wrong_only = wrong_only
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_search(self, text: str) -> None:
        self._show_held()
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


__all__ = ["CaseIdRole", "Cell", "CellRole", "LabCasesFilter", "LabCasesModel", "ResultRole", "is_wrong"]
