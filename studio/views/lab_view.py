"""``LabView``: the guardrail lab's window — corpora and lab runs on the left, the cases and figures on the right.

A thin view over :class:`studio.controllers.lab_controller.LabController`: every button is a call on it, every
figure is one of its models. Results arrive in batches while a run goes on (the run is an asyncio task on the
qasync loop), so the window keeps painting; the figures are recomputed once per batch.

The window is put together from panels, each its own module: the set-up bar and side bar (:mod:`lab_setup`),
the Cases tab (:mod:`lab_cases_panel`), the Confusion and Processors tabs (:mod:`lab_figures`) and the A/B tab
(:mod:`lab_ab_panel`). This module wires them to the controller.

Keys: Ctrl+W closes the Lab's window, Ctrl+Enter runs, Esc cancels, Ctrl+Shift+R resumes the selected lab run (on
the Attack tab the three start, cancel and resume the attack), Ctrl+I imports a corpus, Ctrl+F searches the cases,
Enter (or a double click) on a case opens it as a thread, Del deletes the selected lab run, Ctrl+D compares the two
selected lab runs, Ctrl+Shift+P re-runs the selected model-mode lab run from its recorded replies (no model call) and
compares the two.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from lab.metrics import Confusion, confusion
from studio.controllers.lab_controller import LabController
from studio.controllers.lab_records import Comparison
from studio.i18n import translate
from studio.models.lab_lists import LabRunIdRole, can_replay, can_resume
from studio.models.lab_tables import FilterRole, overall_cells
from studio.views.export_notes import ab_comparison_note, lab_report_note
from studio.views.lab_ab_panel import LabABPanel
from studio.views.lab_attack_panel import LabAttackPanel
from studio.views.lab_cases_panel import LabCasesPanel
from studio.views.lab_curves import CurvesPanel
from studio.views.lab_dialogs import choose_corpus, choose_design_file, choose_report_path, confirm_delete
from studio.views.lab_figures import ConfusionPanel, ProcessorsPanel
from studio.views.lab_setup import LabSetupBar, LabSidebar
from studio.views.lab_side_by_side import SideBySidePanel
from studio.views.mcp_approval import McpApproval
from studio.views.screen_fit import FitContent, ScreenFitScroll

#: The tabs, in order.
CASES_TAB, CONFUSION_TAB, PROCESSORS_TAB, AB_TAB, SCORES_TAB, ATTACK_TAB = range(6)


#: The side bar's first width (px), and the most of the window it takes to fit its corpus names.
SIDEBAR_WIDTH = 300
SIDEBAR_SHARE = 0.4


class LabView(QWidget):
    """The Lab window. ``open_case_requested(case_id)`` is handled by the controller (wired here)."""

    #: The user asked to open a case as a thread (its id).
    open_case_requested = Signal(str)

    def __init__(self, controller: LabController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lab_view")
        self.setWindowTitle(translate("LabView", "Guardrail lab — Processor Studio"))
        self.controller = controller
        #: Tabs whose figures are behind the results (redrawn when opened).
        self._stale: set[int] = set()
        #: A/B's other pick while a design file is read for a letter (:meth:`load_design_file`), by that letter.
        self._kept_picks: dict[str, str] = {}
        #: The confusion matrix of every result on show, for the headline (see :meth:`_refresh_figures`).
        self._totals = Confusion()
        self.setup = LabSetupBar()
        self.sidebar = LabSidebar(controller.corpora, controller.runs)
        self.cases_panel = LabCasesPanel()
        self.confusion_panel = ConfusionPanel()
        self.processors_panel = ProcessorsPanel()
        self.ab_panel = LabABPanel()
        self.curves_panel = CurvesPanel()
        self.curves_panel.design_threshold = controller.thresholds.threshold
        self.side_by_side_panel = SideBySidePanel()
        self.scores_tab = QSplitter(Qt.Orientation.Vertical)
        self.scores_tab.setObjectName("lab_scores")
        self.scores_tab.addWidget(self.curves_panel)
        self.scores_tab.addWidget(self.side_by_side_panel)
        self.scores_tab.setSizes([70, 30])
        self.attack_panel = LabAttackPanel(
            controller.attack, lambda: (str(self.mode.currentData()), self.concurrency.value())
        )
        self.tables = {
            **self.confusion_panel.tables,
            **self.processors_panel.tables,
            "ab": self.ab_panel.table,
        }
        # The panels' widgets, by the names the window's tests and shortcuts use.
        setup, sidebar, cases = self.setup, self.sidebar, self.cases_panel
        self.design_label, self.mode, self.concurrency, self.progress = (
            setup.design_label,
            setup.mode,
            setup.concurrency,
            setup.progress,
        )
        self.run_button, self.cancel_button = setup.run_button, setup.cancel_button
        self.resume_button, self.export_button = setup.resume_button, setup.export_button
        self.corpora_view, self.import_button = sidebar.corpora_view, sidebar.import_button
        self.text_label, self.skip_bad, self.runs_view = sidebar.text_label, sidebar.skip_bad, sidebar.runs_view
        self.compare_button, self.delete_button = sidebar.compare_button, sidebar.delete_button
        self.replay_button = sidebar.replay_button
        self.cases_model, self.cases_filter, self.cases_view = cases.cases_model, cases.cases_filter, cases.cases_view
        self.empty, self.cases_stack = cases.empty, cases.cases_stack
        self.search, self.wrong_only = cases.search, cases.wrong_only
        self.processors_view = self.processors_panel.processors_view
        self.contrib_view = self.processors_panel.contrib_view
        self.ab_label, self.ab_view = self.ab_panel.ab_label, self.ab_panel.ab_view

        self.headline = QLabel()
        self.headline.setObjectName("lab_headline")
        self.tabs = QTabWidget()
        self.tabs.setObjectName("lab_tabs")
        self.tabs.addTab(self.cases_panel, translate("LabView", "Cases"))
        self.tabs.addTab(self.confusion_panel, translate("LabView", "Confusion"))
        self.tabs.addTab(self.processors_panel, translate("LabView", "Processors"))
        self.tabs.addTab(self.ab_panel, translate("LabView", "A/B"))
        self.tabs.addTab(self.scores_tab, translate("LabView", "Scores"))
        self.tabs.addTab(self.attack_panel, translate("LabView", "Attack"))
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.headline)
        right_layout.addWidget(self.tabs, 1)
        self.message = QLabel()
        self.message.setObjectName("lab_message")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # it quotes names and files from others' data
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        body = QSplitter(Qt.Orientation.Horizontal)
        body.setObjectName("lab_body")
        body.addWidget(self.sidebar)
        body.addWidget(right)
        body.setStretchFactor(1, 1)
        body.setSizes([SIDEBAR_WIDTH, 900])
        self.body = body
        #: Set when the user drags the side bar's edge: from then on its width is theirs.
        self._sidebar_sized = False
        body.splitterMoved.connect(self._on_body_splitter_moved)
        content = FitContent()  # the run's closing message wraps: it must not make the window scroll
        content.setObjectName("lab_content")
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)  # the window's layout keeps its margins, around the scroll area
        layout.addWidget(self.setup)
        layout.addWidget(body, 1)
        layout.addWidget(self.message)
        # never wider than the screen (200 % text size on a laptop): past it the content scrolls
        outer = QVBoxLayout(self)
        outer.addWidget(ScreenFitScroll(content))

        self._shortcuts()
        self._wire()
        self._update_design()
        self._on_results_reset([])
        self._update_buttons()

    # ----------------------------------------------------------------------------------------- building
    def _shortcut(self, name: str, keys: Any, slot: Any, widget: QWidget | None = None) -> QAction:
        action = QAction(self)
        action.setObjectName(name)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(slot)
        (widget or self).addAction(action)
        return action

    def _shortcuts(self) -> None:
        self._shortcut("lab.run", "Ctrl+Return", self._on_run_key)
        self._shortcut("lab.cancel", "Esc", self._on_cancel)
        self._shortcut("lab.resume", "Ctrl+Shift+R", self._on_resume_key)
        self._shortcut("lab.import", "Ctrl+I", self._on_import)
        self._shortcut("lab.search", QKeySequence.StandardKey.Find, self._focus_search)
        self._shortcut("lab.compare", "Ctrl+D", self._on_compare)
        self._shortcut("lab.replay", "Ctrl+Shift+P", self._on_replay)
        self._shortcut("lab.delete", QKeySequence.StandardKey.Delete, self._on_delete, self.runs_view)
        self._shortcut("lab.open_case", "Return", self.cases_panel.open_selected_case, self.cases_view)
        self._shortcut("lab.close", "Ctrl+W", self.close)  # a window of its own: Esc cancels a run

    def _wire(self) -> None:
        controller = self.controller
        self.run_button.clicked.connect(self._on_run)
        self.cancel_button.clicked.connect(controller.cancel)
        self.resume_button.clicked.connect(self._on_resume)
        self.setup.export_requested.connect(self._on_export)
        self.import_button.clicked.connect(self._on_import)
        self.compare_button.clicked.connect(self._on_compare)
        self.delete_button.clicked.connect(self._on_delete)
        self.replay_button.clicked.connect(self._on_replay)
        self.cases_panel.case_activated.connect(self.open_case_requested)
        self.processors_view.clicked.connect(self._on_cell_clicked)
        self.contrib_view.clicked.connect(self._on_cell_clicked)
        self.ab_panel.case_requested.connect(self._on_ab_case_requested)
        self.confusion_panel.bars.category_clicked.connect(self._on_category_clicked)
        self.ab_panel.ab_requested.connect(self._on_ab_requested)
        self.ab_panel.design_file_requested.connect(self._on_design_file_requested)
        self.ab_panel.export_requested.connect(self._on_export_comparison)
        self.curves_panel.threshold_requested.connect(self._on_threshold_requested)
        self.side_by_side_panel.run_requested.connect(self._on_side_by_side_requested)
        controller.side_by_side_ready.connect(self._on_side_by_side_ready)
        self.tabs.tabBarClicked.connect(self._on_tab_clicked)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        controller.design_choices_changed.connect(self.ab_panel.set_choices)
        self.runs_view.selectionModel().selectionChanged.connect(self._update_buttons)
        self.runs_view.activated.connect(self._on_run_activated)
        self.runs_view.clicked.connect(self._on_run_activated)
        self.open_case_requested.connect(controller.open_case_as_thread)
        controller.design_file_added.connect(self._on_design_file_added)
        controller.results_reset.connect(self._on_results_reset)
        controller.results_added.connect(self._on_results_added)
        controller.progress_changed.connect(self._on_progress_changed)
        controller.run_started.connect(self._update_buttons)
        controller.run_ended.connect(self._on_run_ended)
        controller.run_shown.connect(self._on_run_shown)
        controller.compared.connect(self._on_compared)
        controller.failed.connect(self._on_failed)
        controller.status_message.connect(self._on_status)
        controller.mcp_approval_requested.connect(self._on_controller_mcp_approval_requested)
        controller.runs.modelReset.connect(self._update_buttons)
        # the hint on an empty table says whether a corpus is chosen: the starter corpora arrive chosen after this
        for changed in (controller.corpora.dataChanged, controller.corpora.rowsInserted, controller.corpora.modelReset):
            changed.connect(self._on_corpora_changed)

    # ----------------------------------------------------------------------------------------- state
    @Slot()
    def _on_body_splitter_moved(self) -> None:
        self._sidebar_sized = True

    def _fit_sidebar(self) -> None:
        """The side bar as wide as its corpus names need (a Chinese split's "direct-injection.jsonl · 简体中文（16 个
        用例）" does not fit the first 300 px), within reason: at most :data:`SIDEBAR_SHARE` of the window, not
        narrower than :data:`SIDEBAR_WIDTH`; past that the names wrap. Until the user sizes it themselves."""
        sizes = self.body.sizes()
        total = sum(sizes)
        if self._sidebar_sized or len(sizes) != 2 or total <= 0:
            return
        width = max(SIDEBAR_WIDTH, min(self.sidebar.fit_width(), int(total * SIDEBAR_SHARE)))
        if width != sizes[0]:
            self.body.setSizes([width, total - width])

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit_sidebar()

    def _on_corpora_changed(self) -> None:
        self._fit_sidebar()
        self.empty.setText(self._empty_text())

    def _update_design(self) -> None:
        self.setup.show_design(self.controller.design() if self.controller.design is not None else None)

    def showEvent(self, event: Any) -> None:
        self._update_design()  # the studio's current design, as it is now
        self.controller.refresh_design_choices()
        super().showEvent(event)

    @Slot(int)
    def _on_tab_changed(self, tab: int) -> None:
        if tab in self._stale:  # figures left behind while a run streamed into another tab
            self._stale.discard(tab)
            self._figure_panels()[tab].show_results(self.controller.results)

    @Slot(int)
    def _on_tab_clicked(self, tab: int) -> None:
        if tab == AB_TAB and not self.controller.is_running:  # versions run since are offered too
            self.controller.refresh_design_choices()

    def selected_run_ids(self) -> list[str]:
        return self.sidebar.selected_run_ids()

    @Slot()
    def _update_buttons(self, *_args: Any) -> None:
        running = self.controller.is_running
        self.setup.set_running(running)
        selected = self.selected_run_ids()
        runs = self.controller.runs
        resumable = replayable = False
        if len(selected) == 1 and not running:
            record = runs.record(runs.row_of(selected[0]))
            resumable = record is not None and can_resume(record, live=runs.is_live(record.id))
            replayable = record is not None and can_replay(record, live=runs.is_live(record.id))
        self.resume_button.setEnabled(resumable)
        self.replay_button.setEnabled(replayable)
        self.ab_panel.run_button.setEnabled(not running)
        self.side_by_side_panel.run_button.setEnabled(not running)
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
        self._totals = confusion(results)
        self.cases_panel.set_results(results)
        self._refresh_figures()

    @Slot(list)
    def _on_results_added(self, results: list[Any]) -> None:
        for result in results:
            self._totals.add(result)
        self.cases_panel.add_results(results)
        self._refresh_figures(only_visible=True, added=results)

    def _refresh_figures(self, *, only_visible: bool = False, added: list[Any] | None = None) -> None:
        """Recompute the figures from the results on show. While a run streams (``only_visible``), only the tab
        in view is redrawn, the others once they are opened: each figure goes over every result so far."""
        results = self.controller.results
        tab = self.tabs.currentIndex()
        for index, panel in self._figure_panels().items():
            if only_visible and index != tab:
                self._stale.add(index)
            else:
                panel.show_results(results)
                self._stale.discard(index)
        # The headline's matrix is kept as running totals (reset with the results, each batch added): recomputed
        # from every result on each batch it cost ~1-1.5 % of the window's thread over a 1,000-case run.
        if results:
            cells = overall_cells(self._totals)
            self.headline.setText(
                translate(
                    "LabView", "{count} cases · recall <b>{recall}</b> · precision {precision} · FPR <b>{fpr}</b>"
                ).format(count=len(results), recall=cells[7], precision=cells[6], fpr=cells[8])
            )
        else:
            self.headline.setText("")
        self.cases_panel.show_results(results, self._empty_text(), added=added)
        self._update_buttons()

    def _figure_panels(self) -> dict[int, Any]:
        """The tabs whose figures are drawn from every result on show, by tab index."""
        return {
            CONFUSION_TAB: self.confusion_panel,
            PROCESSORS_TAB: self.processors_panel,
            self.tabs.indexOf(self.scores_tab): self.curves_panel,
        }

    @Slot()
    def _on_side_by_side_requested(self) -> None:
        self._update_design()
        self.message.setText("")
        if self.controller.start_side_by_side(mode=str(self.mode.currentData()), concurrency=self.concurrency.value()):
            self.tabs.setCurrentIndex(CASES_TAB)
        self._update_buttons()

    @Slot(list, list)
    def _on_side_by_side_ready(self, rows: list[Any], results: list[Any]) -> None:
        """Each guard alone ran: the table, and every guard's curves from its own run."""
        self.side_by_side_panel.show_rows(rows)
        self.tabs.setCurrentWidget(self.scores_tab)
        self.curves_panel.show_results(results)

    @Slot(str, float)
    def _on_threshold_requested(self, processor: str, threshold: float) -> None:
        """Write a guard's threshold from the Scores tab into the design (one undo step), or say why not."""
        if self.controller.thresholds.set_threshold(processor, threshold):
            self._on_status(
                translate(
                    "LabView", "{processor}: threshold {threshold} written into the design (Ctrl+Z undoes it)"
                ).format(processor=processor, threshold=f"{threshold:g}")
            )
        else:
            self._on_failed(
                translate("LabView", "The design being edited has no {processor} with a threshold to set.").format(
                    processor=processor
                )
            )

    @Slot(int, int, float)
    def _on_progress_changed(self, done: int, total: int, eta: float) -> None:
        self.setup.show_progress(done, total, eta, running=self.controller.is_running)

    @Slot(str, str)
    def _on_run_ended(self, _lab_run_id: str, status: str) -> None:
        self.cases_panel.show_held()
        self._on_progress_changed(len(self.controller.results), self.progress.maximum(), -1.0)
        if status == "cancelled":
            self.progress.setFormat(self.progress.format() + translate("LabView", " — cancelled"))
        self._refresh_figures()

    @Slot(object)
    def _on_run_shown(self, record: Any) -> None:
        if record is None:
            self.setup.show_no_run()
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

    @Slot(object)
    def _on_controller_mcp_approval_requested(self, config: Any) -> None:
        """Ask, over the Lab's window and without blocking, whether a design's stdio MCP server may run its program
        (the chat's dialog: the answer counts for both); one question at a time."""
        asking = self.findChild(McpApproval, "mcp_approval")
        if asking is not None and asking.isVisible():
            return
        dialog = McpApproval(config, self)
        dialog.answered.connect(self.controller.answer_mcp_approval)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    @Slot(str)
    def _on_status(self, message: str) -> None:
        self.message.setStyleSheet("")
        self.message.setText(message)

    # ----------------------------------------------------------------------------------------- requests
    @Slot()
    def _on_cancel(self) -> None:
        if self.tabs.currentIndex() == ATTACK_TAB and self.controller.attack.is_running:  # the Attack tab's keys
            self.controller.attack.cancel()
            return
        self.controller.cancel()

    @Slot()
    def _on_run_key(self) -> None:
        if self.tabs.currentIndex() == ATTACK_TAB:  # Ctrl+Enter on the Attack tab starts the attack
            self.attack_panel.start()
        else:
            self._on_run()

    @Slot()
    def _on_resume_key(self) -> None:
        if self.tabs.currentIndex() == ATTACK_TAB:  # Ctrl+Shift+R on the Attack tab resumes the attack
            self.attack_panel.resume()
        else:
            self._on_resume()

    @Slot()
    def _on_run(self) -> None:
        self._update_design()
        self.message.setText("")
        started = self.controller.start(mode=str(self.mode.currentData()), concurrency=self.concurrency.value())
        if started is not None:
            self.tabs.setCurrentIndex(CASES_TAB)
        self._update_buttons()
        self.empty.setText(self._empty_text())

    @Slot(str, str)
    def _on_ab_requested(self, a_key: str, b_key: str) -> None:
        self._update_design()
        self.message.setText("")
        if self.controller.start_ab(
            a_key, b_key, mode=str(self.mode.currentData()), concurrency=self.concurrency.value()
        ):
            self.tabs.setCurrentIndex(CASES_TAB)
        self._update_buttons()

    @Slot(str)
    def _on_design_file_requested(self, letter: str) -> None:
        choose_design_file(self, letter, lambda path: self.load_design_file(letter, path))

    def load_design_file(self, letter: str, path: Path) -> None:
        """Offer the design in ``path`` for A/B and pick it for ``letter`` (``A`` or ``B``); a file the studio
        would not open is said in the message line and the pickers stay as they were."""
        self.message.setText("")
        # the other letter's pick, put back once the new choice is offered (the new list may move it)
        self._kept_picks[letter] = self.ab_panel.picked("B" if letter == "A" else "A")
        self.controller.add_design_file_for(letter, path)

    @Slot(str, object)
    def _on_design_file_added(self, letter: str, choice: Any) -> None:
        self.ab_panel.pick_one(letter, choice.key, other=self._kept_picks.pop(letter, None))

    @Slot()
    def _on_replay(self) -> None:
        selected = self.selected_run_ids()
        if len(selected) != 1:
            self._on_failed(translate("LabView", "Select the model-mode lab run whose replies to replay."))
            return
        self.message.setText("")
        if self.controller.replay(selected[0], concurrency=self.concurrency.value()):
            self.tabs.setCurrentIndex(CASES_TAB)
        self._update_buttons()

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
            self.controller.select_run(str(lab_run_id))

    @Slot()
    def _on_compare(self) -> None:
        selected = self.selected_run_ids()
        if len(selected) != 2:
            self._on_failed(translate("LabView", "Select exactly two lab runs to compare."))
            return
        runs = self.controller.runs
        a, b = sorted(selected, key=lambda i: runs.record(runs.row_of(i)).created_at)  # type: ignore[union-attr]
        self.controller.compare_selected(a, b)

    @Slot(object)
    def _on_compared(self, comparison: Comparison) -> None:
        self.ab_panel.show_comparison(comparison)
        self.tabs.setCurrentIndex(AB_TAB)

    @Slot()
    def _on_delete(self) -> None:
        selected = self.selected_run_ids()
        if not selected:
            return

        confirm_delete(self, len(selected), lambda: self.controller.delete_runs(selected))

    @Slot()
    def _on_import(self) -> None:
        choose_corpus(self, self.import_file)

    def import_file(self, path: Path) -> None:
        self.controller.import_corpus_file(
            path, label=str(self.text_label.currentData()), skip_bad=self.skip_bad.isChecked()
        )

    def _on_export(self, kind: str) -> None:
        record = self.controller.shown
        stem = "lab-report" if record is None else "lab-" + record.id.removeprefix("lab_")[:8]
        choose_report_path(self, kind, stem, lambda path: self._export_to(kind, path), note=lab_report_note())

    @Slot()
    def _on_export_comparison(self) -> None:
        comparison = self.controller.last_comparison
        stem = "lab-ab" if comparison is None else f"lab-ab-{comparison.b.id.removeprefix('lab_')[:8]}"
        choose_report_path(self, "json", stem, self._export_comparison_to, note=ab_comparison_note())

    def _export_comparison_to(self, path: Path) -> None:
        self.controller.export_comparison_file(path)

    def _export_to(self, kind: str, path: Path) -> None:
        self.controller.export_report_file(kind, path)

    @Slot()
    def _focus_search(self) -> None:
        self.tabs.setCurrentIndex(CASES_TAB)
        self.cases_panel.focus_search()

    @Slot(str)
    def _on_ab_case_requested(self, case_id: str) -> None:
        self.tabs.setCurrentIndex(CASES_TAB)
        self.cases_panel.focus_search(case_id)

    @Slot(QModelIndex)
    def _on_cell_clicked(self, index: QModelIndex) -> None:
        """A cell of a matrix filters the cases to it (category, processor, the misses) and shows them."""
        wanted = index.data(FilterRole)
        if not wanted:
            return
        self.apply_filters(wanted)
        self.tabs.setCurrentIndex(CASES_TAB)

    @Slot(str)
    def _on_category_clicked(self, category: str) -> None:
        self.apply_filters({"category": category})
        self.tabs.setCurrentIndex(CASES_TAB)

    def apply_filters(self, wanted: dict[str, str]) -> None:
        """Set the case filters to ``wanted`` (category, label, lang, outcome, processor, ``wrong``); the others
        are cleared."""
        self.cases_panel.apply_filters(wanted)

    def visible_case_ids(self) -> list[str]:
        """The case ids the table shows now, top to bottom (for tests and the status line)."""
        return self.cases_panel.visible_case_ids()


__all__ = ["LabView"]
