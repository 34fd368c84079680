"""The studio's own shortcuts work in the Lab window too (a window of its own): Ctrl+Q quits, Ctrl+, opens the
settings, F1 lists the keyboard shortcuts — the same actions as the main window's menus, not copies of them."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio.views.settings_dialog import SettingsDialog
from tests.studio.conftest import run
from tests.studio.views.lab_support import open_lab


def test_ctrl_q_in_the_lab_window_closes_the_studio_as_the_main_windows_quit_does(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window, lab = open_lab(qtbot, qloop, tmp_path)
    qtbot.waitUntil(lab.isActiveWindow)  # a shortcut reaches only the active window
    assert lab.isWindow() and window.isVisible()

    qtbot.keyClick(lab.cases_view, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)

    assert not window.isVisible(), "File → Quit closes the main window; the app then quits (tests/studio/test_quit.py)"
    run(qloop, workspace.shutdown())


def test_settings_and_the_shortcuts_list_open_from_the_lab_window(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window, lab = open_lab(qtbot, qloop, tmp_path)
    qtbot.waitUntil(lab.isActiveWindow)

    qtbot.keyClick(lab.cases_view, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    (settings,) = [w for w in window.findChildren(SettingsDialog) if w.isVisible()]
    settings.reject()
    qtbot.waitUntil(lab.isActiveWindow)
    qtbot.keyClick(lab.cases_view, Qt.Key.Key_F1)
    (shortcuts,) = [w for w in window.findChildren(QMessageBox) if w.isVisible()]
    assert "Ctrl+Q" in shortcuts.text()
    shortcuts.reject()
    run(qloop, workspace.shutdown())


def test_ctrl_w_closes_the_lab_window_and_the_lab_menu_opens_it_again(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """Seen under Xvfb at 1366x768: the Lab, a window of its own, had no key to close it (Esc cancels a run); the
    studio's main window stayed under it with no way back but the window manager's button."""
    workspace, window, lab = open_lab(qtbot, qloop, tmp_path)
    qtbot.waitUntil(lab.isActiveWindow)

    qtbot.keyClick(lab.cases_view, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)

    assert not lab.isVisible()
    assert window.isVisible()
    assert window.open_lab() is lab and lab.isVisible()
    run(qloop, workspace.shutdown())
