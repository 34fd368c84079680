"""``TaskKeeper``: coroutines a controller starts on the qasync loop, kept referenced until they end.

asyncio holds only weak references to tasks, so a controller keeps its own; a failure is logged with its traceback
and told as one readable line (``on_failure``: a status-bar or error signal), never raised into Qt's event loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

logger = logging.getLogger(__name__)


class TaskKeeper:
    """The controller's pending tasks (see the module docstring)."""

    def __init__(self, what: str, on_failure: Callable[[str], None]) -> None:
        self._what = what
        self._on_failure = on_failure
        self.tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        guarded = self.guarded(coroutine)
        try:
            task = asyncio.get_event_loop().create_task(guarded)
        except BaseException:  # a closed loop: neither coroutine will run, and neither may warn when collected
            guarded.close()
            coroutine.close()
            raise
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        # A task cancelled before its first step (a loop closed right after an edit) never awaits ``coroutine``;
        # closing it then says so instead of a "never awaited" warning at some later collection.
        task.add_done_callback(lambda _task: coroutine.close())
        return task

    async def wait_idle(self) -> None:
        """Wait until every task (and any it started meanwhile) has ended."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def guarded(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        """``coroutine``, its failure logged and told instead of raised (for a task the caller keeps itself)."""
        try:
            return await coroutine
        except asyncio.CancelledError:
            raise
        except Exception as error:
            logger.exception("%s task failed", self._what)
            self._on_failure(f"{type(error).__name__}: {error}")
            return None


def event_loop_set() -> bool:
    """Whether a loop is there to run a task: a Qt timer (an autosave, a debounced preview) may fire after the
    studio's shutdown closed its loop, and a coroutine made then could only be dropped unawaited."""
    try:
        asyncio.get_event_loop()
    except RuntimeError:
        return False
    return True


__all__ = ["TaskKeeper", "event_loop_set"]
