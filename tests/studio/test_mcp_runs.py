"""MCP servers in the studio's runs: started when a run needs them, kept for the session, stopped when the design's
servers change and with the studio; their tools go through the chain (an output guard catches an injection in a
tool result); a server that cannot start, crashes, times out or errors is an attributed error, never a hang; a
stdio server from a design opened from a file runs only once the user allowed its exact command.

Everything is real: the studio's window and workspace over a SQLite store, litellm over HTTP to the local
OpenAI-compatible server, and the MCP test server (tests/support/mcp_server.py) run by the SDK as a subprocess.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
import qasync
from pytestqt.qtbot import QtBot

from studio.controllers.workspace import Workspace
from studio.design.agent_design import AgentDesign, ChainEntry, McpServerConfig, ModelConfig
from studio.design.export import design_to_python
from studio.mcp.approvals import CommandApprovals
from studio.models.chat_items import ErrorItem
from studio.views.mcp_approval import McpApproval
from tests.studio.conftest import open_studio, run
from tests.studio.keys.test_secrets import MemoryKeyring
from tests.support.mcp_server import INJECTION
from tests.support.openai_server import OpenAIServer, ToolCallReply

SERVER = str(Path(__file__).parents[1] / "support" / "mcp_server.py")


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def studio(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> Iterator[tuple[Workspace, Any]]:
    """The studio over a store in ``tmp_path``; shut down at the end even if the test failed (its MCP servers
    stop the way the studio stops them, not by cancellation when the loop closes)."""
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    yield workspace, window
    run(qloop, workspace.shutdown())  # idempotent


def tools_server(*enabled: str, **env: str) -> McpServerConfig:
    return McpServerConfig(
        name="test-tools", command=sys.executable, args=[SERVER, "stdio"], env=env, enabled_tools=list(enabled)
    )


def mcp_design(base_url: str, *servers: McpServerConfig, guard: bool = False) -> AgentDesign:
    return AgentDesign(
        name="MCP agent",
        instructions="Help.",
        model=ModelConfig(model="openai/gpt-4o-mini", api_base=base_url),
        mcp_servers=list(servers),
        output=[ChainEntry(type="PromptInjectionDetector", options={"strategy": "block"})] if guard else [],
    )


def use(workspace: Workspace, design: AgentDesign, *, approve: bool = True) -> None:
    """Open ``design`` as if the user had made it here (its stdio launches allowed, as typing them does)."""
    if approve:
        for config in design.mcp_servers:
            workspace.mcp_approvals.approve(config)
    workspace.document.open_design(design)


class Chunks:
    """Every chunk of the studio's runs, by type."""

    def __init__(self, workspace: Workspace) -> None:
        self.seen: list[Any] = []
        workspace.runs.chunk_received.connect(lambda _run_id, chunk: self.seen.append(chunk))

    def of(self, kind: str) -> list[Any]:
        return [chunk for chunk in self.seen if chunk.type == kind]


def send_and_finish(qloop: qasync.QEventLoop, workspace: Workspace, text: str) -> list[Any]:
    """Send as the chat does; wait until the servers started and the run ended. Returns the runs' results."""
    results: list[Any] = []
    workspace.runs.run_finished.connect(lambda _run_id, result: results.append(result))

    async def go() -> None:
        workspace.send(text)
        await workspace.wait_idle()  # the servers start in a workspace task
        await workspace.runs.wait_finished()

    run(qloop, go())
    workspace.runs.run_finished.disconnect()
    workspace.runs.run_finished.connect(workspace._on_runs_run_finished)
    return results


def call_pid(qloop: qasync.QEventLoop, workspace: Workspace, design: AgentDesign) -> int:
    """Which process the session's server for ``design`` is (through the same tools a run gets)."""
    tools = run(qloop, workspace.mcp.tools_for(design))
    pid = next(tool for tool in tools if tool.name == "pid")
    return int(run(qloop, pid.call("{}")))


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_an_injection_in_an_mcp_tool_result_is_caught_by_the_output_guard_in_a_studio_run(
    studio: tuple[Workspace, Any], qloop: qasync.QEventLoop, openai_server: OpenAIServer
) -> None:
    workspace, _window = studio
    use(workspace, mcp_design(openai_server.base_url, tools_server("fetch_page"), guard=True))
    chunks = Chunks(workspace)
    openai_server.reply_tool_calls(ToolCallReply("fetch_page", '{"url": "https://example.com"}'))
    openai_server.reply_text("Here is the page.")

    [result] = send_and_finish(qloop, workspace, "What does example.com say?")

    offered = [tool["function"] for tool in openai_server.requests[0]["tools"]]
    assert [tool["name"] for tool in offered] == ["fetch_page"]  # only the enabled tool, with its schema
    assert offered[0]["parameters"]["properties"].keys() == {"url"}
    assert result.tripwire is not None
    assert result.tripwire.processor_id == "prompt-injection-detector"
    assert "fetch_page" in result.tripwire.reason
    assert len(openai_server.requests) == 1  # the model never read the injected page
    assert INJECTION not in json.dumps(openai_server.requests)
    assert [chunk.payload.tool_name for chunk in chunks.of("tool-call")] == ["fetch_page"]


def test_servers_are_kept_for_the_session_and_stop_when_the_design_drops_them_and_with_the_studio(
    studio: tuple[Workspace, Any], qloop: qasync.QEventLoop, openai_server: OpenAIServer
) -> None:
    workspace, _window = studio
    design = mcp_design(openai_server.base_url, tools_server("add", "pid"))
    use(workspace, design)
    openai_server.reply_tool_calls(ToolCallReply("add", '{"a": 20, "b": 22}'))
    openai_server.reply_text("42")
    openai_server.reply_text("again")

    send_and_finish(qloop, workspace, "twenty plus twenty-two?")
    assert json.loads(openai_server.requests[1]["messages"][-1]["content"]) == 42
    first = call_pid(qloop, workspace, design)
    send_and_finish(qloop, workspace, "and now?")
    assert call_pid(qloop, workspace, design) == first  # the same process served both runs
    assert workspace.mcp.running == ["test-tools"]

    workspace.document.set_setting("mcp_servers", [])  # the user removed the server
    run(qloop, workspace.wait_idle())
    assert workspace.mcp.running == []
    assert gone(first)

    use(workspace, design)
    second = call_pid(qloop, workspace, design)
    assert second != first
    run(qloop, workspace.shutdown())
    assert gone(second)


def test_a_server_that_cannot_start_is_said_under_the_message_and_nothing_is_sent(
    studio: tuple[Workspace, Any], qloop: qasync.QEventLoop, openai_server: OpenAIServer
) -> None:
    workspace, _window = studio
    broken = McpServerConfig(name="ghost", command="/nonexistent/mcp-server", enabled_tools=["x"])
    use(workspace, mcp_design(openai_server.base_url, broken))

    assert send_and_finish(qloop, workspace, "hello") == []

    errors = [item.plain_text for item in workspace.chat.items if isinstance(item, ErrorItem)]
    assert len(errors) == 1
    assert errors[0].startswith(
        "Error: Nothing was sent: MCP server 'ghost' (/nonexistent/mcp-server) could not be started"
    )
    assert openai_server.requests == []
    assert not workspace.mcp_launcher.starting  # the next message may go


def test_a_server_that_does_not_answer_the_handshake_stops_the_message_in_time(
    studio: tuple[Workspace, Any], qloop: qasync.QEventLoop, openai_server: OpenAIServer
) -> None:
    workspace, _window = studio
    workspace.mcp.start_seconds = 1
    silent = McpServerConfig(
        name="silent", command=sys.executable, args=["-c", "import time; time.sleep(60)"], enabled_tools=["x"]
    )
    use(workspace, mcp_design(openai_server.base_url, silent))
    send_and_finish(qloop, workspace, "hello")
    errors = [item.plain_text for item in workspace.chat.items if isinstance(item, ErrorItem)]
    assert errors == [
        f"Error: Nothing was sent: MCP server 'silent' ({sys.executable} -c import time; time.sleep(60)) "
        "did not start within 1 s"
    ]
    assert openai_server.requests == []


@pytest.mark.parametrize(
    ("tool", "arguments", "error"),
    [
        (
            "fail",
            '{"message": "out of paper"}',
            "MCP server 'test-tools', tool 'fail': Error executing tool fail: out of paper",
        ),
        ("hang", "{}", "MCP server 'test-tools', tool 'hang': no answer within 2 s"),
        ("crash", "{}", "MCP server 'test-tools', tool 'crash': Connection closed"),
    ],
)
def test_a_tool_that_errors_times_out_or_crashes_its_server_is_an_attributed_tool_error(
    studio: tuple[Workspace, Any],
    qloop: qasync.QEventLoop,
    openai_server: OpenAIServer,
    tool: str,
    arguments: str,
    error: str,
) -> None:
    workspace, _window = studio
    workspace.mcp.call_seconds = 2
    design = mcp_design(openai_server.base_url, tools_server(tool, "pid"))
    use(workspace, design)
    chunks = Chunks(workspace)
    openai_server.reply_tool_calls(ToolCallReply(tool, arguments))
    openai_server.reply_text("Sorry, the tool failed.")
    before = call_pid(qloop, workspace, design)

    [result] = send_and_finish(qloop, workspace, "use the tool")

    assert result.finish_reason == "stop"
    [failure] = chunks.of("tool-error")
    assert failure.payload.tool_name == tool
    assert str(failure.payload.error) == f"Tool '{tool}' failed: McpToolError: {error}"
    assert error in openai_server.requests[1]["messages"][-1]["content"]  # the model was told, attributed
    after = call_pid(qloop, workspace, design)  # a crashed server is restarted for the next run
    assert (after != before) == (tool == "crash")


def foreign(tmp_path: Path, base_url: str, config: McpServerConfig) -> Path:
    path = tmp_path / "shared.json"
    path.write_text(mcp_design(base_url, config).to_json(), encoding="utf-8")
    return path


def test_a_stdio_server_from_a_design_opened_from_a_file_runs_only_once_allowed(
    studio: tuple[Workspace, Any], qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    workspace, window = studio
    config = tools_server("add", LOG_LEVEL="debug")
    assert workspace.open_design_file(foreign(tmp_path, openai_server.base_url, config))
    openai_server.reply_text("hi")

    assert send_and_finish(qloop, workspace, "hello") == []
    assert workspace.mcp.running == []  # nothing ran
    assert openai_server.requests == []
    errors = [item.plain_text for item in workspace.chat.items if isinstance(item, ErrorItem)]
    assert errors == [
        "Error: Nothing was sent: this design's MCP server 'test-tools' runs a program on this computer "
        f"({config.command_line()}). Allow it when asked, then send again."
    ]
    asking = window.findChild(McpApproval, "mcp_approval")
    assert asking is not None
    qtbot.waitUntil(asking.isVisible)
    assert config.command_line() in asking.informativeText()
    assert "LOG_LEVEL=debug" in asking.informativeText()
    asking.allow.click()

    assert len(send_and_finish(qloop, workspace, "hello again")) == 1
    assert workspace.mcp.running == ["test-tools"]
    assert CommandApprovals().is_approved(config)  # remembered across sessions, for this exact launch
    assert not CommandApprovals().is_approved(tools_server("add", LOG_LEVEL="other"))


def test_a_refused_launch_is_not_asked_again_and_never_runs(
    studio: tuple[Workspace, Any], qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    workspace, window = studio
    assert workspace.open_design_file(foreign(tmp_path, openai_server.base_url, tools_server("add")))
    asked: list[object] = []
    workspace.mcp_approval_requested.connect(asked.append)
    send_and_finish(qloop, workspace, "hello")
    asking = window.findChild(McpApproval, "mcp_approval")
    assert asking is not None
    asking.refuse.click()
    send_and_finish(qloop, workspace, "again")
    assert len(asked) == 1
    assert workspace.mcp.running == []
    assert openai_server.requests == []
    assert "you did not allow" in workspace.chat.items[-1].plain_text


def test_an_http_server_s_credential_comes_from_the_keyring_bound_to_its_url(
    studio: tuple[Workspace, Any], memory_keyring: MemoryKeyring
) -> None:
    workspace, _window = studio
    assert workspace.secrets.set_mcp_credential("HTTP://127.0.0.1:9/mcp/", "Bearer team-token") == "keyring"
    here = McpServerConfig(name="here", transport="http", url="http://127.0.0.1:9/mcp", enabled_tools=["a"])
    there = McpServerConfig(name="there", transport="http", url="http://127.0.0.1:10/mcp", enabled_tools=["a"])
    design = AgentDesign(mcp_servers=[here, there])
    assert workspace.mcp_launcher.credentials(design, workspace.secrets) == {"here": "Bearer team-token"}
    assert "team-token" not in design.to_json()
    assert memory_keyring.get_password("processor-studio", "mcp:http://127.0.0.1:9/mcp") == "Bearer team-token"


def test_the_exported_script_starts_the_same_servers_and_gives_the_enabled_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    design = AgentDesign(
        mcp_servers=[
            tools_server("add", "show_env", MCP_TEST_VALUE="exported"),
            McpServerConfig(name="web", transport="http", url="http://127.0.0.1:9/mcp", headers={"X-Team": "a"}),
        ]
    )
    script = design_to_python(design)
    assert "team-token" not in script
    path = tmp_path / "agent.py"
    path.write_text(script, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("exported_agent", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    async def go() -> tuple[list[str], object, object]:
        async with contextlib.AsyncExitStack() as stack:
            tools = await module.open_mcp_tools(stack)
            agent = module.build_agent(tools)
            show = agent.tools["show_env"]
            return list(agent.tools), await show.call('{"name": "MCP_TEST_VALUE"}'), agent

    names, value, _agent = asyncio.run(go())
    assert names == ["add", "show_env"]  # the HTTP server enables nothing: not started
    assert value == "exported"


def test_an_exported_http_server_reads_its_credential_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = McpServerConfig(name="web-search", transport="http", url="http://127.0.0.1:9/mcp", enabled_tools=["q"])
    script = design_to_python(AgentDesign(mcp_servers=[config]))
    monkeypatch.setenv("MCP_WEB_SEARCH_AUTHORIZATION", "Bearer from-env")
    namespace: dict[str, Any] = {"__name__": "exported"}
    exec(compile(script, "agent.py", "exec"), namespace)
    [(server, enabled)] = namespace["MCP_SERVERS"]
    assert server.headers == {"Authorization": "Bearer from-env"}
    assert enabled == ["q"]
    assert "$MCP_WEB_SEARCH_AUTHORIZATION" in script


def test_stop_while_the_servers_start_drops_the_message_and_the_server_still_stops(
    studio: tuple[Workspace, Any], qloop: qasync.QEventLoop, openai_server: OpenAIServer
) -> None:
    workspace, _window = studio
    workspace.mcp.start_seconds = 2
    silent = McpServerConfig(
        name="silent", command=sys.executable, args=["-c", "import time; time.sleep(60)"], enabled_tools=["x"]
    )
    use(workspace, mcp_design(openai_server.base_url, silent))

    async def go() -> None:
        workspace.send("hello")
        while not any(task.get_name() == "MCP server silent" for task in asyncio.all_tasks()):
            await asyncio.sleep(0)  # until the server is being started (it never answers)
        workspace.stop()
        await workspace.wait_idle()

    run(qloop, go())
    errors = [item.plain_text for item in workspace.chat.items if isinstance(item, ErrorItem)]
    assert errors == ["Error: Stopped while the MCP servers were starting; nothing was sent."]
    assert not workspace.mcp_launcher.starting
    run(qloop, workspace.mcp.aclose())  # the abandoned start ends within its time limit
    assert openai_server.requests == []
