"""The Lab window's A/B tab: pick two designs (saved designs, two versions of one design, or a design file from
disk: "From file…" beside each picker) and run both over the chosen corpora; then, as for two lab runs compared
from the list, the two figures and the cases whose verdict changed.

A double click on a changed case searches the Cases tab for it (``case_requested``).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal, Slot
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
    #: The user asked to pick a design file from disk for A or B (``"A"`` or ``"B"``).
    design_file_requested = Signal(str)
    #: The user asked to export the comparison on show (as ``lab diff --json`` writes it).
    export_requested = Signal()

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
        self.file_buttons: dict[str, QPushButton] = {}
        pick = QFormLayout()
        labels = {"A": translate("LabView", "Design A"), "B": translate("LabView", "Design B")}
        for letter, combo in (("A", self.design_a), ("B", self.design_b)):
            button = QPushButton(translate("LabView", "From file…"))
            button.setObjectName(f"lab_ab_file_{letter.lower()}")
            button.setToolTip(
                translate(
                    "LabView",
                    "Pick a design file from disk (a colleague's exported design, say) for {letter}; it is checked "
                    "as File → Open design checks it, and nothing runs until you press Run A and B",
                ).format(letter=letter)
            )
            button.clicked.connect(lambda _checked=False, letter=letter: self.design_file_requested.emit(letter))
            self.file_buttons[letter] = button
            line = QHBoxLayout()
            line.addWidget(combo, 1)
            line.addWidget(button)
            pick.addRow(labels[letter], line)
        row = QHBoxLayout()
        row.addLayout(pick, 1)
        row.addWidget(self.run_button)
        self.export_button = QPushButton(translate("LabView", "Export A/B…"))
        self.export_button.setObjectName("lab_ab_export")
        self.export_button.setToolTip(
            translate(
                "LabView",
                "Write this comparison as JSON: both runs' figures, the cases whose verdict changed and the cases "
                "only one run has (as 'processor-studio lab diff --json' writes it)",
            )
        )
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self.export_requested)
        summary = QHBoxLayout()
        summary.addWidget(self.ab_label, 1)
        summary.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignTop)
        self.layout_ = QVBoxLayout(self)
        self.layout_.addLayout(row)
        self.layout_.addLayout(summary)
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

    def picked(self, letter: str) -> str:
        """The key picked for A or B ("" when none)."""
        return str((self.design_a if letter == "A" else self.design_b).currentData() or "")

    def pick_one(self, letter: str, key: str, *, other: str | None = None) -> None:
        """Pick one choice (by key) for A or B; the other letter gets ``other`` back when it is offered (the new
        choice list may have moved it off a pick that equalled this one)."""
        combo, second = (self.design_a, self.design_b) if letter == "A" else (self.design_b, self.design_a)
        combo.setCurrentIndex(combo.findData(key))
        if other is not None and second.findData(other) >= 0:
            second.setCurrentIndex(second.findData(other))

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
                # a design's name is data (a colleague's file): shown, not rendered
                a=html.escape(_without_letter("A", comparison.a.name)),
                b=html.escape(_without_letter("B", comparison.b.name)),
                r0=pct(before.recall),
                r1=pct(after.recall),
                f0=pct(before.fpr),
                f1=pct(after.fpr),
                count=len(comparison.changes),
            )
            + self._unmatched(comparison)
        )
        self.table.set_table(comparison_table(comparison.changes))
        self.export_button.setEnabled(True)

    @staticmethod
    def _unmatched(comparison: Any) -> str:
        """Says how many cases only one of the two runs has (two runs over different corpora): not compared."""
        only_a, only_b = len(comparison.only_a), len(comparison.only_b)
        if not only_a and not only_b:
            return ""
        return "<br>" + translate(
            "LabView", "Not compared: {a} cases only in A, {b} cases only in B (the two runs' corpora differ)"
        ).format(a=only_a, b=only_b)

    @Slot(QModelIndex)
    def _on_activated(self, index: QModelIndex) -> None:
        case = (index.data(FilterRole) or {}).get("case")
        if case:
            self.case_requested.emit(str(case))


def _without_letter(letter: str, name: str) -> str:
    """A lab run's name without the "A: " its A/B run gave it (the header says "A:" already)."""
    for separator in (": ", "："):
        if name.startswith(letter + separator):
            return name[len(letter) + len(separator) :]
    return name


__all__ = ["LabABPanel"]
