"""A window's content that scrolls rather than make the window wider or taller than its screen.

A top-level window cannot be smaller than its layout's minimum: at 200 % text size the Lab window's (its top bar of
buttons in a row, the Attack tab's columns) was 1,954 px, so on a 1366×768 laptop it opened wider than the screen,
its right part out of reach. In a :class:`ScreenFitScroll` the window's minimum is its content's, up to the screen's
available size; past it the content keeps its own minimum and scrolls. Where the content fits (100 % text size on a
laptop) nothing changes: no scroll bar, the same minimum, the same layout.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QBoxLayout, QFrame, QLayout, QScrollArea, QWidget

#: What a window manager's frame and title bar take around a window, at most.
_FRAME = QSize(16, 48)


class ScreenFitScroll(QScrollArea):
    """Holds ``content`` resized to the viewport; its minimum is the content's, bounded by the screen's space."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"{content.objectName() or 'content'}_fit")
        self.setFrameShape(QFrame.Shape.NoFrame)
        # a frame around other widgets, not a control: Tab and clicks go to what it holds, never to it
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWidget(content)

    def minimumSizeHint(self) -> QSize:
        content = self.widget()
        if content is None:
            return super().minimumSizeHint()
        least = content.minimumSizeHint().expandedTo(content.minimumSize())
        screen = self.screen()
        if screen is None:
            return least
        room = screen.availableGeometry().size()
        # the window's frame and title bar, and what its layouts put around this area, take room too
        around = QSize(_FRAME)
        widget: QWidget | None = self
        while widget is not None and not widget.isWindow():
            parent = widget.parentWidget()
            layout = parent.layout() if parent is not None else None
            if layout is not None:
                around += _beside(layout, widget)
            widget = parent
        bound = room - around
        # where one side scrolls, its scroll bar takes room from the other side: ask for it while the screen has it
        if least.height() > bound.height():
            least.setWidth(least.width() + self.verticalScrollBar().sizeHint().width())
        if least.width() > bound.width():
            least.setHeight(least.height() + self.horizontalScrollBar().sizeHint().height())
        return least.boundedTo(bound)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The content's layout changed (a longer label, a page shown): its minimum may have too, and the window's
        layout asks this area's again (the content is the viewport's child, so the window would not hear of it)."""
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(watched, event)

    def sizeHint(self) -> QSize:
        content = self.widget()
        return super().sizeHint() if content is None else content.sizeHint()


class FitContent(QWidget):
    """A :class:`ScreenFitScroll`'s content that scrolls only where its minimum does not fit, wrapped labels and all.

    A word-wrapped label with text gives a layout a height for its width, and a scroll area sizes such a content at
    its *preferred* height for the width, not within its viewport: in the Lab, once a run's closing message showed,
    the content asked 817 px of a 746 px viewport (its minimum was 506) and a second vertical scroll bar appeared
    beside the cases table's. Here the height for a width is the preferred one bounded by the viewport, never under
    the minimum, as a content without wrapped labels is sized.
    """

    def heightForWidth(self, width: int) -> int:
        preferred = super().heightForWidth(width)
        viewport = self.parentWidget()
        area = viewport.parentWidget() if viewport is not None else None
        if preferred < 0 or not isinstance(area, QScrollArea):
            return preferred
        least = self.minimumSizeHint().expandedTo(self.minimumSize()).height()
        return max(least, min(preferred, area.maximumViewportSize().height()))


def open_at_content_size(window: QWidget) -> None:
    """Make a window being shown as big as its content asks, within its screen's available size.

    Qt opens a window at most two thirds of its screen's height and width (``QWidget::adjustSize``): on a 1366x768
    laptop that is 512 px, shorter than the settings dialog at 100 % text size, so its fields scrolled and the
    vertical scroll bar's width brought a horizontal one, cutting the right edge. Call it from ``showEvent``.
    """
    wanted = window.sizeHint().expandedTo(window.minimumSizeHint())
    screen = window.screen()
    if screen is not None:
        wanted = wanted.boundedTo(screen.availableGeometry().size() - _FRAME)
    if wanted.width() > window.width() or wanted.height() > window.height():
        window.resize(wanted.expandedTo(window.size()))


def _beside(layout: QLayout, widget: QWidget) -> QSize:
    """The room ``layout`` takes besides ``widget``: its margins and, in a column (a row), the other items' minimum
    heights (widths) and the spacing between them — a dialog's buttons under the area, say."""
    margins = layout.contentsMargins()
    size = QSize(margins.left() + margins.right(), margins.top() + margins.bottom())
    if not isinstance(layout, QBoxLayout):
        return size
    vertical = layout.direction() in (QBoxLayout.Direction.TopToBottom, QBoxLayout.Direction.BottomToTop)
    total = 0
    for index in range(layout.count()):
        item = layout.itemAt(index)
        other = item.widget() if item is not None else None
        if item is None or other is widget or (other is not None and other.isHidden()):
            continue
        least = item.minimumSize()
        total += (least.height() if vertical else least.width()) + max(0, layout.spacing())
    return size + (QSize(0, total) if vertical else QSize(total, 0))
