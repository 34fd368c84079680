"""Every normal way to quit the real studio shuts the workspace down and exits 0, also with a reply streaming.

Each test starts the real application in a subprocess (``tests/support/quit_driver.py`` runs ``studio.app.main``
offscreen with a private data folder) and quits it as a user would. Before the fix every quit ended in qasync's
``RuntimeError: Event loop stopped before Future completed`` and exit code 1.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.store.database import RunRecord, Store
from tests.support.quit_driver import WARM_UP_FAILURE

ROOT = Path(__file__).resolve().parents[2]
WAYS_TO_QUIT = ["ctrl-q", "lab-ctrl-q", "file-quit", "close-window", "app-quit"]


def quit_studio(how: str, data: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    completed = subprocess.run(
        [sys.executable, "-m", "tests.support.quit_driver", how, str(data), *extra],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)},
    )
    output = completed.stdout + completed.stderr
    assert "Traceback" not in completed.stderr, output
    assert completed.returncode == 0, output
    return completed


def saved_runs(data: Path) -> list[RunRecord]:
    async def read() -> list[RunRecord]:
        async with Store(f"sqlite:///{data / 'studio.db'}") as store:
            threads = await store.memory.list_threads()
            return [run for thread in threads for run in await store.runs_for_thread(thread.id)]

    return asyncio.run(read())


@pytest.mark.parametrize("how", WAYS_TO_QUIT)
def test_quitting_exits_0_without_a_traceback(how: str, tmp_path: Path) -> None:
    completed = quit_studio(how, tmp_path)
    assert "quit-driver: quitting (reply running: False)" in completed.stdout


@pytest.mark.parametrize("how", ["ctrl-q"])
def test_quitting_while_a_reply_streams_stops_it_saves_it_and_exits_0(how: str, tmp_path: Path) -> None:
    completed = quit_studio(how, tmp_path, "--while-streaming")
    assert "quit-driver: quitting (reply running: True)" in completed.stdout  # the quit came mid-reply
    runs = saved_runs(tmp_path)
    assert [(run.outcome, run.finish_reason) for run in runs] == [("stopped", "abort")]
    assert runs[0].finished_at is not None


def test_a_failed_warm_up_is_logged_and_the_quit_still_exits_0(tmp_path: Path) -> None:
    completed = quit_studio("ctrl-q", tmp_path, "--failing-warm-up")
    assert "quit-driver: quitting" in completed.stdout
    assert f"warm-up failed (the first message will pay their set-up): RuntimeError: {WARM_UP_FAILURE}" in (
        completed.stderr
    )
