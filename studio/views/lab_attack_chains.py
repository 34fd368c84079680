"""The Attack panel's chain editor and live preview: the converters to pick from, the chains the attack tries, the
steps of the chain chosen, and that chain applied to a chosen seed as the design would receive it.

A chain is composed by dragging converters onto its steps (or double-clicking one, or Enter, or "Add"), and its
steps reorder by drag or with the ↑ / ↓ buttons (Alt+Up / Alt+Down) and go with "Remove" (Del). Every change asks
for a new preview; the preview is computed off the UI thread by the controller
(:class:`studio.controllers.lab_attack_preview.AttackPreview`) and shown when it arrives.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QSortFilterProxyModel, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.models.lab_attack_chains import ChainListModel, ChainStepsModel, ConverterListModel, NameRole
from studio.views.lab_widgets import titled


def _shortcut(owner: QWidget, name: str, keys: Any, slot: Any) -> QAction:
    """An action on ``owner`` that acts only while the focus is in it (the studio's rule for shortcuts)."""
    action = QAction(owner)
    action.setObjectName(name)
    action.setShortcut(QKeySequence(keys))
    action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    action.triggered.connect(slot)
    owner.addAction(action)
    return action


class ChainEditor(QSplitter):
    """Converters | chains | the chosen chain's steps | the preview (see the module docstring)."""

    #: The chain on show, its steps or the seed to preview changed: the panel asks for a new preview.
    preview_wanted = Signal()

    def __init__(
        self,
        converters: ConverterListModel,
        chains: ChainListModel,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setObjectName("attack_chain_editor")
        self.setChildrenCollapsible(False)
        self.converters = converters
        self.chains = chains
        self.steps = ChainStepsModel(chains, self)

        # --- the converters to pick from
        self.converter_search = QLineEdit()
        self.converter_search.setObjectName("attack_converter_search")
        self.converter_search.setPlaceholderText(translate("LabAttack", "Search converters"))
        self.converter_search.setClearButtonEnabled(True)
        self.converter_filter = QSortFilterProxyModel(self)
        self.converter_filter.setSourceModel(converters)
        self.converter_filter.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.converter_filter.setFilterRole(Qt.ItemDataRole.ToolTipRole)  # name or description
        self.converter_search.textChanged.connect(self._on_search)
        self.converter_view = QListView()
        self.converter_view.setObjectName("attack_converters")
        self.converter_view.setModel(self.converter_filter)
        self.converter_view.setDragEnabled(True)
        self.converter_view.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.converter_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.converter_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.converter_view.doubleClicked.connect(lambda _index: self.add_selected_converters())
        self.converter_about = QLabel()
        self.converter_about.setObjectName("attack_converter_about")
        self.converter_about.setWordWrap(True)
        self.converter_about.setTextFormat(Qt.TextFormat.PlainText)  # a plug-in's description is its own text
        self.converter_about.setMinimumHeight(self.converter_about.fontMetrics().lineSpacing() * 2)
        self.add_button = QPushButton(translate("LabAttack", "Add to chain →"))
        self.add_button.setObjectName("attack_add_converter")
        self.add_button.setToolTip(
            translate("LabAttack", "Add the selected converters to the end of the chosen chain (Enter, or drag them)")
        )
        self.add_button.clicked.connect(self.add_selected_converters)
        picker = QWidget()
        picker_layout = QVBoxLayout(picker)
        picker_layout.setContentsMargins(0, 0, 0, 0)
        picker_layout.addWidget(self.converter_search)
        picker_layout.addWidget(self.converter_view, 1)
        picker_layout.addWidget(self.converter_about)
        picker_layout.addWidget(self.add_button)

        # --- the chains
        self.chain_view = QListView()
        self.chain_view.setObjectName("attack_chains")
        self.chain_view.setModel(chains)
        self.chain_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.new_chain_button = QPushButton(translate("LabAttack", "New"))
        self.new_chain_button.setObjectName("attack_new_chain")
        self.new_chain_button.setToolTip(translate("LabAttack", "A new, empty chain (Ctrl+N)"))
        self.remove_chain_button = QPushButton(translate("LabAttack", "Remove"))
        self.remove_chain_button.setObjectName("attack_remove_chain")
        self.remove_chain_button.setToolTip(translate("LabAttack", "Remove the chosen chain (Del)"))
        self.new_chain_button.clicked.connect(self.new_chain)
        self.remove_chain_button.clicked.connect(self.remove_chain)
        chain_box = QWidget()
        chain_layout = QVBoxLayout(chain_box)
        chain_layout.setContentsMargins(0, 0, 0, 0)
        chain_layout.addWidget(self.chain_view, 1)
        chain_buttons = QHBoxLayout()
        chain_buttons.addWidget(self.new_chain_button)
        chain_buttons.addWidget(self.remove_chain_button)
        chain_layout.addLayout(chain_buttons)

        # --- the steps of the chosen chain
        self.step_view = QListView()
        self.step_view.setObjectName("attack_steps")
        self.step_view.setModel(self.steps)
        self.step_view.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.step_view.setDefaultDropAction(Qt.DropAction.CopyAction)  # the model moves a step itself
        self.step_view.setDragDropOverwriteMode(False)
        self.step_view.setDropIndicatorShown(True)
        self.step_view.setAcceptDrops(True)
        self.step_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.up_button = QPushButton("↑")
        self.up_button.setObjectName("attack_step_up")
        self.up_button.setToolTip(translate("LabAttack", "Earlier in the chain (Alt+Up)"))
        self.down_button = QPushButton("↓")
        self.down_button.setObjectName("attack_step_down")
        self.down_button.setToolTip(translate("LabAttack", "Later in the chain (Alt+Down)"))
        self.remove_step_button = QPushButton(translate("LabAttack", "Remove"))
        self.remove_step_button.setObjectName("attack_remove_step")
        self.remove_step_button.setToolTip(translate("LabAttack", "Take the converter out of the chain (Del)"))
        self.up_button.clicked.connect(lambda: self.move_step(-1))
        self.down_button.clicked.connect(lambda: self.move_step(1))
        self.remove_step_button.clicked.connect(self.remove_step)
        step_box = QWidget()
        step_layout = QVBoxLayout(step_box)
        step_layout.setContentsMargins(0, 0, 0, 0)
        step_layout.addWidget(self.step_view, 1)
        step_buttons = QHBoxLayout()
        step_buttons.addWidget(self.up_button)
        step_buttons.addWidget(self.down_button)
        step_buttons.addWidget(self.remove_step_button)
        step_layout.addLayout(step_buttons)

        # --- the preview
        self.preview_seed = QComboBox()
        self.preview_seed.setObjectName("attack_preview_seed")
        self.preview_seed.setToolTip(translate("LabAttack", "The seed case the preview converts"))
        self.preview_seed.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.preview_seed.setMinimumContentsLength(16)
        self.preview_seed.currentIndexChanged.connect(lambda _row: self.preview_wanted.emit())
        self.preview = QPlainTextEdit()
        self.preview.setObjectName("attack_preview")
        self.preview.setReadOnly(True)
        self.preview.setPlaceholderText(
            translate("LabAttack", "Choose a chain and a seed to see what the design gets.")
        )
        self.preview_note = QLabel()
        self.preview_note.setObjectName("attack_preview_note")
        self.preview_note.setWordWrap(True)
        self.preview_note.setTextFormat(Qt.TextFormat.PlainText)
        preview_box = QWidget()
        preview_layout = QVBoxLayout(preview_box)
        preview_layout.setContentsMargins(0, 0, 0, 0)
        preview_layout.addWidget(self.preview_seed)
        preview_layout.addWidget(self.preview, 1)
        preview_layout.addWidget(self.preview_note)

        self.addWidget(titled(translate("LabAttack", "Converters"), picker))
        self.addWidget(titled(translate("LabAttack", "Chains"), chain_box))
        self.addWidget(titled(translate("LabAttack", "Steps of the chain"), step_box))
        self.addWidget(titled(translate("LabAttack", "Preview"), preview_box))
        self.setStretchFactor(3, 1)
        self.setSizes([230, 220, 170, 420])

        _shortcut(self.converter_view, "attack.add_converter", "Return", self.add_selected_converters)
        _shortcut(self.chain_view, "attack.remove_chain", QKeySequence.StandardKey.Delete, self.remove_chain)
        _shortcut(self, "attack.new_chain", QKeySequence.StandardKey.New, self.new_chain)
        _shortcut(self.step_view, "attack.remove_step", QKeySequence.StandardKey.Delete, self.remove_step)
        _shortcut(self.step_view, "attack.step_up", "Alt+Up", lambda: self.move_step(-1))
        _shortcut(self.step_view, "attack.step_down", "Alt+Down", lambda: self.move_step(1))

        self.chain_view.selectionModel().currentChanged.connect(self._on_chain_current)
        self.converter_view.selectionModel().currentChanged.connect(self._on_converter_current)
        self.step_view.selectionModel().currentChanged.connect(lambda *_args: self._update_buttons())
        chains.dataChanged.connect(self._on_chains_changed)
        chains.rowsRemoved.connect(self._on_chains_changed)
        chains.modelReset.connect(self._on_chains_reset)
        self._on_chains_reset()

    # ----------------------------------------------------------------------------------------- state
    def chain_row(self) -> int:
        """The row of the chain being edited (-1: none)."""
        return self.steps.chain_row

    def chosen_spec(self) -> str:
        """The chain being edited as the engine reads it (``""``: none, or empty)."""
        return str(self.chains.data(self.chains.index(self.chain_row()), NameRole) or "")

    def choose_chain(self, row: int) -> None:
        if 0 <= row < self.chains.rowCount():
            self.chain_view.setCurrentIndex(self.chains.index(row))
        else:
            self.steps.show_chain(-1)
            self._update_buttons()

    def _update_buttons(self) -> None:
        has_chain = self.chain_row() >= 0
        step = self.step_view.currentIndex().row() if self.step_view.currentIndex().isValid() else -1
        self.add_button.setEnabled(has_chain)
        self.remove_chain_button.setEnabled(has_chain)
        self.remove_step_button.setEnabled(step >= 0)
        self.up_button.setEnabled(step > 0)
        self.down_button.setEnabled(0 <= step < self.steps.rowCount() - 1)

    @Slot(QModelIndex)
    def _on_chain_current(self, current: QModelIndex, _previous: QModelIndex | None = None) -> None:
        self.steps.show_chain(current.row() if current.isValid() else -1)
        self._update_buttons()
        self.preview_wanted.emit()

    @Slot(QModelIndex)
    def _on_converter_current(self, current: QModelIndex, _previous: QModelIndex | None = None) -> None:
        about = current.data(Qt.ItemDataRole.ToolTipRole) if current.isValid() else ""
        self.converter_about.setText(str(about or ""))

    def _on_chains_changed(self, *_args: Any) -> None:
        self._update_buttons()
        self.preview_wanted.emit()

    def _on_chains_reset(self) -> None:
        self.choose_chain(0 if self.chains.rowCount() else -1)
        self._update_buttons()
        self.preview_wanted.emit()

    @Slot(str)
    def _on_search(self, text: str) -> None:
        self.converter_filter.setFilterFixedString(text.strip())

    # ----------------------------------------------------------------------------------------- edits
    @Slot()
    def add_selected_converters(self) -> None:
        """Append the selected converters (in the list's order) to the chain being edited."""
        rows = sorted(index.row() for index in self.converter_view.selectionModel().selectedIndexes())
        if not rows and self.converter_view.currentIndex().isValid():
            rows = [self.converter_view.currentIndex().row()]
        names = [str(self.converter_filter.index(row, 0).data(NameRole)) for row in rows]
        if self.steps.insert(names):
            last = self.steps.index(self.steps.rowCount() - 1)
            self.step_view.setCurrentIndex(last)

    @Slot()
    def new_chain(self) -> None:
        row = self.chains.add_chain()
        self.chain_view.setCurrentIndex(self.chains.index(row))
        self.converter_view.setFocus()

    @Slot()
    def remove_chain(self) -> None:
        row = self.chain_row()
        if row < 0:
            return
        self.chains.remove_chain(row)
        self.choose_chain(min(row, self.chains.rowCount() - 1))

    @Slot()
    def remove_step(self) -> None:
        index = self.step_view.currentIndex()
        if not index.isValid():
            return
        row = index.row()
        self.steps.remove(row)
        if self.steps.rowCount():
            self.step_view.setCurrentIndex(self.steps.index(min(row, self.steps.rowCount() - 1)))
        self._update_buttons()

    def move_step(self, by: int) -> None:
        index = self.step_view.currentIndex()
        if not index.isValid():
            return
        to = index.row() + by
        if self.steps.move(index.row(), to):
            self.step_view.selectionModel().setCurrentIndex(
                self.steps.index(to), QItemSelectionModel.SelectionFlag.ClearAndSelect
            )
        self._update_buttons()

    # ----------------------------------------------------------------------------------------- preview
    def show_preview(self, text: str, note: str, *, problem: bool = False) -> None:
        self.preview.setPlainText(text)
        self.preview_note.setStyleSheet("color: #b3261e" if problem else "")
        self.preview_note.setText(note)


__all__ = ["ChainEditor"]
