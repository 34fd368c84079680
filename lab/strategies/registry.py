"""Every strategy the lab can use: the built-ins and plug-ins, found through one entry-point group.

A distribution registers strategies in ``processor_studio.strategies`` (pyproject.toml), as converters are::

    [project.entry-points."processor_studio.strategies"]
    my-strategy = "my_package.strategies:MINE"       # one strategy (or a class made with no arguments)
    my-bundle = "my_package.strategies:ALL"          # or an iterable of them

A plug-in that fails to load, is not a strategy, has a name ``--strategies`` cannot say, or reuses a taken name is
listed in :attr:`StrategyRegistry.errors` and skipped (built-ins load first, so a plug-in cannot replace one).
:meth:`StrategyRegistry.parse` reads ``"paraphrase,translate:zu+gd,pair:3"`` into configured strategies.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from lab.converters.registry import LoadError, _load_target, _source
from lab.strategies.base import NAME, ROLES, Strategy
from lab.strategies.errors import StrategySpecError, UnknownStrategyError

logger = logging.getLogger(__name__)

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


@dataclass
class StrategyRegistry(Mapping[str, Strategy]):
    """Strategies by name (a read-only mapping), where each came from, and the plug-ins that failed."""

    strategies: dict[str, Strategy] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    errors: list[LoadError] = field(default_factory=list)

    def __getitem__(self, name: str) -> Strategy:
        try:
            return self.strategies[name]
        except KeyError:
            raise UnknownStrategyError(name, self.strategies) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.strategies)

    def __len__(self) -> int:
        return len(self.strategies)

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

    def add(self, strategy: Any, source: str, entry_point: str) -> None:
        problem = _problem(strategy)
        if problem is None and strategy.name in self.strategies:
            problem = f"the name {strategy.name!r} is taken (by {self.sources[strategy.name]})"
        if problem is not None:
            self.errors.append(LoadError(source, entry_point, problem))
            logger.warning("Strategy plug-in %s (%s) skipped: %s", entry_point, source, problem)
            return
        self.strategies[strategy.name] = strategy
        self.sources[strategy.name] = source


def load_strategies() -> StrategyRegistry:
    """Every strategy of the entry-point group (built-ins first), falling back to the built-in table."""
    registry = StrategyRegistry()
    points = _group_entry_points()
    if not any(_source(point) == "builtin" for point in points):
        for name, target in BUILTIN_ENTRY_POINTS:
            _load(registry, name, lambda target=target: _load_target(target), "builtin")
    for point in points:
        _load(registry, point.name, point.load, _source(point))
    return registry


def _group_entry_points() -> list[EntryPoint]:
    try:
        points = entry_points(group=ENTRY_POINT_GROUP)
    except Exception as error:  # a broken distribution's metadata must not hide every strategy
        logger.warning("Reading the %s entry points failed: %s", ENTRY_POINT_GROUP, error)
        return []
    return sorted(points, key=lambda point: (_source(point) != "builtin", point.name))


def _load(registry: StrategyRegistry, entry_point: str, load: Any, source: str) -> None:
    try:
        loaded = load()
        if isinstance(loaded, type):
            loaded = loaded()
    except Exception as error:  # only this plug-in is skipped (module docstring)
        registry.errors.append(LoadError(source, entry_point, f"{type(error).__name__}: {error}"))
        logger.warning("Strategy plug-in %s (%s) failed to load: %s", entry_point, source, error)
        return
    if hasattr(loaded, "variants"):
        registry.add(loaded, source, entry_point)
        return
    try:
        bundle = list(loaded)
    except TypeError:
        registry.errors.append(LoadError(source, entry_point, f"not a strategy: {type(loaded).__name__}"))
        return
    for strategy in bundle:
        registry.add(strategy, source, entry_point)


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
