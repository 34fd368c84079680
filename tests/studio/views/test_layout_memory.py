"""The inspector's panes on a laptop, the layout kept per screen size, and View → Reset layout.

At 1366x768 the details pane was ~110 px tall and could not be dragged taller: the Tripwires/Debugger tabs held a
~360 px minimum. Each pane's handle is dragged here with real mouse events, the window is closed and opened again
over the same data folder, and the View menu's "Reset layout" is triggered as a user would.
"""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QSplitter
from pytestqt.qtbot import QtBot

from studio.views.inspector import MIN_PANE_HEIGHT, PANE_SHARES
from studio.views.layout_memory import LayoutMemory
from studio.views.main_window import MainWindow
from tests.studio.conftest import open_studio, run

LAPTOP = (1366, 768)


def drag_handle(qtbot: QtBot, splitter: QSplitter, index: int, by: int) -> None:
    """Drag the handle above pane ``index`` of a vertical splitter ``by`` pixels down (negative: up)."""
    handle = splitter.handle(index)
    start = handle.rect().center()
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 11):
        qtbot.mouseMove(handle, start + QPoint(0, by * step // 10))
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=start + QPoint(0, by))


def open_at_laptop_size(qtbot: QtBot, qloop: qasync.QEventLoop, database: Path) -> tuple[object, MainWindow]:
    workspace, window = open_studio(qtbot, qloop, database, size=LAPTOP)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == LAPTOP)
    if not window.inspector.isHidden():
        qtbot.waitUntil(lambda: window.inspector.details.height() > MIN_PANE_HEIGHT)
    return workspace, window


def test_the_details_pane_is_roomy_at_1366x768_and_drags_to_most_of_the_inspector(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_at_laptop_size(qtbot, qloop, tmp_path / "studio.db")
    inspector = window.inspector
    height = inspector.splitter.height()
    assert inspector.details.height() >= 0.3 * height  # ~110 px before (of ~700)
    drag_handle(qtbot, inspector.splitter, 2, height)  # the handle under the details, down as far as it goes
    assert inspector.tabs.height() <= MIN_PANE_HEIGHT + 2  # the tabs (Debugger too) give way ...
    drag_handle(qtbot, inspector.splitter, 1, -height)  # ... and the timeline, dragged up
    assert inspector.details.height() >= height - 2 * MIN_PANE_HEIGHT - 2 * inspector.splitter.handleWidth() - 2
    inspector.tabs.setCurrentWidget(inspector.tabs.widget(inspector.tabs.count() - 1))  # the Debugger, short
    assert window.debug_panel.isVisible()
    run(qloop, workspace.shutdown())


def test_the_layout_comes_back_on_the_same_screen_size_and_reset_layout_restores_the_defaults(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    database = tmp_path / "studio.db"
    workspace, window = open_at_laptop_size(qtbot, qloop, database)
    drag_handle(qtbot, window.inspector.splitter, 2, 200)
    dragged = window.inspector.splitter.sizes()
    window.inspector_pane_action.setChecked(False)  # the inspector hidden from the View menu
    run(qloop, workspace.shutdown())
    window.close()

    workspace, window = open_at_laptop_size(qtbot, qloop, database)
    assert not window.inspector.isVisibleTo(window) and not window.inspector_pane_action.isChecked()
    window.inspector_pane_action.setChecked(True)
    qtbot.waitUntil(lambda: window.inspector.isVisible())
    assert abs(window.inspector.splitter.sizes()[1] - dragged[1]) <= 2  # the details pane as it was left

    reset = window.findChild(type(window.inspector_pane_action), "action.reset_layout")
    assert reset is not None and reset in window.menuBar().actions()[2].menu().actions()  # View → Reset layout
    window.inspector_pane_action.setChecked(False)
    reset.trigger()
    assert window.inspector.isVisible() and window.inspector_pane_action.isChecked()
    sizes = window.inspector.splitter.sizes()
    total = sum(sizes)
    for size, share in zip(sizes, PANE_SHARES, strict=True):
        assert abs(size - total * share / sum(PANE_SHARES)) <= 3, sizes
    run(qloop, workspace.shutdown())


def test_a_layout_is_kept_per_screen_size(qtbot: QtBot, tmp_path: Path) -> None:
    splitter = QSplitter(Qt.Orientation.Vertical)
    for _ in range(3):
        splitter.addWidget(QSplitter())
    qtbot.addWidget(splitter)
    splitter.resize(300, 600)
    splitter.show()
    path = str(tmp_path / "window.ini")
    screen = ["1366x738"]
    memory = LayoutMemory(lambda: QSettings(path, QSettings.Format.IniFormat), lambda: screen[0])
    memory.add("panes", splitter, (1, 1, 1))
    splitter.setSizes([100, 400, 100])
    left = splitter.sizes()
    memory.save()
    splitter.setSizes([200, 200, 200])
    screen[0] = "1920x1050"  # another monitor: nothing saved for it
    assert memory.restore() == []
    screen[0] = "1366x738"
    assert memory.restore() == ["panes"]
    assert splitter.sizes() == left
