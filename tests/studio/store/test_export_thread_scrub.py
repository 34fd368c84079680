"""``Store.export_thread`` hides what the guards hid in the thread's messages itself, so every caller of the store
gets a document fit to leave the studio (not only the window's File → Export thread): the customer record a tool
returned is kept in the thread as the tool gave it, while the output guard masked its e-mail address and phone
number in the answer."""

from __future__ import annotations

import json
from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot

from processors.tracing.redactions import HIDDEN
from studio.store.database import Store
from tests.studio.conftest import open_studio, run
from tests.studio.store.test_run_transfer_privacy import guarded, record_values
from tests.studio.test_app import reply


def test_the_store_s_own_thread_export_hides_what_the_guards_hid_in_its_messages(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    database = tmp_path / "studio.db"
    workspace, _window = open_studio(qtbot, qloop, database)
    workspace.document.open_design(guarded())
    reply(qloop, workspace, "Please look up customer 42")
    thread_id = workspace.thread_id
    assert thread_id is not None
    run(qloop, workspace.shutdown())

    store = Store(f"sqlite:///{database}")
    stored = json.dumps([message.to_json() for message in run(qloop, store.memory.all_messages(thread_id))])
    assert all(value in stored for value in record_values())  # the tool's result, kept as the tool returned it
    exported = run(qloop, store.export_thread(thread_id))
    run(qloop, store.close())
    messages = json.dumps(exported["messages"], ensure_ascii=False)
    assert all(value not in messages for value in record_values())
    assert HIDDEN in messages
