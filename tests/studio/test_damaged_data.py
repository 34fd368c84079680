"""Start-up over a damaged database: a bad row costs that row, and a headless self-test never waits on a dialog."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot

from processors.memory.queries import UNREADABLE_TEXT
from studio.models.chat_items import AssistantItem, ErrorItem, UserItem
from tests.studio.conftest import run
from tests.studio.test_app import open_studio, reply


def corrupt(path: Path, sql: str) -> int:
    with closing(sqlite3.connect(path)) as connection:
        changed = connection.execute(sql).rowcount
        connection.commit()
    return changed


def self_test(data_dir: Path, screenshot: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studio", "--self-test", str(screenshot), "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )


def test_the_latest_thread_opens_with_a_placeholder_for_a_damaged_message_and_run(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    database = tmp_path / "studio.db"
    workspace, window = open_studio(qtbot, qloop, database)
    reply(qloop, workspace, "What is the weather in Paris?")
    reply(qloop, workspace, "What is the weather in Oslo?")
    run(qloop, workspace.shutdown())
    window.close()
    # the last reply's content and every run's usage are no longer JSON
    assert corrupt(database, "UPDATE messages SET content = '{broken' WHERE seq = (SELECT MAX(seq) FROM messages)")
    assert corrupt(database, "UPDATE runs SET usage = '{bad'") == 2

    workspace, window = open_studio(qtbot, qloop, database)  # the real window's start path: no exception
    items = workspace.chat.items
    users = [item.text for item in items if isinstance(item, UserItem)]
    assert users == ["What is the weather in Paris?", "What is the weather in Oslo?"]
    answers = [item.plain_text for item in items if isinstance(item, AssistantItem)]
    assert "Paris" in answers[0]
    assert answers[-1] == UNREADABLE_TEXT  # the damaged reply, in its place
    notes = [item.message for item in items if isinstance(item, ErrorItem)]
    assert len(notes) == 1
    assert "1 message" in notes[0] and "usage of 2 runs" in notes[0]
    assert "damaged" in window.statusBar().currentMessage()
    assert len(window.inspector.inspector_data.runs) == 2  # the runs are still there, only their usage is lost

    reply(qloop, workspace, "And in Rome?")  # the thread goes on
    assert [item.text for item in workspace.chat.items if isinstance(item, UserItem)][-1] == "And in Rome?"
    run(qloop, workspace.shutdown())


def test_the_self_test_passes_over_a_database_with_damaged_rows(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = self_test(data, tmp_path / "first.png")
    assert first.returncode == 0, first.stdout + first.stderr
    database = data / "studio.db"
    assert corrupt(database, "UPDATE messages SET content = '{broken' WHERE seq = (SELECT MAX(seq) FROM messages)")
    assert corrupt(database, "UPDATE runs SET usage = 'not json'")

    second = self_test(data, tmp_path / "second.png")
    assert second.returncode == 0, second.stdout + second.stderr
    assert "self-test: passed" in second.stdout
    assert "could not be read" in second.stderr  # logged


def test_a_self_test_that_cannot_open_its_data_fails_at_once_instead_of_waiting_on_a_dialog(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "studio.db").write_bytes(b"this is not a database, " * 100)

    completed = self_test(data, tmp_path / "shot.png")

    assert completed.returncode == 2, completed.stdout + completed.stderr
    assert "cannot open its data" in completed.stderr
    assert not (tmp_path / "shot.png").exists()
