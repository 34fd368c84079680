"""Widgets whose minimum width stops growing with the text size.

A widget's minimum width is what the window's splitter keeps for its pane, and the panes' minimums add up to the
window's: at 200 % text size the inspector's tab bar (every tab's name whole, 571 px) and the raw log's type filter
(22 characters, 382 px) made the main window 1,441 px at least, wider than a 1366×768 laptop's screen. These keep
the minimum they have at 100 % text size (what the layout at 100 % was built on) and, above it, scroll the tabs or
the typed text instead of widening the pane.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionTabWidgetFrame, QTabWidget, QWidget


class CappedTabWidget(QTabWidget):
    """Tabs whose names show whole (no eliding), whose bar counts in the minimum width up to
    :attr:`MAX_MINIMUM_WIDTH`; in a pane narrower than the whole bar, scroll buttons reach the other tabs."""

    #: The widest the tab bar's share of the minimum gets, in pixels: a little over the inspector's whole bar at
    #: 100 % text size in English (347 px), so at 100 % the pane's minimum is the whole bar, as before.
    MAX_MINIMUM_WIDTH = 360

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setUsesScrollButtons(True)
        self.setElideMode(Qt.TextElideMode.ElideNone)
        self.tabBar().setExpanding(False)

    def minimumSizeHint(self) -> QSize:
        """The pages' minimum and the whole tab bar's width (capped), with the frame around them."""
        hint = super().minimumSizeHint()  # with scroll buttons: the pages' minimum, the bar's as one tab
        bar = min(self.tabBar().sizeHint().width(), self.MAX_MINIMUM_WIDTH)
        option = QStyleOptionTabWidgetFrame()
        self.initStyleOption(option)
        frame = self.style().sizeFromContents(QStyle.ContentsType.CT_TabWidget, option, QSize(0, 0), self)
        return QSize(max(hint.width(), bar + frame.width()), hint.height())


class CappedComboBox(QComboBox):
    """A combo box whose minimum width is its minimum contents length's, up to :attr:`MAX_MINIMUM_WIDTH`; an
    editable one scrolls its text when narrower."""

    #: The widest its minimum gets, in pixels: the raw log's type filter (22 characters) at 100 % text size is
    #: 206 px in English.
    MAX_MINIMUM_WIDTH = 210

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.MAX_MINIMUM_WIDTH), hint.height())
