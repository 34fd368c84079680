"""A design's MCP servers, started for a run: :func:`open_mcp_tools` starts each server the design names and
yields the tools it enabled; leaving the ``async with`` stops them all. :class:`McpSessions` keeps them running
between runs instead (the studio's workspace owns one: servers start when a run first needs them, and stop when
the design's servers change or the studio closes).

Credentials are not in designs: ``credentials`` maps a server name to the ``Authorization`` header value the
caller read from the keyring. Whether a stdio server from someone else's design may run at all is asked before
this is called (the command shown is :meth:`McpServerConfig.command_line`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

from processors.problems import Problem
from processors.tools import Tool
from processors.tools.mcp import HttpServer, McpServerError, McpToolSource, StdioServer
from studio.design.agent_design import AgentDesign, McpServerConfig

__all__ = [
    "ListedTool",
    "McpSessions",
    "launch_key",
    "list_server_tools",
    "open_mcp_tools",
    "runtime_server",
    "servers_to_start",
]

logger = logging.getLogger(__name__)


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
        for config in servers_to_start(design):
            server = runtime_server(config, (credentials or {}).get(config.name))
            source = await stack.enter_async_context(
                McpToolSource(server, start_seconds=start_seconds, call_seconds=call_seconds)
            )
            tools.extend(enabled_tools(config, source))
        yield tools


#: A tool a server offers: its name, description and parameters' JSON schema.
ListedTool = tuple[str, str, dict[str, Any]]


async def list_server_tools(config: McpServerConfig, credential: str | None = None) -> list[ListedTool]:
    """Start the server for a moment and say which tools it offers (the agent settings' "List tools"). Raises
    :class:`McpServerError` naming the server when it cannot start."""
    async with McpToolSource(runtime_server(config, credential)) as source:
        return [(tool.name, tool.description, dict(tool.parameters)) for tool in source.tools]


def servers_to_start(design: AgentDesign) -> list[McpServerConfig]:
    """The design's servers a run needs: those with at least one tool enabled (the others are not started)."""
    return [config for config in design.mcp_servers if config.enabled_tools]


def enabled_tools(config: McpServerConfig, source: McpToolSource) -> list[Tool]:
    """The tools ``config`` enables, in its order; :class:`McpServerError` naming any the server does not offer
    (renamed or removed since the design was made)."""
    offered = {tool.name: tool for tool in source.tools}
    missing = [name for name in config.enabled_tools if name not in offered]
    if missing:
        raise McpServerError(
            Problem(
                "mcp:tools_missing",
                "MCP server '{name}' does not offer the tool(s) {tools} that the design enables",
                name=config.name,
                tools=", ".join(missing),
            )
        )
    return [offered[name] for name in config.enabled_tools]


@dataclass(eq=False)
class _Kept:
    """One server kept running: its source lives inside ``task`` (the SDK's task groups must be entered and left
    by the same task, so each server has a task of its own that leaves when ``stop`` is set)."""

    task: asyncio.Task[None]
    source: McpToolSource
    stop: asyncio.Event

    @property
    def usable(self) -> bool:
        return not self.task.done() and self.source.broken is None


class McpSessions:
    """MCP servers kept running for a session, keyed by their exact configuration (and credential).

    :meth:`tools_for` starts what a design needs and reuses what already runs; a server whose configuration left
    the design (edited, removed, its tools all disabled), or that crashed, is stopped (and restarted if still
    needed). :meth:`aclose` stops them all. Not thread-safe: one asyncio loop owns it, one caller at a time.
    """

    def __init__(self, *, start_seconds: float = 30.0, call_seconds: float = 60.0) -> None:
        self.start_seconds = start_seconds
        self.call_seconds = call_seconds
        self._kept: dict[tuple[str, str], _Kept] = {}
        #: Servers whose start was given up (the message was stopped): they leave on their own; aclose waits.
        self._abandoned: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> list[str]:
        """Names of the servers running now (for tests and the status bar)."""
        return [kept.source.server.name for kept in self._kept.values() if kept.usable]

    async def tools_for(self, design: AgentDesign, credentials: Mapping[str, str] | None = None) -> list[Tool]:
        """The enabled tools of every server the design needs, starting those not running. Raises
        :class:`McpServerError` naming the server that cannot start or lacks an enabled tool."""
        wanted = {_key(config, (credentials or {}).get(config.name)): config for config in servers_to_start(design)}
        for key in [key for key in self._kept if key not in wanted]:
            await self._stop(key)
        tools: list[Tool] = []
        for key, config in wanted.items():
            kept = self._kept.get(key)
            if kept is None or not kept.usable:
                if kept is not None:
                    await self._stop(key)  # it crashed: a fresh process for this run
                kept = await self._start(key, runtime_server(config, (credentials or {}).get(config.name)))
            tools.extend(enabled_tools(config, kept.source))
        return tools

    async def retain(self, design: AgentDesign) -> None:
        """Stop every server the design no longer needs (its entry was edited or removed, or its tools disabled)."""
        launches = {launch_key(config) for config in servers_to_start(design)}
        for key in [key for key in self._kept if key[0] not in launches]:
            await self._stop(key)

    async def aclose(self) -> None:
        """Stop every server (the studio is closing)."""
        for key in list(self._kept):
            await self._stop(key)
        if self._abandoned:
            await asyncio.wait(set(self._abandoned))

    async def _start(self, key: tuple[str, str], server: StdioServer | HttpServer) -> _Kept:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[McpToolSource] = loop.create_future()
        stop = asyncio.Event()

        async def keep() -> None:
            try:
                async with McpToolSource(
                    server, start_seconds=self.start_seconds, call_seconds=self.call_seconds
                ) as source:
                    if not ready.done():  # else the caller gave up waiting (cancelled): leave at once
                        ready.set_result(source)
                        await stop.wait()
            except McpServerError as error:
                if not ready.done():
                    ready.set_exception(error)
            except Exception as error:  # the SDK gave up on a server that went away: it is restarted when needed
                logger.info("MCP server %r stopped: %s", server.name, error)
                if not ready.done():
                    ready.set_exception(
                        McpServerError(
                            Problem(
                                "mcp:stopped",
                                "MCP server '{name}' stopped: {reason}",
                                name=server.name,
                                reason=str(error),
                            )
                        )
                    )

        task = loop.create_task(keep(), name=f"MCP server {server.name}")
        try:
            source = await asyncio.shield(ready)
        except asyncio.CancelledError:
            ready.cancel()  # the server stops as soon as its handshake ends (or times out)
            self._abandoned.add(task)
            task.add_done_callback(self._abandoned.discard)
            raise
        self._kept[key] = kept = _Kept(task, source, stop)
        return kept

    async def _stop(self, key: tuple[str, str]) -> None:
        kept = self._kept.pop(key)
        kept.stop.set()
        await asyncio.wait({kept.task})


def launch_key(config: McpServerConfig) -> str:
    """What makes two entries the same server process: everything but the enabled tools (a text, to key a dict)."""
    return config.model_dump_json(exclude={"enabled_tools"})


def _key(config: McpServerConfig, credential: str | None) -> tuple[str, str]:
    """A running server's identity: its launch and its credential (hashed: a changed key restarts it)."""
    return launch_key(config), hashlib.sha256(credential.encode()).hexdigest() if credential else ""
