"""A termination signal (SIGTERM, SIGINT, SIGHUP) quits the real studio as closing its window does.

Each test starts the real application (``studio.app.main``, offscreen, a private data folder) in a subprocess: this
module is also the driver, ``python -m tests.studio.test_terminate DATA_DIR``. Once the workspace is open it adds a
processor to the output chain through the chain editor (what the palette does), prints ``terminate-driver: edited``
and the test signals the process at once, well inside the design's autosave delay. Before the fix SIGTERM ended
Python without the quit path and the edit was lost; now the pending save is flushed and the exit status is 128 + the
signal's number.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EDITED = "terminate-driver: edited"
#: What the driver adds to the output chain.
ADDED = "RegexFilter"
#: The option the "option" driver types into (and what), still waiting for typing to pause when the signal comes.
TYPED_OPTION, TYPED = "stream_carryover_size", "77"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def start(*arguments: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)},
    )


def wait_for_line(process: subprocess.Popen[str], line: str) -> None:
    assert process.stdout is not None
    seen = []
    for text in process.stdout:  # the driver flushes each line; the subprocess's timeout bounds a hang
        seen.append(text)
        if text.strip() == line:
            return
    _, errors = process.communicate(timeout=60)
    raise AssertionError(f"no {line!r} before the process ended ({process.returncode}):\n{''.join(seen)}{errors}")


def saved_output_lanes(data: Path) -> list[list[Any]]:
    """Each saved design's output chain, as read back from the studio's SQLite file."""
    from studio.design.agent_design import AgentDesign
    from studio.store.database import Store

    async def read() -> list[list[Any]]:
        async with Store(f"sqlite:///{data / 'studio.db'}") as store:
            designs = await store.list_designs()
            return [list(AgentDesign.from_json(record.json_text).output) for record in designs]

    return asyncio.run(read())


def saved_output_chains(data: Path) -> list[list[str]]:
    return [[entry.type for entry in chain] for chain in saved_output_lanes(data)]


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_an_edit_just_before_a_termination_signal_is_saved_and_the_status_says_which(name: str, tmp_path: Path) -> None:
    number = getattr(signal, name)
    process = start("-m", "tests.studio.test_terminate", str(tmp_path))
    try:
        wait_for_line(process, EDITED)
        process.send_signal(number)  # within the autosave's delay: only the quit path can save the edit
        _, errors = process.communicate(timeout=90)
    finally:
        process.kill()
    (chain,) = saved_output_chains(tmp_path)
    assert chain.count(ADDED) == 1, chain  # the edit was saved
    assert "Traceback" not in errors, errors
    assert process.returncode == 128 + number, errors


def test_an_option_typed_just_before_a_termination_signal_is_saved(tmp_path: Path) -> None:
    """The options form waits for typing to pause before it commits a value (``COMMIT_DELAY_MS``): the quit path
    commits it first, so a value typed just before the window closes, Ctrl+Q or a signal is not lost."""
    process = start("-m", "tests.studio.test_terminate", str(tmp_path), "option")
    try:
        wait_for_line(process, EDITED)
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=90)
    finally:
        process.kill()
    added = [entry for chain in saved_output_lanes(tmp_path) for entry in chain if entry.type == ADDED]
    assert len(added) == 1, errors
    assert added[0].options.get(TYPED_OPTION) == int(TYPED), (added[0].options, errors)
    assert process.returncode == 128 + signal.SIGTERM, errors


SLOW_QUIT = """
import asyncio, sys
from PySide6.QtWidgets import QApplication
from studio.event_loop import StudioEventLoop
from studio.app import quit_on_signals

app = QApplication([])
loop = StudioEventLoop(app)
asyncio.set_event_loop(loop)

async def run() -> int:
    quit_requested = asyncio.Event()
    with quit_on_signals(asyncio.get_running_loop(), quit_requested.set) as signals:
        print("ready", flush=True)
        await quit_requested.wait()
        print("quitting", flush=True)
        await asyncio.sleep(120)  # a quit that hangs: a second signal must not wait for it
        return signals.exit_code or 0

with loop:
    sys.exit(loop.run_until_complete(run()))
"""


def test_a_second_signal_during_a_hanging_quit_ends_the_process_at_once() -> None:
    process = start("-c", SLOW_QUIT)
    try:
        wait_for_line(process, "ready")
        process.send_signal(signal.SIGTERM)
        wait_for_line(process, "quitting")
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == -signal.SIGTERM


def test_the_handlers_from_before_are_restored_when_the_block_ends() -> None:
    from studio.app import quit_on_signals

    def mine(_number: int, _frame: object) -> None:
        pass

    before = signal.signal(signal.SIGTERM, mine)
    try:

        async def run() -> None:
            with quit_on_signals(asyncio.get_running_loop(), lambda: None):
                assert signal.getsignal(signal.SIGTERM) is not mine

        asyncio.run(run())
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, before)


def drive(data: Path, mode: str = "chain") -> int:
    """The driver: the real studio, an edit through the chain editor once the workspace is open (``option``: then a
    value typed into the new entry's options, still waiting to be committed), then a line."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from studio import app as studio_app
    from studio.system import warm_up
    from studio.views.main_window import MainWindow

    app = QApplication(sys.argv[:1])  # studio_app.main() takes this one over

    def when_ready() -> None:
        windows = [widget for widget in app.topLevelWidgets() if isinstance(widget, MainWindow)]
        if not windows or windows[0].workspace.thread_id is None:
            QTimer.singleShot(20, when_ready)
            return
        window = windows[0]
        warming = warm_up._started  # the quit waits for it: the typed value must not commit itself meanwhile
        if mode == "option" and (warming is None or not warming.done()):
            QTimer.singleShot(20, when_ready)
            return
        window.chains.add_entry(ADDED, "output")
        assert window.workspace.designs.autosave.isActive(), "the edit waits for the autosave"
        if mode == "option":
            uid = window.workspace.document.chain("output")[-1].uid
            window.options.show_entry(uid)
            field = window.options.editor(TYPED_OPTION)
            field.setFocus()
            QTest.keyClick(field, "a", Qt.KeyboardModifier.ControlModifier)
            QTest.keyClicks(field, TYPED)
            entry = window.workspace.document.entry(uid)
            assert entry is not None and TYPED_OPTION not in entry.options, "the value waits for typing to pause"
        print(EDITED, flush=True)

    QTimer.singleShot(0, when_ready)
    return studio_app.main(["--data-dir", str(data)])


if __name__ == "__main__":
    raise SystemExit(drive(Path(sys.argv[1]), *sys.argv[2:]))
