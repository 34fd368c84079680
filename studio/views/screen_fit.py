"""A window's content that scrolls rather than make the window wider or taller than its screen.

A top-level window cannot be smaller than its layout's minimum: at 200 % text size the Lab window's (its top bar of
buttons in a row, the Attack tab's columns) was 1,954 px, so on a 1366×768 laptop it opened wider than the screen,
its right part out of reach. In a :class:`ScreenFitScroll` the window's minimum is its content's, up to the screen's
available size; past it the content keeps its own minimum and scrolls. Where the content fits (100 % text size on a
laptop) nothing changes: no scroll bar, the same minimum, the same layout.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


class ScreenFitScroll(QScrollArea):
    """Holds ``content`` resized to the viewport; its minimum is the content's, bounded by the screen's space."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"{content.objectName() or 'content'}_fit")
        self.setFrameShape(QFrame.Shape.NoFrame)
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
        # what the window puts around this area (its layouts' margins) and its frame and title bar take room too
        around = QSize(16, 48)
        widget: QWidget | None = self.parentWidget()
        while widget is not None:
            layout = widget.layout()
            if layout is not None:
                margins = layout.contentsMargins()
                around += QSize(margins.left() + margins.right(), margins.top() + margins.bottom())
            widget = None if widget.isWindow() else widget.parentWidget()
        return least.boundedTo(room - around)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The content's layout changed (a longer label, a page shown): its minimum may have too, and the window's
        layout asks this area's again (the content is the viewport's child, so the window would not hear of it)."""
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(watched, event)

    def sizeHint(self) -> QSize:
        content = self.widget()
        return super().sizeHint() if content is None else content.sizeHint()
