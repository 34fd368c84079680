"""The Attack tab's results: the robustness matrix (chains × processors, filling as variants finish) and the
bypasses found, each one click (or key) from a thread, the corpus of found bypasses, or a regression test.

Keys in the bypasses table: Enter (or a double click) opens the bypass as a thread, Ctrl+B adds the selected ones to
the found bypasses, Ctrl+E exports them as a regression test. A click on a chain's row shows only its bypasses; a
click on the header's first column shows them all again.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.models.lab_attack_results import BypassModel, ChainRole, RobustnessModel, VariantIdRole
from studio.views.lab_widgets import titled

#: The first widths (px) of the bypasses' seed, chain and outcome columns (long seed ids elide; the user may widen).
BYPASS_WIDTHS = (150, 95, 70)


def _compact_rows(view: QTableView) -> None:
    """Rows one line of text high (the style's default is half a line taller), so more of them fit."""
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)


class AttackResults(QSplitter):
    """The matrix on the left, the bypasses on the right (see the module docstring)."""

    #: Open this bypass (its variant id) as a thread.
    open_requested = Signal(str)
    #: Add these bypasses (variant ids) to the corpus of found bypasses.
    add_requested = Signal(list)
    #: Export these bypasses (variant ids) as a regression test (the view asks where).
    export_requested = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setObjectName("attack_results")
        self.setChildrenCollapsible(False)
        self.matrix = RobustnessModel(self)
        self.matrix_view = QTableView()
        self.matrix_view.setObjectName("attack_matrix")
        self.matrix_view.setModel(self.matrix)
        self.matrix_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.matrix_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.matrix_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.matrix_view.verticalHeader().setVisible(False)
        self.matrix_view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        _compact_rows(self.matrix_view)
        self.matrix_view.clicked.connect(self._on_matrix_clicked)
        self.matrix_view.horizontalHeader().sectionClicked.connect(self._on_header_clicked)
        self.summary = QLabel()
        self.summary.setObjectName("attack_summary")
        self.summary.setWordWrap(True)

        self.bypasses = BypassModel(self)
        self.bypass_filter = QSortFilterProxyModel(self)
        self.bypass_filter.setSourceModel(self.bypasses)
        self.bypass_filter.setFilterRole(ChainRole)
        self.bypass_filter.setFilterKeyColumn(1)
        self.bypass_view = QTableView()
        self.bypass_view.setObjectName("attack_bypasses")
        self.bypass_view.setModel(self.bypass_filter)
        self.bypass_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.bypass_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.bypass_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.bypass_view.setWordWrap(False)
        self.bypass_view.verticalHeader().setVisible(False)
        _compact_rows(self.bypass_view)
        header = self.bypass_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)  # the variant's text takes what is left
        for column, width in enumerate(BYPASS_WIDTHS):
            header.resizeSection(column, width)
        self.bypass_view.doubleClicked.connect(lambda _index: self.open_current())
        self.open_button = QPushButton(translate("LabAttack", "Open as thread"))
        self.open_button.setObjectName("attack_open_bypass")
        self.open_button.setToolTip(translate("LabAttack", "Run the bypass again on a new thread and show it (Enter)"))
        self.add_button = QPushButton(translate("LabAttack", "Add to found bypasses"))
        self.add_button.setObjectName("attack_add_bypass")
        self.add_button.setToolTip(
            translate("LabAttack", "Append the selected bypasses to a corpus the Lab lists on the left (Ctrl+B)")
        )
        self.export_button = QPushButton(translate("LabAttack", "Export as regression test…"))
        self.export_button.setObjectName("attack_export_bypass")
        self.export_button.setToolTip(
            translate("LabAttack", "A pytest file that fails until the design stops the selected bypasses (Ctrl+E)")
        )
        self.open_button.clicked.connect(self.open_current)
        self.add_button.clicked.connect(lambda: self._ask(self.add_requested))
        self.export_button.clicked.connect(lambda: self._ask(self.export_requested))
        for keys, name, slot in (
            ("Return", "attack.open_bypass", self.open_current),
            ("Ctrl+B", "attack.add_bypass", lambda: self._ask(self.add_requested)),
            ("Ctrl+E", "attack.export_bypass", lambda: self._ask(self.export_requested)),
        ):
            action = QAction(self.bypass_view)
            action.setObjectName(name)
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.bypass_view.addAction(action)
        self.bypass_view.selectionModel().selectionChanged.connect(lambda *_args: self.update_buttons())
        self.bypass_filter.rowsInserted.connect(lambda *_args: self.update_buttons())
        self.bypass_filter.modelReset.connect(self.update_buttons)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.matrix_view, 1)
        left_layout.addWidget(self.summary)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.bypass_view, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        right_layout.addLayout(buttons)
        self.addWidget(titled(translate("LabAttack", "Robustness: what got through, per chain"), left))
        self.addWidget(titled(translate("LabAttack", "Bypasses"), right))
        self.setStretchFactor(1, 1)
        self.setSizes([480, 550])
        self.update_buttons()

    # ----------------------------------------------------------------------------------------- state
    def selected_ids(self) -> list[str]:
        """The variant ids of the selected bypasses (the current one when none is selected), top to bottom."""
        rows = sorted({index.row() for index in self.bypass_view.selectionModel().selectedRows()})
        if not rows and self.bypass_view.currentIndex().isValid():
            rows = [self.bypass_view.currentIndex().row()]
        return [str(self.bypass_filter.index(row, 0).data(VariantIdRole)) for row in rows]

    def update_buttons(self) -> None:
        chosen = bool(self.selected_ids())
        for button in (self.open_button, self.add_button, self.export_button):
            button.setEnabled(chosen)

    def show_chain(self, chain: str) -> None:
        """Only ``chain``'s bypasses ("": all of them)."""
        self.bypass_filter.setFilterRegularExpression(f"^{re.escape(chain)}$" if chain else "")
        self.update_buttons()

    @Slot(QModelIndex)
    def _on_matrix_clicked(self, index: QModelIndex) -> None:
        self.show_chain(str(index.data(ChainRole) or ""))

    @Slot(int)
    def _on_header_clicked(self, section: int) -> None:
        if section == 0:
            self.matrix_view.clearSelection()
            self.show_chain("")

    # ----------------------------------------------------------------------------------------- requests
    @Slot()
    def open_current(self) -> None:
        chosen = self.selected_ids()
        if chosen:
            self.open_requested.emit(chosen[0])

    def _ask(self, signal: Any) -> None:
        chosen = self.selected_ids()
        if chosen:
            signal.emit(chosen)


__all__ = ["AttackResults"]
