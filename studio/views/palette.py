"""``PaletteView``: every processor type, grouped by lane, with a search box (object name ``palette``).

Drag a type into a chain, or select it and press Enter: the view asks for it to be added with
:attr:`PaletteView.add_requested` (type name, the lane it is listed under), which the window connects to
:meth:`studio.views.chain_editor.ChainEditor.add_entry`. In the search box, Enter adds the first match and the
Down arrow moves into the list.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QLabel, QLineEdit, QTreeView, QVBoxLayout, QWidget

from studio.i18n import translate
from studio.models.palette_model import KIND_ROLE, LANE_ROLE, TYPE_ROLE, PaletteFilterModel, PaletteModel
from studio.views.drag_image import exec_compact_drag

__all__ = ["PaletteView"]


class _PaletteTree(QTreeView):
    """The types' tree; a dragged type shows as itself, not as a full-width bar."""

    def startDrag(self, supportedActions: Qt.DropAction) -> None:
        exec_compact_drag(self, supportedActions)


class PaletteView(QWidget):
    """Search box over a lane-grouped tree of processor types; drag or press Enter to add one."""

    #: The user asked to add a processor: (type name, lane it is listed under).
    add_requested = Signal(str, str)

    def __init__(self, model: PaletteModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("palette")
        self._model = model
        self._proxy = PaletteFilterModel(self)
        self._proxy.setSourceModel(model)

        self._search = QLineEdit(self)
        self._search.setObjectName("palette.search")
        self._search.setPlaceholderText(translate("Palette", "Search processors"))
        self._search.setClearButtonEnabled(True)
        self._search.setAccessibleName(translate("Palette", "Search processors"))
        self._search.installEventFilter(self)

        self._tree = _PaletteTree(self)
        self._tree.setObjectName("palette.tree")
        self._tree.setAccessibleName(translate("Palette", "Processor types"))
        self._tree.setModel(self._proxy)
        self._tree.setHeaderHidden(True)
        self._tree.setRootIsDecorated(False)
        self._tree.setIndentation(12)
        self._tree.setUniformRowHeights(True)
        self._tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self._tree.setDragEnabled(True)
        self._tree.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self._tree.setDefaultDropAction(Qt.DropAction.CopyAction)
        self._tree.setExpandsOnDoubleClick(False)
        self._tree.expandAll()

        add = QAction(translate("Palette", "Add to Chain"), self._tree)
        add.setShortcuts([QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter)])
        add.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        add.triggered.connect(self._on_add_action_triggered)
        self._tree.addAction(add)
        self._tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

        self._empty = QLabel(self)
        self._empty.setObjectName("palette.empty")
        self._empty.setWordWrap(True)
        self._empty.setEnabled(False)
        self._empty.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self._search)
        layout.addWidget(self._tree, 1)
        layout.addWidget(self._empty)

        self._search.textChanged.connect(self._on_search_text_changed)
        self._search.returnPressed.connect(self._on_search_return_pressed)
        self._tree.doubleClicked.connect(self._on_tree_double_clicked)
        self._proxy.modelReset.connect(self._tree.expandAll)
        self._proxy.rowsInserted.connect(self._tree.expandAll)

    # ------------------------------------------------------------------------------------------- public
    def search_box(self) -> QLineEdit:
        return self._search

    def tree(self) -> QTreeView:
        return self._tree

    def filter_model(self) -> PaletteFilterModel:
        return self._proxy

    def select_type(self, type_name: str, lane: str | None = None) -> bool:
        """Make the first row of ``type_name`` (under ``lane`` if given) current; False if none is showing."""
        index = self._find(lambda i: i.data(TYPE_ROLE) == type_name and (lane is None or i.data(LANE_ROLE) == lane))
        if index.isValid():
            self._tree.setCurrentIndex(index)
        return index.isValid()

    # ---------------------------------------------------------------------------------------- internals
    def _find(self, predicate: object) -> QModelIndex:
        for row in range(self._proxy.rowCount()):
            header = self._proxy.index(row, 0)
            for child in range(self._proxy.rowCount(header)):
                index = self._proxy.index(child, 0, header)
                if predicate(index):  # type: ignore[operator]
                    return index
        return QModelIndex()

    def _request_add(self, index: QModelIndex) -> None:
        if index.isValid() and index.data(KIND_ROLE) == "type":
            self.add_requested.emit(index.data(TYPE_ROLE), index.data(LANE_ROLE))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self._search
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Down
        ):
            first = self._find(lambda i: True)
            if first.isValid():
                self._tree.setCurrentIndex(first)
                self._tree.setFocus(Qt.FocusReason.TabFocusReason)
            return True
        return super().eventFilter(watched, event)

    @Slot()
    def _on_add_action_triggered(self) -> None:
        self._request_add(self._tree.currentIndex())

    @Slot(QModelIndex)
    def _on_tree_double_clicked(self, index: QModelIndex) -> None:
        self._request_add(index)

    @Slot(str)
    def _on_search_text_changed(self, text: str) -> None:
        self._proxy.set_search_text(text)
        self._tree.expandAll()
        nothing = bool(text.strip()) and self._proxy.visible_type_count() == 0
        self._empty.setText(
            translate("Palette", "No processor matches “{text}”.").format(text=text.strip()) if nothing else ""
        )
        self._empty.setVisible(nothing)

    @Slot()
    def _on_search_return_pressed(self) -> None:
        current = self._tree.currentIndex()
        index = current if current.isValid() and current.data(KIND_ROLE) == "type" else self._find(lambda i: True)
        self._request_add(index)
