"""McpLauncher: a stdio launch the user has not allowed is asked about once per session, refused ones stay refused
until the design is opened again, an allowed one is remembered (on disk), and HTTP credentials come from the keyring
bound to their URL."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.controllers.mcp_launcher import McpLauncher
from studio.design.agent_design import AgentDesign, McpServerConfig
from studio.mcp.approvals import CommandApprovals


def _design(*servers: McpServerConfig) -> AgentDesign:
    return AgentDesign(name="mcp", mcp_servers=list(servers))


STDIO = McpServerConfig(name="files", command="mcp-files", args=["--root", "."], enabled_tools=["read"])


def test_an_unallowed_launch_is_asked_once_then_refused_until_the_design_opens_again(
    qtbot: QtBot, tmp_path: Path
) -> None:
    launcher = McpLauncher(CommandApprovals(tmp_path / "approvals.json"))
    asked: list[McpServerConfig] = []
    launcher.approval_requested.connect(asked.append)
    design = _design(STDIO)

    first = launcher.unapproved_launch(design)
    assert first is not None and "mcp-files --root ." in first and "Allow it when asked" in first
    assert asked == [STDIO]

    with qtbot.waitSignal(launcher.status_message) as said:
        launcher.answer_approval(STDIO, approved=False)
    assert said.args == ["MCP server 'files' was not started."]
    second = launcher.unapproved_launch(design)
    assert second is not None and "you did not allow" in second
    assert asked == [STDIO]  # not asked again in this session

    launcher.design_opened()
    assert launcher.unapproved_launch(design) is not None
    assert asked == [STDIO, STDIO]  # asked again once the design is opened again


def test_an_allowed_launch_is_remembered_across_sessions(tmp_path: Path) -> None:
    path = tmp_path / "approvals.json"
    launcher = McpLauncher(CommandApprovals(path))
    launcher.answer_approval(STDIO, approved=True)
    assert launcher.unapproved_launch(_design(STDIO)) is None
    assert McpLauncher(CommandApprovals(path)).unapproved_launch(_design(STDIO)) is None
    other = STDIO.model_copy(update={"args": ["--root", "/"]})
    assert McpLauncher(CommandApprovals(path)).unapproved_launch(_design(other)) is not None  # another launch


def test_servers_without_enabled_tools_are_neither_asked_about_nor_started(tmp_path: Path) -> None:
    idle = STDIO.model_copy(update={"enabled_tools": []})
    assert McpLauncher(CommandApprovals(tmp_path / "a.json")).unapproved_launch(_design(idle)) is None
