"""The self-test lets the window paint before its screenshot without stepping other tasks inside its own.

It used to call ``QApplication.processEvents()`` from its coroutine: inside a task's step that runs the loop's
other callbacks too, and a task woken there cannot enter ("Cannot enter into task … while another task … is being
executed"). Its wake-up was lost, it never ended, and the studio's shutdown, which waits for its tasks, hung after a
passed self-test (2026-12-07 16:00 UTC, the thread list's refresh, once in ~40 starts). The case runs in a process
of its own: before the fix the loop never came back (so the test is bounded by a limit far above the seconds it takes).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CASE = """
import asyncio
from PySide6.QtWidgets import QApplication
from studio.event_loop import StudioEventLoop
from studio.self_test import let_the_window_paint

app = QApplication([])
loop = StudioEventLoop(app)
asyncio.set_event_loop(loop)
errors = []
loop.set_exception_handler(lambda _loop, context: errors.append(repr(context.get("exception", context["message"]))))


async def self_test():
    store_answer = loop.create_future()

    async def refresh():  # as the thread list's refresh waits for the store's answer
        await store_answer
        return "refreshed"

    other = loop.create_task(refresh())
    await asyncio.sleep(0)  # the refresh now waits
    store_answer.set_result(None)  # its wake-up is queued while this task is still in its step
    await let_the_window_paint()
    await asyncio.sleep(0.1)
    return other


other = loop.run_until_complete(self_test())
print(other.result() if other.done() else "never woke", errors)
"""


def test_a_task_woken_while_the_window_paints_still_runs_to_its_end() -> None:
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(root))
    try:
        done = subprocess.run(
            [sys.executable, "-c", CASE], cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("the loop never came back: a task's wake-up was lost while the window painted") from None
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "refreshed []"
