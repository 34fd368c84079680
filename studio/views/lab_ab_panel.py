"""The Lab window's A/B tab: pick two designs (saved designs, or two versions of one design) and run both over
the chosen corpora; then, as for two lab runs compared from the list, the two figures and the cases whose verdict
changed.

A double click on a changed case searches the Cases tab for it (``case_requested``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Signal, Slot
from PySide6.QtWidgets import QComboBox, QFormLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from studio.i18n import translate
from studio.models.lab_tables import FilterRole, TableModel, comparison_table, pct
from studio.views.lab_widgets import table_view


class LabABPanel(QWidget):
    """The comparison of two lab runs: a summary line and the table of changed verdicts."""

    #: The user asked to see a changed case among the cases (its id).
    case_requested = Signal(str)
    #: The user asked to run the chosen corpora on design A and on design B (their choice keys).
    ab_requested = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = TableModel(self)
        self.ab_label = QLabel(translate("LabView", "Select two lab runs on the left and press Compare A/B (Ctrl+D)."))
        self.ab_label.setObjectName("lab_ab_summary")
        self.ab_label.setWordWrap(True)
        self.ab_view = table_view("lab_ab", self.table)
        self.design_a = QComboBox()
        self.design_a.setObjectName("lab_ab_design_a")
        self.design_b = QComboBox()
        self.design_b.setObjectName("lab_ab_design_b")
        for combo in (self.design_a, self.design_b):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(28)
        self.run_button = QPushButton(translate("LabView", "Run A and B"))
        self.run_button.setObjectName("lab_ab_run")
        self.run_button.setToolTip(
            translate(
                "LabView",
                "Run the corpora ticked on the left on design A, then on design B (in the mode chosen above), "
                "and show the cases whose verdict changed",
            )
        )
        pick = QFormLayout()
        pick.addRow(translate("LabView", "Design A"), self.design_a)
        pick.addRow(translate("LabView", "Design B"), self.design_b)
        row = QHBoxLayout()
        row.addLayout(pick, 1)
        row.addWidget(self.run_button)
        self.layout_ = QVBoxLayout(self)
        self.layout_.addLayout(row)
        self.layout_.addWidget(self.ab_label)
        self.layout_.addWidget(self.ab_view, 1)
        self.ab_view.doubleClicked.connect(self._on_activated)
        self.run_button.clicked.connect(self._on_run)

    def set_choices(self, choices: list[Any]) -> None:
        """Offer these :class:`studio.controllers.lab_experiments.DesignChoice` values for A and B, keeping what
        was picked where it is still offered. While A and B are the same, A is the newest other design."""
        for combo in (self.design_a, self.design_b):
            picked = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            for choice in choices:
                combo.addItem(choice.label, choice.key)
            combo.setCurrentIndex(max(combo.findData(picked), 0))
            combo.blockSignals(False)
        if len(choices) > 1 and self.design_a.currentData() == self.design_b.currentData():
            self.design_a.setCurrentIndex(1 if self.design_b.currentIndex() == 0 else 0)

    def pick(self, a_key: str, b_key: str) -> None:
        """Pick A and B by their keys (as a user choosing them in the boxes)."""
        self.design_a.setCurrentIndex(self.design_a.findData(a_key))
        self.design_b.setCurrentIndex(self.design_b.findData(b_key))

    @Slot()
    def _on_run(self) -> None:
        self.ab_requested.emit(str(self.design_a.currentData() or ""), str(self.design_b.currentData() or ""))

    def show_comparison(self, comparison: Any) -> None:
        """Show a :class:`studio.controllers.lab_controller.Comparison`."""
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
        self.table.set_table(comparison_table(comparison.changes))

    @Slot(QModelIndex)
    def _on_activated(self, index: QModelIndex) -> None:
        case = (index.data(FilterRole) or {}).get("case")
        if case:
            self.case_requested.emit(str(case))


__all__ = ["LabABPanel"]
