"""``Worker``: one thread that runs a store's blocking work, so the event loop (the studio's UI thread) never waits.

One thread per store serialises its database work: SQLite sees one writer at a time from this process, and a
SQLAlchemy connection is only ever used by the thread that checked it out.

While a job runs, Python's cyclic garbage collector is held off (process-wide, re-enabled from the event loop's
thread once the job is done). Otherwise the thousands of objects a query allocates make *this* thread run the
collections, and a collection finalises whatever cyclic garbage exists — including Qt objects, whose destructors
must run on the thread that owns them ("QObject::~QObject: Timers cannot be stopped from another thread", then
crashes). Deferring the collection to the loop's thread keeps finalisers there. It also keeps bulk loads fast:
collections set off by building 10,000 messages cost more than building them.
"""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class _GcHold:
    """Counts jobs in flight (across every worker); the collector is off while any runs."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holders = 0
        self._restore = False

    def acquire(self) -> None:
        with self._lock:
            if self._holders == 0:
                self._restore = gc.isenabled()
                gc.disable()
            self._holders += 1

    def release(self) -> None:
        with self._lock:
            self._holders -= 1
            if self._holders == 0 and self._restore:
                gc.enable()


_GC_HOLD = _GcHold()


class Worker:
    """A single worker thread for blocking jobs, awaited from the event loop."""

    def __init__(self, name: str) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def run(self, job: Callable[[], T]) -> T:
        """Run ``job`` on the worker thread and return its result (or raise its exception) on the loop."""
        loop = asyncio.get_running_loop()
        _GC_HOLD.acquire()
        try:
            future = self._executor.submit(job)
        except BaseException:
            _GC_HOLD.release()
            raise

        def release_on_loop(_done: Future[T]) -> None:
            try:  # on the loop's thread: a collection started by the release runs there, not here
                loop.call_soon_threadsafe(_GC_HOLD.release)
            except RuntimeError:  # the loop is closed: release here rather than never
                _GC_HOLD.release()

        # Released when the job ends, not when the caller stops waiting: a cancelled caller does not cancel a
        # transaction already running.
        future.add_done_callback(release_on_loop)
        return await asyncio.wrap_future(future, loop=loop)

    def shutdown(self) -> None:
        """Stop accepting jobs; queued ones still run, then the thread ends."""
        self._executor.shutdown(wait=False)


__all__ = ["Worker"]
