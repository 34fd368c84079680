"""On a laptop's 1366x768 at 100 % the options pane has room to edit a processor's options.

Seen under Xvfb at 1366x768: the options pane was ~120 px tall under its title (28 % of the editor column, the
palette 40 %), enough for a processor's name and one field; the prompt injection detector's second field was out of
sight. Its default share is now the largest of the column; the palette still shows the rows the layout test asks
for, each chain three entries, and a splitter the user dragged still comes back as it was left.
"""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.controllers.workspace import Workspace
from studio.views.main_window import MainWindow
from tests.studio.conftest import open_studio, run
from tests.studio.views.test_layout_memory import drag_handle

LAPTOP = (1366, 768)


def _open(qtbot: QtBot, qloop: qasync.QEventLoop, database: Path) -> tuple[Workspace, MainWindow]:
    workspace, window = open_studio(qtbot, qloop, database, size=LAPTOP)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == LAPTOP)
    QApplication.processEvents()
    return workspace, window


def _in_sight(window: MainWindow, name: str) -> bool:
    """Whether the option ``name``'s editor is wholly inside the options pane's viewport."""
    editor = window.options.editor(name)
    viewport = window.options.viewport()
    top_left = editor.mapTo(viewport, QPoint(0, 0))
    return viewport.rect().contains(QRect(top_left, editor.size()))


def test_the_options_pane_shows_a_processors_first_fields_at_1366x768(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = _open(qtbot, qloop, tmp_path / "studio.db")
    chain = window.chains.model("input")
    entries = [entry for row in range(chain.rowCount()) if (entry := chain.entry_at(row)) is not None]
    window.chains.select(next(entry.uid for entry in entries if entry.type == "PromptInjectionDetector"))
    qtbot.waitUntil(lambda: window.options.uid() != "")
    QApplication.processEvents()

    sizes = window.guardrails.sizes()
    assert sizes[2] == max(sizes), sizes  # the options pane is the largest of palette, chains and options
    names = list(window.options._editors)
    assert all(_in_sight(window, name) for name in names[:2]), names[:2]  # only the first one was before
    chain_view = window.chains.view("input")
    assert chain_view.viewport().height() >= 3 * chain_view.sizeHintForRow(0)  # three whole entries
    run(qloop, workspace.shutdown())


def test_a_dragged_options_pane_comes_back_as_it_was_left(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    database = tmp_path / "studio.db"
    workspace, window = _open(qtbot, qloop, database)
    drag_handle(qtbot, window.guardrails, 2, 60)  # the handle over the options, down: a smaller options pane
    dragged = window.guardrails.sizes()
    run(qloop, workspace.shutdown())
    window.close()

    workspace, window = _open(qtbot, qloop, database)
    assert all(abs(now - then) <= 2 for now, then in zip(window.guardrails.sizes(), dragged, strict=True))
    run(qloop, workspace.shutdown())
