"""DesignSession: the first start opens the sample and saves it; later starts open the newest saved design; a saved
design that cannot be read gives way to the sample, said; a burst of edits is saved once, after the last one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import qasync
from pytestqt.qtbot import QtBot

from studio.controllers.design_session import DesignSession
from studio.design.agent_design import AgentDesign
from studio.design.catalog import studio_catalogue
from studio.models.design_document import DesignDocument
from studio.models.editor_commands import EditSetting
from studio.store.database import Store
from tests.studio.conftest import run


def session(qloop: qasync.QEventLoop, tmp_path: Path) -> tuple[DesignSession, DesignDocument, Store, list[Any]]:
    store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    run(qloop, store.open())
    document = DesignDocument(studio_catalogue())
    tasks: list[Any] = []
    designs = DesignSession(store, document, spawn=lambda coroutine: tasks.append(asyncio.ensure_future(coroutine)))
    return designs, document, store, tasks


def test_the_first_start_opens_the_sample_and_saves_it_and_a_later_start_opens_the_newest(
    qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    designs, document, store, _tasks = session(qloop, tmp_path)
    opened: list[str] = []
    designs.design_opened.connect(opened.append)
    run(qloop, designs.open_latest())
    saved = run(qloop, store.list_designs())
    assert len(saved) == 1 and saved[0].id == document.snapshot().id and opened == [document.snapshot().name]

    newer = AgentDesign(name="Newer")
    run(qloop, store.save_design(newer.id, newer.name, newer.to_json()))
    run(qloop, designs.open_latest())
    assert document.snapshot().id == newer.id and opened[-1] == "Newer"
    run(qloop, store.close())


def test_an_unreadable_saved_design_gives_way_to_the_sample_and_is_said(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    designs, document, store, _tasks = session(qloop, tmp_path)
    run(qloop, store.save_design("broken", "Broken", "{not json"))
    with qtbot.waitSignal(designs.status_message) as said:
        run(qloop, designs.open_latest())
    assert "“Broken” could not be read" in said.args[0]
    assert document.snapshot().id != "broken" and document.snapshot().input, "the sample, with its chain"
    run(qloop, store.close())


def test_a_burst_of_edits_is_saved_once_after_the_last_and_flush_saves_a_pending_one(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    designs, document, store, tasks = session(qloop, tmp_path)
    run(qloop, designs.open_latest())
    for name in ("A", "AB", "ABC"):
        document.undo_stack().push(EditSetting(document, "name", name))
    assert designs.autosave.isActive() and tasks == []
    with qtbot.waitSignal(designs.autosave.timeout, timeout=10_000):
        pass
    assert len(tasks) == 1, "one write for the burst"
    run(qloop, asyncio.gather(*tasks))
    assert [record.name for record in run(qloop, store.list_designs())] == ["ABC"]

    document.undo_stack().push(EditSetting(document, "name", "Pending"))
    run(qloop, designs.flush())
    assert not designs.autosave.isActive()
    assert [record.name for record in run(qloop, store.list_designs())] == ["Pending"]
    run(qloop, store.close())


def test_an_autosave_due_after_the_studio_loop_is_gone_is_dropped_without_an_error(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """A window's last signals may edit the design after shutdown flushed it; when the autosave then fires there is
    no loop to run a save: nothing is started (before: RuntimeError in the Qt slot, an unawaited coroutine)."""
    designs, document, store, tasks = session(qloop, tmp_path)
    run(qloop, designs.open_latest())
    document.undo_stack().push(EditSetting(document, "name", "Late edit"))
    assert designs.autosave.isActive()
    designs.autosave.stop()
    asyncio.set_event_loop(None)
    try:
        designs.autosave.timeout.emit()
    finally:
        asyncio.set_event_loop(qloop)
    assert tasks == []
    run(qloop, store.close())
