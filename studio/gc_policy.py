"""When Python's garbage collector runs: on the Qt thread, between frames, in small steps.

Two measured problems lead here. A full collection during a fast stream paused the event loop 55-108 ms
(mostly start-up objects that never die); ``gc.freeze()`` after start-up moves them out of reach. And an
automatic collection can fire on any thread — the store's worker, an executor — and destroy Qt objects there
("Timers cannot be stopped from another thread"); so automatic collection is off and a main-thread timer collects
the young generations often and everything now and then.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

_TICK_MS = 500
_FULL_EVERY = 120  # ticks: a full collection each minute


class _Collector(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._ticks = 0
        self._timer = QTimer(self, interval=_TICK_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._timer.start()

    def _on_timer_timeout(self) -> None:
        self._ticks += 1
        if self._ticks % _FULL_EVERY == 0:
            gc.collect()
        elif self._ticks % 10 == 0:
            gc.collect(1)
        else:
            gc.collect(0)


def install(app: QObject) -> None:
    """Freeze what start-up created and collect on the Qt thread from now on."""
    gc.collect()
    gc.freeze()
    gc.disable()
    if app.findChild(_Collector) is None:
        _Collector(app)
