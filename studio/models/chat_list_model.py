"""The Qt adapter of the chat: :class:`ChatListModel`, a ``QAbstractListModel`` over a pure :class:`ChatModel`.

One row per item, the item itself under :data:`ITEM_ROLE`, and ``dataChanged`` for streamed text coalesced to at most
one emission per frame (50 ms). It is the only part of the chat's model that imports Qt, kept apart so that
:mod:`studio.models.chat_model` stays plain Python (napari's ``_BaseEventedItemModel`` over its evented lists).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Slot

from studio.models.chat_items import ChatItem
from studio.models.chat_model import ChatModel

#: The :class:`ChatItem` of a row.
ITEM_ROLE = Qt.ItemDataRole.UserRole + 1
#: The item's kind: ``"user"``, ``"assistant"``, ``"tripwire"`` or ``"error"``.
KIND_ROLE = Qt.ItemDataRole.UserRole + 2
#: The run id of the item (None for typed or loaded messages).
RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 3


class ChatListModel(QAbstractListModel):
    """A ``QAbstractListModel`` over a :class:`ChatModel`: one row per item.

    Streamed text (``structural=False`` changes) is announced with ``dataChanged`` at most once per
    ``frame_ms`` (50 ms); other changes are announced on the next pass of the event loop. :meth:`flush` announces
    pending changes now.
    """

    def __init__(self, chat: ChatModel | None = None, parent: QObject | None = None, *, frame_ms: int = 50) -> None:
        super().__init__(parent)
        self._chat = chat if chat is not None else ChatModel()
        self._dirty: set[int] = set()
        self._frame = QTimer(self)
        self._frame.setSingleShot(True)
        self._frame.setInterval(frame_ms)
        self._frame.timeout.connect(self._on_frame_timeout)
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self._on_frame_timeout)
        self._chat.subscribe(self)

    @property
    def chat(self) -> ChatModel:
        return self._chat

    # ----------------------------------------------------------------------------------------- Qt model API
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._chat)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._chat):
            return None
        item = self._chat[index.row()]
        if role == ITEM_ROLE:
            return item
        if role == Qt.ItemDataRole.DisplayRole or role == Qt.ItemDataRole.AccessibleTextRole:
            return item.plain_text
        if role == KIND_ROLE:
            return item.kind
        if role == RUN_ID_ROLE:
            return item.run_id
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def item(self, row: int) -> ChatItem:
        return self._chat[row]

    # ----------------------------------------------------------------------------------------- listener
    def items_about_to_be_inserted(self, first: int, count: int) -> None:
        self.flush()
        self.beginInsertRows(QModelIndex(), first, first + count - 1)

    def items_inserted(self, first: int, count: int) -> None:
        self.endInsertRows()

    def items_changed(self, first: int, last: int, structural: bool) -> None:
        self._dirty.update(range(first, last + 1))
        if structural:
            if not self._soon.isActive():
                self._soon.start()
        elif not self._frame.isActive() and not self._soon.isActive():
            self._frame.start()

    def items_about_to_be_removed(self, first: int, count: int) -> None:
        self.flush()
        self.beginRemoveRows(QModelIndex(), first, first + count - 1)

    def items_removed(self, first: int, count: int) -> None:
        self.endRemoveRows()

    def items_about_to_be_reset(self) -> None:
        self._dirty.clear()
        self.beginResetModel()

    def items_reset(self) -> None:
        self.endResetModel()

    def flush(self) -> None:
        """Announce pending changes now (``dataChanged`` over the changed rows)."""
        self._frame.stop()
        self._soon.stop()
        if not self._dirty:
            return
        rows = [row for row in self._dirty if row < len(self._chat)]
        self._dirty.clear()
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))

    @Slot()
    def _on_frame_timeout(self) -> None:
        self.flush()


__all__ = ["ITEM_ROLE", "KIND_ROLE", "RUN_ID_ROLE", "ChatListModel"]
