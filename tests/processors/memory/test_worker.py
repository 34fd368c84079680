"""The store's worker thread: each job's end wakes the event loop once, and its outcome reaches the caller."""

from __future__ import annotations

import asyncio
import gc
import threading
from typing import Any

import pytest

from processors.memory.worker import Worker, _GcHold


class CountingLoop(asyncio.SelectorEventLoop):
    """A real event loop that counts the wake-ups other threads ask of it."""

    def __init__(self) -> None:
        super().__init__()
        self.wakeups = 0

    def call_soon_threadsafe(self, callback: Any, *args: Any, context: Any = None) -> asyncio.Handle:
        self.wakeups += 1
        return super().call_soon_threadsafe(callback, *args, context=context)


def test_a_job_wakes_the_loop_once_and_hands_back_its_result() -> None:
    """Each wake-up is a self-pipe write and a hand-over of the GIL; a turn's save is four jobs (bench_store.py)."""
    loop = CountingLoop()
    worker = Worker("counted")

    async def jobs() -> list[str]:
        return [await worker.run(lambda: threading.current_thread().name) for _ in range(10)]

    try:
        names = loop.run_until_complete(jobs())
        assert loop.wakeups == 10
        assert all(name.startswith("counted") for name in names)
        assert gc.isenabled()
    finally:
        worker.shutdown()
        loop.close()


async def test_a_job_s_exception_reaches_the_caller_and_the_collector_comes_back() -> None:
    worker = Worker("failing")

    def fail() -> None:
        raise LookupError("no such row")

    try:
        with pytest.raises(LookupError, match="no such row"):
            await worker.run(fail)
        await asyncio.sleep(0)
        assert gc.isenabled()
    finally:
        worker.shutdown()


async def test_a_queued_job_whose_caller_stopped_waiting_is_dropped() -> None:
    worker = Worker("queued")
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def block() -> None:
        started.set()
        release.wait(5)
        ran.append("first")

    try:
        first = asyncio.ensure_future(worker.run(block))
        await asyncio.to_thread(started.wait, 5)
        second = asyncio.ensure_future(worker.run(lambda: ran.append("second")))
        await asyncio.sleep(0)
        second.cancel()
        for _ in range(3):  # the cancellation reaches the queued job in a later turn of the loop
            await asyncio.sleep(0)
        release.set()
        await first
        with pytest.raises(asyncio.CancelledError):
            await second
        await worker.run(lambda: None)  # behind both: the dropped job has had its turn
        assert ran == ["first"]
        await asyncio.sleep(0)
        assert gc.isenabled()
    finally:
        worker.shutdown()


def test_the_collection_held_off_by_a_job_runs_on_the_releasing_thread() -> None:
    """Re-enabling the collector with a collection already due let the next allocation on any thread run it — in CI
    the worker thread, still finishing its job, won that race once (a collection on ``sql-memory_0``). The release
    (on the loop's thread) pays the debt itself, before any other thread can allocate."""
    started_on: list[str] = []

    def spy(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            started_on.append(threading.current_thread().name)

    was_enabled = gc.isenabled()
    gc.enable()
    hold = _GcHold()
    hold.acquire()
    kept = [[] for _ in range(5 * gc.get_threshold()[0])]  # live containers: allocations the collector counts
    gc.callbacks.append(spy)
    try:
        hold.release()
        collections_inside_release = len(started_on)
    finally:
        gc.callbacks.remove(spy)
        if not was_enabled:
            gc.disable()
    assert len(kept) == 5 * gc.get_threshold()[0]
    assert collections_inside_release >= 1
    assert started_on[0] == threading.current_thread().name
