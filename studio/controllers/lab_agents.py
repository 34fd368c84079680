"""How the lab turns a design into the agents its worker processes run: the key its endpoint may have (as a chat
run, a key goes only to the endpoint it was saved for), the user's approval of the stdio MCP servers it would start
(the chat's answers), and a check, here and once, that those servers start and offer an enabled tool.

One collaborator of :class:`studio.controllers.lab_controller.LabController`, used by the running of a lab run and
by opening a stored case as a thread.
"""

from __future__ import annotations

from typing import Any

from lab.recipe import AgentRecipe, LabAgentsError
from processors.models.providers import provider_name
from studio.controllers.lab_events import LabEvents
from studio.controllers.mcp_launcher import McpLauncher
from studio.design.agent_design import AgentDesign
from studio.design.service_guards import service_endpoints
from studio.error_texts import error_text
from studio.i18n import translate
from studio.keys.secrets import NO_KEY, SecretStore
from studio.keys.service_keys import bound_keys
from studio.lab.design import agent_factory, agent_recipe, check_mcp_agents, needs_mcp_servers
from studio.mcp.servers import servers_to_start


class LabAgentMaker:
    """A design's agents for a lab run, or the reason (said through ``events.failed``) they may not be made."""

    def __init__(
        self, events: LabEvents, *, catalogue: Any, secrets: SecretStore | None, mcp_launcher: McpLauncher
    ) -> None:
        self._events = events
        self.catalogue = catalogue
        self.secrets = secrets
        #: The user's answers about launching MCP servers: the chat's (the workspace's launcher), so a launch allowed
        #: or refused in one is so in the other.
        self.mcp_launcher = mcp_launcher

    def api_key(self, design: AgentDesign, mode: str) -> tuple[bool, str | None]:
        """(may run, the key to send): as a chat run, a key goes only to the endpoint it was saved for."""
        if mode != "model" or design.model.is_demo or self.secrets is None:
            return True, None
        grant = self.secrets.key_for(provider_name(design.model.model), design.model.api_base)
        if grant.withheld:
            self._events.failed.emit(
                translate(
                    "LabController",
                    "Your {provider} key is not approved for {host}: allow it in Settings → API keys first.",
                ).format(provider=grant.provider, host=grant.host)
            )
            return False, None
        return True, grant.key or NO_KEY

    def recipe(self, design: AgentDesign, mode: str) -> AgentRecipe | None:
        """The recipe of ``design``'s agents for the lab's worker processes (None, said, when its key may not be
        sent or it would start an MCP server the user has not allowed). Builds one agent here first, so a design
        that cannot be built raises :class:`studio.design.agent_design.DesignError` now, not in every worker. In the
        modes that may call a tool, the recipe starts the design's MCP servers in each worker
        (:mod:`studio.lab.design`); :meth:`servers_refusal` checks first, here, that they do."""
        if not self.mcp_allowed(design, mode):
            return None
        allowed, api_key = self.api_key(design, mode)
        if not allowed:
            return None
        agent_factory(design, catalogue=self.catalogue, api_key=api_key)
        credentials = self.mcp_credentials(design) if needs_mcp_servers(design, mode) else None
        service_keys = bound_keys(self.secrets, service_endpoints(design, self.catalogue)) if self.secrets else []
        return agent_recipe(
            design, catalogue=self.catalogue, api_key=api_key, mcp_credentials=credentials, service_keys=service_keys
        )

    def mcp_credentials(self, design: AgentDesign) -> dict[str, str]:
        return McpLauncher.credentials(design, self.secrets) if self.secrets is not None else {}

    def mcp_allowed(self, design: AgentDesign, mode: str) -> bool:
        """Whether a run of ``design`` in ``mode`` may start: it starts no stdio MCP server whose program the user
        has not allowed (the chat's rule). Otherwise the user is asked (``mcp_approval_requested``, once per
        session per launch) and nothing runs, said with ``failed``."""
        if not needs_mcp_servers(design, mode):
            return True
        found = self.mcp_launcher.unapproved(design)
        if found is None:
            return True
        config, declined = found
        if not declined:
            self._events.mcp_approval_requested.emit(config)
            self._events.failed.emit(
                translate(
                    "LabController",
                    "Nothing was run: this design's MCP server '{name}' runs a program on this computer "
                    "({command}). Allow it when asked, then run again.",
                ).format(name=config.name, command=config.command_line())
            )
        else:
            self._events.failed.emit(
                translate(
                    "LabController",
                    "Nothing was run: you did not allow this design's MCP server '{name}' to run ({command}). "
                    "Disable its tools in the Agent tab, open the design again to be asked again, or run in "
                    "guardrails mode (it starts no MCP server).",
                ).format(name=config.name, command=config.command_line())
            )
        return False

    async def servers_refusal(self, design: AgentDesign, mode: str) -> str | None:
        """Before a run that starts MCP servers in its workers: start them here once, build an agent with their
        tools, stop them. The line to say, naming the server, when one cannot start or lacks an enabled tool (the
        run is then not created, rather than stop in every worker); None when the run may go on."""
        if not needs_mcp_servers(design, mode):
            return None
        _, api_key = self.api_key(design, mode)
        names = ", ".join(config.name for config in servers_to_start(design))
        self._events.status_message.emit(
            translate("LabController", "Starting MCP servers: {names}…").format(names=names)
        )
        try:
            await check_mcp_agents(
                design, catalogue=self.catalogue, api_key=api_key, credentials=self.mcp_credentials(design)
            )
        except LabAgentsError as error:
            return translate("LabController", "Nothing was run: {error}").format(error=error_text(error))
        return None


__all__ = ["LabAgentMaker"]
