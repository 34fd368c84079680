"""The pacer that shares the studio's loop between a lab run's cases and the window: within its budget it does
not wait; past it, Qt's timers already due fire before the next case starts."""

from __future__ import annotations

import asyncio

import qasync
from PySide6.QtCore import QTimer

from studio.controllers.lab_pacer import LoopPacer
from tests.studio.conftest import run


def test_within_the_budget_cases_go_on_and_past_it_the_window_s_due_timers_fire_first(
    qloop: qasync.QEventLoop,
) -> None:
    fired: list[str] = []
    window = QTimer()  # stands for the window's repaint, heartbeat, the results' flush
    window.setSingleShot(True)
    window.setInterval(0)
    window.timeout.connect(lambda: fired.append("window"))

    async def scenario() -> None:
        patient = LoopPacer(budget=3600.0)
        window.start()
        await patient()
        fired.append("case within the budget")
        spent = LoopPacer(budget=0.0)
        window.start()
        await spent()
        fired.append("case past the budget")
        assert spent.turns == 1 and patient.turns == 0
        # Several workers waiting share one turn, and one of them cancelled does not cancel the others.
        waiting = [asyncio.ensure_future(spent()) for _ in range(3)]
        await asyncio.sleep(0)
        waiting[0].cancel()
        await asyncio.gather(*waiting[1:])
        assert spent.turns == 2 and waiting[0].cancelled()

    run(qloop, scenario())
    # The first start was restarted before the loop turned: the window's timer fired once, between the two.
    assert fired == ["case within the budget", "window", "case past the budget"]
