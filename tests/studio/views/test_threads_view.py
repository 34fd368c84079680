"""Threads: new, rename, delete (with confirmation), search, selection — over a real SQLite store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from studio.controllers.threads_controller import ThreadsController
from studio.models.threads_model import ThreadListModel
from studio.store.database import Store
from studio.views.threads_view import ThreadsView
from tests.studio.conftest import run, settle


@pytest.fixture
def store(qloop: qasync.QEventLoop, tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    run(qloop, store.open())
    yield store
    run(qloop, store.close())


@pytest.fixture
def view(qtbot: QtBot, qloop: qasync.QEventLoop, store: Store) -> tuple[ThreadsView, ThreadsController]:
    model = ThreadListModel()
    controller = ThreadsController(store, model)
    view = ThreadsView(model)
    view.new_thread_requested.connect(controller.create)
    view.rename_requested.connect(controller.rename)
    view.delete_requested.connect(controller.delete)
    view.search_requested.connect(controller.refresh)
    controller.thread_created.connect(lambda record: view.select_thread(record.id))
    qtbot.addWidget(view)
    view.show()
    return view, controller


def titles(view: ThreadsView) -> list[str]:
    return [view.model.index(row).data() for row in range(view.model.rowCount())]


def test_new_rename_search_and_delete(
    qtbot: QtBot, qloop: qasync.QEventLoop, store: Store, view: tuple[ThreadsView, ThreadsController]
) -> None:
    threads, controller = view
    picked: list[str] = []
    threads.thread_selected.connect(picked.append)

    qtbot.mouseClick(threads.new_button, Qt.MouseButton.LeftButton)
    run(qloop, controller.wait_idle())
    assert titles(threads) == ["New conversation"]
    first = threads.current_thread_id()
    assert first is not None
    assert picked == [first]

    threads.list.setFocus()  # the list's keys work where the focus is (issue 26 §2)
    qtbot.keyClick(threads.list, Qt.Key.Key_F2)
    assert threads.rename_editor.isVisible()
    threads.rename_editor.setText("Refund for order 42")
    qtbot.keyClick(threads.rename_editor, Qt.Key.Key_Return)
    run(qloop, controller.wait_idle())
    assert titles(threads) == ["Refund for order 42"]
    assert run(qloop, store.memory.get_thread(first)).title == "Refund for order 42"

    run(qloop, controller.create("Weather questions"))
    assert titles(threads) == ["Weather questions", "Refund for order 42"]
    threads.search.setText("refund")
    run(qloop, controller.wait_idle())
    assert titles(threads) == ["Refund for order 42"]
    threads.search.clear()
    run(qloop, controller.wait_idle())

    threads.select_thread(first)
    threads.list.setFocus()
    qtbot.keyClick(threads.list, Qt.Key.Key_Delete)
    box = threads.findChild(QMessageBox, "threads.confirm_delete")
    assert box is not None
    assert "Refund for order 42" in box.text()
    box.button(QMessageBox.StandardButton.Yes).click()
    settle(qloop)
    run(qloop, controller.wait_idle())
    assert titles(threads) == ["Weather questions"]
    assert run(qloop, store.memory.get_thread(first)) is None


def test_cancelled_delete_keeps_the_thread(
    qtbot: QtBot, qloop: qasync.QEventLoop, store: Store, view: tuple[ThreadsView, ThreadsController]
) -> None:
    threads, controller = view
    run(qloop, controller.create("Keep me"))
    threads.list.setCurrentIndex(threads.model.index(0))
    threads.list.setFocus()
    qtbot.keyClick(threads.list, Qt.Key.Key_Delete)
    box = threads.findChild(QMessageBox, "threads.confirm_delete")
    assert box is not None
    box.button(QMessageBox.StandardButton.Cancel).click()
    settle(qloop)
    run(qloop, controller.wait_idle())
    assert titles(threads) == ["Keep me"]


def test_a_store_failure_is_reported_not_raised(
    qloop: qasync.QEventLoop, store: Store, view: tuple[ThreadsView, ThreadsController]
) -> None:
    _threads, controller = view
    messages: list[str] = []
    controller.failed.connect(messages.append)
    run(qloop, controller.rename("no-such-thread", "x"))
    assert len(messages) == 1
    assert messages[0].startswith("Could not rename the thread:")


def test_the_current_thread_stays_current_through_rename_refresh_and_delete(
    qtbot: QtBot, qloop: qasync.QEventLoop, store: Store, view: tuple[ThreadsView, ThreadsController]
) -> None:
    threads, controller = view
    for title in ("Oldest", "Middle", "Newest"):
        run(qloop, controller.create(title))
    assert titles(threads) == ["Newest", "Middle", "Oldest"]
    middle = threads.model.record(1)
    assert middle is not None
    threads.select_thread(middle.id)
    threads.list.setFocus()

    qtbot.keyClick(threads.list, Qt.Key.Key_F2)  # rename
    threads.rename_editor.setText("Middle, renamed")
    qtbot.keyClick(threads.rename_editor, Qt.Key.Key_Return)
    run(qloop, controller.wait_idle())
    assert threads.current_thread_id() == middle.id
    assert threads.list.selectionModel().isSelected(threads.list.currentIndex())

    run(qloop, controller.reload())  # what a sent message's run does when it ends (order and titles change)
    assert threads.current_thread_id() == middle.id

    picked: list[str] = []
    threads.thread_selected.connect(picked.append)
    row = threads.list.currentIndex().row()
    neighbour = threads.model.record(row + 1 if row + 1 < threads.model.rowCount() else row - 1)
    assert neighbour is not None
    qtbot.keyClick(threads.list, Qt.Key.Key_Delete)
    box = threads.findChild(QMessageBox, "threads.confirm_delete")
    assert box is not None
    box.button(QMessageBox.StandardButton.Yes).click()
    settle(qloop)
    run(qloop, controller.wait_idle())
    assert sorted(titles(threads)) == ["Newest", "Oldest"]
    assert threads.current_thread_id() == neighbour.id == picked[-1]  # the neighbour took its place, and opens
