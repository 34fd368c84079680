"""``ReplayWorker``: run a coroutine to its end on a worker thread's own asyncio loop, and stop it from the UI's.

    worker = ReplayWorker()
    result = await asyncio.to_thread(worker.run, replay_run(...))   # the UI's loop keeps running meanwhile
    worker.cancel()                                                 # from the UI's thread: the coroutine ends

A 10,000-chunk replay never streams through the UI's loop; and a replay paused at a breakpoint waits on the worker's
loop, so Stop must reach that loop: :meth:`cancel` cancels the coroutine there, and :meth:`run` then raises
:class:`ReplayStopped` (an ordinary exception: a ``CancelledError`` does not cross threads cleanly).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


class ReplayStopped(Exception):
    """The user stopped the replay (raised by :meth:`ReplayWorker.run` on the worker thread)."""


class ReplayWorker:
    """One worker-thread run at a time (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None
        self._stopped = False

    def run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        """Run ``coroutine`` on a loop of this (worker) thread's own; raises :class:`ReplayStopped` if stopped."""

        async def main() -> Any:
            with self._lock:
                if self._stopped:
                    coroutine.close()
                    raise ReplayStopped
                self._loop = asyncio.get_running_loop()
                self._task = asyncio.current_task()
            try:
                return await coroutine
            except asyncio.CancelledError:
                if self._stopped:
                    raise ReplayStopped from None
                raise
            finally:
                with self._lock:
                    self._loop = self._task = None

        return asyncio.run(main())

    def cancel(self) -> None:
        """Stop the running coroutine (and any later :meth:`run` of this worker) from any thread."""
        with self._lock:
            self._stopped = True
            if self._loop is not None and self._task is not None:
                self._loop.call_soon_threadsafe(self._task.cancel)


__all__ = ["ReplayStopped", "ReplayWorker"]
