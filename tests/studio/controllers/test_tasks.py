"""A controller's tasks: kept until they end, a failure told in one line and logged, never raised into Qt."""

from __future__ import annotations

import asyncio
import gc
import warnings

import pytest

from studio.controllers.tasks import TaskKeeper


async def test_a_failure_is_told_in_one_line_and_logged_and_the_others_still_finish(
    caplog: pytest.LogCaptureFixture,
) -> None:
    told: list[str] = []
    keeper = TaskKeeper("workspace", told.append)
    finished: list[str] = []

    async def fails() -> None:
        raise KeyError("thread t1")

    async def works() -> str:
        await asyncio.sleep(0)
        finished.append("works")
        return "done"

    failing, working = keeper.spawn(fails()), keeper.spawn(works())
    assert keeper.tasks == {failing, working}
    await keeper.wait_idle()

    assert told == ["KeyError: 'thread t1'"]
    assert finished == ["works"] and working.result() == "done" and failing.result() is None
    assert keeper.tasks == set()
    assert [r.getMessage() for r in caplog.records if r.exc_info] == ["workspace task failed"]


async def test_a_cancelled_task_stays_cancelled_and_is_not_told() -> None:
    told: list[str] = []
    keeper = TaskKeeper("lab", told.append)
    task = keeper.spawn(asyncio.sleep(60))
    await asyncio.sleep(0)
    task.cancel()
    await keeper.wait_idle()
    assert task.cancelled() and told == []


def test_a_task_cancelled_before_it_started_leaves_no_coroutine_unawaited() -> None:
    """A loop closed with a task that never ran (a test's teardown, the studio's shutdown right after an edit)
    cancels it before its first step: the coroutine it was given must be closed, not left to warn when collected."""
    ran: list[str] = []

    async def save() -> None:
        ran.append("save")

    loop = asyncio.new_event_loop()
    try:
        keeper = TaskKeeper("workspace", lambda _line: None)
        asyncio.set_event_loop(loop)
        task = keeper.spawn(save())
        task.cancel()
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
            del task
            gc.collect()
    finally:
        asyncio.set_event_loop(None)
        loop.close()
    assert ran == []
    assert [str(w.message) for w in seen] == []


def test_a_loop_already_closed_refuses_the_task_and_leaves_no_coroutine_unawaited() -> None:
    loop = asyncio.new_event_loop()
    loop.close()
    asyncio.set_event_loop(loop)

    async def save() -> None:
        raise AssertionError("never runs")

    try:
        keeper = TaskKeeper("workspace", lambda _line: None)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            with pytest.raises(RuntimeError, match="closed"):
                keeper.spawn(save())
            gc.collect()
    finally:
        asyncio.set_event_loop(None)
    assert [str(w.message) for w in seen] == []
    assert keeper.tasks == set()
