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
        # Re-entrant: the collection run by a release may finalise objects whose finalisers start or end a job.
        self._lock = threading.RLock()
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
                _pay_collection_debt()
                gc.enable()


def _pay_collection_debt() -> None:
    """Run, here and now, the collection that the held-off allocations have made due.

    Re-enabling alone leaves it due: the next allocation on *any* thread would run it, and the worker thread is
    still finishing its job's bookkeeping while the loop releases (a race CI lost once: a collection started on
    ``sql-memory_0``). Collecting before re-enabling keeps it on the releasing thread. Young generations only, as
    the automatic trigger mostly would: a full collection stays the interpreter's (or the studio's timer's) call.
    """
    young, middle, _old = gc.get_count()
    young_threshold, middle_threshold, _ = gc.get_threshold()
    if young_threshold and young > young_threshold:
        gc.collect(1 if middle >= middle_threshold else 0)


_GC_HOLD = _GcHold()


def _settle(done: Future[T], waiter: asyncio.Future[T]) -> None:
    """On the loop's thread, once the job ended: release the collector and hand the job's outcome to its caller
    (unless the caller stopped waiting)."""
    _GC_HOLD.release()
    if waiter.done():
        return
    if done.cancelled():
        waiter.cancel()
        return
    error = done.exception()
    if error is None:
        waiter.set_result(done.result())
    else:
        waiter.set_exception(error)


class Worker:
    """A single worker thread for blocking jobs, awaited from the event loop."""

    def __init__(self, name: str) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def run(self, job: Callable[[], T]) -> T:
        """Run ``job`` on the worker thread and return its result (or raise its exception) on the loop.

        The job's end wakes the loop once: one callback there both hands over the result and releases the
        collector (a turn's save is four jobs; a second wake-up each cost a self-pipe write and a hand-over of the
        GIL, tests/bench/bench_store.py)."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[T] = loop.create_future()
        _GC_HOLD.acquire()
        try:
            future = self._executor.submit(job)
        except BaseException:
            _GC_HOLD.release()
            raise

        def settle_on_loop(done: Future[T]) -> None:
            try:  # on the loop's thread: a collection started by the release runs there, not here
                loop.call_soon_threadsafe(_settle, done, waiter)
            except RuntimeError:  # the loop is closed: release here rather than never
                _GC_HOLD.release()

        # Released when the job ends, not when the caller stops waiting: a cancelled caller does not cancel a
        # transaction already running (a job still queued is dropped, and released as it is).
        future.add_done_callback(settle_on_loop)
        waiter.add_done_callback(lambda waited: future.cancel() if waited.cancelled() else None)
        return await waiter

    def shutdown(self) -> None:
        """Stop accepting jobs; queued ones still run, then the thread ends."""
        self._executor.shutdown(wait=False)


__all__ = ["Worker"]
