"""The case table's cell painter: one model call per cell, each text laid out once.

Whenever the number of rows a :class:`QTableView` shows changes, Qt lays out and repaints its whole viewport. With
:class:`QStyledItemDelegate` each cell asked the Python model (through the filter proxy) for ~7 roles and laid its
text out again: ~25 ms of CPU for the 23 rows × 8 columns of a 1400x860 Lab window, most of each batch's stall.
Here a plain cell asks for :data:`studio.models.lab_cases_model.CellRole` once and draws a :class:`QStaticText`
made the first time that text was shown at that width (elided at the right, as Qt's delegate does): ~2-3x less
(~7-13 ms of CPU for the same table under load; see tests/bench/README.md).
A selected, hovered or focused cell is drawn by the style as before: there are few, and they keep the platform's
look.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QStaticText, QTransform
from PySide6.QtWidgets import QAbstractItemView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.models.lab_cases_model import CellRole

#: Pixels between a cell's edge and its text (what the common styles leave: the focus frame's margin + 1).
MARGIN = 4
#: Laid-out texts kept at most; past it the cache starts again (a very long run, or columns resized often).
CACHE_LIMIT = 20_000
#: States the style draws (a background, a frame): such cells go through :class:`QStyledItemDelegate`. As a
#: plain int: ``&`` on Python enum flags builds a new flag each time (~4 µs a cell, seen in a profile).
STYLED = (QStyle.StateFlag.State_Selected | QStyle.StateFlag.State_MouseOver | QStyle.StateFlag.State_HasFocus).value
RIGHT = int(Qt.AlignmentFlag.AlignRight)
#: What makes the laid-out texts and the text colours stale.
CHANGES = (QEvent.Type.FontChange, QEvent.Type.PaletteChange, QEvent.Type.StyleChange)

#: A text laid out for one width: the static text, its width and its height in pixels.
Laid = tuple[QStaticText, int, int]


class CaseCellDelegate(QStyledItemDelegate):
    """Paints ``view``'s plain cells from one :data:`CellRole` answer each; the others as Qt does."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        #: (text, width) -> the text laid out: the view's font is the same for every cell (cleared when it changes).
        self._laid: dict[tuple[str, int], Laid] = {}
        #: The palette's text colour per cell state (enabled, active window…).
        self._colours: dict[int, QColor] = {}
        view.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in CHANGES:
            self._laid.clear()
            self._colours.clear()
        return False

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        state = option.state.value
        cell = None if state & STYLED else index.data(CellRole)
        if cell is None:
            super().paint(painter, option, index)
            return
        text, colour, alignment = cell
        rect = option.rect
        width = rect.width() - 2 * MARGIN
        if width <= 0 or not text:
            return
        laid = self._laid.get((text, width))
        if laid is None:
            laid = self._lay_out(text, width, option.font)
        static, text_width, height = laid
        if colour is None:
            colour = self._colours.get(state)
            if colour is None:
                colour = self._colours[state] = option.palette.color(QPalette.ColorRole.Text)
        painter.setPen(colour)
        x = rect.right() - MARGIN - text_width + 1 if alignment & RIGHT else rect.x() + MARGIN
        painter.drawStaticText(x, rect.y() + (rect.height() - height) // 2, static)

    def _lay_out(self, text: str, width: int, font: QFont) -> Laid:
        shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, width)
        static = QStaticText(shown)
        static.setTextFormat(Qt.TextFormat.PlainText)
        static.prepare(QTransform(), font)  # its size counts the fallback fonts (Chinese), as the line drawn does
        size = static.size()
        laid = (static, math.ceil(size.width()), math.ceil(size.height()))
        if len(self._laid) >= CACHE_LIMIT:
            self._laid.clear()
        self._laid[(text, width)] = laid
        return laid


__all__ = ["CaseCellDelegate"]
