"""A design's MCP servers, started for a run: :func:`open_mcp_tools` starts each server the design names and
yields the tools it enabled; leaving the ``async with`` stops them all (the run, or the workspace, owns it).

Credentials are not in designs: ``credentials`` maps a server name to the ``Authorization`` header value the
caller read from the keyring. Whether a stdio server from someone else's design may run at all is asked before
this is called (the command shown is :meth:`McpServerConfig.command_line`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping

from processors.tools import Tool
from processors.tools.mcp import HttpServer, McpServerError, McpToolSource, StdioServer
from studio.design import AgentDesign, McpServerConfig

__all__ = ["open_mcp_tools", "runtime_server"]


def runtime_server(config: McpServerConfig, credential: str | None = None) -> StdioServer | HttpServer:
    """The runtime description of one design entry (with its keyring credential, for an HTTP server)."""
    if config.transport == "stdio":
        return StdioServer(config.name, config.command, tuple(config.args), dict(config.env))
    headers = dict(config.headers)
    if credential:
        headers["Authorization"] = credential
    return HttpServer(config.name, config.url.strip(), headers)


@contextlib.asynccontextmanager
async def open_mcp_tools(
    design: AgentDesign,
    *,
    credentials: Mapping[str, str] | None = None,
    start_seconds: float = 30.0,
    call_seconds: float = 60.0,
) -> AsyncIterator[list[Tool]]:
    """Start the design's servers that have tools enabled; yield those tools. Raises :class:`McpServerError`
    (naming the server) if one cannot start, after stopping those already started; also if an enabled tool is
    not offered by its server (renamed or removed since the design was made)."""
    async with contextlib.AsyncExitStack() as stack:
        tools: list[Tool] = []
        for config in design.mcp_servers:
            if not config.enabled_tools:
                continue  # nothing enabled: the server is not started
            server = runtime_server(config, (credentials or {}).get(config.name))
            source = await stack.enter_async_context(
                McpToolSource(server, start_seconds=start_seconds, call_seconds=call_seconds)
            )
            offered = {tool.name: tool for tool in source.tools}
            missing = [name for name in config.enabled_tools if name not in offered]
            if missing:
                raise McpServerError(
                    f"MCP server '{config.name}' does not offer the tool(s) "
                    f"{', '.join(missing)} that the design enables"
                )
            tools.extend(offered[name] for name in config.enabled_tools)
        yield tools
