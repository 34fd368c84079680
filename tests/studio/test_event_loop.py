"""The studio's event loop: a task started in the last moment of ``run_until_complete`` still runs inside the loop.

qasync's own loop handles the events left after it stopped with no running loop, so such a task's first
``asyncio.get_running_loop()`` raised and its work was lost (the thread menu's "export again" failed that way, now
and then, depending on timing).
"""

from __future__ import annotations

import asyncio

import qasync
from PySide6.QtWidgets import QApplication

from studio.event_loop import StudioEventLoop
from tests.studio.conftest import close_qloop


def started_as_the_work_ends(loop: qasync.QEventLoop) -> list[str]:
    """Run a coroutine whose end starts another task (as a finished replay starts the export); what it saw."""
    seen: list[str] = []

    async def started_late() -> None:
        try:
            asyncio.get_running_loop()
            seen.append("inside the loop")
        except RuntimeError as error:
            seen.append(str(error))

    work = asyncio.ensure_future(asyncio.sleep(0), loop=loop)
    work.add_done_callback(lambda _done: seen.append("started") or loop.create_task(started_late()))
    loop.run_until_complete(work)
    loop.run_until_complete(asyncio.sleep(0))
    return seen


def test_a_task_started_as_the_work_ends_runs_inside_the_loop(qapp: QApplication) -> None:
    loop = StudioEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        assert started_as_the_work_ends(loop) == ["started", "inside the loop"]
        assert loop.run_until_complete(asyncio.sleep(0, result=42)) == 42
    finally:
        close_qloop(loop)


def test_qasyncs_own_loop_runs_it_outside_the_loop(qapp: QApplication) -> None:
    """Why the studio has its own loop: if qasync fixes this, the subclass can go."""
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        assert started_as_the_work_ends(loop) == ["started", "no running event loop"]
    finally:
        close_qloop(loop)
