"""What the lab needs of a design, shared by the studio's Lab view and ``processor-studio lab``: its fingerprint
(which results may be resumed or compared as the same design) and a fresh agent per case, in this process
(:func:`agent_factory`) or in the lab's worker processes (:func:`agent_recipe`, a recipe they can be sent).

One module for both faces, so a figure in the studio equals the figure in CI.

A design's MCP servers (:class:`McpAgents`) run in the lab's ``model`` and ``replay`` modes, where the agent may call
their tools (a model's tool call; a recorded one needs the tool to exist, and one the recording lacks runs it), once
per lab process for the whole run, as in chat; ``guardrails`` mode answers with a fixed reply that calls no tool of
the design, so it starts none (:func:`needs_mcp_servers`). Whether a stdio server may run at all is the caller's
question (the studio's approval dialog, the command's ``--allow-mcp``), asked before the recipe is made.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from lab.recipe import AgentRecipe, LabAgents, LabAgentsError
from processors import Agent, Tool
from processors.builtin.guard_services.keys import BoundKeys, key_source, use_key_source
from processors.builtin.registry import Catalogue, load_catalogue, load_user_folder
from processors.problems import problem_of
from processors.tools.mcp import McpServerError, McpToolError
from studio.design.agent_design import AgentDesign, DesignError
from studio.design.build import build_agent
from studio.mcp.servers import McpSessions, servers_to_start

#: How many times a run's MCP servers may be started again in one lab process after a crash before the run stops.
MAX_RESTARTS = 3
#: The lab modes in which a design's MCP servers run (see the module docstring).
MCP_MODES = ("model", "replay")


def design_fingerprint(design: AgentDesign) -> str:
    """What the design does, without its identity: ids, entry uids and times left out, so two copies of the
    sample (each gets new ids) resume each other's results and an edited chain does not."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("id", "uid", "created_at", "updated_at")}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    text = json.dumps(strip(design.model_dump(mode="json")), sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def design_info(design: AgentDesign) -> dict[str, Any]:
    """The ``design`` object of the lab's results and reports."""
    return {"id": design.id, "name": design.name, "fingerprint": design_fingerprint(design)}


def agent_factory(design: AgentDesign, *, catalogue: Any, api_key: str | None = None) -> Callable[[], Any]:
    """A fresh agent per case (no processor's state leaks between cases). Builds one first, so a design that
    cannot be built raises :class:`studio.design.agent_design.DesignError` once, here, rather than once per case."""

    def factory() -> Any:
        return build_agent(design, catalogue=catalogue, api_key=api_key)

    factory()
    return factory


def catalogue_folders(catalogue: Catalogue) -> list[str]:
    """The user processor folders ``catalogue`` loaded files from (what a worker process must load again)."""
    folders = [
        str(Path(record.source.removeprefix("file:")).parent)
        for record in catalogue
        if record.source.startswith("file:")
    ]
    return list(dict.fromkeys(folders))


def needs_mcp_servers(design: AgentDesign, mode: str) -> bool:
    """Whether a lab run of ``design`` in ``mode`` starts MCP servers (it has some with tools enabled, and the mode
    may call them)."""
    return mode in MCP_MODES and bool(servers_to_start(design))


def agent_recipe(
    design: AgentDesign,
    *,
    catalogue: Catalogue,
    api_key: str | None = None,
    mcp_credentials: Mapping[str, str] | None = None,
    service_keys: Sequence[tuple[str, str, str]] = (),
) -> AgentRecipe:
    """What a lab worker process needs to build ``design``'s agents: :func:`lab_agents` and plain data (the design
    as JSON, the catalogue's user folders, the key, sent in memory when the worker starts, never written).

    With ``mcp_credentials`` (a mapping, empty when no HTTP server needs one), each process that opens the recipe
    starts the design's MCP servers for the run (:class:`McpAgents`); without, it starts none. ``service_keys``
    are the design's guard services' keys, ``(name, endpoint, key)`` (:func:`studio.keys.service_keys.bound_keys`),
    sent the same way and used for those endpoints only."""
    data = {
        "design_json": design.to_json(),
        "folders": catalogue_folders(catalogue),
        "api_key": api_key,
        "mcp_credentials": dict(mcp_credentials) if mcp_credentials is not None else None,
        "service_keys": [list(item) for item in service_keys],
    }
    return AgentRecipe(lab_agents, data)


def lab_agents(
    *,
    design_json: str,
    folders: list[str],
    api_key: str | None,
    mcp_credentials: dict[str, str] | None = None,
    service_keys: Sequence[Sequence[str]] = (),
) -> Callable[[], Any] | Any:
    """In a lab process: the catalogue loaded once (built-ins, plug-ins, the user folders), then a fresh agent per
    case; with ``mcp_credentials`` and MCP servers in the design, an awaitable of :class:`McpAgents` (started).
    A worker process (whose key source is none, or a previous run's keys) takes this run's ``service_keys``; the
    studio's own process keeps its key store's source."""
    if key_source() is None or isinstance(key_source(), BoundKeys):
        use_key_source(BoundKeys((name, endpoint, key) for name, endpoint, key in service_keys))
    catalogue = load_catalogue()
    for folder in folders:
        load_user_folder(catalogue, Path(folder))
    design = AgentDesign.from_json(design_json)
    if mcp_credentials is not None and servers_to_start(design):
        return McpAgents(design, catalogue=catalogue, api_key=api_key, credentials=mcp_credentials).start()
    return agent_factory(design, catalogue=catalogue, api_key=api_key)


class McpAgents(LabAgents):
    """A lab run's agents in one process with the design's MCP servers: started once for the run (:meth:`start`),
    each case's agent given their enabled tools, stopped by :meth:`aclose`.

    A server that crashes mid-run makes the cases whose calls it failed ``error`` results naming it
    (:meth:`spoiled`: a tool that never answered — crashed, cut off or past its time limit — gave the guards nothing
    to judge), and it is started again before the next case (:meth:`ready`), so one input that kills a server does
    not end a long run; one that does not start again, or crashes more than :data:`MAX_RESTARTS` times in a run,
    stops the run (:class:`lab.recipe.LabAgentsError`, naming it) instead of making every remaining case an error. A
    tool's own error result is its answer: the model sees it, as in chat, and the verdict stands."""

    def __init__(
        self,
        design: AgentDesign,
        *,
        catalogue: Any,
        api_key: str | None,
        credentials: Mapping[str, str],
        start_seconds: float = 30.0,
        call_seconds: float = 60.0,
    ) -> None:
        super().__init__(self._agent)
        self.design = design
        self.catalogue = catalogue
        self.api_key = api_key
        self.credentials = dict(credentials)
        self.sessions = McpSessions(start_seconds=start_seconds, call_seconds=call_seconds)
        #: The servers' enabled tools, as started last.
        self.tools: list[Tool] = []
        #: How many times a crashed server was started again in this run.
        self.restarts = 0
        self._wanted = [config.name for config in servers_to_start(design)]
        self._failures: dict[int, list[str]] = {}
        self._lock = asyncio.Lock()

    async def start(self) -> McpAgents:
        """Start the servers and build one agent with their tools (a name clash is said now, not once per case).
        Raises :class:`lab.recipe.LabAgentsError` naming the server that cannot start, after stopping the others."""
        try:
            self.tools = await self.sessions.tools_for(self.design, self.credentials)
            self._agent()
        except McpServerError as error:
            await self.sessions.aclose()
            raise LabAgentsError(problem_of(error) or str(error)) from None  # its code travels on
        except DesignError as error:
            await self.sessions.aclose()
            raise LabAgentsError(f"the agent could not be built: {error}") from None
        except BaseException:
            await self.sessions.aclose()
            raise
        return self

    def _agent(self) -> Agent:
        failures: list[str] = []
        tools = [_noting(tool, failures) for tool in self.tools]
        agent = build_agent(self.design, catalogue=self.catalogue, api_key=self.api_key, extra_tools=tools)
        self._failures[id(agent)] = failures
        return agent

    @property
    def stopped(self) -> list[str]:
        """The design's servers not running now (crashed since they started)."""
        running = self.sessions.running
        return [name for name in self._wanted if name not in running]

    async def ready(self) -> None:
        if not self.stopped:
            return
        async with self._lock:  # the cases of one process wait for one restart
            stopped = self.stopped
            if not stopped:
                return
            names = ", ".join(f"'{name}'" for name in stopped)
            if self.restarts >= MAX_RESTARTS:
                raise LabAgentsError(
                    f"MCP server {names} stopped again after {self.restarts} restarts in this run; the run stops"
                )
            self.restarts += 1
            try:
                self.tools = await self.sessions.tools_for(self.design, self.credentials)
            except McpServerError as error:
                raise LabAgentsError(f"{error} (it stopped during the run and did not start again)") from None

    def spoiled(self, agent: Agent) -> str | None:
        failures = self._failures.pop(id(agent), [])
        return f"the tool's MCP server failed during this case: {failures[0]}" if failures else None

    async def aclose(self) -> None:
        await self.sessions.aclose()


async def check_mcp_agents(
    design: AgentDesign, *, catalogue: Any, api_key: str | None, credentials: Mapping[str, str]
) -> None:
    """Start ``design``'s MCP servers here, build one agent with their tools, stop them: what each lab process will
    do, checked once before a run is created. Raises :class:`lab.recipe.LabAgentsError` naming the server that
    cannot start or lacks an enabled tool."""
    agents = await McpAgents(design, catalogue=catalogue, api_key=api_key, credentials=credentials).start()
    await agents.aclose()


def _noting(tool: Tool, failures: list[str]) -> Tool:
    """A copy of an MCP ``tool`` that notes, in ``failures``, each call its server did not answer."""
    original = tool.call

    async def call(arguments: Any, **options: Any) -> Any:
        try:
            return await original(arguments, **options)
        except McpToolError as error:
            if error.server_failed:
                failures.append(str(error))
            raise

    clone = copy.copy(tool)
    clone.call = call  # type: ignore[method-assign]
    return clone


__all__ = [
    "MAX_RESTARTS",
    "MCP_MODES",
    "McpAgents",
    "agent_factory",
    "agent_recipe",
    "catalogue_folders",
    "check_mcp_agents",
    "design_fingerprint",
    "design_info",
    "lab_agents",
    "needs_mcp_servers",
]
