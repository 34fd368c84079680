"""Model Context Protocol servers as tool sources: each tool a server offers becomes a :class:`~processors.Tool`.

The tools people really use live in MCP servers, and guardrails are judged best against them: a tool result is
where an indirect prompt injection arrives, and it passes through ``process_tool_result`` like any other tool's.
Uses the official ``mcp`` SDK::

    from processors.tools.mcp import McpToolSource, StdioServer, HttpServer

    files_server = StdioServer("files", "npx", ("-y", "@modelcontextprotocol/server-filesystem", "."))
    async with McpToolSource(files_server) as files:
        agent = Agent(id="a", instructions="...", model=..., tools=files.tools)
        await agent.generate("List the files")

A source starts its server when entered (``start_seconds`` to answer the handshake and list its tools) and stops
it when left, so whoever owns the run owns the server. Nothing here hangs and nothing escapes as a stack trace:
a server that does not start raises :class:`McpServerError` from ``__aenter__``; a call that times out
(``call_seconds``), a server that crashed, and an error result all raise :class:`McpToolError` from the tool,
which the agent's loop reports as a ``tool-error`` naming the server and the tool.

Credentials for a Streamable HTTP server go in ``HttpServer.headers``, filled by the caller from the OS keyring
(the studio); this module never reads or stores them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from processors.errors import ToolError
from processors.problems import Problem
from processors.tools import Tool

__all__ = ["HttpServer", "McpServerError", "McpToolError", "McpToolSource", "StdioServer"]


class McpServerError(ToolError):
    """An MCP server could not be started, or did not list its tools in time (its message a coded
    :class:`~processors.problems.Problem`: ``mcp:no_start``, ``mcp:cannot_start``)."""


class McpToolError(ToolError):
    """An MCP tool call failed: an error result, a time-out, or a server that went away."""

    def __init__(self, message: str, *, server_failed: bool = False) -> None:
        super().__init__(message)
        #: The server gave no answer (it crashed, its connection broke, or it did not answer in time), as opposed to
        #: an error result the tool itself returned: whoever judges the run (the lab) knows the tool never answered.
        self.server_failed = server_failed


@dataclass(frozen=True)
class StdioServer:
    """A server run as a program that speaks MCP over its stdin/stdout."""

    name: str
    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        return " ".join([self.command, *self.args])


@dataclass(frozen=True)
class HttpServer:
    """A Streamable HTTP server (``http://host:port/mcp``)."""

    name: str
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        return self.url


McpServer = StdioServer | HttpServer


class McpToolSource:
    """One running MCP server and its tools (:attr:`tools`, available inside ``async with``)."""

    def __init__(self, server: McpServer, *, start_seconds: float = 30.0, call_seconds: float = 60.0) -> None:
        self.server = server
        self.start_seconds = start_seconds
        self.call_seconds = call_seconds
        self.tools: list[Tool] = []
        #: Why the server stopped answering (it crashed, or its connection broke); ``None`` while it is usable.
        #: An error result or a time-out leaves it usable; whoever keeps sources between runs restarts a broken one.
        self.broken: str | None = None
        self._client: Any = None
        self._stack: contextlib.AsyncExitStack | None = None

    async def __aenter__(self) -> McpToolSource:
        from mcp import Client  # the SDK is imported only by runs that use MCP

        stack = contextlib.AsyncExitStack()
        try:
            async with asyncio.timeout(self.start_seconds):
                client = await stack.enter_async_context(Client(self._target()))
                listing = await client.list_tools()
        except TimeoutError:
            await _close(stack)
            raise McpServerError(
                Problem(
                    "mcp:no_start",
                    "MCP server '{name}' ({launch}) did not start within {seconds:g} s",
                    name=self.server.name,
                    launch=self.server.describe(),
                    seconds=self.start_seconds,
                )
            ) from None
        except Exception as error:
            await _close(stack)
            raise McpServerError(
                Problem(
                    "mcp:cannot_start",
                    "MCP server '{name}' ({launch}) could not be started: {reason}",
                    name=self.server.name,
                    launch=self.server.describe(),
                    reason=_reason(error),
                )
            ) from None
        self._stack = stack
        self._client = client
        self.tools = [self._wrap(entry) for entry in listing.tools]
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        stack, self._stack, self._client = self._stack, None, None
        if stack is not None:
            await _close(stack)

    def _target(self) -> Any:
        from mcp import StdioServerParameters

        if isinstance(self.server, StdioServer):
            return StdioServerParameters(
                command=self.server.command, args=list(self.server.args), env=dict(self.server.env) or None
            )
        if not self.server.headers:
            return self.server.url
        from mcp.shared._httpx_utils import create_mcp_http_client

        return _HttpTransport(self.server.url, create_mcp_http_client(headers=dict(self.server.headers)))

    def _wrap(self, entry: Any) -> Tool:
        name = str(entry.name)
        schema = entry.input_schema if isinstance(entry.input_schema, dict) else {"type": "object"}

        async def call(**arguments: Any) -> Any:
            return await self.call(name, arguments)

        return Tool(name, entry.description or "", parameters=schema, execute=call)

    async def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """Call ``name`` on the server: its structured content if any, else its text."""
        where = f"MCP server '{self.server.name}', tool '{name}'"
        client = self._client
        if client is None:
            raise McpToolError(f"{where}: the server is not running", server_failed=True)
        try:
            async with asyncio.timeout(self.call_seconds):
                result = await client.call_tool(name, arguments)
        except TimeoutError:
            raise McpToolError(f"{where}: no answer within {self.call_seconds:g} s", server_failed=True) from None
        except Exception as error:
            self.broken = _reason(error)
            raise McpToolError(f"{where}: {self.broken}", server_failed=True) from None
        text = "\n".join(str(part.text) for part in result.content if getattr(part, "type", None) == "text")
        if result.is_error:
            raise McpToolError(f"{where}: {text or 'the tool reported an error'}")
        if result.structured_content is not None:
            structured = result.structured_content
            if isinstance(structured, dict) and set(structured) == {"result"}:
                return structured["result"]  # the SDK wraps a plain return value
            return structured
        return text


class _HttpTransport:
    """Streamable HTTP with the caller's headers (the SDK's ``Transport`` protocol: an async context manager)."""

    def __init__(self, url: str, http_client: Any) -> None:
        self._url = url
        self._http_client = http_client
        self._stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> Any:
        from mcp.client.streamable_http import streamable_http_client

        await self._stack.enter_async_context(self._http_client)
        return await self._stack.enter_async_context(streamable_http_client(self._url, http_client=self._http_client))

    async def __aexit__(self, *exc: object) -> None:
        await self._stack.aclose()


async def _close(stack: contextlib.AsyncExitStack) -> None:
    """Stop the server; a server that already died may make the SDK's shutdown raise: that is not news."""
    with contextlib.suppress(Exception):
        await stack.aclose()


def _reason(error: BaseException) -> str:
    """One line for a failure that may be an exception group (the SDK runs on anyio task groups)."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    text = str(error) or type(error).__name__
    return text if len(text) < 300 else text[:300] + "…"
