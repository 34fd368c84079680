"""Turn Qt's quit event into a request that the studio's coroutine handles, so every quit shuts down cleanly."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject


class QuitEventFilter(QObject):
    """An application event filter that swallows ``QEvent.Quit`` and calls ``request_quit`` instead.

    ``QApplication.quit()`` and the OS (the macOS Dock's Quit, an application termination request) send
    ``QEvent.Quit``, which makes Qt leave its event loop at once, under the coroutine qasync is running: the
    process would end with "Event loop stopped before Future completed", a reply half-saved and the store open.
    With this filter installed the studio shuts its workspace down first and then ends the loop itself.
    """

    def __init__(self, request_quit: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._request_quit = request_quit

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # a Qt override
        if event.type() == QEvent.Type.Quit:
            self._request_quit()
            return True
        return super().eventFilter(watched, event)
