"""A design's MCP servers start for a run, give only their enabled tools, and stop when the run ends."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from processors.tools.mcp import HttpServer, McpServerError, McpToolError
from studio.design.agent_design import AgentDesign, McpServerConfig
from studio.mcp.servers import open_mcp_tools, runtime_server

SERVER = str(Path(__file__).parents[2] / "support" / "mcp_server.py")


def stdio_config(*enabled: str) -> McpServerConfig:
    return McpServerConfig(
        name="test-tools", command=sys.executable, args=[SERVER, "stdio"], enabled_tools=list(enabled)
    )


async def test_only_enabled_tools_are_given_and_they_stop_with_the_run() -> None:
    design = AgentDesign(mcp_servers=[stdio_config("add"), McpServerConfig(name="idle", command="/nonexistent")])
    async with open_mcp_tools(design) as tools:
        assert [tool.name for tool in tools] == ["add"]
        assert await tools[0].call('{"a": 20, "b": 22}') == 42
    with pytest.raises(McpToolError, match="the server is not running"):
        await tools[0].call('{"a": 1, "b": 1}')


async def test_an_enabled_tool_the_server_no_longer_offers_is_named() -> None:
    design = AgentDesign(mcp_servers=[stdio_config("add", "gone_tool")])
    with pytest.raises(McpServerError, match=r"^MCP server 'test-tools' does not offer the tool\(s\) gone_tool"):
        async with open_mcp_tools(design):
            pass


def test_an_http_server_gets_its_keyring_credential_only_at_run_time() -> None:
    config = McpServerConfig(name="search", transport="http", url="http://127.0.0.1:9/mcp", headers={"X-Team": "a"})
    assert runtime_server(config, "Bearer from-keyring") == HttpServer(
        "search", "http://127.0.0.1:9/mcp", {"X-Team": "a", "Authorization": "Bearer from-keyring"}
    )
    assert "from-keyring" not in AgentDesign(mcp_servers=[config]).to_json()
