"""The debugger on replayed runs: a breakpoint pauses a replay just as a live run (on the replay's own thread, the
window responsive), the panel shows the chunk about to be processed, an edited chunk changes the replay's result,
bad JSON is refused with the replay still paused, Step pauses at the very next call, Abort ends the replay with the
reason, and Stop (Esc, or the replay view's Stop) always works."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot

from processors.pipeline.debugger import Pause
from studio.views.main_window import MainWindow
from studio.views.replay_view import ReplayView
from tests.studio.conftest import open_studio, run
from tests.studio.views.test_debug_panel import add_breakpoint
from tests.studio.views.test_replay_view import send


def replay_until_paused(qloop: qasync.QEventLoop, window: MainWindow, run_id: str) -> tuple[ReplayView, Pause, int]:
    """Open ``run_id``'s replay and run the UI's loop until it pauses; counts the loop's turns meanwhile."""
    ticks = 0

    async def go() -> tuple[ReplayView, Pause, int]:
        nonlocal ticks
        paused: asyncio.Future[Pause] = asyncio.get_running_loop().create_future()
        window.workspace.debug.paused.connect(lambda pause: paused.done() or paused.set_result(pause))
        view = window.open_replay(run_id)
        pause = await asyncio.wait_for(paused, 60)
        for _ in range(5):
            await asyncio.sleep(0.01)
            ticks += 1
        return view, pause, ticks

    return run(qloop, go())


def next_pause(qloop: qasync.QEventLoop, window: MainWindow) -> Pause:
    async def go() -> Pause:
        paused: asyncio.Future[Pause] = asyncio.get_running_loop().create_future()
        window.workspace.debug.paused.connect(lambda pause: paused.done() or paused.set_result(pause))
        return await asyncio.wait_for(paused, 60)

    return run(qloop, go())


def test_a_breakpoint_pauses_a_replay_and_an_edited_chunk_changes_its_result(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Hello!")
    add_breakpoint(window, hook="process_output_stream", chunk_type="text-delta", text="offline")

    view, pause, ticks = replay_until_paused(qloop, window, run_id)

    assert ticks == 5 and workspace.replays.is_busy and not workspace.runs.is_running
    assert pause.hook == "process_output_stream" and "offline" in pause.part.payload.text
    panel = window.debug_panel
    assert window.inspector.tabs.currentWidget().isAncestorOf(panel)  # the Debugger tab (it scrolls)
    assert "Paused before" in panel.where.text() and pause.processor_id in panel.where.text()
    assert view.stop_replay.isVisibleTo(view), "the replay can be stopped while it is paused"
    wire = json.loads(panel.chunk.toPlainText())
    assert wire["type"] == "text-delta" and "offline" in wire["payload"]["text"]

    panel.chunk.setPlainText("{not json")
    panel.continue_button.click()
    assert "The chunk is not valid" in panel.error.text() and workspace.debug.pause is pause, "still paused"

    wire["payload"]["text"] = wire["payload"]["text"].replace("offline", "EDITED")
    panel.chunk.setPlainText(json.dumps(wire))
    panel.continue_button.click()
    run(qloop, workspace.replays.wait_idle())

    comparison = view.comparison
    assert comparison is not None, "the replay finished"
    assert "EDITED" in comparison.current.text and "offline" in comparison.original.text
    assert "EDITED" not in comparison.original.text, "only the current chain's replay is debugged"
    assert comparison.text_differs and "final text differs" in view.status.text()
    assert "EDITED" in view.current.toPlainText()
    assert workspace.debug.pause is None and not panel.continue_button.isVisibleTo(panel)
    assert not view.stop_replay.isVisibleTo(view)
    run(qloop, workspace.shutdown())


def test_step_pauses_a_replay_at_the_very_next_call_and_abort_ends_it_with_the_reason(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Hello!")
    add_breakpoint(window, hook="process_input")

    view, first, _ticks = replay_until_paused(qloop, window, run_id)
    assert first.hook == "process_input"
    panel = window.debug_panel

    async def step() -> Pause:
        paused: asyncio.Future[Pause] = asyncio.get_running_loop().create_future()
        workspace.debug.paused.connect(lambda pause: paused.done() or paused.set_result(pause))
        panel.step_button.click()
        return await asyncio.wait_for(paused, 60)

    second = run(qloop, step())
    assert second is not first and (second.hook, second.processor_id) != (first.hook, first.processor_id)

    panel.abort_button.click()
    run(qloop, workspace.replays.wait_idle())

    comparison = view.comparison
    assert comparison is not None and comparison.current.finish_reason == "error"
    assert f"Stopped in the debugger before {second.processor_id}.{second.hook}" in (comparison.current.error or "")
    assert comparison.original.error is None
    assert workspace.debug.pause is None
    run(qloop, workspace.shutdown())


def test_stop_always_ends_a_paused_replay(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    """Esc (the window's Stop) ends a replay paused at a breakpoint, and so does the replay view's Stop button;
    nothing is kept, the pause is over, and a replay afterwards runs as usual."""
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Hello!")
    add_breakpoint(window, hook="process_input")

    view, _pause, _ticks = replay_until_paused(qloop, window, run_id)
    workspace.stop()  # Esc
    run(qloop, workspace.replays.wait_idle())
    assert view.comparison is None and "Replay stopped" in view.status.text()
    assert workspace.debug.pause is None and not window.debug_panel.continue_button.isVisibleTo(window.debug_panel)

    view, _pause, _ticks = replay_until_paused(qloop, window, run_id)
    view.stop_replay.click()
    run(qloop, workspace.replays.wait_idle())
    assert view.comparison is None and "Replay stopped" in view.status.text() and workspace.debug.pause is None

    window.debug_panel.breakpoint_list.setCurrentRow(0)
    window.debug_panel.remove_button.click()
    assert workspace.debug.breakpoints == []
    view = window.open_replay(run_id)
    run(qloop, workspace.replays.wait_idle())
    assert view.comparison is not None and view.comparison.identical
    run(qloop, workspace.shutdown())
