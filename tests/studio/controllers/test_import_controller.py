"""Thread import in the studio: off the UI thread, progress on it, stoppable, and the window's progress dialog.

The import runs on a real SqlMemory (a SQLite file) from a real file. Whether the UI thread stays free is shown
without timing: at one progress step the importing thread waits until the UI thread has run a timer tick. If
the import ran on the UI thread, no tick could come while it waits, and the test fails.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QPushButton, QWidget
from pytestqt.qtbot import QtBot

from processors.memory import SqlMemory
from processors.memory.transfer import PROGRESS_EVERY
from processors.messages import Message
from studio.controllers.import_controller import ThreadImportController
from studio.controllers.workspace import Workspace
from studio.design.catalog import studio_catalogue
from studio.keys.secrets import SecretStore
from studio.store.database import Store
from studio.views.import_progress import ImportProgressView
from tests.studio.conftest import run

#: Messages in the big import: a few progress steps in each phase.
COUNT = 4 * PROGRESS_EVERY + 10


def write_export(path: Path, count: int = COUNT, thread_id: str = "imported") -> Path:
    messages = [
        {
            "id": f"m{i}",
            "role": "user" if i % 2 == 0 else "assistant",
            "createdAt": "2026-01-01T00:00:00Z",
            "content": {"format": 2, "parts": [{"type": "text", "text": f"message {i}"}]},
        }
        for i in range(count)
    ]
    path.write_text(json.dumps({"version": 1, "thread": {"id": thread_id, "title": "Big"}, "messages": messages}))
    return path


def db_state(path: Path) -> str:
    """The database's rows (threads and messages), as a digest: equal means nothing was written."""
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(path)) as connection:
        rows = [connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall() for table in ("threads", "messages")]
    return hashlib.sha256(repr(rows).encode()).hexdigest()


@pytest.fixture
def memory(qloop: qasync.QEventLoop, tmp_path: Path) -> Iterator[SqlMemory]:
    store = SqlMemory(f"sqlite:///{tmp_path / 'studio.db'}")
    run(qloop, store.save_messages("existing", [Message.user("kept", id="e0")]))
    yield store
    run(qloop, store.close())


class Ticker:
    """A 0 ms timer on the UI thread: counts the times the UI thread's event loop got to run it."""

    def __init__(self) -> None:
        self.ticks = 0
        self.ticked = threading.Event()
        self.timer = QTimer(interval=0)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        self.ticks += 1
        self.ticked.set()


def test_progress_reaches_the_ui_thread_while_the_import_runs_off_it(
    qtbot: QtBot, qloop: qasync.QEventLoop, memory: SqlMemory, tmp_path: Path
) -> None:
    path = write_export(tmp_path / "big.json")
    controller = ThreadImportController(memory)
    ticker = Ticker()
    received: list[tuple[str, int, int, int]] = []  # on the UI thread (queued): phase, done, total, ticks so far
    emitted_on: set[int] = set()
    waited: list[bool] = []

    controller.progress_changed.connect(lambda *args: received.append((*args, ticker.ticks)))

    def on_importing_thread(phase: str, done: int, total: int) -> None:
        emitted_on.add(threading.get_ident())
        if phase == "checking" and 0 < done < total and not waited:
            ticker.ticked.clear()
            waited.append(ticker.ticked.wait(30))  # the UI thread must tick while the import waits here

    controller.progress_changed.connect(on_importing_thread, Qt.ConnectionType.DirectConnection)
    finished: list[tuple[str, str]] = []
    controller.import_finished.connect(lambda *args: finished.append(args))
    assert run(qloop, controller.import_file(path)) == "imported"
    assert finished == [("imported", "big.json")]
    ticker.timer.stop()

    assert waited == [True]
    assert threading.get_ident() not in emitted_on
    for phase in ("reading", "checking", "writing"):
        steps = [(done, total) for name, done, total, _ in received if name == phase]
        assert len(steps) >= 3, phase
        assert [done for done, _ in steps] == sorted(done for done, _ in steps)
        assert steps[0][0] == 0 and steps[-1][0] == steps[-1][1]
    assert (received[-1][0], received[-1][1], received[-1][2]) == ("writing", COUNT, COUNT)
    assert received[-1][3] > received[0][3]  # the UI thread ran between the first and the last step
    assert run(qloop, memory.count_messages("imported")) == COUNT
    assert not controller.is_running


def test_stopping_from_the_ui_writes_nothing(
    qtbot: QtBot, qloop: qasync.QEventLoop, memory: SqlMemory, tmp_path: Path
) -> None:
    path = write_export(tmp_path / "big.json")
    controller = ThreadImportController(memory)
    before = db_state(tmp_path / "studio.db")
    stopped_by_ui = threading.Event()

    def on_ui_thread(phase: str, done: int, _total: int) -> None:
        if phase == "writing" and done > 0:
            controller.stop()
            stopped_by_ui.set()

    def on_importing_thread(phase: str, done: int, _total: int) -> None:
        if phase == "writing" and done > 0:
            assert stopped_by_ui.wait(30)  # the UI slot above runs (on its thread) before the import goes on

    controller.progress_changed.connect(on_ui_thread)
    controller.progress_changed.connect(on_importing_thread, Qt.ConnectionType.DirectConnection)
    stopped: list[bool] = []
    controller.import_stopped.connect(lambda: stopped.append(True))
    assert run(qloop, controller.import_file(path)) is None
    assert stopped == [True]
    assert db_state(tmp_path / "studio.db") == before
    assert run(qloop, memory.get_thread("imported")) is None


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"version": 1, "thread": {"id": "../x"}, "messages": []}', "thread.id: '../x' contains a '/'"),
        (
            '{"version": 1, "thread": {"id": "t", "metadata": {"n": NaN}}, "messages": []}',
            "thread.metadata.n: not a finite number",
        ),
        ("[" * 100_000, "nested more than 100 levels deep"),
        ("{not json", "not valid JSON"),
    ],
)
def test_a_refused_file_says_why_and_writes_nothing(
    qtbot: QtBot, qloop: qasync.QEventLoop, memory: SqlMemory, tmp_path: Path, content: str, fragment: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    before = db_state(tmp_path / "studio.db")
    controller = ThreadImportController(memory)
    failed: list[str] = []
    controller.import_failed.connect(failed.append)
    assert run(qloop, controller.import_file(path)) is None
    assert len(failed) == 1 and failed[0].startswith("Import refused, nothing was written:")
    assert fragment in failed[0]
    assert db_state(tmp_path / "studio.db") == before


def test_the_progress_dialog_follows_the_import_and_cancel_stops_it(
    qtbot: QtBot, qloop: qasync.QEventLoop, memory: SqlMemory, tmp_path: Path
) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    window.show()
    controller = ThreadImportController(memory)
    view = ImportProgressView(controller, window)
    before = db_state(tmp_path / "studio.db")
    shown: list[tuple[str, int, int]] = []
    clicked = threading.Event()

    def on_ui_thread(phase: str, done: int, _total: int) -> None:
        dialog = view.dialog
        assert dialog is not None
        shown.append((dialog.labelText().splitlines()[0], dialog.value(), dialog.maximum()))
        if phase == "checking" and done > 0 and not clicked.is_set():
            dialog.show()
            button = dialog.findChild(QPushButton)
            assert button is not None and button.text() == "Cancel"
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
            clicked.set()

    def on_importing_thread(phase: str, done: int, _total: int) -> None:
        if phase == "checking" and done > 0:
            assert clicked.wait(30)

    controller.progress_changed.connect(on_ui_thread)  # after the view's own slot: the dialog is updated first
    controller.progress_changed.connect(on_importing_thread, Qt.ConnectionType.DirectConnection)
    stopped: list[bool] = []
    controller.import_stopped.connect(lambda: stopped.append(True))
    assert run(qloop, controller.import_file(write_export(tmp_path / "big.json"))) is None
    assert stopped == [True]
    assert ("Reading the file…", 0, len((tmp_path / "big.json").read_text())) in shown
    assert ("Checking the messages…", PROGRESS_EVERY, COUNT) in shown
    assert view.dialog is None  # closed when the import stopped
    assert db_state(tmp_path / "studio.db") == before


def test_the_workspace_opens_an_imported_thread_and_reports_a_refused_one(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    workspace = Workspace(store=store, catalogue=studio_catalogue(), secrets=SecretStore())
    run(qloop, workspace.start())
    messages: list[str] = []
    workspace.status_message.connect(messages.append)
    run(qloop, workspace.import_thread(write_export(tmp_path / "small.json", count=3, thread_id="small")))
    assert workspace.thread_id == "small" and messages[-1] == "Imported small.json"
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "thread": {"id": "a\\u0000b"}, "messages": []}')
    run(qloop, workspace.import_thread(bad))
    assert "thread.id: 'a\\x00b' contains NUL" in messages[-1] and workspace.thread_id == "small"
    run(qloop, workspace.shutdown())
