"""MCP server entries in a design: saved and read back, credentials refused, the exact command shown."""

from __future__ import annotations

import json

import pytest

from studio.design.agent_design import AgentDesign, DesignError, McpServerConfig


def design_with(**server: object) -> dict[str, object]:
    data = json.loads(AgentDesign().to_json())
    data["mcp_servers"] = [{"name": "files", **server}]
    return data


def test_a_design_without_mcp_servers_saves_no_mcp_key() -> None:
    assert "mcp_servers" not in json.loads(AgentDesign().to_json())


def test_servers_round_trip_through_json() -> None:
    design = AgentDesign(
        mcp_servers=[
            McpServerConfig(
                name="files",
                command="npx",
                args=["-y", "server fs", "."],
                env={"LOG_LEVEL": "info"},
                enabled_tools=["read_file"],
            ),
            McpServerConfig(
                name="search", transport="http", url="http://127.0.0.1:8000/mcp", headers={"X-Team": "lab"}
            ),
        ]
    )
    again = AgentDesign.from_json(design.to_json())
    assert again == design
    assert again.mcp_servers[0].command_line() == "npx -y 'server fs' ."


@pytest.mark.parametrize(
    ("server", "path", "fragment"),
    [
        ({"env": {"GITHUB_TOKEN": "ghp_x"}}, "mcp_servers[0]", "env.GITHUB_TOKEN: credentials must not be saved"),
        (
            {"transport": "http", "url": "http://h/mcp", "headers": {"Authorization": "Bearer x"}},
            "mcp_servers[0]",
            "headers.Authorization: credentials",
        ),
        (
            {"transport": "http", "url": "http://h/mcp", "headers": {"X-Extra": "Bearer abc"}},
            "mcp_servers[0]",
            "headers.X-Extra: credentials",
        ),
        ({"transport": "http", "url": "http://user:pw@h/mcp"}, "mcp_servers[0]", "the URL carries a credential"),
        ({"transport": "http", "url": "ftp://h/mcp"}, "mcp_servers[0]", "needs an http:// or https:// URL"),
        ({"command": "  "}, "mcp_servers[0]", "a stdio MCP server needs a command"),
        ({"name": "bad name!", "command": "x"}, "mcp_servers[0].name", "should match pattern"),
    ],
)
def test_bad_entries_are_refused_with_their_path(server: dict[str, object], path: str, fragment: str) -> None:
    data = design_with(command="x", **server) if "command" not in server else design_with(**server)
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_data(data)
    assert caught.value.path == path
    assert fragment in str(caught.value)
