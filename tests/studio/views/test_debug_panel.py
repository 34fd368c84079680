"""The debugger in the studio: a breakpoint pauses a live run with the window responsive, the panel shows the chunk
and the state, an edited chunk changes the reply, bad JSON is refused with the run still paused, Stop always works."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import qasync
from pytestqt.qtbot import QtBot

from processors.pipeline.debugger import Pause
from studio.controllers.workspace import Workspace
from studio.views.main_window import MainWindow
from tests.studio.conftest import open_studio, run


def add_breakpoint(window: MainWindow, **fields: str) -> None:
    panel = window.debug_panel
    if "hook" in fields:
        panel.hook.setCurrentIndex(panel.hook.findData(fields["hook"]))
    panel.processor.setText(fields.get("processor", ""))
    panel.chunk_type.setText(fields.get("chunk_type", ""))
    panel.text.setText(fields.get("text", ""))
    panel.add_button.click()


def send_until_paused(qloop: qasync.QEventLoop, workspace: Workspace, text: str) -> tuple[str, Pause, int]:
    """Send, and run the loop until the run pauses; counts timer ticks meanwhile (the UI kept running)."""
    ticks = 0

    async def go() -> tuple[str, Pause, int]:
        nonlocal ticks
        paused: asyncio.Future[Pause] = asyncio.get_running_loop().create_future()
        workspace.debug.paused.connect(lambda pause: paused.done() or paused.set_result(pause))
        run_id = workspace.send(text)
        assert run_id is not None
        pause = await asyncio.wait_for(paused, 60)
        for _ in range(5):  # the loop keeps serving other work while the run waits
            await asyncio.sleep(0.01)
            ticks += 1
        return run_id, pause, ticks

    return run(qloop, go())


def test_a_breakpoint_pauses_the_run_and_an_edited_chunk_changes_the_reply(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    add_breakpoint(window, hook="process_output_stream", chunk_type="text-delta", text="offline")
    assert window.debug_panel.breakpoint_list.count() == 1

    run_id, pause, ticks = send_until_paused(qloop, workspace, "Hello!")

    assert ticks == 5 and workspace.runs.is_running
    panel = window.debug_panel
    assert window.inspector.tabs.currentWidget().isAncestorOf(panel)  # the Debugger tab (it scrolls)
    assert "Paused before" in panel.where.text() and pause.processor_id in panel.where.text()
    wire = json.loads(panel.chunk.toPlainText())
    assert wire["type"] == "text-delta" and "offline" in wire["payload"]["text"]
    assert panel.continue_button.isVisibleTo(panel)

    panel.chunk.setPlainText("{not json")
    panel.continue_button.click()
    assert "The chunk is not valid" in panel.error.text() and workspace.debug.pause is pause, "still paused"

    wire["payload"]["text"] = wire["payload"]["text"].replace("offline", "EDITED")
    panel.chunk.setPlainText(json.dumps(wire))
    workspace.debug.breakpoints.clear()  # let the rest of the run through
    panel.continue_button.click()
    run(qloop, workspace.runs.wait_finished())

    reply = workspace.chat.assistant_for(run_id)
    assert reply is not None and "EDITED" in reply.plain_text and reply.status == "done"
    assert not panel.continue_button.isVisibleTo(panel)
    run(qloop, workspace.shutdown())


def test_stop_ends_a_paused_run_and_abort_ends_it_with_the_reason(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    add_breakpoint(window, hook="process_input")
    finished: list[Any] = []
    workspace.runs.run_finished.connect(lambda run_id, result: finished.append(result))

    send_until_paused(qloop, workspace, "Hello!")
    workspace.stop()  # Esc
    run(qloop, workspace.runs.wait_finished())
    assert finished[-1].finish_reason == "abort"
    assert workspace.debug.pause is None and not window.debug_panel.continue_button.isVisibleTo(window.debug_panel)

    send_until_paused(qloop, workspace, "Hello again!")
    window.debug_panel.abort_button.click()
    run(qloop, workspace.runs.wait_finished())
    assert finished[-1].finish_reason == "error"
    assert "Stopped in the debugger before" in (finished[-1].error or "")
    run(qloop, workspace.shutdown())


def test_without_breakpoints_a_run_gets_no_debugger(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    workspace, _window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    assert workspace.debug.debugger_for_run() is None
    run(qloop, workspace.shutdown())


def test_continuing_without_edits_keeps_a_state_that_is_not_json(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """The output PII guardrail keeps a carry-over object in its state: the panel shows it read-only, and Continue
    hands the very object back (the masked reply is unchanged)."""
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    add_breakpoint(window, hook="process_output_stream", processor="pii-detector-2", text="Ada")

    run_id, pause, _ticks = send_until_paused(qloop, workspace, "Please look up customer 42")
    panel = window.debug_panel
    assert pause.state and panel.state.isReadOnly()
    workspace.debug.breakpoints.clear()
    panel.continue_button.click()
    run(qloop, workspace.runs.wait_finished())

    reply = workspace.chat.assistant_for(run_id)
    assert reply is not None and reply.status == "done" and "a***e@" in reply.plain_text
    run(qloop, workspace.shutdown())


def test_in_chinese_the_step_number_and_the_step_button_read_differently(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, in_language: Any
) -> None:
    """The form's "Step" is the number of the step to pause in (步骤), the button's "Step" steps once (单步); and
    the agent's "Top p" reads in Chinese too."""
    from PySide6.QtWidgets import QLabel

    in_language("zh_CN")
    _, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    panel = window.debug_panel
    step_label = next(label for label in panel.findChildren(QLabel) if label.buddy() is panel.step_number)
    assert (step_label.text(), panel.step_button.text()) == ("步骤", "单步")
    top_p_label = next(
        label
        for label in window.findChildren(QLabel)
        if label.buddy() is not None and label.buddy().objectName() == "settings.top_p"
    )
    assert top_p_label.text() == "核采样 Top &p"
