"""How to make a lab run's agents in another process: a top-level function and plain data (:class:`AgentRecipe`).

A closure cannot cross a process boundary; a recipe can: ``pickle`` sends the function by its module and name, and
the data (a design as JSON, which catalogue, the model's settings, an API key) by value, through the pipe that starts
the worker, in memory: nothing of it is written to disk, and its ``repr`` shows no data (a key must never reach a
log). Each process opens the recipe once per run (:meth:`AgentRecipe.open`), then makes an agent per case, so its
catalogue is loaded once per process and no processor's instance state leaks from one case into the next.

What the agents of a run share in one process and must be started for it — a design's MCP servers: each case's
agent gets their tools, and a server is one process per lab process, not one per case — lives in
:class:`LabAgents`: ``make`` may return one (or be a coroutine function returning one) instead of a bare factory.
The run awaits :meth:`LabAgents.ready` before each case (a crashed server is started again there), asks
:meth:`LabAgents.spoiled` after it (a case whose tool's server failed says so instead of a verdict) and closes it
when the run ends, is cancelled or fails, in the same process and loop that opened it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from processors import Agent

AgentFactory = Callable[[], Agent]


class LabAgents:
    """A run's agents in one process: a fresh one per case (call it), and what they share for the run.

    This base shares nothing; a subclass that starts something for the run (a design's MCP servers) stops it in
    :meth:`aclose`, may start a crashed part again in :meth:`ready` and names in :meth:`spoiled` the cases whose
    verdict it made meaningless."""

    def __init__(self, factory: AgentFactory) -> None:
        self.factory = factory

    def __call__(self) -> Agent:
        return self.factory()

    async def ready(self) -> None:
        """Before each case. Raises :class:`LabAgentsError` when the run cannot go on (a part that cannot start
        again): the run stops, naming it, rather than make every remaining case an error."""

    def spoiled(self, agent: Agent) -> str | None:
        """After ``agent``'s case: why its verdict means nothing (a tool's server crashed under it), or None."""
        return None

    async def aclose(self) -> None:
        """The run is over (finished, cancelled or failed): stop what was started for it."""


class LabAgentsError(Exception):
    """A run's agents cannot be opened or cannot go on (an MCP server that does not start): the run stops, with this
    message, before (or instead of) running cases that would all be errors."""


@dataclass(frozen=True)
class AgentRecipe:
    """``make(**data)`` returns the agent factory. ``make`` must be a module-level function (picklable by name)
    and ``data`` plain values."""

    make: Callable[..., AgentFactory]
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def factory(self) -> AgentFactory:
        """A fresh-agent-per-case factory (in this process), for a recipe whose ``make`` returns a bare factory."""
        made = self.make(**self.data)
        if inspect.isawaitable(made) or isinstance(made, LabAgents):
            if inspect.iscoroutine(made):
                made.close()
            raise TypeError("this recipe's agents share a run's resources: open them with 'await recipe.open()'")
        return made

    async def open(self) -> LabAgents:
        """The run's agents in this process, with what they share started (close them with
        :meth:`LabAgents.aclose`). Raises :class:`LabAgentsError` (or the design's own error) when they cannot."""
        made: Any = self.make(**self.data)
        if inspect.isawaitable(made):
            made = await made
        return made if isinstance(made, LabAgents) else LabAgents(made)

    def __repr__(self) -> str:
        return f"AgentRecipe({getattr(self.make, '__qualname__', self.make)!r}, keys={sorted(self.data)!r})"


__all__ = ["AgentFactory", "AgentRecipe", "LabAgents", "LabAgentsError"]
