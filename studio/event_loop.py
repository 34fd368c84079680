"""``StudioEventLoop``: qasync's loop, with every callback run while the loop counts as running.

qasync's ``run_until_complete`` ends with one more pass over Qt's events *after* it has marked the loop stopped, so
a task step queued in the last moment (a task started by one that just ended, e.g. the regression-test export a
finished replay asks for) runs with no running loop: its first ``asyncio.get_running_loop()`` raises and the work
is lost. The studio, and its tests, use this loop instead, whose last pass runs with the loop marked running.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import qasync
from PySide6.QtCore import QCoreApplication

T = TypeVar("T")


class StudioEventLoop(qasync.QEventLoop):  # type: ignore[misc]
    """A qasync loop whose ``run_until_complete`` never steps a task outside the running loop."""

    def run_until_complete(self, future: Awaitable[T]) -> T:
        task: asyncio.Future[Any] = asyncio.ensure_future(future, loop=self)

        def stop(_done: asyncio.Future[Any]) -> None:
            self.stop()

        task.add_done_callback(stop)
        try:
            self.run_forever()
        finally:
            task.remove_done_callback(stop)
        self._last_pass()
        if not task.done():
            raise RuntimeError("Event loop stopped before Future completed.")
        result: T = task.result()
        return result

    def _last_pass(self) -> None:
        """Qt's events still queued (a step, a queued signal), handled as qasync does, but inside the loop."""
        asyncio.events._set_running_loop(self)
        try:
            QCoreApplication.processEvents()
        finally:
            asyncio.events._set_running_loop(None)


__all__ = ["StudioEventLoop"]
