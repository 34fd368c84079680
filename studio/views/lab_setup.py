"""The Lab window's set-up: the top bar (design, mode, concurrency, Run / Cancel / Resume, export, progress) and
the side bar (the corpora to choose from, with import, and the lab runs kept in the store).

Both are plain widgets over the controller's models; the Lab view wires their buttons to the controller.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListView,
    QMenu,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyle,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from studio.controllers.lab_running import STUDIO_MODES
from studio.i18n import translate
from studio.models.lab_lists import LabRunIdRole
from studio.views.lab_widgets import titled


def mode_text(mode: str) -> str:
    """A lab run's mode as the reader's language says it (the store keeps the wire value)."""
    return {
        "guardrails": translate("LabView", "guardrails (no model call)"),
        "model": translate("LabView", "model"),
        "replay": translate("LabView", "replay (recorded replies)"),
    }.get(mode, mode)


class LabSetupBar(QWidget):
    """Design, mode, concurrency, the run's buttons and its progress."""

    #: The user asked for a report of the lab run on show: ``json``, ``junit`` or ``html``.
    export_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.design_label = QLabel()
        self.design_label.setObjectName("lab_design")
        self.mode = QComboBox()
        self.mode.setObjectName("lab_mode")
        for mode in STUDIO_MODES:
            self.mode.addItem(mode_text(mode), mode)
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
        self.concurrency.setToolTip(
            translate(
                "LabView",
                "Cases run at once, in every mode. They run in worker processes (one per 200 cases, at most one per "
                "processor core), so the window stays responsive; each worker takes a second or two to start.",
            )
        )
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
            action.triggered.connect(lambda _checked=False, kind=kind: self.export_requested.emit(kind))
        self.export_button.setMenu(export_menu)
        self.progress = QProgressBar()
        self.progress.setObjectName("lab_progress")
        self.progress.setTextVisible(True)
        self.show_no_run()
        top = QHBoxLayout(self)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.design_label, 1)
        top.addWidget(QLabel(translate("LabView", "Mode")))
        top.addWidget(self.mode)
        top.addWidget(QLabel(translate("LabView", "Concurrency")))
        top.addWidget(self.concurrency)
        for button in (self.run_button, self.cancel_button, self.resume_button, self.export_button):
            top.addWidget(button)
        top.addWidget(self.progress, 1)

    def show_design(self, design: Any) -> None:
        name = design.name if design is not None else translate("LabView", "(none)")
        model = design.model.model if design is not None else ""
        self.design_label.setText(
            translate("LabView", "Design: <b>{name}</b> · model {model}").format(name=name, model=model)
        )

    def show_no_run(self) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat(translate("LabView", "No run yet"))

    def show_progress(self, done: int, total: int, eta: float, *, running: bool) -> None:
        # QProgressBar.setValue repaints at once (a synchronous paint and flush of its own each batch: ~20 ms on a
        # loaded machine); with updates off it only marks the bar for the window's next paint, with the rest.
        self.progress.setUpdatesEnabled(False)
        try:
            self._show_progress(done, total, eta, running=running)
        finally:
            self.progress.setUpdatesEnabled(True)

    def _show_progress(self, done: int, total: int, eta: float, *, running: bool) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        if running:
            left = translate("LabView", ", about {seconds} s left").format(seconds=round(eta)) if eta >= 0 else ""
            self.progress.setFormat(
                translate("LabView", "{done} / {total} cases{left}").format(done=done, total=total, left=left)
            )
        else:
            self.progress.setFormat(translate("LabView", "{done} / {total} cases").format(done=done, total=total))

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.mode.setEnabled(not running)
        self.concurrency.setEnabled(not running)


class LabSidebar(QSplitter):
    """The corpora (checkable, with import) above the lab runs kept in the store (with Compare and Delete)."""

    def __init__(self, corpora: Any, runs: Any, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.runs = runs
        self.corpora_view = QListView()
        self.corpora_view.setObjectName("lab_corpora")
        self.corpora_view.setModel(corpora)
        # A name wider than the side bar may give (an imported file's, a Chinese split's in a narrow window) wraps,
        # and a word too long for a line is elided in its middle: never a horizontal scroll bar that hides the rest.
        # The tooltip says it whole. The Lab window first widens the side bar to fit the names (fit_width()).
        self.corpora_view.setWordWrap(True)
        self.corpora_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.corpora_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
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
        self.runs_view.setModel(runs)
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
        self.replay_button = QPushButton(translate("LabView", "Re-run from recorded replies"))
        self.replay_button.setObjectName("lab_replay")
        self.replay_button.setToolTip(
            translate(
                "LabView",
                "Put the selected model-mode lab run's recorded replies through the design as it is now, with no "
                "model call, and compare the two (Ctrl+Shift+P)",
            )
        )
        runs_box = QWidget()
        runs_layout = QVBoxLayout(runs_box)
        runs_layout.setContentsMargins(0, 0, 0, 0)
        runs_layout.addWidget(self.runs_view, 1)
        self.run_buttons = QHBoxLayout()
        self.run_buttons.addWidget(self.compare_button)
        self.run_buttons.addWidget(self.delete_button)
        runs_layout.addLayout(self.run_buttons)
        runs_layout.addWidget(self.replay_button)
        self.addWidget(titled(translate("LabView", "Corpora"), corpora_box))
        self.addWidget(titled(translate("LabView", "Lab runs"), runs_box))
        self.setSizes([55, 45])

    def fit_width(self) -> int:
        """How wide the side bar must be for every corpus name to show on one line (room for a vertical scroll
        bar included)."""
        view = self.corpora_view
        model = view.model()
        widest = 0
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            option = QStyleOptionViewItem()
            view.initViewItemOption(option)
            option.features &= ~QStyleOptionViewItem.ViewItemFeature.WrapText
            option.rect = QRect(0, 0, 100_000, view.fontMetrics().height())
            widest = max(widest, view.itemDelegateForIndex(index).sizeHint(option, index).width())
        scroll_bar = view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, view)
        return widest + 2 * view.frameWidth() + scroll_bar + 2 * view.spacing() + 4

    def selected_run_ids(self) -> list[str]:
        """The selected lab runs' ids, top to bottom (newest first)."""
        rows = sorted(index.row() for index in self.runs_view.selectionModel().selectedRows())
        return [str(self.runs.data(self.runs.index(row), LabRunIdRole)) for row in rows]


__all__ = ["LabSetupBar", "LabSidebar", "mode_text"]
