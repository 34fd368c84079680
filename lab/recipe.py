"""How to make a lab run's agents in another process: a top-level function and plain data (:class:`AgentRecipe`).

A closure cannot cross a process boundary; a recipe can: ``pickle`` sends the function by its module and name, and
the data (a design as JSON, which catalogue, the model's settings, an API key) by value, through the pipe that starts
the worker, in memory: nothing of it is written to disk, and its ``repr`` shows no data (a key must never reach a
log). Each worker calls :meth:`AgentRecipe.factory` once, then the factory once per case, so its catalogue is loaded
once per process and no processor's instance state leaks from one case into the next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from processors import Agent

AgentFactory = Callable[[], Agent]


@dataclass(frozen=True)
class AgentRecipe:
    """``make(**data)`` returns the agent factory. ``make`` must be a module-level function (picklable by name)
    and ``data`` plain values."""

    make: Callable[..., AgentFactory]
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def factory(self) -> AgentFactory:
        """A fresh-agent-per-case factory (in this process)."""
        return self.make(**self.data)

    def __repr__(self) -> str:
        return f"AgentRecipe({getattr(self.make, '__qualname__', self.make)!r}, keys={sorted(self.data)!r})"


__all__ = ["AgentFactory", "AgentRecipe"]
