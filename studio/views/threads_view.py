"""``ThreadsView``: the threads list with search, and buttons/shortcuts for new, rename, delete and undo delete.

Its keys (F2 renames, Del deletes) act only while the list has the focus (``Qt.WidgetWithChildrenShortcut``): Del
in a chain or in the inspector is theirs. Deleting asks first, with Cancel the default; a deleted conversation goes
to the trash, and "Undo delete" brings it back.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLineEdit,
    QListView,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.models.threads_model import ThreadIdRole, ThreadListModel
from studio.regression_exports import latest_export
from studio.store.trash import TRASH_DAYS
from studio.views.questions import DestructiveQuestion


class ThreadsView(QWidget):
    """Thin view: it emits requests; the threads controller does the work."""

    #: The user picked a thread (its id).
    thread_selected = Signal(str)
    new_thread_requested = Signal()
    rename_requested = Signal(str, str)
    delete_requested = Signal(str)
    #: The user asked for the most recently deleted thread back.
    restore_requested = Signal()
    search_requested = Signal(str)
    #: The user asked to replay every run of a thread through the current chain (its id).
    replay_requested = Signal(str)
    #: The user asked to export the thread's regression test again with the current design (the exported run's id).
    reexport_requested = Signal(str)

    def __init__(self, model: ThreadListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("threads")
        self.model = model
        self.search = QLineEdit()
        self.search.setObjectName("threads.search")
        self.search.setPlaceholderText(translate("ThreadsView", "Search threads"))
        self.search.setClearButtonEnabled(True)
        self.list = QListView()
        self.list.setObjectName("threads.list")
        self.list.setModel(model)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setUniformItemSizes(True)
        self.new_button = QToolButton()
        self.new_button.setText(translate("ThreadsView", "New"))
        self.new_button.setObjectName("threads.new")
        self.new_button.setToolTip(translate("ThreadsView", "New conversation (Ctrl+N)"))
        self.rename_button = QToolButton()
        self.rename_button.setText(translate("ThreadsView", "Rename"))
        self.rename_button.setObjectName("threads.rename")
        self.rename_button.setToolTip(translate("ThreadsView", "Rename the selected conversation (F2)"))
        self.delete_button = QToolButton()
        self.delete_button.setText(translate("ThreadsView", "Delete"))
        self.delete_button.setObjectName("threads.delete")
        self.delete_button.setToolTip(translate("ThreadsView", "Delete the selected conversation (Del)"))
        self.restore_button = QToolButton()
        self.restore_button.setText(translate("ThreadsView", "Undo delete"))
        self.restore_button.setObjectName("threads.restore")
        self.restore_button.hide()  # shown while the trash holds a thread (set_restorable)
        self.rename_editor = QLineEdit()
        self.rename_editor.setObjectName("threads.rename_editor")
        self.rename_editor.setPlaceholderText(translate("ThreadsView", "New title, then Enter (Esc cancels)"))
        self.rename_editor.hide()

        buttons = QHBoxLayout()
        for button in (self.new_button, self.rename_button, self.delete_button, self.restore_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search)
        layout.addLayout(buttons)
        layout.addWidget(self.rename_editor)
        layout.addWidget(self.list, 1)

        self.search.textChanged.connect(self.search_requested)
        self.new_button.clicked.connect(self.new_thread_requested)
        self.rename_button.clicked.connect(self._on_rename_clicked)
        self.delete_button.clicked.connect(self._on_delete_clicked)
        self.restore_button.clicked.connect(self.restore_requested)
        self.rename_editor.returnPressed.connect(self._on_rename_editor_return_pressed)
        self.list.selectionModel().currentChanged.connect(self._on_list_current_changed)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._on_list_context_menu_requested)
        # The list is reloaded (reset) after every change: keep the current thread current through it.
        self._kept: tuple[str | None, int] = (None, -1)
        self._deleting: str | None = None
        model.modelAboutToBeReset.connect(self._on_model_about_to_be_reset)
        model.modelReset.connect(self._on_model_reset)
        # The list's own keys: live only while it has the focus (a window-wide Del fought the chain editor's and
        # deleted threads from the inspector's timeline).
        for key, widget, slot in (
            (QKeySequence(Qt.Key.Key_F2), self.list, self._on_rename_clicked),
            (QKeySequence(QKeySequence.StandardKey.Delete), self.list, self._on_delete_clicked),
            (QKeySequence(Qt.Key.Key_Escape), self.rename_editor, self.rename_editor.hide),
        ):
            QShortcut(key, widget, slot).setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

    @Slot(object)
    def set_restorable(self, title: str | None) -> None:
        """Show "Undo delete" for the thread the trash would give back (``title``), or hide it (None)."""
        self.restore_button.setVisible(title is not None)
        if title is not None:
            self.restore_button.setToolTip(
                translate("ThreadsView", "Bring back “{title}” (deleted conversations are kept {days} days)").format(
                    title=title or translate("ThreadsView", "New conversation"), days=TRASH_DAYS
                )
            )

    def current_thread_id(self) -> str | None:
        index = self.list.currentIndex()
        return index.data(ThreadIdRole) if index.isValid() else None

    def select_thread(self, thread_id: str) -> None:
        row = self.model.row_of(thread_id)
        if row >= 0:
            self.list.setCurrentIndex(self.model.index(row))

    def context_menu(self, row: int) -> QMenu:
        """The menu of the thread at ``row`` (made current): replay it, rename it, delete it."""
        self.list.setCurrentIndex(self.model.index(row))
        thread_id = self.current_thread_id()
        menu = QMenu(self)
        replay = menu.addAction(translate("ThreadsView", "Replay the whole thread through the current chain"))
        replay.setObjectName("threads.menu.replay")
        if thread_id is not None:
            replay.triggered.connect(lambda _checked=False: self.replay_requested.emit(thread_id))
        reexport = menu.addAction(translate("ThreadsView", "Export its regression test again (current design)"))
        reexport.setObjectName("threads.menu.reexport")
        exported = latest_export(thread_id) if thread_id is not None else None
        reexport.setEnabled(exported is not None)
        if exported is not None:
            run_id, path = exported
            reexport.setToolTip(
                translate("ThreadsView", "Replay the exported run through the current chain and rewrite {0}").format(
                    str(path)
                )
            )
            reexport.triggered.connect(lambda _checked=False: self.reexport_requested.emit(run_id))
        menu.setToolTipsVisible(True)
        menu.addSeparator()
        rename = menu.addAction(translate("ThreadsView", "Rename"))
        rename.setObjectName("threads.menu.rename")
        rename.triggered.connect(self._on_rename_clicked)
        delete = menu.addAction(translate("ThreadsView", "Delete"))
        delete.setObjectName("threads.menu.delete")
        delete.triggered.connect(self._on_delete_clicked)
        return menu

    @Slot(QPoint)
    def _on_list_context_menu_requested(self, position: QPoint) -> None:
        index = self.list.indexAt(position)
        if not index.isValid():
            return
        menu = self.context_menu(index.row())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.list.viewport().mapToGlobal(position))  # never exec() on the qasync loop

    @Slot()
    def _on_model_about_to_be_reset(self) -> None:
        self._kept = (self.current_thread_id(), self.list.currentIndex().row())

    @Slot()
    def _on_model_reset(self) -> None:
        """The thread that was current stays current; a deleted one's neighbour takes its place."""
        thread_id, row = self._kept
        self._kept = (None, -1)
        if thread_id is None:
            return
        if self.model.row_of(thread_id) >= 0:
            self.select_thread(thread_id)
        elif thread_id == self._deleting and self.model.rowCount():
            self._deleting = None
            self.list.setCurrentIndex(self.model.index(min(row, self.model.rowCount() - 1)))

    @Slot(QModelIndex, QModelIndex)
    def _on_list_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.thread_selected.emit(current.data(ThreadIdRole))

    @Slot()
    def _on_rename_clicked(self) -> None:
        if self.current_thread_id() is None:
            return
        self.rename_editor.setText(self.list.currentIndex().data())
        self.rename_editor.show()
        self.rename_editor.selectAll()
        self.rename_editor.setFocus()

    @Slot()
    def _on_rename_editor_return_pressed(self) -> None:
        thread_id = self.current_thread_id()
        self.rename_editor.hide()
        if thread_id is not None:
            self.rename_requested.emit(thread_id, self.rename_editor.text())

    def _request_delete(self, thread_id: str) -> None:
        self._deleting = thread_id  # when the list comes back without it, its neighbour becomes current
        self.delete_requested.emit(thread_id)

    @Slot()
    def _on_delete_clicked(self) -> None:
        thread_id = self.current_thread_id()
        if thread_id is None:
            return
        box = DestructiveQuestion(
            translate("ThreadsView", "Delete conversation"),
            translate(
                "ThreadsView",
                "Delete “{title}” and all its messages and traces? It stays in the trash for {days} days: "
                "“Undo delete” brings it back.",
            ).format(title=self.list.currentIndex().data(), days=TRASH_DAYS),
            self,
            on_yes=lambda: self._request_delete(thread_id),
        )
        box.setObjectName("threads.confirm_delete")
        box.open()  # never exec() on the qasync loop
