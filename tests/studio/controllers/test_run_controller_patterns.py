"""A user's slow regular expression in a run the studio drives: the window's loop keeps turning while the pattern
searches (on a worker thread), and the run ends with an error naming the rule instead of freezing the window."""

from __future__ import annotations

import asyncio
from typing import Any

import qasync
from PySide6.QtCore import QTimer

from processors import Agent
from processors.builtin.regex_filter import RegexFilter
from processors.models.scripted import ScriptedModel, Turn
from studio.controllers.run_controller import RunController
from studio.models.chat_items import readable_error
from tests.processors.builtin.test_user_patterns import SLOW, SLOW_TEXT


def test_the_loop_keeps_ticking_while_a_slow_pattern_runs_and_the_run_ends_naming_the_rule(
    loop: qasync.QEventLoop, qtbot: Any
) -> None:
    controller = RunController()
    finished: list[Any] = []
    controller.run_finished.connect(lambda run_id, result: finished.append(result))
    errors: list[Any] = []
    controller.chunk_received.connect(lambda run_id, chunk: chunk.type == "error" and errors.append(chunk))
    guard = RegexFilter(rules=[{"name": "slow-ab", "pattern": SLOW}], strategy="block", phase="all")
    agent = Agent(id="a", model=ScriptedModel([Turn(text=["never shown"])]), input_processors=[guard])
    ticks = 0

    def tick() -> None:
        nonlocal ticks
        ticks += 1

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)

    async def go() -> None:
        timer.start()
        controller.start(agent, SLOW_TEXT, thread_id="t1")
        await asyncio.wait_for(controller.wait_finished(), 60)
        timer.stop()

    loop.run_until_complete(go())

    # The search takes a second of CPU time on its thread; on the loop, that many 10 ms ticks could not happen.
    assert ticks >= 20, f"the loop stalled: {ticks} ticks while the pattern searched"
    (result,) = finished
    assert result.finish_reason == "error"
    assert "The pattern of rule 'slow-ab' took longer than 1 s" in (result.error or "")
    (chunk,) = errors
    assert readable_error(chunk.payload.error) == (
        "The pattern of rule 'slow-ab' took longer than 1 s on a text of 61 characters (it backtracks "
        "catastrophically); the run was stopped (processor 'regex-filter', process_input)"
    )
