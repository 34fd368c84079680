"""``ThreadListModel``: the threads list as a Qt list model over the store's ``ThreadRecord`` values."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QDateTime, QLocale, QModelIndex, QPersistentModelIndex, Qt

from processors.memory.records import ThreadRecord
from studio.i18n import current_locale, translate

ThreadIdRole = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


def thread_title(record: ThreadRecord) -> str:
    return record.title or translate("ThreadsView", "New conversation")


class ThreadListModel(QAbstractListModel):
    """Holds the records it was given; the threads controller refreshes it after each store change."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._records: list[ThreadRecord] = []

    def set_records(self, records: list[ThreadRecord]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

    def records(self) -> list[ThreadRecord]:
        return list(self._records)

    def row_of(self, thread_id: str) -> int:
        return next((i for i, r in enumerate(self._records) if r.id == thread_id), -1)

    def record(self, row: int) -> ThreadRecord | None:
        return self._records[row] if 0 <= row < len(self._records) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._records)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        record = self.record(index.row()) if index.isValid() else None
        if record is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return thread_title(record)
        if role == Qt.ItemDataRole.ToolTipRole:
            moment = QDateTime.fromMSecsSinceEpoch(int(record.updated_at.timestamp() * 1000))  # shown in local time
            when = current_locale().toString(moment, QLocale.FormatType.ShortFormat)
            return "\n".join(
                (
                    thread_title(record),
                    translate("ThreadsView", "Last activity {when}").format(when=when),
                    translate("ThreadsView", "id {id}").format(id=record.id),
                )
            )
        if role == ThreadIdRole:
            return record.id
        return None
