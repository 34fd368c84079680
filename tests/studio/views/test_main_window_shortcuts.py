"""Keys act where the focus is (issue 26 §2): Del in a chain removes the entry (no "Ambiguous shortcut overload"),
Del in the inspector's timeline deletes nothing, Del in the threads list asks — with Cancel the default, the
escape and the focused button — and a deleted thread comes back with "Undo delete", from the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from studio.design.agent_design import McpServerConfig
from studio.keys.secrets import KeyGrant
from studio.views.endpoint_approval import EndpointApproval
from studio.views.lab_dialogs import confirm_delete
from studio.views.main_window import MainWindow
from studio.views.mcp_approval import McpApproval
from studio.views.questions import DestructiveQuestion
from tests.studio.conftest import open_studio, run, settle


def questions(window: MainWindow) -> list[QMessageBox]:
    return [box for box in window.findChildren(QMessageBox) if box.isVisible()]


def ambiguous(qtlog: Any) -> list[str]:
    return [record.message for record in qtlog.records if "Ambiguous shortcut" in record.message]


def say_hello(qloop: qasync.QEventLoop, workspace: Any) -> None:
    async def go() -> None:
        assert workspace.send("hello") is not None
        await workspace.runs.wait_finished()

    run(qloop, go())


def open_focused(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> tuple[Any, MainWindow]:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # a shortcut reaches only the active window
    return workspace, window


def test_del_in_a_chain_removes_the_selected_entry(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, qtlog: Any
) -> None:
    workspace, window = open_focused(qtbot, qloop, tmp_path)
    document = workspace.document
    first, *rest = [entry.uid for entry in document.chain("input")]
    window.chains.select(first)
    view = window.chains.view("input")
    qtbot.waitUntil(view.hasFocus)

    qtbot.keyClick(view, Qt.Key.Key_Delete)

    assert [entry.uid for entry in document.chain("input")] == rest
    assert questions(window) == []
    assert ambiguous(qtlog) == []
    assert len(workspace.threads_model.records()) == 1
    run(qloop, workspace.shutdown())


def test_del_in_the_inspector_timeline_never_asks_to_delete_the_thread(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, qtlog: Any
) -> None:
    workspace, window = open_focused(qtbot, qloop, tmp_path)
    say_hello(qloop, workspace)
    timeline = window.inspector.timeline
    timeline.setCurrentIndex(timeline.model().index(0, 0))
    timeline.setFocus()
    qtbot.waitUntil(timeline.hasFocus)

    qtbot.keyClick(timeline, Qt.Key.Key_Delete)
    settle(qloop)

    assert questions(window) == []
    assert ambiguous(qtlog) == []
    assert len(workspace.threads_model.records()) == 1
    run(qloop, workspace.shutdown())


def test_del_in_the_threads_list_asks_with_cancel_first_and_a_deletion_can_be_undone(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, qtlog: Any
) -> None:
    workspace, window = open_focused(qtbot, qloop, tmp_path)
    say_hello(qloop, workspace)
    (thread,) = workspace.threads_model.records()
    threads = window.threads
    assert not threads.restore_button.isVisibleTo(window)
    threads.list.setFocus()
    qtbot.waitUntil(threads.list.hasFocus)

    qtbot.keyClick(threads.list, Qt.Key.Key_Delete)
    (box,) = questions(window)
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    assert box.escapeButton() is box.button(QMessageBox.StandardButton.Cancel)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is box.button(QMessageBox.StandardButton.Cancel))
    qtbot.keyClick(box, Qt.Key.Key_Return)  # a hurried Enter keeps the conversation
    settle(qloop)
    run(qloop, workspace.threads.wait_idle())
    assert [record.id for record in workspace.threads_model.records()] == [thread.id]

    window.activateWindow()  # offscreen, nothing gives the window back its activation when the box closes
    qtbot.waitUntil(window.isActiveWindow)
    threads.list.setFocus()
    qtbot.waitUntil(threads.list.hasFocus)
    qtbot.keyClick(threads.list, Qt.Key.Key_Delete)
    (box,) = questions(window)
    box.button(QMessageBox.StandardButton.Yes).click()
    settle(qloop)
    run(qloop, workspace.threads.wait_idle())
    assert thread.id not in [record.id for record in workspace.threads_model.records()]
    qtbot.waitUntil(lambda: threads.restore_button.isVisibleTo(window))

    qtbot.mouseClick(threads.restore_button, Qt.MouseButton.LeftButton)
    run(qloop, workspace.threads.wait_idle())
    run(qloop, workspace.wait_idle())
    assert thread.id in [record.id for record in workspace.threads_model.records()]
    qtbot.waitUntil(lambda: workspace.thread_id == thread.id)
    assert "hello" in [getattr(item, "text", None) for item in workspace.chat.items]
    assert not threads.restore_button.isVisibleTo(window)
    assert ambiguous(qtlog) == []
    run(qloop, workspace.shutdown())


def test_every_destructive_question_defaults_to_cancel(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    parent.show()
    said_yes: list[str] = []
    boxes = [
        confirm_delete(parent, 3, lambda: said_yes.append("lab")),
        DestructiveQuestion("Delete", "Delete it?", parent, on_yes=lambda: said_yes.append("question")),
    ]
    for box in boxes:
        box.open()
        cancel = box.button(QMessageBox.StandardButton.Cancel)
        assert box.defaultButton() is cancel and box.escapeButton() is cancel
        qtbot.waitUntil(lambda box=box: QApplication.focusWidget() is box.button(QMessageBox.StandardButton.Cancel))
        qtbot.keyClick(box, Qt.Key.Key_Return)
        assert box.isHidden()
    assert said_yes == []
    # the security questions (run a design's program, send a key elsewhere): the refusal is the default
    approvals = [
        McpApproval(McpServerConfig(name="files", command="npx", args=["server"]), parent),
        EndpointApproval(
            KeyGrant(provider="openai", endpoint="https://proxy.example/v1", saved_for=None, key=None, withheld=True),
            parent,
        ),
    ]
    for approval in approvals:
        qtbot.addWidget(approval)
        assert approval.defaultButton() is approval.refuse
    box = DestructiveQuestion("Delete", "Delete it?", parent, on_yes=lambda: said_yes.append("yes"))
    box.open()
    box.button(QMessageBox.StandardButton.Yes).click()
    assert said_yes == ["yes"]
