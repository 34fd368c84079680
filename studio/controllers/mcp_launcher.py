"""``McpLauncher``: a design's MCP servers started for its runs — asked for first when they run a program here.

    launcher = McpLauncher(CommandApprovals())
    launcher.approval_requested.connect(window.ask_mcp_approval)      # shows the exact command, answers below
    why_not = launcher.unapproved_launch(design)                      # None when every launch is allowed
    tools = await launcher.start_tools(design, secrets)               # started (or reused) servers' tools
    launcher.answer_approval(config, approved=True)

The servers stay running between runs in :attr:`sessions` (an :class:`~studio.mcp.servers.McpSessions`) and stop
when they leave the design (:meth:`retain`) or at shutdown. A stdio server from someone else's design runs a program
on this computer, so it starts only once the user allowed that exact launch (remembered across sessions by
:class:`~studio.mcp.approvals.CommandApprovals`); a refusal is remembered for the session, so the question is not
asked at every message. Credentials come from the keyring, bound to the server's URL, never from the design.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QObject, Signal

from processors.tools import Tool
from studio.design.agent_design import AgentDesign, McpServerConfig
from studio.i18n import translate
from studio.keys.secrets import SecretStore
from studio.mcp.approvals import CommandApprovals, launch_signature
from studio.mcp.servers import ListedTool, McpSessions, list_server_tools, servers_to_start


class McpLauncher(QObject):
    """The workspace's MCP servers and the user's answers about launching them."""

    #: A design's stdio MCP server (a :class:`~studio.design.agent_design.McpServerConfig`) would run a program the user
    #: has not allowed; the window asks, showing the exact command, and answers with :meth:`answer_approval`.
    approval_requested = Signal(object)
    #: A line for the status bar.
    status_message = Signal(str)

    def __init__(self, approvals: CommandApprovals | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: The design's MCP servers, kept running between runs.
        self.sessions = McpSessions()
        #: The stdio launches the user allowed (typed in the agent settings, or allowed when asked).
        self.approvals = approvals if approvals is not None else CommandApprovals()
        #: Launches the user refused in this session: not asked again.
        self._declined: set[str] = set()
        #: A message waits for the design's servers to start (no second one meanwhile).
        self.starting = False
        #: Servers started for a moment to list their tools (:meth:`list_tools`).
        self._listing: set[asyncio.Task[list[ListedTool]]] = set()

    def design_opened(self) -> None:
        """A design opened again asks again about the launches refused so far."""
        self._declined.clear()

    async def start_tools(self, design: AgentDesign, secrets: SecretStore) -> list[Tool]:
        """Start (or reuse) the design's servers and return the tools it enabled. Raises
        :class:`~processors.tools.mcp.McpServerError` naming a server that cannot start."""
        return await self.sessions.tools_for(design, self.credentials(design, secrets))

    def list_tools(self, config: McpServerConfig, secrets: SecretStore) -> asyncio.Task[list[ListedTool]]:
        """Start ``config``'s server for a moment to list the tools it offers (its HTTP credential from the
        keyring); the task's result is the list, or :class:`~processors.tools.mcp.McpServerError`. Nothing asks
        about the launch here: the caller lists only allowed ones (:attr:`approvals`)."""
        credential = secrets.mcp_credential(config.url) if config.transport == "http" else None
        task = asyncio.get_event_loop().create_task(list_server_tools(config, credential))
        self._listing.add(task)
        task.add_done_callback(self._listing.discard)
        return task

    async def wait_listed(self) -> None:
        """Wait until every :meth:`list_tools` has ended (its callers' done callbacks run first)."""
        while self._listing:
            await asyncio.wait(set(self._listing))

    async def retain(self, design: AgentDesign) -> None:
        """Stop the servers ``design`` no longer needs."""
        await self.sessions.retain(design)

    async def aclose(self) -> None:
        await self.sessions.aclose()

    @staticmethod
    def credentials(design: AgentDesign, secrets: SecretStore) -> dict[str, str]:
        """Each HTTP server's ``Authorization`` value from the keyring, bound to its URL (never in the design)."""
        credentials: dict[str, str] = {}
        for config in servers_to_start(design):
            if config.transport == "http":
                value = secrets.mcp_credential(config.url)
                if value:
                    credentials[config.name] = value
        return credentials

    def unapproved(self, design: AgentDesign) -> tuple[McpServerConfig, bool] | None:
        """The first of the design's stdio servers whose launch the user has not allowed, and whether they refused it
        in this session (None: every launch is allowed). Asks nothing: the Lab asks in its own window."""
        for config in servers_to_start(design):
            if not self.approvals.is_approved(config):
                return config, launch_signature(config) in self._declined
        return None

    def unapproved_launch(self, design: AgentDesign) -> str | None:
        """Why the run cannot start yet, if one of the design's stdio servers runs a program the user has not
        allowed: they are asked (once per session per launch), and nothing runs meanwhile."""
        found = self.unapproved(design)
        if found is not None:
            config, declined = found
            if not declined:
                self.approval_requested.emit(config)
                return translate(
                    "Workspace",
                    "Nothing was sent: this design's MCP server '{name}' runs a program on this computer "
                    "({command}). Allow it when asked, then send again.",
                ).format(name=config.name, command=config.command_line())
            return translate(
                "Workspace",
                "Nothing was sent: you did not allow this design's MCP server '{name}' to run ({command}). "
                "Disable its tools in the Agent tab, or open the design again to be asked again.",
            ).format(name=config.name, command=config.command_line())
        return None

    def answer_approval(self, config: Any, approved: bool) -> None:
        """The user's answer to :attr:`approval_requested`: an allowed launch is remembered across sessions,
        a refused one for this session (not asked again at every message)."""
        if not approved:
            self._declined.add(launch_signature(config))
            self.status_message.emit(
                translate("Workspace", "MCP server '{name}' was not started.").format(name=config.name)
            )
            return
        self.approvals.approve(config)
        self._declined.discard(launch_signature(config))
        self.status_message.emit(
            translate("Workspace", "MCP server '{name}' may now run; send again to use it.").format(name=config.name)
        )


__all__ = ["McpLauncher"]
