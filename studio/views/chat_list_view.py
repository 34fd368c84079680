"""The chat's message list: :class:`ChatListView`, a virtualised ``QAbstractItemView`` over a chat list model.

It creates no widget per message. It paints the visible rows only, through a
:class:`~studio.views.chat_render.MessageRenderer`; rows it has not painted yet have an estimated height, so a thread
of 10,000 messages opens by measuring a screenful; the rest are measured afterwards, a few at a time while the event
loop is idle (:data:`SETTLE_BUDGET_S` a pass), the view held still meanwhile, so the scroll bar comes to match the
content without the user scrolling through it. Streamed text arrives as batched ``dataChanged`` (at most one per
50 ms frame, see :class:`~studio.models.chat_list_model.ChatListModel`), and only rows that changed and are visible
(or at the bottom) are measured again. It keeps to the bottom while content arrives unless the user scrolled up.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QRegion,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import QAbstractItemView, QToolTip, QWidget

from studio.i18n import translate
from studio.models.chat_items import ChatItem
from studio.models.chat_list_model import ITEM_ROLE, ChatListModel
from studio.views.chat_document import TOOL_HREF, TRIPWIRE_HREF
from studio.views.chat_render import MessageRenderer
from studio.views.row_layout import RowLayout

#: The most time one idle pass spends measuring rows off screen (at least one row is measured a pass).
SETTLE_BUDGET_S = 0.008


class ChatListView(QAbstractItemView):
    """A virtualised, per-pixel scrolled list of chat items: paints only visible rows, no widget per message.

    Keeps to the bottom while new content arrives, unless the user scrolled up (scrolling back to the bottom, or
    End, resumes it).
    """

    #: A tool card's header was clicked: (row, tool_call_id).
    tool_card_toggle_requested = Signal(int, str)
    #: A tripwire banner was clicked: (run_id).
    tripwire_clicked = Signal(str)
    #: The user asked for a message's context menu: (row, global position).
    context_menu_requested = Signal(int, QPoint)
    #: Printable text was typed while the list had the keyboard: the chat box takes it (a click in the conversation
    #: to read it took the keyboard there, and the message typed next went nowhere).
    text_typed = Signal(str)

    def __init__(self, parent: QWidget | None = None, renderer: MessageRenderer | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer or MessageRenderer(self.font())
        self._rows = RowLayout()
        self._laid_out_width = 0  # the width the heights were estimated or measured at
        self._reestimate = QTimer(self)
        self._reestimate.setSingleShot(True)
        self._reestimate.setInterval(120)
        self._reestimate.timeout.connect(self._on_reestimate_timeout)
        # Estimates were ~12 % off for plain paragraphs: a restored thread's scroll bar thumb had the wrong size and
        # moved as scrolling measured rows. Off-screen rows are measured in idle passes, from the bottom up.
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(0)
        self._settle.timeout.connect(self._on_settle_timeout)
        # rows still to be checked, from the first down to the second: (-1, 0) when none are
        self._settle_rows = (-1, 0)
        self._stick = True
        self._programmatic = 0
        self._laying_out = False
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setMouseTracking(True)
        self.viewport().setAutoFillBackground(True)
        palette = self.viewport().palette()
        palette.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
        self.viewport().setPalette(palette)

    # ----------------------------------------------------------------------------------------- model wiring
    def setModel(self, model: Any) -> None:
        old = self.model()
        if old is not None:
            old.rowsRemoved.disconnect(self._on_model_rows_removed)
            old.layoutChanged.disconnect(self._on_model_layout_changed)
        super().setModel(model)
        if model is not None:
            model.rowsRemoved.connect(self._on_model_rows_removed)
            model.layoutChanged.connect(self._on_model_layout_changed)
        self._rebuild()

    def _item(self, row: int) -> ChatItem:
        model = self.model()
        if isinstance(model, ChatListModel):
            return model.item(row)
        item: ChatItem = model.index(row, 0).data(ITEM_ROLE)
        return item

    def rowsInserted(self, parent: QModelIndex | QPersistentModelIndex, start: int, end: int) -> None:
        super().rowsInserted(parent, start, end)
        if parent.isValid():
            return
        width = self._width()
        self._rows.insert(start, [self.renderer.estimate(self._item(row), width) for row in range(start, end + 1)])
        high, low = self._settle_rows
        count = end - start + 1
        if high >= 0:  # the rows still to check moved down with the insertion
            self._settle_rows = (high + count if high >= start else high, low + count if low >= start else low)
        self._relayout()
        self._settle_later(start, end)

    def dataChanged(
        self,
        top_left: QModelIndex | QPersistentModelIndex,
        bottom_right: QModelIndex | QPersistentModelIndex,
        roles: Any = (),
    ) -> None:
        first, last = top_left.row(), bottom_right.row()
        if first < 0 or last >= len(self._rows):
            return
        self._rows.forget_measures(first, last)  # re-measured when laid out, if visible
        self._relayout(changed=(first, last))
        self._settle_later(first, last)  # a streamed reply on screen is measured already: nothing to do

    def reset(self) -> None:
        super().reset()
        self._rebuild()

    @Slot(QModelIndex, int, int)
    def _on_model_rows_removed(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        self._rebuild()

    @Slot()
    def _on_model_layout_changed(self) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        model = self.model()
        count = model.rowCount() if model is not None else 0
        width = self._laid_out_width = self._width()
        self._rows.reset([self.renderer.estimate(self._item(row), width) for row in range(count)])
        self._stick = True
        self._relayout()
        self._settle_later()

    # ----------------------------------------------------------------------------------------- layout
    def _width(self) -> int:
        return max(120, self.viewport().width())

    def _measure(self, first: int, last: int, width: int) -> bool:
        changed = False
        for row in range(first, last + 1):
            if not self._rows.is_measured(row, width):
                height = self.renderer.height(self._item(row), width)
                changed = self._rows.set_height(row, height, measured_at=width) or changed
        return changed

    def _relayout(self, changed: tuple[int, int] | None = None) -> None:
        """Measure what is visible (and what changed), fix offsets, scroll ranges and the stick-to-bottom."""
        if self._laying_out:
            return
        self._laying_out = True
        try:
            self._rows.fix_tops()
            bar = self.verticalScrollBar()
            count = len(self._rows)
            anchor_row = self._rows.row_at(bar.value()) if count else 0
            anchor_delta = bar.value() - self._rows.tops[anchor_row] if count else 0
            width = self._width()
            if changed is not None and count:
                first, last = changed
                if last >= count - 3 or self._overlaps(first, last):
                    self._measure(first, min(last, count - 1), width)
                    self._rows.fix_tops()
            for _ in range(6):  # measuring can move what is visible; a few passes settle it
                if not count:
                    break
                top = (
                    max(0, self._rows.total() - self.viewport().height())
                    if self._stick
                    else (self._rows.tops[anchor_row] + anchor_delta)
                )
                first = self._rows.row_at(top)
                last = self._rows.row_at(top + self.viewport().height())
                if not self._measure(first, last, width):
                    break
                self._rows.fix_tops()
            target = None if self._stick or not count else self._rows.tops[anchor_row] + anchor_delta
            self._apply_scroll(target)
        finally:
            self._laying_out = False
        self.viewport().update()

    def _overlaps(self, first: int, last: int) -> bool:
        top = self.verticalScrollBar().value()
        return self._rows.overlaps(first, last, top, top + self.viewport().height())

    def _apply_scroll(self, target: int | None) -> None:
        bar = self.verticalScrollBar()
        view = self.viewport().height()
        maximum = max(0, self._rows.total() - view)
        self._programmatic += 1
        try:
            bar.setRange(0, maximum)
            bar.setPageStep(max(1, view))
            bar.setSingleStep(max(8, int(self.renderer._line * 2)))
            if self._stick:
                value = maximum
            elif target is not None:
                value = min(maximum, max(0, target))
            else:
                value = min(bar.value(), maximum)
            bar.setValue(value)
        finally:
            self._programmatic -= 1

    def updateGeometries(self) -> None:
        if not self._laying_out:
            self._apply_scroll(None)
        super().updateGeometries()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        if not self._programmatic:
            bar = self.verticalScrollBar()
            self._stick = bar.value() >= bar.maximum() - 2
            self._relayout()
        self.viewport().update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        width = self._width()
        if width != self._laid_out_width and self._rows:
            # Text reflows: every height is an estimate again until its row is measured (visible rows at once,
            # just below); the others are estimated afresh for the new width once resizing pauses.
            self._rows.forget_measures()
            self._reestimate.start()
        self._laid_out_width = width
        self._relayout()

    @Slot()
    def _on_reestimate_timeout(self) -> None:
        width = self._width()
        rows = self._rows
        for row in range(len(rows)):
            if not rows.is_measured(row, width):
                rows.set_height(row, self.renderer.estimate(self._item(row), width))
        rows.valid = 0
        self._relayout()
        self._settle_later()

    def _settle_later(self, first: int = 0, last: int | None = None) -> None:
        """Measure the rows still estimated among ``first..last`` (all by default), from the bottom up, in passes
        while the event loop is idle."""
        last = len(self._rows) - 1 if last is None else last
        if last < first:
            return
        high, low = self._settle_rows
        self._settle_rows = (last, first) if high < 0 else (max(high, last), min(low, first))
        if not self._settle.isActive():
            self._settle.start()

    @Slot()
    def _on_settle_timeout(self) -> None:
        rows = self._rows
        high, low = self._settle_rows
        if not self.isVisible() or self._reestimate.isActive() or high < 0:
            return  # shown again, or the resizing over, starts it again
        width = self._width()
        bar = self.verticalScrollBar()
        rows.fix_tops()
        anchor = rows.row_at(bar.value())
        offset = bar.value() - rows.tops[anchor]
        row = min(high, len(rows) - 1)
        deadline = time.perf_counter() + SETTLE_BUDGET_S
        changed = measured = False
        while row >= low:
            if not rows.is_measured(row, width):
                if measured and time.perf_counter() > deadline:
                    break
                height = self.renderer.measure(self._item(row), width)
                changed = rows.set_height(row, height, measured_at=width) or changed
                measured = True
            row -= 1
        self._settle_rows = (row, low) if row >= low else (-1, 0)
        if changed:
            rows.fix_tops()
            if not self._stick:  # what the user looks at stays where it is while rows above it change height
                self._apply_scroll(rows.tops[anchor] + offset)
            self._relayout()
        if row >= low:
            self._settle.start()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._settle_later()

    @property
    def sticks_to_bottom(self) -> bool:
        return self._stick

    @property
    def settling(self) -> bool:
        """Whether rows off screen are still estimated, waiting for an idle pass to measure them."""
        return self._settle_rows[0] >= 0

    def scroll_to_bottom(self) -> None:
        """Show the last message and keep to the bottom as new content arrives."""
        self._stick = True
        self._relayout()

    # ----------------------------------------------------------------------------------------- painting
    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._rows:
            return
        painter = QPainter(self.viewport())
        scroll = self.verticalScrollBar().value()
        width = self._width()
        area = event.rect()
        row = self._rows.row_at(scroll + area.top())
        count = len(self._rows)
        while row < count and self._rows.tops[row] - scroll <= area.bottom():
            rect = QRect(0, self._rows.tops[row] - scroll, width, self._rows.heights[row])
            self.renderer.paint(painter, self._item(row), rect, area)
            row += 1
        painter.end()

    # ----------------------------------------------------------------------------------------- QAbstractItemView
    def visualRect(self, index: QModelIndex | QPersistentModelIndex) -> QRect:
        if not index.isValid() or index.row() >= len(self._rows):
            return QRect()
        row = index.row()
        return QRect(0, self._rows.tops[row] - self.verticalScrollBar().value(), self._width(), self._rows.heights[row])

    def indexAt(self, point: QPoint) -> QModelIndex:
        if not self._rows or self.model() is None:
            return QModelIndex()
        y = point.y() + self.verticalScrollBar().value()
        if y < 0 or y >= self._rows.total():
            return QModelIndex()
        return self.model().index(self._rows.row_at(y), 0)

    def scrollTo(
        self,
        index: QModelIndex | QPersistentModelIndex,
        hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.EnsureVisible,
    ) -> None:
        if not index.isValid() or index.row() >= len(self._rows):
            return
        row = index.row()
        bar = self.verticalScrollBar()
        top, height, view = self._rows.tops[row], self._rows.heights[row], self.viewport().height()
        if hint == QAbstractItemView.ScrollHint.PositionAtBottom:
            target = top + height - view
        elif hint == QAbstractItemView.ScrollHint.PositionAtCenter:
            target = top + (height - view) // 2
        elif hint == QAbstractItemView.ScrollHint.EnsureVisible and bar.value() <= top <= bar.value() + view - height:
            return
        else:
            target = top
        self._stick = False
        self._apply_scroll(max(0, target))
        self._stick = bar.value() >= bar.maximum() - 2
        self._relayout()

    def moveCursor(self, action: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier) -> QModelIndex:
        model = self.model()
        if model is None or not self._rows:
            return QModelIndex()
        current = self.currentIndex().row() if self.currentIndex().isValid() else len(self._rows) - 1
        step = {
            QAbstractItemView.CursorAction.MoveUp: -1,
            QAbstractItemView.CursorAction.MovePrevious: -1,
            QAbstractItemView.CursorAction.MoveDown: 1,
            QAbstractItemView.CursorAction.MoveNext: 1,
        }.get(action)
        if action == QAbstractItemView.CursorAction.MoveHome:
            return model.index(0, 0)
        if action == QAbstractItemView.CursorAction.MoveEnd:
            return model.index(len(self._rows) - 1, 0)
        if step is None:
            return self.currentIndex()
        return model.index(max(0, min(len(self._rows) - 1, current + step)), 0)

    def horizontalOffset(self) -> int:
        return 0

    def verticalOffset(self) -> int:
        return self.verticalScrollBar().value()

    def isIndexHidden(self, index: QModelIndex | QPersistentModelIndex) -> bool:
        return False

    def setSelection(self, rect: QRect, flags: QItemSelectionModel.SelectionFlag) -> None:
        model = self.model()
        if model is None or not self._rows or self.selectionModel() is None:
            return
        scroll = self.verticalScrollBar().value()
        first = self._rows.row_at(rect.top() + scroll)
        last = self._rows.row_at(rect.bottom() + scroll)
        selection = QItemSelection(model.index(first, 0), model.index(last, 0))
        self.selectionModel().select(selection, flags)

    def visualRegionForSelection(self, selection: QItemSelection) -> QRegion:
        region = QRegion()
        for index in selection.indexes():
            region = region.united(QRegion(self.visualRect(index)))
        return region

    # ----------------------------------------------------------------------------------------- input
    def keyPressEvent(self, event: QKeyEvent) -> None:
        bar = self.verticalScrollBar()
        key = event.key()
        if key == Qt.Key.Key_End:
            self.scroll_to_bottom()
        elif key == Qt.Key.Key_Home:
            bar.setValue(0)
        elif key == Qt.Key.Key_PageDown:
            bar.triggerAction(bar.SliderAction.SliderPageStepAdd)
        elif key == Qt.Key.Key_PageUp:
            bar.triggerAction(bar.SliderAction.SliderPageStepSub)
        elif key == Qt.Key.Key_Down:
            bar.triggerAction(bar.SliderAction.SliderSingleStepAdd)
        elif key == Qt.Key.Key_Up:
            bar.triggerAction(bar.SliderAction.SliderSingleStepSub)
        elif _typed_text(event):
            self.text_typed.emit(event.text())
        else:
            super().keyPressEvent(event)

    def _hit(self, point: QPoint) -> tuple[int, str | None]:
        index = self.indexAt(point)
        if not index.isValid():
            return -1, None
        row = index.row()
        return row, self.renderer.hit(self._item(row), self.visualRect(index), point)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        _row, href = self._hit(event.position().toPoint())
        cursor = Qt.CursorShape.PointingHandCursor if href else Qt.CursorShape.ArrowCursor
        if self.viewport().cursor().shape() != cursor:
            self.viewport().setCursor(cursor)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        row, href = self._hit(event.position().toPoint())
        if href is None:
            return
        if href.startswith(TOOL_HREF):
            self.tool_card_toggle_requested.emit(row, href[len(TOOL_HREF) :])
        elif href.startswith(TRIPWIRE_HREF):
            self.tripwire_clicked.emit(href[len(TRIPWIRE_HREF) :])

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        index = self.indexAt(event.pos())
        if index.isValid():
            self.context_menu_requested.emit(index.row(), event.globalPos())
            event.accept()
        else:
            super().contextMenuEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            _row, href = self._hit(event.pos())  # type: ignore[attr-defined]
            where = event.globalPos()  # type: ignore[attr-defined]
            if href and href.startswith(TRIPWIRE_HREF):
                QToolTip.showText(where, translate("ChatListView", "Show this tripwire in the inspector"), self)
            elif href:
                QToolTip.showText(where, translate("ChatListView", "Show or hide the call's details"), self)
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(480, 400)


__all__ = ["ChatListView"]


def _typed_text(event: QKeyEvent) -> bool:
    """Whether ``event`` types text (letters, digits, punctuation, a space), not a shortcut (Ctrl, Alt, Meta)."""
    text = event.text()
    commands = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier
    return bool(text) and text.isprintable() and not event.modifiers() & commands
