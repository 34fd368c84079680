"""``OutcomeBadgeDelegate``: paints a trace row's outcome (passed, held, changed, dropped, aborted, raised) as a pill.

A run's row shows how the run ended instead (finished, tripwire, error, stopped, failed; running while it streams).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.models.outcome_words import outcome_label
from studio.models.trace_model import OUTCOME_COLORS, OUTCOME_ROLE

_PAD_X, _MARGIN = 7, 3
AnyIndex = QModelIndex | QPersistentModelIndex


class OutcomeBadgeDelegate(QStyledItemDelegate):
    """White bold text on the outcome's colour, in a rounded pill; rows without an outcome paint as usual."""

    def _font(self, option: QStyleOptionViewItem) -> QFont:
        font = QFont(option.font)
        font.setBold(True)
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.9))
        return font

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        outcome = index.data(OUTCOME_ROLE)
        if not outcome:
            super().paint(painter, option, index)
            return
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        item.text = ""
        item.backgroundBrush = QBrush(QColor(Qt.GlobalColor.transparent))
        widget = item.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        font = self._font(option)
        metrics = QFontMetrics(font)
        cell: QRect = option.rect
        height = min(cell.height() - 2, metrics.height() + 2)
        label = outcome_label(outcome)
        width = metrics.horizontalAdvance(label) + 2 * _PAD_X
        pill = QRect(cell.left() + _MARGIN, cell.top() + (cell.height() - height) // 2, width, height)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(OUTCOME_COLORS[outcome][0]))
        painter.drawRoundedRect(pill, height / 2, height / 2)
        painter.setPen(QColor("white"))
        painter.setFont(font)
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, label)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        size = super().sizeHint(option, index)
        outcome = index.data(OUTCOME_ROLE)
        if outcome:
            metrics = QFontMetrics(self._font(option))
            size.setWidth(max(size.width(), metrics.horizontalAdvance(outcome_label(outcome)) + 2 * (_PAD_X + _MARGIN)))
        return size

    @staticmethod
    def column_width(font: QFont) -> int:
        """A width that fits the widest badge ("finished", "tripwire", "changed", ...)."""
        bold = QFont(font)
        bold.setBold(True)
        metrics = QFontMetrics(bold)
        widest = max(metrics.horizontalAdvance(outcome_label(word)) for word in OUTCOME_COLORS)
        return widest + 2 * (_PAD_X + _MARGIN) + 8
