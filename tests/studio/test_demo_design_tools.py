"""The offline demo model tries the design's own tools in a studio chat: an MCP tool (the stdio test server) and
a user tool from the tools folder, both ticked, are called when the message names them, and the answer comes
from their results; a message that lacks a required value gets what the tool takes instead of a call.

Everything is real: the studio's window and workspace over a SQLite store, the demo model, the MCP test server
(tests/support/mcp_server.py) run by the SDK as a subprocess, and a tool file in the studio's tools folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from studio.controllers.workspace import Workspace
from studio.design.agent_design import AgentDesign, ModelConfig
from studio.system.paths import tools_folder
from tests.studio.conftest import TOOL_FILE, open_studio, run
from tests.studio.test_mcp_runs import Chunks, send_and_finish, tools_server, use


@pytest.fixture
def studio(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> Iterator[tuple[Workspace, Any]]:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    yield workspace, window
    run(qloop, workspace.shutdown())


def test_the_demo_model_calls_a_ticked_mcp_tool_and_a_user_tool_offline(
    studio: tuple[Workspace, Any], qloop: qasync.QEventLoop
) -> None:
    workspace, _window = studio
    (tools_folder() / "text_tools.py").write_text(TOOL_FILE, encoding="utf-8")
    design = AgentDesign(
        name="Demo with my tools",
        instructions="Help.",
        model=ModelConfig(model="demo"),
        tools=["text_tools.py:shout"],
        mcp_servers=[tools_server("add")],
    )
    use(workspace, design)
    chunks = Chunks(workspace)

    [result] = send_and_finish(qloop, workspace, "Use add with 20 and 22")
    assert [chunk.payload.tool_name for chunk in chunks.of("tool-call")] == ["add"]
    assert chunks.of("tool-call")[0].payload.args == {"a": 20, "b": 22}
    assert result.text.endswith("The `add` tool returned: 42")

    [result] = send_and_finish(qloop, workspace, "use shout on hello world")
    assert [chunk.payload.tool_name for chunk in chunks.of("tool-call")] == ["add", "shout"]
    assert result.text.endswith("The `shout` tool returned: HELLO WORLD")

    [result] = send_and_finish(qloop, workspace, "Use add with 5")
    assert len(chunks.of("tool-call")) == 2  # no call without every required value
    assert "could not read its `b`" in result.text and "- `b` (integer, required)" in result.text
