"""The Lab window's A/B tab: two lab runs' figures side by side and the cases whose verdict changed.

A double click on a changed case searches the Cases tab for it (``case_requested``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Signal, Slot
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from studio.i18n import translate
from studio.models.lab_tables import FilterRole, TableModel, comparison_table, pct
from studio.views.lab_widgets import table_view


class LabABPanel(QWidget):
    """The comparison of two lab runs: a summary line and the table of changed verdicts."""

    #: The user asked to see a changed case among the cases (its id).
    case_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = TableModel(self)
        self.ab_label = QLabel(translate("LabView", "Select two lab runs on the left and press Compare A/B (Ctrl+D)."))
        self.ab_label.setObjectName("lab_ab_summary")
        self.ab_label.setWordWrap(True)
        self.ab_view = table_view("lab_ab", self.table)
        self.layout_ = QVBoxLayout(self)
        self.layout_.addWidget(self.ab_label)
        self.layout_.addWidget(self.ab_view, 1)
        self.ab_view.doubleClicked.connect(self._on_activated)

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
