"""A regression test of a run holds its message, the thread before it and its recording raw (a PII guard's test needs
the values to exercise the guard): when the run's design has a hiding guard (PIIDetector, RegexFilter; not one that
only warns) that found values in them, the export asks first, naming their kinds, and the file says so on top. The
real window: the demo design masks the customer record's e-mail address and phone number in the answer."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from processors.demo.offline import lookup_customer
from studio.design.agent_design import DEMO_MODEL, AgentDesign, ChainEntry, ModelConfig
from studio.regression_exports import exported_path
from studio.views.main_window import MainWindow
from tests.studio.conftest import open_studio, run
from tests.studio.store.test_run_transfer_privacy import PII
from tests.studio.views.test_replay_view import replay, send


def asked(window: MainWindow) -> QMessageBox | None:
    return next((b for b in window.findChildren(QMessageBox, "unmasked_export_dialog") if b.isVisible()), None)


def file_dialog(window: MainWindow) -> QFileDialog | None:
    return next((d for d in window.findChildren(QFileDialog, "file_dialog") if d.isVisible()), None)


def ask_to_export(qloop: qasync.QEventLoop, window: MainWindow, run_id: str) -> None:
    window._on_replay_export_test_requested(run_id)
    run(qloop, window.workspace.wait_idle())


def write_through_the_file_dialog(qloop: qasync.QEventLoop, window: MainWindow, folder: Path) -> None:
    dialog = file_dialog(window)
    assert dialog is not None
    dialog.setDirectory(str(folder))
    dialog.accept()
    run(qloop, window.workspace.wait_idle())


def test_cancel_writes_nothing_and_accept_writes_the_file_saying_what_it_holds(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    replay(qloop, window, run_id)
    target = tmp_path / f"test_run_{run_id[-8:]}.py"

    ask_to_export(qloop, window, run_id)
    box = asked(window)
    assert box is not None and file_dialog(window) is None  # asked before any file is picked
    assert "e-mail addresses" in box.text() and "phone numbers" in box.text() and "unmasked" in box.text()
    cancel = box.findChild(QPushButton, "unmasked_export.cancel")
    assert cancel is not None and box.escapeButton() is cancel
    cancel.click()
    run(qloop, workspace.wait_idle())
    assert asked(window) is None and file_dialog(window) is None
    assert list(tmp_path.glob("*.py")) == [] and exported_path(run_id) is None

    ask_to_export(qloop, window, run_id)  # Esc is Cancel
    box = asked(window)
    assert box is not None
    QTest.keyClick(box, Qt.Key.Key_Escape)
    run(qloop, workspace.wait_idle())
    assert asked(window) is None and file_dialog(window) is None and list(tmp_path.glob("*.py")) == []

    ask_to_export(qloop, window, run_id)
    box = asked(window)
    assert box is not None
    accept = box.findChild(QPushButton, "unmasked_export.accept")
    assert accept is not None and accept.text() == "Export with the values"
    accept.click()
    write_through_the_file_dialog(qloop, window, tmp_path)
    source = target.read_text(encoding="utf-8")
    assert source.startswith("# UNMASKED VALUES: this file holds, unmasked, values the design's guardrails hid")
    assert "email" in source.splitlines()[0] and "phone" in source.splitlines()[0]
    assert exported_path(run_id) == target
    compile(source, str(target), "exec")
    run(qloop, workspace.shutdown())


def test_exporting_again_over_the_file_asks_too(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    view, _ = replay(qloop, window, run_id)
    ask_to_export(qloop, window, run_id)
    box = asked(window)
    assert box is not None
    box.findChild(QPushButton, "unmasked_export.accept").click()  # type: ignore[union-attr]
    write_through_the_file_dialog(qloop, window, tmp_path)
    target = tmp_path / f"test_run_{run_id[-8:]}.py"
    first = target.stat().st_mtime_ns
    target.write_text("# the user's edit\n", encoding="utf-8")

    view.reexport_test.click()
    run(qloop, workspace.wait_idle())
    box = asked(window)
    assert box is not None
    box.findChild(QPushButton, "unmasked_export.cancel").click()  # type: ignore[union-attr]
    run(qloop, workspace.wait_idle())
    assert target.read_text(encoding="utf-8") == "# the user's edit\n"  # nothing written over it
    assert view.reexport_test.isEnabled()

    view.reexport_test.click()
    run(qloop, workspace.wait_idle())
    box = asked(window)
    assert box is not None
    box.findChild(QPushButton, "unmasked_export.accept").click()  # type: ignore[union-attr]
    run(qloop, workspace.wait_idle())
    assert target.read_text(encoding="utf-8").startswith("# UNMASKED VALUES") and file_dialog(window) is None
    assert first is not None
    run(qloop, workspace.shutdown())


def test_a_run_with_no_hiding_guard_exports_without_asking(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """A design whose PII guard only warns hid nothing: the test holds the values as the chat showed them."""
    warned = AgentDesign(
        name="warn only",
        model=ModelConfig(model=DEMO_MODEL),
        tools=["lookup_customer"],
        output=[ChainEntry(type="PIIDetector", options={**PII, "strategy": "warn"})],
    )
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    workspace.document.open_design(warned)
    run_id = send(qloop, workspace, "Please look up customer 42")
    record = run(qloop, lookup_customer.call({"customer_id": 42}))
    assert record["email"] in workspace.chat.items[-1].plain_text  # shown as the tool said it
    replay(qloop, window, run_id)

    ask_to_export(qloop, window, run_id)
    assert asked(window) is None
    write_through_the_file_dialog(qloop, window, tmp_path)
    source = (tmp_path / f"test_run_{run_id[-8:]}.py").read_text(encoding="utf-8")
    assert "UNMASKED VALUES" not in source and "PIIDetector" in source
    run(qloop, workspace.shutdown())
