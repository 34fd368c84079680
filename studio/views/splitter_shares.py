"""``share_on_first_resize``: a splitter's panes take given shares of the space it gets when first laid out.

``QSplitter.setSizes`` before the window is shown has no space to share yet; the panes then keep their size hints
and one with a stretch factor takes all the rest. Shares applied on the splitter's first real size make the
layout the same at 1280x720 as at 1920x1080 (each pane still keeps at least its minimum size).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QSplitter

__all__ = ["apply_shares", "cancel_first_resize_shares", "share_on_first_resize"]


class _Shares(QObject):
    def __init__(self, splitter: QSplitter, shares: Sequence[int]) -> None:
        super().__init__(splitter)
        self._splitter = splitter
        self._shares = list(shares)
        splitter.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._splitter and event.type() == QEvent.Type.Resize:
            splitter = self._splitter
            horizontal = splitter.orientation() == Qt.Orientation.Horizontal
            length = splitter.width() if horizontal else splitter.height()
            if length > 100:
                splitter.removeEventFilter(self)
                apply_shares(splitter, self._shares)
                self.deleteLater()
        return False

    def cancel(self) -> None:
        self._splitter.removeEventFilter(self)
        self.deleteLater()


def share_on_first_resize(splitter: QSplitter, shares: Sequence[int]) -> None:
    """Give ``splitter``'s panes ``shares`` (weights, e.g. ``[40, 32, 28]``) of its first real size."""
    splitter.setSizes(list(shares))
    _Shares(splitter, shares)


def apply_shares(splitter: QSplitter, shares: Sequence[int]) -> None:
    """Give ``splitter``'s panes ``shares`` of its current length now (each keeps at least its minimum)."""
    horizontal = splitter.orientation() == Qt.Orientation.Horizontal
    length = splitter.width() if horizontal else splitter.height()
    total = sum(shares)
    splitter.setSizes([length * share // total for share in shares])


def cancel_first_resize_shares(splitter: QSplitter) -> None:
    """Forget the shares waiting for ``splitter``'s first resize (sizes the user left were restored instead)."""
    for pending in splitter.findChildren(_Shares):
        pending.cancel()
