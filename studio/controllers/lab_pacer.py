"""Fair shares of the studio's one loop between a lab run's cases and the window.

A ``guardrails`` or ``replay`` case has nothing to wait for: it runs without giving the loop back (~5 ms of CPU
with the sample design, three times that on a loaded machine). :class:`LoopPacer` is awaited by every worker
before each case (``LabRun(pace=...)``): once the cases have had the loop for :data:`BUDGET`, no case starts
until Qt has had a pass of its own — the workers wait on one 1 ms ``QTimer`` (not 0 ms: Qt turns a zero-time
single shot into a posted event, served before any timer), which Qt fires after the timers and events already
due (the window's). Such runs use one worker in the studio: on one loop more workers add no speed, only longer
slices (each would be inside a case when the budget runs out).
"""

from __future__ import annotations

import asyncio
import time

from PySide6.QtCore import Qt, QTimer

#: How long cases may hold the loop before the window gets a turn (seconds).
BUDGET = 0.004


class LoopPacer:
    """Awaited before each case; returns at once until the budget is spent, then after Qt's next pass."""

    def __init__(self, budget: float = BUDGET) -> None:
        self.budget = budget
        #: How many times the cases gave Qt a turn.
        self.turns = 0
        self._since = time.perf_counter()
        self._turn: asyncio.Future[None] | None = None
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(1)
        self._timer.timeout.connect(self._release)

    async def __call__(self) -> None:
        if self._turn is None and time.perf_counter() - self._since < self.budget:
            return
        if self._turn is None:
            self._turn = asyncio.get_running_loop().create_future()
            self._timer.start()
        await asyncio.shield(self._turn)  # one worker cancelled does not cancel the others' wait

    def _release(self) -> None:
        turn, self._turn = self._turn, None
        self.turns += 1
        self._since = time.perf_counter()
        if turn is not None and not turn.done():
            turn.set_result(None)


__all__ = ["BUDGET", "LoopPacer"]
