"""Small pieces the Lab window's panels share: a read-only figure table, its bar-drawing delegate, a titled box.

A figure table is a :class:`QTableView` over a :class:`studio.models.lab_tables.TableModel`; with ``bars`` its
recall and FPR cells draw their value as a bar under the text (the per-category bars of the Confusion tab).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.models.lab_tables import HeatRole, TableModel

#: Width of the recall and FPR columns, whose cells draw bars.
BAR_WIDTH = 180


class BarDelegate(QStyledItemDelegate):
    """Draws a cell's heat (recall, FPR) as a bar under its text: the per-category bars of the Confusion tab."""

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        heat = index.data(HeatRole)
        if isinstance(heat, float) and heat > 0:
            rect = QRect(option.rect)
            rect.adjust(2, 3, -2, -3)
            rect.setWidth(max(1, int(rect.width() * min(heat, 1.0))))
            header = index.model().headerData(index.column(), Qt.Orientation.Horizontal)
            color = QColor(179, 38, 30, 90) if header == translate("LabTables", "FPR") else QColor(27, 110, 32, 90)
            painter.fillRect(rect, color)
        super().paint(painter, option, index)


def table_view(name: str, model: TableModel, *, bars: bool = False) -> QTableView:
    """A read-only table of one figure (``bars``: its last two columns draw recall and FPR as bars)."""
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    if bars:
        view.setItemDelegate(BarDelegate(view))
        header = view.horizontalHeader()
        header.setStretchLastSection(False)

        def widen_bars() -> None:  # the recall and FPR columns are wide enough for their bars to be read
            for column in range(model.columnCount()):
                if column >= model.columnCount() - 2:
                    header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
                    header.resizeSection(column, BAR_WIDTH)

        model.modelReset.connect(widen_bars)
    return view


def titled(title: str, widget: QWidget) -> QWidget:
    """``widget`` under a bold title."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 4, 0, 0)
    label = QLabel(f"<b>{title}</b>")
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box


__all__ = ["BAR_WIDTH", "BarDelegate", "table_view", "titled"]
