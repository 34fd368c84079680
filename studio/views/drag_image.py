"""The picture under the cursor while an entry is dragged: the item itself, not a full-width bar.

Qt's default drag image is the item's row across the whole view. :func:`compact_drag` builds the drag with the
row cut to the item's own width (its delegate's size hint), so what follows the cursor looks like the entry.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QDrag, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QStyledItemDelegate, QStyleOptionViewItem

__all__ = ["compact_drag", "exec_compact_drag", "item_pixmap"]

_PAD = 8


def item_pixmap(view: QAbstractItemView, index: QModelIndex) -> QPixmap:
    """The item as drawn in ``view``, as wide as its content (plus a little padding), at most its row's width."""
    rect = view.visualRect(index)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.font = view.font()
    delegate = view.itemDelegateForIndex(index)
    if isinstance(delegate, QStyledItemDelegate):  # the content's own width (a view's delegate may cap its hint)
        hint = QStyledItemDelegate.sizeHint(delegate, option, index)
    else:
        hint = delegate.sizeHint(option, index) if delegate is not None else rect.size()
    width = max(1, min(rect.width(), hint.width() + _PAD))
    return view.viewport().grab(QRect(rect.topLeft(), QSize(width, rect.height())))


def compact_drag(view: QAbstractItemView) -> QDrag | None:
    """A drag of the view's selected items (their model's MIME data) showing the first one at its own size."""
    indexes = [index for index in view.selectedIndexes() if index.column() == 0]
    model = view.model()
    if not indexes or model is None:
        return None
    mime = model.mimeData(indexes)
    if mime is None:
        return None
    drag = QDrag(view)
    drag.setMimeData(mime)
    pixmap = item_pixmap(view, indexes[0])
    drag.setPixmap(pixmap)
    drag.setHotSpot(QPoint(min(24, pixmap.width() // 2), pixmap.height() // 2))
    return drag


def exec_compact_drag(view: QAbstractItemView, supported: Qt.DropAction) -> None:
    """``startDrag`` for views whose model does the moving itself (the source view removes nothing)."""
    drag = compact_drag(view)
    if drag is not None:
        drag.exec(supported, view.defaultDropAction())
