"""The Lab window runs a design whose tools come from an MCP server, under pytest-qt over the real studio: a stdio
server the user has not allowed is asked about in the Lab's own window (the chat's dialog; nothing runs meanwhile),
an allowed one runs in the lab's worker processes and stops with the run; a server that cannot start is said, naming
it, and no lab run is created; guardrails mode starts none; a case opened as a thread gets the same tools.

Real parts: the MCP test server run by the SDK, the lab's worker processes, litellm over HTTP to the local server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from lab.process_run import ProcessLabRun
from studio.design.agent_design import McpServerConfig
from studio.views.mcp_approval import McpApproval
from tests.studio.conftest import run
from tests.studio.views.lab_support import finish, open_lab, until_signal
from tests.support.mcp_lab import (
    ToolCallingServer,
    corpus,
    corpus_file,
    mcp_design,
    new_tag,
    server_pids,
    tools_server,
)


def lab_with(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, design: Any, mode: str) -> tuple[Any, Any]:
    workspace, _window, lab = open_lab(qtbot, qloop, tmp_path)
    lab.controller.design = lambda: design
    assert run(qloop, lab.controller.import_corpus(corpus_file(tmp_path / "mcp.jsonl", corpus(6))))
    lab.mode.setCurrentIndex(lab.mode.findData(mode))
    return workspace, lab


@pytest.mark.timeout(300)  # cold worker processes on a loaded machine
def test_a_model_run_asks_before_starting_a_stdio_server_then_runs_its_tools_in_the_workers(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    tag = new_tag()
    config = tools_server(tag)
    with ToolCallingServer() as server:
        workspace, lab = lab_with(qtbot, qloop, tmp_path, mcp_design(server.base_url, config), "model")
        lab.concurrency.setValue(4)

        (said,) = until_signal(qloop, lab.controller.failed, lab.run_button.click)
        assert said == (
            "Nothing was run: this design's MCP server 'test-tools' runs a program on this computer "
            f"({config.command_line()}). Allow it when asked, then run again."
        )
        assert lab.message.text() == said
        dialog = lab.findChild(McpApproval, "mcp_approval")
        assert dialog is not None and dialog.isVisible() and dialog.parent() is lab
        assert config.command_line() in dialog.informativeText()
        assert not lab.controller.is_running and lab.run_button.isEnabled()
        assert run(qloop, workspace.store.lab_runs.list_lab_runs()) == [] and server.requests == []
        dialog.allow.click()
        assert workspace.mcp_approvals.is_approved(config)  # the chat's approvals: remembered for both

        engines: list[Any] = []
        lab.controller.run_started.connect(lambda _id: engines.append(lab.controller.live_run))
        _, status = finish(qloop, lab, lab.run_button.click)
        assert status == "finished"
        seen = server_pids(tag)  # the pre-flight's server and the workers' ones

        # A case opened as a thread runs again with the design's MCP tools (its recorded answers replayed).
        page = next(result for result in lab.controller.results if result.id.startswith("page"))
        (thread_id,) = until_signal(
            qloop, workspace.thread_opened, lambda: lab.open_case_requested.emit(page.id), failed=lab.controller.failed
        )
        run(qloop, workspace.wait_idle())
        runs, _, _ = run(qloop, workspace.store.thread_history(thread_id))
        assert len(runs) == 1 and runs[0].outcome == "tripwire"
        assert runs[0].tripwire["processorId"] == "prompt-injection-detector"  # the verdict the lab derived
        seen += server_pids(tag)  # its server stopped after its run

    (engine,) = engines
    assert isinstance(engine, ProcessLabRun) and engine.pids
    outcomes = {result.id: result.outcome for result in lab.controller.results}
    assert outcomes == {c.id: "blocked" if c.id.startswith("page") else "passed" for c in corpus(6)}
    blocked = next(result for result in lab.controller.results if result.outcome == "blocked")
    assert blocked.tripped == ["prompt-injection-detector"] and "fetch_page" in (blocked.reason or "")
    assert seen == []  # the workers (kept warm for the next run) stopped their servers with the run


def test_a_server_that_cannot_start_is_said_and_no_lab_run_is_created(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    ghost = McpServerConfig(name="ghost", command="/nonexistent/mcp-server", enabled_tools=["x"])
    with ToolCallingServer() as server:
        workspace, lab = lab_with(qtbot, qloop, tmp_path, mcp_design(server.base_url, ghost), "model")
        workspace.mcp_approvals.approve(ghost)
        (said,) = until_signal(qloop, lab.controller.failed, lab.run_button.click)
        run(qloop, lab.controller.wait_idle())
        assert server.requests == []
    assert said.startswith("Nothing was run: MCP server 'ghost' (/nonexistent/mcp-server) could not be started")
    assert lab.message.text() == said
    assert run(qloop, workspace.store.lab_runs.list_lab_runs()) == []
    assert not lab.controller.is_running and lab.run_button.isEnabled()


def test_guardrails_mode_runs_without_asking_and_starts_no_server(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    tag = new_tag()
    with ToolCallingServer() as server:
        _workspace, lab = lab_with(qtbot, qloop, tmp_path, mcp_design(server.base_url, tools_server(tag)), "guardrails")
        asked: list[Any] = []
        lab.controller.mcp_approval_requested.connect(asked.append)
        _, status = finish(qloop, lab, lab.run_button.click)
        assert server.requests == []
    assert status == "finished" and asked == []
    assert lab.findChild(McpApproval, "mcp_approval") is None
    assert {result.outcome for result in lab.controller.results} == {"passed"}
