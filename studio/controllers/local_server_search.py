""" "Find local servers" for the settings dialog: the search runs off the dialog, and a failure is a line, not a
traceback.

    search = LocalServerSearch(find_local_servers)
    search.finished.connect(dialog.show_servers)    # a LocalServerScan
    search.start()                                  # False while one runs
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal

from processors.models.local_servers import LocalServerScan, find_local_servers
from studio.i18n import translate

#: ``await finder()`` → what answered on this computer (``find_local_servers``' shape).
LocalServerFinder = Callable[[], Coroutine[Any, Any, LocalServerScan]]


class LocalServerSearch(QObject):
    """One search at a time; :attr:`finished` brings its :class:`LocalServerScan`."""

    #: A search ended: its :class:`LocalServerScan` (a failed search is a scan whose only line says why).
    finished = Signal(object)

    def __init__(self, finder: LocalServerFinder = find_local_servers, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._finder = finder
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> bool:
        """Look for local model servers; False while a search runs."""
        if self.running:
            return False
        self._task = asyncio.get_event_loop().create_task(self._search())
        return True

    async def _search(self) -> None:
        try:
            scan = await self._finder()
        except Exception as error:  # a probe bug must not become a traceback dialog
            scan = LocalServerScan(
                (),
                (
                    translate("SettingsDialog", "The search failed — {kind}: {error}").format(
                        kind=type(error).__name__, error=error
                    ),
                ),
            )
        if shiboken6.isValid(self):  # the dialog (its parent) may have closed meanwhile
            self.finished.emit(scan)


__all__ = ["LocalServerFinder", "LocalServerSearch"]
