"""ReplayWorker: a coroutine runs to its end on a worker thread's own loop; cancel() from another thread ends it
where it waits (a replay paused at a breakpoint) with ReplayStopped, and a worker cancelled first runs nothing."""

from __future__ import annotations

import asyncio
import threading

import pytest

from studio.controllers.replay_worker import ReplayStopped, ReplayWorker


def test_a_coroutine_runs_to_its_end_on_the_workers_loop() -> None:
    async def answer() -> tuple[int, bool]:
        await asyncio.sleep(0)
        return 42, threading.current_thread() is threading.main_thread()

    assert ReplayWorker().run(answer()) == (42, True)  # run() itself runs on the calling thread


def test_cancel_from_another_thread_ends_a_coroutine_waiting_forever() -> None:
    worker = ReplayWorker()
    waiting = threading.Event()
    outcome: list[BaseException | str] = []

    async def paused() -> str:
        waiting.set()
        await asyncio.Event().wait()  # as a replay waits for the user's answer at a breakpoint
        return "answered"

    def work() -> None:
        try:
            outcome.append(worker.run(paused()))
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    assert waiting.wait(30)
    worker.cancel()
    thread.join(30)
    assert not thread.is_alive() and len(outcome) == 1 and isinstance(outcome[0], ReplayStopped)


def test_a_worker_cancelled_before_it_runs_runs_nothing() -> None:
    ran: list[bool] = []

    async def work() -> None:
        ran.append(True)

    worker = ReplayWorker()
    worker.cancel()
    with pytest.raises(ReplayStopped):
        worker.run(work())
    assert ran == []
