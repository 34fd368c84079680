"""Every strategy the lab can use: the built-ins and plug-ins, found through one entry-point group.

A distribution registers strategies in ``processor_studio.strategies`` (pyproject.toml), as converters are::

    [project.entry-points."processor_studio.strategies"]
    my-strategy = "my_package.strategies:MINE"       # one strategy (or a class made with no arguments)
    my-bundle = "my_package.strategies:ALL"          # or an iterable of them

A plug-in that fails to load, is not a strategy, has a name ``--strategies`` cannot say, or reuses a taken name is
listed in :attr:`StrategyRegistry.errors` and skipped (built-ins load first, so a plug-in cannot replace one); the
loading is :class:`lab.plugin_registry.PluginRegistry`'s, shared with the converters.
:meth:`StrategyRegistry.parse` reads ``"paraphrase,translate:zu+gd,pair:3"`` into configured strategies.
"""

from __future__ import annotations

from typing import Any

from lab.plugin_registry import PluginRegistry
from lab.strategies.base import NAME, ROLES, Strategy
from lab.strategies.errors import StrategySpecError, UnknownStrategyError

ENTRY_POINT_GROUP = "processor_studio.strategies"
#: The built-ins as ``(entry point name, "module:attribute")``, exactly as ``pyproject.toml`` registers them; used
#: when the package's own metadata is not installed (a source checkout on ``sys.path``).
BUILTIN_ENTRY_POINTS: tuple[tuple[str, str], ...] = (
    ("builtin-rewrites", "lab.strategies.rewrites:STRATEGIES"),
    ("builtin-pair", "lab.strategies.pair:PAIR"),
    ("builtin-crescendo", "lab.strategies.crescendo:CRESCENDO"),
)
#: Separates strategies in a ``--strategies`` value; ``:`` separates a strategy from its argument.
SEPARATOR = ","


class StrategyRegistry(PluginRegistry[Strategy]):
    """Strategies by name (a read-only mapping), where each came from, and the plug-ins that failed."""

    group = ENTRY_POINT_GROUP
    builtin_entry_points = BUILTIN_ENTRY_POINTS
    noun = "strategy"
    unknown_error = UnknownStrategyError
    # Built-ins in the table's order (what the UI lists, cheapest first), whatever order the metadata keeps them in.
    builtins_in_table_order = True

    @property
    def strategies(self) -> dict[str, Strategy]:
        """The strategies by name, in the order they loaded."""
        return self.by_name

    def parse(self, specs: str) -> list[Strategy]:
        """``"paraphrase,translate:zu+gd,pair:3"`` → the strategies, configured, in that order."""
        if not specs.strip():
            raise StrategySpecError(specs, "no strategy named")
        chosen: list[Strategy] = []
        for spec in specs.split(SEPARATOR):
            name, colon, argument = spec.strip().partition(":")
            if not name:
                raise StrategySpecError(specs, "an empty strategy")
            if colon and not argument.strip():
                raise StrategySpecError(spec.strip(), "nothing after ':'")
            chosen.append(self[name].configure(argument.strip() if colon else None))
        return chosen

    def is_one(self, loaded: object) -> bool:
        return hasattr(loaded, "variants")

    def problem(self, plugin: Any) -> str | None:
        return _problem(plugin)


def load_strategies() -> StrategyRegistry:
    """Every strategy of the entry-point group (built-ins first, in the table's order), falling back to the
    built-in table."""
    return StrategyRegistry.load()


_ATTRIBUTES = ("name", "description", "spec", "roles", "variants_per_seed", "configure", "plan", "variants")


def _problem(strategy: Any) -> str | None:
    """Why ``strategy`` cannot be used (None when it can)."""
    missing = [attribute for attribute in _ATTRIBUTES if not hasattr(strategy, attribute)]
    if missing:
        return f"not a strategy: {type(strategy).__name__} lacks {', '.join(missing)}"
    name, description = strategy.name, strategy.description
    if not isinstance(name, str) or not NAME.fullmatch(name):
        return f"the name {name!r} is not lower-case letters, digits and dashes"
    if not isinstance(description, str) or not description.strip():
        return f"{name}: the description is empty"
    if not all(role in ROLES for role in strategy.roles):
        return f"{name}: roles must be among {', '.join(ROLES)}"
    return None
