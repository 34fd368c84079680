"""The studio tests' qasync loop fixture: a closed loop leaves nothing for another thread to destroy."""

from __future__ import annotations

import asyncio
import gc
import threading
from typing import Any

from PySide6.QtWidgets import QApplication

from studio.event_loop import StudioEventLoop
from tests.studio.conftest import close_qloop


def test_a_closed_loop_leaves_no_qt_timer_for_another_thread_to_destroy(qapp: QApplication, qtlog: Any) -> None:
    """qasync keeps a closed loop in a reference cycle (the loop, its timer QObject, the cancelled handles): the
    cyclic garbage collector frees it on whichever thread triggers a collection. A QObject with a Qt timer still
    registered then dies off the Qt thread ("QObject::~QObject: Timers cannot be stopped from another thread",
    or a crash), in whichever later test happens to start a thread, e.g. the LiteLLM tests' HTTP server."""
    loop = StudioEventLoop(qapp)
    asyncio.set_event_loop(loop)
    loop.run_until_complete(asyncio.wait_for(asyncio.sleep(0), 10))  # leaves a cancelled 10 s Qt timer behind
    close_qloop(loop)
    del loop
    collector = threading.Thread(target=gc.collect)
    collector.start()
    collector.join()
    assert not [record for record in qtlog.records if "Timers cannot be stopped" in record.message]
