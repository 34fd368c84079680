"""A run whose guardrail judge failed is no plain pass (issue 26 §3): in the whole studio (real window, real store,
the sample chain), with the prompt-injection detector's judge on a server that refuses connections or answers 500,
the chat says under the reply that the judge failed and the verdict is the offline one (fail-open), or shows the
block (fail-closed); the inspector says it on the run, on the detector's call and in their details."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from studio.controllers.workspace import Workspace
from studio.models.chat_items import AssistantItem, TripwireItem
from studio.models.editor_commands import EditOptions
from studio.models.trace_nodes import CallNode, RunNode
from studio.views.main_window import MainWindow
from tests.studio.conftest import open_studio, run
from tests.studio.views.test_chat_live import shown, type_and_enter
from tests.support.openai_server import OpenAIServer

DETECTOR = "prompt-injection-detector"


def refused_base_url() -> str:
    """An address where nothing listens: the connection is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def judge_on(workspace: Workspace, api_base: str, strategy: str) -> None:
    """The input lane's prompt-injection detector asks a judge on ``api_base`` for every message."""
    document = workspace.document
    entry = next(e for e in document.snapshot().input if e.type == "PromptInjectionDetector")
    options = {
        **entry.options,
        "model": "openai/judge-model",
        "api_base": api_base,
        "judge_mode": "always",
        "error_strategy": strategy,
        "timeout": 10,
    }
    document.undo_stack().push(EditOptions(document, entry.uid, options))


def send(qtbot: QtBot, qloop: qasync.QEventLoop, workspace: Workspace, window: MainWindow, text: str) -> None:
    async def go() -> None:
        type_and_enter(qtbot, window, text)
        await workspace.runs.wait_finished()

    run(qloop, go())
    window.inspector.flush()
    qtbot.wait(50)


def detector_calls(window: MainWindow) -> list[CallNode]:
    runs = window.inspector.inspector_data.runs
    return [call for call in runs[-1].calls() if call.event.processor_id == DETECTOR]


def run_row_text(window: MainWindow) -> str:
    model = window.inspector.trace_model
    return str(model.data(model.index(model.rowCount(QModelIndex()) - 1, 0), Qt.ItemDataRole.DisplayRole))


@pytest.fixture
def judge_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # the provider's variable: the local servers ignore it


@pytest.mark.parametrize("unreachable", ["refused", "500"])
def test_a_fail_open_judge_failure_is_said_in_the_chat_and_the_inspector(
    qtbot: QtBot,
    qloop: qasync.QEventLoop,
    tmp_path: Path,
    openai_server: OpenAIServer,
    judge_key: None,
    unreachable: str,
) -> None:
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=tmp_path / "studio.db")
    if unreachable == "refused":
        judge_on(workspace, refused_base_url(), "fail-open")
    else:
        for _ in range(4):  # litellm may retry a 500: every attempt fails
            openai_server.reply_error(500, "the judge broke", type="server_error")
        judge_on(workspace, openai_server.base_url, "fail-open")

    send(qtbot, qloop, workspace, window, "Hello!")

    reply = workspace.chat.items[-1]
    assert isinstance(reply, AssistantItem) and reply.status == "done"
    assert "offline demo model" in reply.text  # the run went on without the judge
    assert len(reply.notices) == 1
    notice = reply.notices[0]
    assert notice.startswith(f"The judge of {DETECTOR} failed (") and "offline checks' alone" in notice
    assert "fail-open" in notice
    assert notice in shown(window, reply)  # drawn under the reply, not only in the model

    (call,) = detector_calls(window)
    assert call.event.outcome == "passed"
    assert call.judge_failure is not None and not call.judge_failure.blocked
    assert call.label.endswith("judge failed, offline verdict")
    assert run_row_text(window) == "Run 1 (finished, a judge failed)"
    model = window.inspector.trace_model
    run_row = model.index(model.rowCount(QModelIndex()) - 1, 0)
    assert notice in str(model.data(run_row, Qt.ItemDataRole.ToolTipRole))  # whole, where the row is cut short
    window.inspector.select_entry(call)
    assert "Judge failed:" in window.inspector.details.toPlainText()
    assert notice in window.inspector.details.toPlainText()
    run_node = window.inspector.inspector_data.runs[-1]
    assert isinstance(run_node, RunNode)
    window.inspector.select_entry(run_node)
    assert notice in window.inspector.details.toPlainText()
    run(qloop, workspace.shutdown())


def test_a_fail_closed_judge_failure_blocks_the_run_and_says_why(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, judge_key: None
) -> None:
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=tmp_path / "studio.db")
    judge_on(workspace, refused_base_url(), "fail-closed")

    send(qtbot, qloop, workspace, window, "Hello!")

    banner = workspace.chat.items[-1]
    assert isinstance(banner, TripwireItem) and banner.processor_id == DETECTOR
    assert "failed because the judge model call failed" in shown(window, banner)
    (call,) = detector_calls(window)
    assert call.event.outcome == "aborted"
    assert call.judge_failure is not None and call.judge_failure.blocked
    assert call.label.endswith("judge failed, blocked")
    assert run_row_text(window) == "Run 1 (tripwire, a judge failed)"
    window.inspector.select_entry(call)
    assert "the run was blocked (fail-closed)" in window.inspector.details.toPlainText()
    run(qloop, workspace.shutdown())


def test_a_reopened_thread_says_under_the_reply_that_its_judge_failed(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, judge_key: None
) -> None:
    """Issue 26 §3: the live run said it; reopened from the store (as after a restart) the chat said nothing."""
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=tmp_path / "studio.db")
    judge_on(workspace, refused_base_url(), "fail-open")
    send(qtbot, qloop, workspace, window, "Hello!")
    live_notice = workspace.chat.items[-1].notices[0]  # type: ignore[attr-defined]
    thread_id = workspace.thread_id
    assert thread_id is not None

    run(qloop, workspace.open_thread(thread_id))

    reply = workspace.chat.items[-1]
    assert isinstance(reply, AssistantItem) and "offline demo model" in reply.text
    assert reply.notices == [live_notice]
    assert live_notice in shown(window, reply)
    run(qloop, workspace.shutdown())
