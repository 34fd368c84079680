"""``LabView``: the guardrail lab's window — corpora and lab runs on the left, the cases and figures on the right.

A thin view over :class:`studio.controllers.lab_controller.LabController`: every button is a call on it, every
figure is one of its models. Results arrive in batches while a run goes on (the run is an asyncio task on the
qasync loop), so the window keeps painting; the figures are recomputed once per batch.

Keys: Ctrl+Enter runs, Esc cancels, Ctrl+Shift+R resumes the selected lab run, Ctrl+I imports a corpus,
Ctrl+F searches the cases, Enter (or a double click) on a case opens it as a thread, Del deletes the selected
lab run, Ctrl+D compares the two selected lab runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt, Signal, Slot
from PySide6.QtGui import QAction, QColor, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.controllers.lab_controller import STUDIO_MODES, Comparison, LabController
from studio.i18n import translate
from studio.models.lab_cases_model import CaseIdRole, LabCasesFilter, LabCasesModel, label_text, outcome_text
from studio.models.lab_lists import LabRunIdRole, can_resume
from studio.models.lab_tables import (
    FilterRole,
    HeatRole,
    TableModel,
    category_table,
    comparison_table,
    contribution_table,
    language_table,
    overall_table,
    pct,
    processor_table,
)

OUTCOMES = ("", "blocked", "modified", "passed", "error")
LABELS = ("", "attack", "benign")
REPORT_FILTERS = {"json": "JSON (*.json)", "junit": "JUnit XML (*.xml)", "html": "HTML (*.html)"}
#: Width of the recall and FPR columns, whose cells draw bars.
BAR_WIDTH = 180
REPORT_SUFFIXES = {"json": ".json", "junit": ".xml", "html": ".html"}


class BarDelegate(QStyledItemDelegate):
    """Draws a cell's heat (recall, FPR) as a bar under its text: the per-category bars of the Confusion tab."""

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        heat = index.data(HeatRole)
        if isinstance(heat, float) and heat > 0:
            rect = QRect(option.rect)
            rect.adjust(2, 3, -2, -3)
            rect.setWidth(max(1, int(rect.width() * min(heat, 1.0))))
            header = index.model().headerData(index.column(), Qt.Orientation.Horizontal)
            color = QColor(179, 38, 30, 90) if header == translate("LabTables", "FPR") else QColor(27, 110, 32, 90)
            painter.fillRect(rect, color)
        super().paint(painter, option, index)


def _table_view(name: str, model: TableModel, *, bars: bool = False) -> QTableView:
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    if bars:
        view.setItemDelegate(BarDelegate(view))
        header = view.horizontalHeader()
        header.setStretchLastSection(False)

        def widen_bars() -> None:  # the recall and FPR columns are wide enough for their bars to be read
            for column in range(model.columnCount()):
                if column >= model.columnCount() - 2:
                    header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
                    header.resizeSection(column, BAR_WIDTH)

        model.modelReset.connect(widen_bars)
    return view


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 4, 0, 0)
    label = QLabel(f"<b>{title}</b>")
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box


class LabView(QWidget):
    """The Lab window. ``open_case_requested(case_id)`` is handled by the controller (wired here)."""

    #: The user asked to open a case as a thread (its id).
    open_case_requested = Signal(str)

    def __init__(self, controller: LabController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lab_view")
        self.setWindowTitle(translate("LabView", "Guardrail lab — Processor Studio"))
        self.controller = controller
        self.cases_model = LabCasesModel(self)
        self.cases_filter = LabCasesFilter(self)
        self.cases_filter.setSourceModel(self.cases_model)
        self.tables = {
            name: TableModel(self) for name in ("overall", "lang", "category", "processors", "contrib", "ab")
        }

        # ---- top bar: design, mode, concurrency, run / cancel / resume, export, progress
        self.design_label = QLabel()
        self.design_label.setObjectName("lab_design")
        self.mode = QComboBox()
        self.mode.setObjectName("lab_mode")
        for mode in STUDIO_MODES:
            self.mode.addItem(self._mode_text(mode), mode)
        self.mode.setToolTip(
            translate(
                "LabView",
                "guardrails: the input and output lanes around a fixed reply, no model call (free, fast)\n"
                "model: the design's own model answers each case",
            )
        )
        self.concurrency = QSpinBox()
        self.concurrency.setObjectName("lab_concurrency")
        self.concurrency.setRange(1, 64)
        self.concurrency.setValue(4)
        self.run_button = QPushButton(translate("LabView", "Run"))
        self.run_button.setObjectName("lab_run")
        self.run_button.setToolTip(translate("LabView", "Run the chosen corpora against the design (Ctrl+Enter)"))
        self.cancel_button = QPushButton(translate("LabView", "Cancel"))
        self.cancel_button.setObjectName("lab_cancel")
        self.cancel_button.setToolTip(translate("LabView", "Stop the run; finished cases are kept (Esc)"))
        self.resume_button = QPushButton(translate("LabView", "Resume"))
        self.resume_button.setObjectName("lab_resume")
        self.resume_button.setToolTip(
            translate("LabView", "Run the cases the selected lab run has not finished (Ctrl+Shift+R)")
        )
        self.export_button = QPushButton(translate("LabView", "Export report"))
        self.export_button.setObjectName("lab_export")
        export_menu = QMenu(self.export_button)
        for kind, text in (
            ("json", translate("LabView", "JSON…")),
            ("junit", translate("LabView", "JUnit XML…")),
            ("html", translate("LabView", "HTML…")),
        ):
            action = export_menu.addAction(text)
            action.setObjectName(f"lab_export_{kind}")
            action.triggered.connect(lambda _checked=False, kind=kind: self._on_export(kind))
        self.export_button.setMenu(export_menu)
        self.progress = QProgressBar()
        self.progress.setObjectName("lab_progress")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat(translate("LabView", "No run yet"))
        self.progress.setTextVisible(True)
        top = QHBoxLayout()
        top.addWidget(self.design_label, 1)
        top.addWidget(QLabel(translate("LabView", "Mode")))
        top.addWidget(self.mode)
        top.addWidget(QLabel(translate("LabView", "Concurrency")))
        top.addWidget(self.concurrency)
        for button in (self.run_button, self.cancel_button, self.resume_button, self.export_button):
            top.addWidget(button)
        top.addWidget(self.progress, 1)

        # ---- left: corpora and lab runs
        self.corpora_view = QListView()
        self.corpora_view.setObjectName("lab_corpora")
        self.corpora_view.setModel(controller.corpora)
        self.import_button = QPushButton(translate("LabView", "Import corpus…"))
        self.import_button.setObjectName("lab_import")
        self.import_button.setToolTip(
            translate("LabView", "JSONL, CSV, plain text (one prompt a line) or promptfoo YAML (Ctrl+I)")
        )
        self.text_label = QComboBox()
        self.text_label.setObjectName("lab_text_label")
        self.text_label.addItem(translate("LabView", "attacks"), "attack")
        self.text_label.addItem(translate("LabView", "benign"), "benign")
        self.skip_bad = QCheckBox(translate("LabView", "Skip bad lines (and list them)"))
        self.skip_bad.setObjectName("lab_skip_bad")
        corpora_box = QWidget()
        corpora_layout = QVBoxLayout(corpora_box)
        corpora_layout.setContentsMargins(0, 0, 0, 0)
        corpora_layout.addWidget(self.corpora_view, 1)
        form = QFormLayout()
        form.addRow(translate("LabView", "Unlabelled cases are"), self.text_label)
        corpora_layout.addLayout(form)
        corpora_layout.addWidget(self.skip_bad)
        corpora_layout.addWidget(self.import_button)
        self.runs_view = QListView()
        self.runs_view.setObjectName("lab_runs")
        self.runs_view.setModel(controller.runs)
        self.runs_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.runs_view.setWordWrap(True)
        self.runs_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.runs_view.setSpacing(2)
        self.compare_button = QPushButton(translate("LabView", "Compare A/B"))
        self.compare_button.setObjectName("lab_compare")
        self.compare_button.setToolTip(
            translate("LabView", "Select two lab runs: the older is A, the newer B (Ctrl+D)")
        )
        self.delete_button = QPushButton(translate("LabView", "Delete"))
        self.delete_button.setObjectName("lab_delete")
        runs_box = QWidget()
        runs_layout = QVBoxLayout(runs_box)
        runs_layout.setContentsMargins(0, 0, 0, 0)
        runs_layout.addWidget(self.runs_view, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.compare_button)
        buttons.addWidget(self.delete_button)
        runs_layout.addLayout(buttons)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(_titled(translate("LabView", "Corpora"), corpora_box))
        left.addWidget(_titled(translate("LabView", "Lab runs"), runs_box))
        left.setSizes([55, 45])

        # ---- right: cases and figures
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
        for widget in (
            self.outcome_filter,
            self.label_filter,
            self.category_filter,
            self.lang_filter,
            self.processor_filter,
            self.wrong_only,
        ):
            filters.addWidget(widget)
        filters.addWidget(self.search, 1)
        self.cases_view = QTableView()
        self.cases_view.setObjectName("lab_cases")
        self.cases_view.setModel(self.cases_filter)
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
        for column, width in enumerate((320, 60, 150, 60, 80, 190, 260)):
            header.resizeSection(column, width)
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
        cases_tab = QWidget()
        cases_layout = QVBoxLayout(cases_tab)
        cases_layout.addLayout(filters)
        cases_layout.addWidget(self.cases_stack, 1)

        self.headline = QLabel()
        self.headline.setObjectName("lab_headline")
        confusion_tab = QSplitter(Qt.Orientation.Vertical)
        confusion_tab.setObjectName("lab_confusion")
        overall = _table_view("lab_overall", self.tables["overall"], bars=True)
        overall.setMaximumHeight(
            overall.horizontalHeader().sizeHint().height()
            + overall.verticalHeader().defaultSectionSize()
            + 2 * overall.frameWidth()
            + 2
        )
        overall.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        confusion_tab.addWidget(overall)
        confusion_tab.addWidget(
            _titled(translate("LabView", "Per language"), _table_view("lab_by_lang", self.tables["lang"], bars=True))
        )
        confusion_tab.addWidget(
            _titled(
                translate("LabView", "Per category"), _table_view("lab_by_category", self.tables["category"], bars=True)
            )
        )
        confusion_tab.setSizes([12, 30, 58])
        processors_tab = QSplitter(Qt.Orientation.Vertical)
        processors_tab.setObjectName("lab_processors")
        self.processors_view = _table_view("lab_attack_matrix", self.tables["processors"])
        processors_tab.addWidget(
            _titled(
                translate("LabView", "Attack categories × processors: which processor caught what"),
                self.processors_view,
            )
        )
        self.contrib_view = _table_view("lab_contribution", self.tables["contrib"])
        processors_tab.addWidget(_titled(translate("LabView", "Each processor's contribution"), self.contrib_view))
        processors_tab.setSizes([60, 40])
        self.ab_label = QLabel(translate("LabView", "Select two lab runs on the left and press Compare A/B (Ctrl+D)."))
        self.ab_label.setObjectName("lab_ab_summary")
        self.ab_label.setWordWrap(True)
        self.ab_view = _table_view("lab_ab", self.tables["ab"])
        ab_tab = QWidget()
        ab_layout = QVBoxLayout(ab_tab)
        ab_layout.addWidget(self.ab_label)
        ab_layout.addWidget(self.ab_view, 1)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("lab_tabs")
        self.tabs.addTab(cases_tab, translate("LabView", "Cases"))
        self.tabs.addTab(confusion_tab, translate("LabView", "Confusion"))
        self.tabs.addTab(processors_tab, translate("LabView", "Processors"))
        self.tabs.addTab(ab_tab, translate("LabView", "A/B"))
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.headline)
        right_layout.addWidget(self.tabs, 1)
        self.message = QLabel()
        self.message.setObjectName("lab_message")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        body = QSplitter(Qt.Orientation.Horizontal)
        body.addWidget(left)
        body.addWidget(right)
        body.setStretchFactor(1, 1)
        body.setSizes([300, 900])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(body, 1)
        layout.addWidget(self.message)

        self._shortcuts()
        self._wire()
        self._update_design()
        self._on_results_reset([])
        self._update_buttons()

    # ----------------------------------------------------------------------------------------- building
    def _mode_text(self, mode: str) -> str:
        return {
            "guardrails": translate("LabView", "guardrails (no model call)"),
            "model": translate("LabView", "model"),
        }.get(mode, mode)

    def _filter_combo(
        self, name: str, values: tuple[str, ...], anything: str, text: Callable[[str], str] = str
    ) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        for value in values:
            combo.addItem(text(value) if value else anything, value)
        combo.currentIndexChanged.connect(self._on_filters_changed)
        return combo

    def _shortcut(self, name: str, keys: Any, slot: Any, widget: QWidget | None = None) -> QAction:
        action = QAction(self)
        action.setObjectName(name)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(slot)
        (widget or self).addAction(action)
        return action

    def _shortcuts(self) -> None:
        self._shortcut("lab.run", "Ctrl+Return", self._on_run)
        self._shortcut("lab.cancel", "Esc", self.controller.cancel)
        self._shortcut("lab.resume", "Ctrl+Shift+R", self._on_resume)
        self._shortcut("lab.import", "Ctrl+I", self._on_import)
        self._shortcut("lab.search", QKeySequence.StandardKey.Find, self._focus_search)
        self._shortcut("lab.compare", "Ctrl+D", self._on_compare)
        self._shortcut("lab.delete", QKeySequence.StandardKey.Delete, self._on_delete, self.runs_view)
        self._shortcut("lab.open_case", "Return", self._on_open_selected_case, self.cases_view)

    def _wire(self) -> None:
        controller = self.controller
        self.run_button.clicked.connect(self._on_run)
        self.cancel_button.clicked.connect(controller.cancel)
        self.resume_button.clicked.connect(self._on_resume)
        self.import_button.clicked.connect(self._on_import)
        self.compare_button.clicked.connect(self._on_compare)
        self.delete_button.clicked.connect(self._on_delete)
        self.wrong_only.toggled.connect(self.cases_filter.set_wrong_only)
        self.search.textChanged.connect(self.cases_filter.set_search)
        self.cases_view.doubleClicked.connect(self._on_case_activated)
        self.processors_view.clicked.connect(self._on_cell_clicked)
        self.contrib_view.clicked.connect(self._on_cell_clicked)
        self.ab_view.doubleClicked.connect(self._on_ab_activated)
        self.runs_view.selectionModel().selectionChanged.connect(self._update_buttons)
        self.runs_view.activated.connect(self._on_run_activated)
        self.runs_view.clicked.connect(self._on_run_activated)
        self.open_case_requested.connect(lambda case_id: controller.spawn(controller.open_case(case_id)))
        controller.results_reset.connect(self._on_results_reset)
        controller.results_added.connect(self._on_results_added)
        controller.progress_changed.connect(self._on_progress_changed)
        controller.run_started.connect(self._update_buttons)
        controller.run_ended.connect(self._on_run_ended)
        controller.run_shown.connect(self._on_run_shown)
        controller.compared.connect(self._on_compared)
        controller.failed.connect(self._on_failed)
        controller.status_message.connect(self._on_status)
        controller.runs.modelReset.connect(self._update_buttons)

    # ----------------------------------------------------------------------------------------- state
    def _update_design(self) -> None:
        design = self.controller.design() if self.controller.design is not None else None
        name = design.name if design is not None else translate("LabView", "(none)")
        model = design.model.model if design is not None else ""
        self.design_label.setText(
            translate("LabView", "Design: <b>{name}</b> · model {model}").format(name=name, model=model)
        )

    def showEvent(self, event: Any) -> None:
        self._update_design()  # the studio's current design, as it is now
        super().showEvent(event)

    def selected_run_ids(self) -> list[str]:
        rows = sorted(index.row() for index in self.runs_view.selectionModel().selectedRows())
        return [str(self.controller.runs.data(self.controller.runs.index(row), LabRunIdRole)) for row in rows]

    @Slot()
    def _update_buttons(self, *_args: Any) -> None:
        running = self.controller.is_running
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.mode.setEnabled(not running)
        self.concurrency.setEnabled(not running)
        selected = self.selected_run_ids()
        runs = self.controller.runs
        resumable = False
        if len(selected) == 1 and not running:
            record = runs.record(runs.row_of(selected[0]))
            resumable = record is not None and can_resume(record, live=runs.is_live(record.id))
        self.resume_button.setEnabled(resumable)
        self.compare_button.setEnabled(len(selected) == 2)
        self.delete_button.setEnabled(bool(selected) and not any(runs.is_live(i) for i in selected))
        self.export_button.setEnabled(bool(self.controller.results))

    def _empty_text(self) -> str:
        if self.controller.is_running:
            return translate("LabView", "The first results are on their way…")
        if not self.controller.corpora.checked():
            return translate(
                "LabView",
                "No lab run on show.\n\nTick one or more corpora on the left (or import your own: Ctrl+I), "
                "then press Run (Ctrl+Enter). Every case goes through the current design's guardrails; "
                "the table shows which processor caught what.",
            )
        return translate("LabView", "Press Run (Ctrl+Enter) to run the chosen corpora, or pick a lab run on the left.")

    # ----------------------------------------------------------------------------------------- results
    @Slot(list)
    def _on_results_reset(self, results: list[Any]) -> None:
        self.cases_model.set_results(results)
        self._refresh_figures()

    @Slot(list)
    def _on_results_added(self, results: list[Any]) -> None:
        self.cases_model.add_results(results)
        self._refresh_figures()

    def _refresh_figures(self) -> None:
        results = self.controller.results
        self.tables["overall"].set_table(overall_table(results))
        self.tables["lang"].set_table(language_table(results))
        self.tables["category"].set_table(category_table(results))
        self.tables["processors"].set_table(processor_table(results))
        self.tables["contrib"].set_table(contribution_table(results))
        self._fill_values(self.category_filter, sorted({r.category or "(none)" for r in results}))
        self._fill_values(self.lang_filter, sorted({r.lang or "(none)" for r in results}))
        self._fill_values(self.processor_filter, sorted({p for r in results for p in r.caught_by}))
        overall = self.tables["overall"].table()
        if results and overall.rows:
            cells = overall.rows[0]
            self.headline.setText(
                translate(
                    "LabView", "{count} cases · recall <b>{recall}</b> · precision {precision} · FPR <b>{fpr}</b>"
                ).format(count=len(results), recall=cells[7], precision=cells[6], fpr=cells[8])
            )
        else:
            self.headline.setText("")
        self.empty.setText(self._empty_text())
        self.cases_stack.setCurrentIndex(1 if results else 0)
        self._update_buttons()

    @staticmethod
    def _fill_values(combo: QComboBox, values: list[str]) -> None:
        known = [combo.itemData(index) for index in range(1, combo.count())]
        for value in values:
            if value not in known:
                combo.addItem(value, value)

    @Slot(int, int, float)
    def _on_progress_changed(self, done: int, total: int, eta: float) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        if self.controller.is_running:
            left = translate("LabView", ", about {seconds} s left").format(seconds=round(eta)) if eta >= 0 else ""
            self.progress.setFormat(
                translate("LabView", "{done} / {total} cases{left}").format(done=done, total=total, left=left)
            )
        else:
            self.progress.setFormat(translate("LabView", "{done} / {total} cases").format(done=done, total=total))

    @Slot(str, str)
    def _on_run_ended(self, _lab_run_id: str, status: str) -> None:
        self._on_progress_changed(len(self.controller.results), self.progress.maximum(), -1.0)
        if status == "cancelled":
            self.progress.setFormat(self.progress.format() + translate("LabView", " — cancelled"))
        self._refresh_figures()

    @Slot(object)
    def _on_run_shown(self, record: Any) -> None:
        if record is None:
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
            self.progress.setFormat(translate("LabView", "No run yet"))
            return
        row = self.controller.runs.row_of(record.id)
        if row >= 0 and self.selected_run_ids() != [record.id]:
            self.runs_view.setCurrentIndex(self.controller.runs.index(row))
        self._update_buttons()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.message.setStyleSheet("color: #b3261e")
        self.message.setText(message)
        self._update_buttons()

    @Slot(str)
    def _on_status(self, message: str) -> None:
        self.message.setStyleSheet("")
        self.message.setText(message)

    # ----------------------------------------------------------------------------------------- requests
    @Slot()
    def _on_run(self) -> None:
        self._update_design()
        self.message.setText("")
        started = self.controller.start(mode=str(self.mode.currentData()), concurrency=self.concurrency.value())
        if started is not None:
            self.tabs.setCurrentIndex(0)
        self._update_buttons()
        self.empty.setText(self._empty_text())

    @Slot()
    def _on_resume(self) -> None:
        selected = self.selected_run_ids()
        if len(selected) == 1:
            self.controller.resume(selected[0])
            self._update_buttons()

    @Slot(QModelIndex)
    def _on_run_activated(self, index: QModelIndex) -> None:
        lab_run_id = index.data(LabRunIdRole)
        if lab_run_id and len(self.selected_run_ids()) <= 1:
            self.controller.spawn(self.controller.show_run(str(lab_run_id)))

    @Slot()
    def _on_compare(self) -> None:
        selected = self.selected_run_ids()
        if len(selected) != 2:
            self._on_failed(translate("LabView", "Select exactly two lab runs to compare."))
            return
        runs = self.controller.runs
        a, b = sorted(selected, key=lambda i: runs.record(runs.row_of(i)).created_at)  # type: ignore[union-attr]
        self.controller.spawn(self.controller.compare_runs(a, b))

    @Slot(object)
    def _on_compared(self, comparison: Comparison) -> None:
        before, after = comparison.before, comparison.after
        self.ab_label.setText(
            translate(
                "LabView",
                "A: {a}<br>B: {b}<br>recall {r0} → <b>{r1}</b> · FPR {f0} → <b>{f1}</b> · "
                "{count} cases changed verdict",
            ).format(
                a=comparison.a.name,
                b=comparison.b.name,
                r0=pct(before.recall),
                r1=pct(after.recall),
                f0=pct(before.fpr),
                f1=pct(after.fpr),
                count=len(comparison.changes),
            )
        )
        self.tables["ab"].set_table(comparison_table(comparison.changes))
        self.tabs.setCurrentIndex(3)

    @Slot()
    def _on_delete(self) -> None:
        selected = self.selected_run_ids()
        if not selected:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            translate("LabView", "Delete lab runs"),
            translate(
                "LabView", "Delete {count} lab run(s) and their results? Threads opened from their cases stay."
            ).format(count=len(selected)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setObjectName("lab_delete_confirm")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)

        def answered(button: int) -> None:
            if button == QMessageBox.StandardButton.Yes:
                for lab_run_id in selected:
                    self.controller.spawn(self.controller.delete_run(lab_run_id))

        box.finished.connect(answered)
        box.finished.connect(box.deleteLater)
        box.open()

    @Slot()
    def _on_import(self) -> None:
        dialog = QFileDialog(
            self,
            translate("LabView", "Import a corpus"),
            str(Path.home()),
            translate("LabView", "Corpora (*.jsonl *.ndjson *.csv *.txt *.yaml *.yml);;All files (*)"),
        )
        dialog.setObjectName("lab_import_dialog")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda path: self.import_file(Path(path)))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def import_file(self, path: Path) -> None:
        self.controller.spawn(
            self.controller.import_corpus(
                path, label=str(self.text_label.currentData()), skip_bad=self.skip_bad.isChecked()
            )
        )

    def _on_export(self, kind: str) -> None:
        record = self.controller.shown
        stem = "lab-report" if record is None else "lab-" + record.id.removeprefix("lab_")[:8]
        dialog = QFileDialog(
            self,
            translate("LabView", "Export the lab report"),
            str(Path.home() / f"{stem}{REPORT_SUFFIXES[kind]}"),
            REPORT_FILTERS[kind],
        )
        dialog.setObjectName("lab_export_dialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.fileSelected.connect(lambda path: self.controller.spawn(self.controller.export(kind, Path(path))))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    @Slot()
    def _focus_search(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.search.setFocus()
        self.search.selectAll()

    @Slot(QModelIndex)
    def _on_case_activated(self, index: QModelIndex) -> None:
        case_id = index.data(CaseIdRole)
        if case_id:
            self.open_case_requested.emit(str(case_id))

    @Slot()
    def _on_open_selected_case(self) -> None:
        index = self.cases_view.currentIndex()
        if index.isValid():
            self._on_case_activated(index)

    @Slot(QModelIndex)
    def _on_ab_activated(self, index: QModelIndex) -> None:
        case = (index.data(FilterRole) or {}).get("case")
        if case:
            self._focus_search()
            self.search.setText(str(case))

    @Slot(QModelIndex)
    def _on_cell_clicked(self, index: QModelIndex) -> None:
        """A cell of a matrix filters the cases to it (category, processor, the misses) and shows them."""
        wanted = index.data(FilterRole)
        if not wanted:
            return
        self.apply_filters(wanted)
        self.tabs.setCurrentIndex(0)

    def apply_filters(self, wanted: dict[str, str]) -> None:
        """Set the case filters to ``wanted`` (category, label, lang, outcome, processor, ``wrong``); the others
        are cleared."""
        for combo, name in (
            (self.outcome_filter, "outcome"),
            (self.label_filter, "label"),
            (self.category_filter, "category"),
            (self.lang_filter, "lang"),
            (self.processor_filter, "processor"),
        ):
            value = wanted.get(name, "")
            row = combo.findData(value)
            if row < 0:
                combo.addItem(value, value)
                row = combo.count() - 1
            combo.setCurrentIndex(row)
        self.wrong_only.setChecked(bool(wanted.get("wrong")))

    @Slot()
    def _on_filters_changed(self, *_args: Any) -> None:
        for combo, name in (
            (self.outcome_filter, "outcome"),
            (self.label_filter, "label"),
            (self.category_filter, "category"),
            (self.lang_filter, "lang"),
            (self.processor_filter, "processor"),
        ):
            self.cases_filter.set_filter(name, str(combo.currentData() or ""))

    def visible_case_ids(self) -> list[str]:
        """The case ids the table shows now, top to bottom (for tests and the status line)."""
        return [str(self.cases_filter.index(row, 0).data(CaseIdRole)) for row in range(self.cases_filter.rowCount())]


__all__ = ["LabView"]
