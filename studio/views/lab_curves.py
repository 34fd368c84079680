"""The Lab window's Scores tab: per scoring guard, its score histogram, ROC and precision-recall curves, and a
threshold slider that shows recall and false-positive rate at each point and writes the chosen threshold into the
design.

A guard gives scores when it records them (the prompt-injection detector, ``ClassifierGuard``, the guard services:
:mod:`lab.guard_scores`); the tab lists those of the results on show. Moving the slider recomputes the guard's
figures at that threshold (:meth:`lab.metrics.ScoreCurves.at`: the guard alone flags every score at or above it);
"Use in the design" asks the Lab controller's :class:`~studio.controllers.lab_thresholds.LabThresholds` to write it
(``threshold_requested``), one undo step in the editor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QFontMetrics, QTextDocumentFragment
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from lab.metrics import ScoreCurves, ThresholdPoint, score_curves
from lab.results import CaseResult
from studio.i18n import translate
from studio.models.lab_tables import pct
from studio.views.lab_curves_figure import ScoreFigure, auc_text

#: The slider's steps between the lowest and the highest score the histogram spans (0..1 for most guards).
SLIDER_STEPS = 1000


class CurvesPanel(QWidget):
    """The Scores tab. ``threshold_requested(processor id, threshold)``: the user asked to use that threshold."""

    threshold_requested = Signal(str, float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lab_curves")
        self.curves: dict[str, ScoreCurves] = {}
        #: The design's threshold of a guard (None: the design has no such guard, or it has no threshold).
        self.design_threshold: Callable[[str], float | None] = lambda _processor: None
        self.guard = QComboBox()
        self.guard.setObjectName("lab_curves_guard")
        self.guard.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.summary = QLabel()
        self.summary.setObjectName("lab_curves_summary")
        self.summary.setWordWrap(True)  # two lines rather than squeezing the guard's name in a narrow window
        self.figure = ScoreFigure()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("lab_threshold_slider")
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setPageStep(SLIDER_STEPS // 20)
        self.slider.setToolTip(translate("LabCurves", "Drag to see recall and false-positive rate at each threshold"))
        self.figures = QLabel()
        self.figures.setObjectName("lab_threshold_figures")
        self.figures.setTextFormat(Qt.TextFormat.RichText)
        widest = translate("LabCurves", "<b>{threshold}</b> · recall <b>{recall}</b> · FPR <b>{fpr}</b>").format(
            threshold="0.000", recall="100.0%", fpr="100.0%"
        )
        bold = self.figures.font()
        bold.setBold(True)
        self.figures.setMinimumWidth(
            QFontMetrics(bold).horizontalAdvance(QTextDocumentFragment.fromHtml(widest).toPlainText()) + 12
        )
        self.budget = QDoubleSpinBox()
        self.budget.setObjectName("lab_fpr_budget")
        self.budget.setRange(0.0, 100.0)
        self.budget.setDecimals(1)
        self.budget.setSingleStep(0.5)
        self.budget.setValue(1.0)
        self.budget.setSuffix(" %")
        self.find_button = QPushButton(translate("LabCurves", "Lowest threshold within this FPR"))
        self.find_button.setObjectName("lab_fpr_find")
        self.find_button.setToolTip(
            translate(
                "LabCurves",
                "Put the slider on the lowest threshold (the highest recall) whose false-positive rate stays within "
                "the budget",
            )
        )
        self.save = QPushButton(translate("LabCurves", "Use in the design"))
        self.save.setObjectName("lab_threshold_save")
        self.save.setToolTip(
            translate("LabCurves", "Write this threshold into the guard's options in the editor (Ctrl+Z undoes it)")
        )

        top = QHBoxLayout()
        top.addWidget(QLabel(translate("LabCurves", "Guard:")))
        top.addWidget(self.guard)
        top.addWidget(self.summary, 1)
        top.addWidget(QLabel(translate("LabCurves", "FPR budget:")))
        top.addWidget(self.budget)
        top.addWidget(self.find_button)
        bottom = QHBoxLayout()
        bottom.addWidget(QLabel(translate("LabCurves", "Threshold:")))
        bottom.addWidget(self.slider, 1)
        bottom.addWidget(self.figures)
        bottom.addWidget(self.save)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.figure, 1)
        layout.addLayout(bottom)

        self.guard.currentIndexChanged.connect(self._on_guard_changed)
        self.slider.valueChanged.connect(self._on_slider_moved)
        self.save.clicked.connect(self._on_save)
        self.find_button.clicked.connect(self._on_find)
        #: A threshold put on the slider exactly (from the budget or the design), while the slider stays on its step.
        self._exact: tuple[int, float] | None = None
        self._on_guard_changed()

    # ----------------------------------------------------------------------------------------- results
    def show_results(self, results: Sequence[CaseResult]) -> None:
        """Recompute every guard's curves from ``results``; the guard on show stays chosen."""
        self.curves = score_curves(results)
        current = self.guard.currentData()
        self.guard.blockSignals(True)
        try:
            self.guard.clear()
            for processor in self.curves:
                self.guard.addItem(processor, processor)
            index = self.guard.findData(current) if current is not None else -1
            self.guard.setCurrentIndex(index if index >= 0 else (0 if self.curves else -1))
        finally:
            self.guard.blockSignals(False)
        self._show_guard(keep_threshold=current is not None and current == self.guard.currentData())

    def current_curves(self) -> ScoreCurves | None:
        processor = self.guard.currentData()
        return self.curves.get(processor) if processor is not None else None

    # ----------------------------------------------------------------------------------------- threshold
    def threshold(self) -> float:
        """The slider's threshold (over the histogram's span of scores)."""
        if self._exact is not None and self._exact[0] == self.slider.value():
            return self._exact[1]
        histogram = self.figure.histogram
        low, high = (histogram.low, histogram.high) if histogram is not None else (0.0, 1.0)
        return round(low + (high - low) * self.slider.value() / SLIDER_STEPS, 4)

    def set_threshold(self, value: float) -> None:
        """Put the slider on ``value`` (on the nearest step, the figures of ``value`` itself until it moves)."""
        histogram = self.figure.histogram
        low, high = (histogram.low, histogram.high) if histogram is not None else (0.0, 1.0)
        step = min(max(round((value - low) / (high - low) * SLIDER_STEPS) if high > low else 0, 0), SLIDER_STEPS)
        self._exact = (step, round(value, 4))
        self.slider.blockSignals(True)
        self.slider.setValue(step)
        self.slider.blockSignals(False)
        self._on_slider_moved()

    def point(self) -> ThresholdPoint | None:
        """The guard's counts at the slider's threshold."""
        curves = self.current_curves()
        return curves.at(self.threshold()) if curves is not None else None

    @Slot()
    def _on_guard_changed(self, *_args: object) -> None:
        self._show_guard(keep_threshold=False)

    def _show_guard(self, *, keep_threshold: bool) -> None:
        curves = self.current_curves()
        self.figure.set_curves(curves)
        enabled = curves is not None
        for widget in (self.slider, self.budget, self.find_button):
            widget.setEnabled(enabled)
        if curves is None:
            self.summary.setText("")
            self.figures.setText("")
            self.save.setEnabled(False)
            return
        self.summary.setText(
            translate(
                "LabCurves", "{attacks} attacks, {benign} benign cases scored · ROC AUC {roc} · PR AUC {pr}"
            ).format(
                attacks=len(curves.attacks),
                benign=len(curves.benign),
                roc=auc_text(curves.roc_auc),
                pr=auc_text(curves.pr_auc),
            )
        )
        if not keep_threshold:
            in_design = self.design_threshold(curves.processor)
            self.set_threshold(in_design if in_design is not None else 0.5)
        else:
            self._on_slider_moved()

    @Slot()
    def _on_slider_moved(self, *_args: object) -> None:
        point = self.point()
        self.figure.set_threshold(point)
        curves = self.current_curves()
        if point is None or curves is None:
            return
        self.figures.setText(
            translate("LabCurves", "<b>{threshold}</b> · recall <b>{recall}</b> · FPR <b>{fpr}</b>").format(
                threshold=f"{point.threshold:.3f}", recall=pct(point.recall), fpr=pct(point.fpr)
            )
        )
        in_design = self.design_threshold(curves.processor)
        self.save.setEnabled(in_design is not None and round(in_design, 4) != point.threshold)

    @Slot()
    def _on_find(self) -> None:
        """The slider to the lowest threshold whose false-positive rate is within the budget (or said: none is)."""
        curves = self.current_curves()
        if curves is None:
            return
        point = curves.threshold_for_fpr(self.budget.value() / 100)
        if point is None:
            self.figures.setText(
                translate("LabCurves", "No threshold keeps the false-positive rate within {budget}").format(
                    budget=f"{self.budget.value():g} %"
                )
            )
            self.save.setEnabled(False)
            return
        self.set_threshold(point.threshold)

    @Slot()
    def _on_save(self) -> None:
        curves = self.current_curves()
        if curves is not None:
            self.threshold_requested.emit(curves.processor, self.threshold())
            self._on_slider_moved()


__all__ = ["SLIDER_STEPS", "CurvesPanel"]
