"""Driving the Lab window in tests: open it over the real studio, tick corpora, run and wait for signals."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.views.lab_view import LabView
from tests.studio.conftest import open_studio, run


def open_lab(
    qtbot: QtBot,
    qloop: qasync.QEventLoop,
    tmp_path: Path,
    size: tuple[int, int] | None = None,
    *,
    offered: bool = False,
) -> Any:
    """The studio and its Lab window, loaded. The starter corpora the Lab chooses when it opens are unticked unless
    ``offered`` (a test ticks what it runs, with :func:`choose`)."""
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    lab = window.open_lab()
    run(qloop, workspace.wait_idle())  # the bundled corpora and the stored lab runs are loaded
    if not offered:
        model = lab.controller.corpora
        for row in range(model.rowCount()):
            model.setData(model.index(row), Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    if size is not None:
        lab.resize(*size)
    return workspace, window, lab


def choose(lab: LabView, *names: str) -> None:
    """Tick corpora the way a click on their check box does."""
    model = lab.controller.corpora
    for name in names:
        row = next(i for i, source in enumerate(model.sources()) if source.name == name)
        assert model.setData(model.index(row), Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)


def until_signal(qloop: qasync.QEventLoop, signal: Any, action: Any = None, failed: Any = None) -> tuple[Any, ...]:
    """Run ``action`` (a click, in the loop) and wait for ``signal``; returns its arguments. ``failed`` (a signal
    with a message) fails the test instead of waiting for ever."""

    async def wait() -> tuple[Any, ...]:
        future: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

        def fired(*args: Any) -> None:
            if not future.done():
                future.set_result(args)

        def broke(message: str) -> None:
            if not future.done():
                future.set_exception(AssertionError(message))

        signal.connect(fired)
        if failed is not None:
            failed.connect(broke)
        try:
            if action is not None:
                action()
            return await future
        finally:
            signal.disconnect(fired)
            if failed is not None:
                failed.disconnect(broke)

    return run(qloop, wait())  # type: ignore[no-any-return]


def finish(qloop: qasync.QEventLoop, lab: LabView, click: Any) -> tuple[Any, ...]:
    ended = until_signal(qloop, lab.controller.run_ended, click, failed=lab.controller.failed)
    run(qloop, lab.controller.wait_idle())
    return ended


def stored(qloop: qasync.QEventLoop, workspace: Any, lab_run_id: str) -> Any:
    loaded = run(qloop, workspace.store.lab_runs.load_lab_run(lab_run_id))
    assert loaded is not None
    return loaded
