"""Replaying a whole thread: each run of the thread, in order, through the current chain with no model call, shown
run by run beside its original with the differences highlighted; a divergence stops the replay at its run and step
with the choice stop / continue with the live model; progress and Cancel; reachable from the threads list's menu
and the Replay menu."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot

from processors.pipeline.debugger import Breakpoint, Pause
from studio.controllers.workspace import Workspace
from studio.models.editor_commands import RemoveEntry
from studio.replays.chain_replay import ThreadReplay
from studio.views.main_window import MainWindow
from studio.views.thread_replay_view import ThreadReplayView
from tests.studio.conftest import open_studio, run
from tests.studio.views.test_replay_view import output_pii_uid, send, swap_customer_42_for_43

MESSAGES = ("Hello!", "Please look up customer 42", "Thanks, and customer 7?")


def thread_of_three(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> tuple[Workspace, MainWindow, list[str]]:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db", size=(1280, 800))
    run_ids = [send(qloop, workspace, text) for text in MESSAGES]
    return workspace, window, run_ids


def from_threads_menu(qloop: qasync.QEventLoop, window: MainWindow) -> ThreadReplayView:
    """The threads list's context menu on the open thread: "Replay the whole thread…"; then wait for the end."""
    row = window.workspace.threads_model.row_of(window.workspace.thread_id or "")
    menu = window.threads.context_menu(row)
    action = next(a for a in menu.actions() if a.objectName() == "threads.menu.replay")
    action.trigger()
    view = window.thread_replay_view
    assert view is not None
    run(qloop, window.workspace.replays.wait_idle())
    return view


def replay_thread_until_paused(qloop: qasync.QEventLoop, window: MainWindow) -> tuple[ThreadReplayView, Pause, int]:
    """Open the open thread's replay and run the UI's loop until the replay pauses at a breakpoint; counts the
    loop's turns meanwhile."""
    ticks = 0

    async def go() -> tuple[ThreadReplayView, Pause, int]:
        nonlocal ticks
        paused: asyncio.Future[Pause] = asyncio.get_running_loop().create_future()
        window.workspace.debug.paused.connect(lambda pause: paused.done() or paused.set_result(pause))
        view = window.open_thread_replay(window.workspace.thread_id or "")
        pause = await asyncio.wait_for(paused, 60)
        for _ in range(5):
            await asyncio.sleep(0.01)
            ticks += 1
        return view, pause, ticks

    return run(qloop, go())


def test_a_whole_thread_is_replayed_in_order_and_each_run_shows_what_the_changed_chain_does(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window, run_ids = thread_of_three(qtbot, qloop, tmp_path)
    document = workspace.document
    document.undo_stack().push(RemoveEntry(document, output_pii_uid(workspace)))  # the output PII guard is gone

    view = from_threads_menu(qloop, window)

    report = view.report
    assert isinstance(report, ThreadReplay) and report.total == 3 and not report.cancelled
    assert [item.run_id for item in report.runs] == run_ids, "every run, in the order of the conversation"
    assert [item.input_text for item in report.runs] == list(MESSAGES)
    assert all(item.comparison is not None and item.error is None for item in report.runs)
    looked_up = report.runs[1].comparison
    assert looked_up is not None and looked_up.text_differs
    assert "ada.lovelace@example.com" in looked_up.current.text and "a***e@" in looked_up.original.text
    assert report.runs[1] in report.differing
    # the table: one row per run, the message, the result, differing rows highlighted
    assert view.runs.rowCount() == 3
    assert [view.runs.item(row, 1).text() for row in range(3)] == list(MESSAGES)
    assert "final text differs" in view.runs.item(1, 2).text()
    assert view.runs.item(1, 0).background().color().name() == "#fff3bf"
    # the selected run's two replays side by side, with the differing words highlighted
    view.runs.setCurrentCell(1, 1)
    assert "ada.lovelace@example.com" in view.pane.current.toPlainText()
    assert "background-color:#ccf2d1" in view.pane.current.toHtml().replace(" ", "")
    assert "a***e@" in view.pane.original.toPlainText()
    assert "differ" in view.status.text() and not view.progress.isVisibleTo(view)
    assert not view.divergence_bar.isVisibleTo(view)
    # the last comparison of each run is kept (the regression-test export asserts it)
    assert workspace.replays.comparisons[run_ids[1]] is looked_up
    view.resize(1100, 760)
    assert view.grab().save(str(tmp_path / "thread_replay.png"))
    run(qloop, workspace.shutdown())


def test_an_unchanged_chain_gives_every_run_back_and_the_replay_menu_reaches_it(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window, _run_ids = thread_of_three(qtbot, qloop, tmp_path)

    assert window.replay_thread_action.objectName() == "action.replay_thread"
    menu_titles = [action.text() for action in window.menuBar().actions()]
    assert "&Replay" in menu_titles
    window.replay_thread_action.trigger()
    view = window.thread_replay_view
    assert view is not None
    run(qloop, workspace.replays.wait_idle())

    assert view.report is not None and len(view.report.runs) == 3 and view.report.differing == []
    assert all(item.comparison is not None and item.comparison.identical for item in view.report.runs)
    assert [view.runs.item(row, 2).text() for row in range(3)] == ["same result"] * 3
    assert "same results" in view.status.text()
    run(qloop, workspace.shutdown())


def test_a_divergence_stops_the_thread_at_its_run_and_step_and_continues_with_the_live_model(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """An input rule turns 42 into 43: the second run's first step asks the model something the recording does not
    have. The thread's replay stops there (the third run is not replayed) and says so; "Continue with the live
    model" goes on from that run with the (offline demo) model, keeping the first run's replay."""
    workspace, window, run_ids = thread_of_three(qtbot, qloop, tmp_path)
    swap_customer_42_for_43(workspace)

    view = from_threads_menu(qloop, window)

    report = view.report
    assert report is not None and report.stopped_at == 1 and len(report.runs) == 2 and report.total == 3
    assert report.runs[1].diverged and report.runs[1].comparison is not None
    assert report.runs[1].comparison.current.diverged_at == 1
    assert view.divergence_bar.isVisibleTo(view) and "run 2, step 1" in view.divergence.text()
    assert view.runs.currentRow() == 1 and view.runs.item(1, 2).text() == "diverged at step 1"
    assert view.runs.item(2, 2) is None, "the run after the divergence was not replayed"
    first = report.runs[0]

    view.continue_live.click()
    run(qloop, workspace.replays.wait_idle())

    again = view.report
    assert again is not None and again is not report and again.stopped_at is None
    assert [item.run_id for item in again.runs] == run_ids and again.runs[0] is first, "the first run is kept"
    live = again.runs[1].comparison
    assert live is not None and live.current.divergences[0].action == "live" and live.current.error is None
    assert live.current.changed_tool_calls == [("lookup_customer", {"customer_id": 42}, {"customer_id": 43})]
    assert not again.runs[1].diverged and view.runs.item(2, 2) is not None
    assert not view.divergence_bar.isVisibleTo(view)
    run(qloop, workspace.shutdown())


def test_stop_here_keeps_the_thread_stopped_at_the_divergence(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window, _run_ids = thread_of_three(qtbot, qloop, tmp_path)
    swap_customer_42_for_43(workspace)
    view = from_threads_menu(qloop, window)
    report = view.report

    view.stop_here.click()
    run(qloop, workspace.replays.wait_idle())

    assert view.report is report and report is not None and len(report.runs) == 2, "nothing else ran"
    assert not view.divergence_bar.isVisibleTo(view)
    run(qloop, workspace.shutdown())


def test_cancel_stops_the_thread_replay_where_it_is_even_paused_at_a_breakpoint(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """A breakpoint holds the first run's replay; Cancel ends it there: no later run is replayed, the pause is over,
    and the window said so; the UI kept running meanwhile (the wait is on the replay's own thread)."""
    workspace, window, _run_ids = thread_of_three(qtbot, qloop, tmp_path)
    workspace.debug.add_breakpoint(Breakpoint(hook="process_input"))
    view, _pause, ticks = replay_thread_until_paused(qloop, window)
    assert ticks == 5, "the UI's loop kept running while the replay waited"
    assert view.progress.isVisibleTo(view) and view.cancel.isVisibleTo(view)
    assert workspace.replays.is_busy

    view.cancel.click()
    run(qloop, workspace.replays.wait_idle())

    report = view.report
    assert report is not None and report.cancelled and report.runs == []
    assert workspace.debug.pause is None
    assert "Cancelled after 0 of 3 runs" in view.status.text() and not view.cancel.isVisibleTo(view)
    run(qloop, workspace.shutdown())


def test_a_thread_without_runs_says_so(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    view = from_threads_menu(qloop, window)
    assert view.report is None and "has no runs yet" in view.status.text()
    assert json.dumps(view.results) == "[]"
    run(qloop, workspace.shutdown())
