"""A restored thread's scroll bar matches its content without the user scrolling through it first.

Found by the UI walk (Xvfb, 1366x768): opening a stored long thread, the scroll bar's thumb was too small and moved
under the pointer as the user scrolled. The list measures only the rows on screen when a thread opens and estimates
the others (so 10,000 messages open at once); the estimates of plain paragraphs were ~12 % too tall, and each row
scrolled into view was measured and changed the range. Now the off-screen rows are measured in idle passes after the
thread opens, the view held still meanwhile, and the thumb settles to the content's real height.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtWidgets import QApplication

from processors import Message
from studio.models.chat_list_model import ITEM_ROLE
from studio.store.database import Store
from studio.views.chat_list_view import ChatListView
from tests.studio.conftest import open_studio, run

PARAGRAPH = ("The guard looked at the message and scored it. " * 6).strip()


async def _long_thread(database: Path, count: int) -> str:
    """A stored thread of ``count`` messages: short and long questions, answers of one to four paragraphs."""
    async with Store(f"sqlite:///{database}") as store:
        await store.memory.create_thread(title="Welcome")
        record = await store.memory.create_thread(title="Long thread")
        messages = []
        for number in range(count):
            if number % 2 == 0:
                messages.append(Message.user(f"Question {number}: " + ("short" if number % 3 else PARAGRAPH)))
            else:
                answer = "\n\n".join([PARAGRAPH] * (1 + number % 4))
                messages.append(Message.assistant(f"Answer {number}.\n\n{answer}"))
        await store.memory.save_messages(record.id, messages)
        return record.id


def _content_height(view: ChatListView) -> int:
    """Every row measured at the view's width: the height the scroll bar should stand for."""
    model = view.model()
    width = view.viewport().width()
    return sum(view.renderer.height(model.index(row, 0).data(ITEM_ROLE), width) for row in range(model.rowCount()))


def _scroll_height(view: ChatListView) -> int:
    bar = view.verticalScrollBar()
    return bar.maximum() + bar.pageStep()


def test_a_restored_threads_scroll_bar_settles_to_its_content(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    database = tmp_path / "studio.db"
    thread = run(qloop, _long_thread(database, 60))
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=database)
    run(qloop, workspace.open_thread(thread))
    view = window.chat.list_view
    qtbot.waitUntil(lambda: view.viewport().height() > 100 and view.sticks_to_bottom)

    qtbot.waitUntil(lambda: _scroll_height(view) == _content_height(view), timeout=5000)
    bar = view.verticalScrollBar()
    assert bar.value() == bar.maximum()  # still at the newest message
    settled = bar.maximum()
    bar.setValue(0)  # the user goes to the first message: nothing is left to measure, the range stays
    QApplication.processEvents()
    assert bar.maximum() == settled
    run(qloop, workspace.shutdown())


def test_what_the_user_reads_holds_still_while_the_rows_above_are_measured(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    database = tmp_path / "studio.db"
    thread = run(qloop, _long_thread(database, 200))
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=database)
    run(qloop, workspace.open_thread(thread))
    view = window.chat.list_view
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: view.viewport().height() > 100)
    bar.setValue(bar.maximum() // 2)  # the user scrolls up to the middle at once
    index = view.indexAt(view.viewport().rect().center())
    where = view.visualRect(index).top()

    qtbot.waitUntil(lambda: _scroll_height(view) == _content_height(view), timeout=10_000)
    assert not view.sticks_to_bottom
    assert view.indexAt(view.viewport().rect().center()) == index
    assert view.visualRect(index).top() == where
    run(qloop, workspace.shutdown())


def test_a_message_added_below_while_the_user_reads_above_is_measured_too(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    database = tmp_path / "studio.db"
    thread = run(qloop, _long_thread(database, 40))
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=database)
    run(qloop, workspace.open_thread(thread))
    view = window.chat.list_view
    qtbot.waitUntil(lambda: view.viewport().height() > 100 and _scroll_height(view) == _content_height(view))
    view.verticalScrollBar().setValue(0)  # the user reads the first messages
    workspace.chat.add_user_message(f"A late question. {PARAGRAPH} {PARAGRAPH}")  # added out of sight, estimated

    qtbot.waitUntil(lambda: _scroll_height(view) == _content_height(view), timeout=5000)
    assert view.verticalScrollBar().value() == 0
    run(qloop, workspace.shutdown())


def test_settling_says_when_every_row_is_measured(qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    """``settling`` is what tests/bench/bench_ui.py --settle waits for: once it is false, every row is measured."""
    database = tmp_path / "studio.db"
    thread = run(qloop, _long_thread(database, 60))
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=database)
    view = window.chat.list_view
    run(qloop, workspace.open_thread(thread))
    qtbot.waitUntil(lambda: not view.settling, timeout=5000)
    assert _scroll_height(view) == _content_height(view)
    run(qloop, workspace.shutdown())
