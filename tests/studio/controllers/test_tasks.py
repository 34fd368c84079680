"""A controller's tasks: kept until they end, a failure told in one line and logged, never raised into Qt."""

from __future__ import annotations

import asyncio

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
