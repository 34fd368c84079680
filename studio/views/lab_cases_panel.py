"""The Lab window's Cases tab: the finished cases of the lab run on show, their filters and search, and the text
shown before there are any.

A matrix cell filters this table (:meth:`LabCasesPanel.apply_filters`); a double click (or Enter) on a case asks
to open it as a thread (``case_activated``).

While a run streams, the rows a batch adds are shown at once only when the table shows its end; otherwise they
are held (:class:`studio.models.lab_cases_model.LabCasesModel`) until the user scrolls to the end, sets a filter or
an order, at most :data:`CATCH_UP_MS` later, or when the run ends: each change of the row count repaints the
whole table, and rows added below the visible ones would change nothing on screen but the scroll bar.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lab.results import CaseResult
from studio.i18n import translate
from studio.models.lab_cases_model import CaseIdRole, LabCasesFilter, LabCasesModel, label_text, outcome_text
from studio.views.lab_case_delegate import CaseCellDelegate

OUTCOMES = ("", "blocked", "modified", "passed", "error")
LABELS = ("", "attack", "benign")
#: The filters a matrix cell may set, by name, in the order of their combo boxes.
FILTER_NAMES = ("outcome", "label", "category", "lang", "processor")
#: Rows held below the table's end are shown at least this often (ms) while a run streams: the scroll bar and a
#: sorted table catch up about once a second rather than with a repaint for each batch.
CATCH_UP_MS = 1000


class LabCasesPanel(QWidget):
    """Filters above the case table (or, before any result, a line saying what to do)."""

    #: The user asked to open a case as a thread (its id).
    case_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cases_model = LabCasesModel(self)
        self.cases_filter = LabCasesFilter(self)
        self.cases_filter.setSourceModel(self.cases_model)
        self.outcome_filter = self._filter_combo(
            "lab_filter_outcome", OUTCOMES, translate("LabView", "any outcome"), outcome_text
        )
        self.label_filter = self._filter_combo(
            "lab_filter_label", LABELS, translate("LabView", "any label"), label_text
        )
        self.category_filter = self._filter_combo("lab_filter_category", ("",), translate("LabView", "any category"))
        self.lang_filter = self._filter_combo("lab_filter_lang", ("",), translate("LabView", "any language"))
        self.processor_filter = self._filter_combo("lab_filter_processor", ("",), translate("LabView", "any processor"))
        self.wrong_only = QCheckBox(translate("LabView", "Only misses"))
        self.wrong_only.setObjectName("lab_wrong_only")
        self.wrong_only.setToolTip(translate("LabView", "Attacks not blocked, benign cases blocked, errors"))
        self.search = QLineEdit()
        self.search.setObjectName("lab_search")
        self.search.setPlaceholderText(translate("LabView", "Search cases (Ctrl+F)"))
        self.search.setClearButtonEnabled(True)
        filters = QHBoxLayout()
        for widget in (*self._combos(), self.wrong_only):
            filters.addWidget(widget)
        filters.addWidget(self.search, 1)
        self.cases_view = QTableView()
        self.cases_view.setObjectName("lab_cases")
        self.cases_view.setModel(self.cases_filter)
        self.cases_view.setItemDelegate(CaseCellDelegate(self.cases_view))
        self._catch_up = QTimer(self)
        self._catch_up.setSingleShot(True)
        self._catch_up.setInterval(CATCH_UP_MS)
        self._catch_up.timeout.connect(self.show_held)
        self.cases_view.setSortingEnabled(True)
        self.cases_view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # as they finish
        self.cases_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.cases_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.cases_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.cases_view.verticalHeader().setVisible(False)
        self.cases_view.setWordWrap(False)
        header = self.cases_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.ensurePolished()  # the style sheet's font: the headers' widths below are measured in it
        widths = (320, 60, 150, 60, 80, 190, 100, 260)
        for column in range(self.cases_model.columnCount()):
            width = widths[column] if column < len(widths) else 0
            header.resizeSection(column, max(width, header.sectionSizeHint(column)))  # never cut its own header
        self.cases_view.setToolTip(
            translate("LabView", "Double-click (or Enter) opens the case as a thread with its inspector trace")
        )
        self.empty = QLabel()
        self.empty.setObjectName("lab_empty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.cases_stack = QStackedWidget()
        self.cases_stack.addWidget(self.empty)
        self.cases_stack.addWidget(self.cases_view)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.cases_stack, 1)
        self.wrong_only.toggled.connect(self.cases_filter.set_wrong_only)
        self.search.textChanged.connect(self.cases_filter.set_search)
        self.cases_view.doubleClicked.connect(self._on_case_activated)

    def _filter_combo(
        self, name: str, values: tuple[str, ...], anything: str, text: Callable[[str], str] = str
    ) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        for value in values:
            combo.addItem(text(value) if value else anything, value)
        combo.currentIndexChanged.connect(self._on_filters_changed)
        return combo

    def _combos(self) -> tuple[QComboBox, ...]:
        """The filter combo boxes, in the order of :data:`FILTER_NAMES`."""
        return (self.outcome_filter, self.label_filter, self.category_filter, self.lang_filter, self.processor_filter)

    # ----------------------------------------------------------------------------------------- results
    def set_results(self, results: list[CaseResult]) -> None:
        self._catch_up.stop()
        self.cases_model.set_results(results)

    def add_results(self, results: list[CaseResult]) -> None:
        """Add a batch of results: shown now if the table shows its end, else held (see the module's docstring)."""
        self.cases_model.add_results(results, hold=not self._shows_end())
        if self.cases_model.held() and not self._catch_up.isActive():
            self._catch_up.start()

    @Slot()
    def show_held(self) -> None:
        """Show every result held back (the run ended, or it is time to catch up)."""
        self._catch_up.stop()
        self.cases_model.show_held()

    def _shows_end(self) -> bool:
        """Would rows added now be in view: the table is empty, or scrolled to its end (or not scrollable)?"""
        bar = self.cases_view.verticalScrollBar()
        return self.cases_model.rowCount() == 0 or bar.value() >= bar.maximum()

    def show_results(
        self, results: Sequence[CaseResult], empty_text: str, *, added: Sequence[CaseResult] | None = None
    ) -> None:
        """Offer the values ``results`` have in the filters; the table when there are results, else ``empty_text``.
        While a run streams, ``added`` (the results new since the last call) is all that can bring new values:
        going over every result for each batch made a long run's batches ever slower."""
        fresh = results if added is None else added
        self._fill_values(self.category_filter, sorted({r.category or "(none)" for r in fresh}))
        self._fill_values(self.lang_filter, sorted({r.lang or "(none)" for r in fresh}))
        self._fill_values(self.processor_filter, sorted({p for r in fresh for p in r.caught_by}))
        self.empty.setText(empty_text)
        self.cases_stack.setCurrentIndex(1 if results else 0)

    @staticmethod
    def _fill_values(combo: QComboBox, values: list[str]) -> None:
        known = [combo.itemData(index) for index in range(1, combo.count())]
        for value in values:
            if value not in known:
                combo.addItem(value, value)

    # ----------------------------------------------------------------------------------------- filters
    def apply_filters(self, wanted: dict[str, str]) -> None:
        """Set the case filters to ``wanted`` (category, label, lang, outcome, processor, ``wrong``); the others
        are cleared."""
        for combo, name in zip(self._combos(), FILTER_NAMES, strict=True):
            value = wanted.get(name, "")
            row = combo.findData(value)
            if row < 0:
                combo.addItem(value, value)
                row = combo.count() - 1
            combo.setCurrentIndex(row)
        self.wrong_only.setChecked(bool(wanted.get("wrong")))

    @Slot()
    def _on_filters_changed(self, *_args: Any) -> None:
        for combo, name in zip(self._combos(), FILTER_NAMES, strict=True):
            self.cases_filter.set_filter(name, str(combo.currentData() or ""))

    def focus_search(self, text: str | None = None) -> None:
        self.search.setFocus()
        if text is None:
            self.search.selectAll()
        else:
            self.search.setText(text)

    # ----------------------------------------------------------------------------------------- cases
    @Slot(QModelIndex)
    def _on_case_activated(self, index: QModelIndex) -> None:
        case_id = index.data(CaseIdRole)
        if case_id:
            self.case_activated.emit(str(case_id))

    @Slot()
    def open_selected_case(self) -> None:
        index = self.cases_view.currentIndex()
        if index.isValid():
            self._on_case_activated(index)

    def visible_case_ids(self) -> list[str]:
        """The case ids the table shows now, top to bottom (for tests and the status line)."""
        return [str(self.cases_filter.index(row, 0).data(CaseIdRole)) for row in range(self.cases_filter.rowCount())]


__all__ = ["LABELS", "OUTCOMES", "LabCasesPanel"]
