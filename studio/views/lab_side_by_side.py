"""The Scores tab's side-by-side part: "Run each guard alone" and the table of their figures, one row per guard
(:func:`studio.models.lab_guard_table.side_by_side_table`). The run itself is the Lab controller's
(:meth:`~studio.controllers.lab_controller.LabController.start_side_by_side`); this panel asks for it
(``run_requested``) and shows its table when ``side_by_side_ready`` brings it."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from lab.metrics import GuardColumns
from studio.i18n import translate
from studio.models.lab_guard_table import side_by_side_table
from studio.models.lab_tables import TableModel
from studio.views.lab_widgets import table_view


class SideBySidePanel(QWidget):
    """The button and the table; ``run_requested`` when the user asks to run each guard alone."""

    run_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lab_side_by_side")
        self.run_button = QPushButton(translate("LabCurves", "Run each guard alone"))
        self.run_button.setObjectName("lab_side_by_side_run")
        self.run_button.setToolTip(
            translate(
                "LabCurves",
                "Run the chosen corpora once per input and tool-result guard of the design, each guard alone (not "
                "as a chain), and compare them: recall, FPR, AUC and cost per case",
            )
        )
        self.table = TableModel(self)
        self.view = table_view("lab_side_by_side_table", self.table)
        self.hint = QLabel(translate("LabCurves", "Guards side by side"))
        self.hint.setObjectName("lab_side_by_side_title")
        top = QHBoxLayout()
        top.addWidget(self.hint, 1)
        top.addWidget(self.run_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        self.run_button.clicked.connect(self.run_requested)

    def show_rows(self, rows: Sequence[GuardColumns]) -> None:
        self.table.set_table(side_by_side_table(rows))


__all__ = ["SideBySidePanel"]
