"""Issue 26: an exported regression test holds a frozen copy of the design; after the chain changes, the thread's
menu exports it again in one action — the run replayed through the current chain and the same file rewritten with
the design as it is now — and the run's replay view offers "Export again to <file>"."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtWidgets import QFileDialog, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from studio.models.editor_commands import RemoveEntry
from studio.views.main_window import MainWindow
from tests.studio.conftest import open_studio, run
from tests.studio.views.test_replay_view import output_pii_uid, replay, send


def thread_menu_action(window: MainWindow, name: str):  # type: ignore[no-untyped-def]
    row = window.workspace.threads_model.row_of(window.workspace.thread_id or "")
    menu = window.threads.context_menu(row)
    return next(a for a in menu.actions() if a.objectName() == name)


def export_with_the_values(qloop: qasync.QEventLoop, window: MainWindow) -> None:
    """Answer the question whether to export the values the guards masked (the demo masks the record's address)."""
    box = next(b for b in window.findChildren(QMessageBox, "unmasked_export_dialog") if b.isVisible())
    box.findChild(QPushButton, "unmasked_export.accept").click()  # type: ignore[union-attr]
    run(qloop, window.workspace.wait_idle())


def export_through_the_dialog(qloop: qasync.QEventLoop, window: MainWindow, run_id: str, folder: Path) -> Path:
    window._on_replay_export_test_requested(run_id)
    run(qloop, window.workspace.wait_idle())
    export_with_the_values(qloop, window)
    dialog = next(d for d in window.findChildren(QFileDialog, "file_dialog") if d.isVisible())
    dialog.setDirectory(str(folder))
    dialog.accept()
    run(qloop, window.workspace.wait_idle())
    return folder / f"test_run_{run_id[-8:]}.py"


def test_the_thread_menu_exports_the_test_again_with_the_current_design_over_the_same_file(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    assert not thread_menu_action(window, "threads.menu.reexport").isEnabled()  # nothing exported yet
    view, _comparison = replay(qloop, window, run_id)
    assert not view.reexport_test.isVisibleTo(view)
    path = export_through_the_dialog(qloop, window, run_id, tmp_path)
    first = path.read_text(encoding="utf-8")
    assert "PIIDetector" in first and "frozen copy of the design" in first
    assert "ada.lovelace@example.com" not in first  # the reply the test asserts was masked
    assert view.reexport_test.isVisibleTo(view) and path.name in view.reexport_test.text()
    view.close()

    document = workspace.document
    document.undo_stack().push(RemoveEntry(document, output_pii_uid(workspace)))  # the chain changes
    action = thread_menu_action(window, "threads.menu.reexport")
    assert action.isEnabled() and str(path) in action.toolTip()

    action.trigger()  # one action: replay through the current chain, then rewrite the file
    run(qloop, workspace.replays.wait_idle())
    run(qloop, workspace.wait_idle())
    export_with_the_values(qloop, window)  # the run's guards masked the address: asked again

    again = path.read_text(encoding="utf-8")
    assert again != first
    assert first.count("PIIDetector(") > again.count("PIIDetector(")  # the output PII guard is gone from the copy
    assert "ada.lovelace@example.com" in again  # the test now asserts the unmasked reply the chain gives
    assert "frozen copy of the design" in again
    assert [p.name for p in tmp_path.glob("test_run_*.py")] == [path.name]  # the same file, no new one
    run(qloop, workspace.shutdown())


def test_the_replay_view_exports_again_to_the_remembered_file(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    view, _ = replay(qloop, window, run_id)
    path = export_through_the_dialog(qloop, window, run_id, tmp_path)
    first = path.read_text(encoding="utf-8")
    view.close()
    document = workspace.document
    document.undo_stack().push(RemoveEntry(document, output_pii_uid(workspace)))

    view, _ = replay(qloop, window, run_id)
    assert view.reexport_test.isVisibleTo(view) and view.reexport_test.isEnabled()
    view.reexport_test.click()
    run(qloop, workspace.wait_idle())
    export_with_the_values(qloop, window)

    assert path.read_text(encoding="utf-8") != first and "ada.lovelace@example.com" in path.read_text(encoding="utf-8")
    assert not [d for d in window.findChildren(QFileDialog) if d.isVisible()]  # no file asked for again
    run(qloop, workspace.shutdown())
