"""The lab's plug-ins by name, read from one entry-point group: the shape the converter and strategy registries share.

A distribution registers plug-ins in a group (pyproject.toml)::

    [project.entry-points."processor_studio.converters"]
    shout = "my_package.converters:SHOUT"          # one plug-in (or a class made with no arguments)
    my-bundle = "my_package.converters:ALL"        # or an iterable of them

Processor Studio registers its own built-ins the same way; from a source checkout, where its metadata is not
installed, they come from the registry's table (:attr:`PluginRegistry.builtin_entry_points`, exactly what
pyproject.toml declares). Built-ins load first, so a plug-in cannot replace one. A plug-in that fails to import, is
not of the kind, fails the kind's check (:meth:`PluginRegistry.problem`) or reuses a taken name is listed in
:attr:`PluginRegistry.errors` and skipped; it never stops the others from loading.

:class:`lab.converters.registry.ConverterRegistry` and :class:`lab.strategies.registry.StrategyRegistry` are this
shape with their kind's check, their unknown-name error and their own use (a chain, a ``--strategies`` value).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from importlib.metadata import EntryPoint, entry_points
from typing import Any, ClassVar, Generic, Self, TypeVar

logger = logging.getLogger(__name__)

#: The distribution whose entry points are the built-ins.
DISTRIBUTION = "processor-studio"
#: Where a built-in came from, in :attr:`PluginRegistry.sources` and :attr:`LoadError.source`.
BUILTIN = "builtin"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class LoadError:
    """A plug-in that was skipped: where it came from (``builtin`` or ``plugin:<distribution>``) and why."""

    source: str
    entry_point: str
    message: str


class PluginRegistry(Mapping[str, T], Generic[T]):
    """Plug-ins by name (a read-only mapping), where each came from, and the plug-ins that failed.

    A kind says its entry-point group, its built-in table, what one is called in messages and its
    :attr:`unknown_error`, and overrides :meth:`is_one` and :meth:`problem`; :meth:`load` reads the group into a new
    registry."""

    #: The entry-point group the plug-ins are registered in.
    group: ClassVar[str]
    #: The built-ins as ``(entry point name, "module:attribute")``, in the order they are listed.
    builtin_entry_points: ClassVar[tuple[tuple[str, str], ...]]
    #: What one plug-in is called in messages ("converter").
    noun: ClassVar[str]
    #: Whether the built-ins' entry points load in the table's order (what a list shows, cheapest first); else by
    #: entry point name.
    builtins_in_table_order: ClassVar[bool] = False
    #: The error for a name nobody registered (an exception class, made with the name and the names known).
    unknown_error: ClassVar[type[Exception]] = KeyError

    def __init__(self) -> None:
        self.by_name: dict[str, T] = {}
        self.sources: dict[str, str] = {}
        self.errors: list[LoadError] = []

    # ----------------------------------------------------------------------------------------- the kind
    def is_one(self, loaded: object) -> bool:
        """Whether an entry point's object is one plug-in (else it is read as an iterable of them)."""
        raise NotImplementedError

    def problem(self, plugin: Any) -> str | None:
        """Why ``plugin`` cannot be used (None when it can)."""
        raise NotImplementedError

    # ----------------------------------------------------------------------------------------- the mapping
    def __getitem__(self, name: str) -> T:
        try:
            return self.by_name[name]
        except KeyError:
            raise self.unknown_error(name, self.by_name) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.by_name)

    def __len__(self) -> int:
        return len(self.by_name)

    # ----------------------------------------------------------------------------------------- loading
    def add(self, plugin: Any, source: str, entry_point: str) -> None:
        """Register ``plugin`` under its name, or list why not in :attr:`errors`."""
        problem = self.problem(plugin)
        if problem is None and plugin.name in self.by_name:
            problem = f"the name {plugin.name!r} is taken (by {self.sources[plugin.name]})"
        if problem is not None:
            self._skip(source, entry_point, problem, "skipped")
            return
        self.by_name[plugin.name] = plugin
        self.sources[plugin.name] = source

    @classmethod
    def load(cls) -> Self:
        """Every plug-in of the group (built-ins first), falling back to the built-in table."""
        registry = cls()
        points = registry._entry_points()
        if not any(_source(point) == BUILTIN for point in points):
            for name, target in cls.builtin_entry_points:
                registry._load(name, partial(_load_target, target), BUILTIN)
        for point in points:
            registry._load(point.name, point.load, _source(point))
        return registry

    def _entry_points(self) -> list[EntryPoint]:
        try:
            points = entry_points(group=self.group)
        except Exception as error:  # a broken distribution's metadata must not hide every plug-in
            logger.warning("Reading the %s entry points failed: %s", self.group, error)
            return []
        table = self.builtin_entry_points if self.builtins_in_table_order else ()
        rank = {name: index for index, (name, _) in enumerate(table)}
        return sorted(
            points, key=lambda point: (_source(point) != BUILTIN, rank.get(point.name, len(rank)), point.name)
        )

    def _load(self, entry_point: str, load: Callable[[], Any], source: str) -> None:
        try:
            loaded = load()
            if isinstance(loaded, type):
                loaded = loaded()
        except Exception as error:  # only this plug-in is skipped (module docstring)
            self._skip(source, entry_point, f"{type(error).__name__}: {error}", "failed to load")
            return
        if self.is_one(loaded):
            self.add(loaded, source, entry_point)
            return
        try:
            bundle = list(loaded)
        except TypeError:
            self.errors.append(LoadError(source, entry_point, f"not a {self.noun}: {type(loaded).__name__}"))
            return
        for plugin in bundle:
            self.add(plugin, source, entry_point)

    def _skip(self, source: str, entry_point: str, message: str, what: str) -> None:
        self.errors.append(LoadError(source, entry_point, message))
        logger.warning("%s plug-in %s (%s) %s: %s", self.noun.capitalize(), entry_point, source, what, message)


def _source(point: EntryPoint) -> str:
    try:
        dist_name = getattr(getattr(point, "dist", None), "name", None) or "unknown"
    except KeyError:  # a distribution whose METADATA has no Name: importlib_metadata's Distribution raises
        dist_name = "unknown"
    return BUILTIN if dist_name.lower().replace("_", "-") == DISTRIBUTION else f"plugin:{dist_name}"


def _load_target(target: str) -> Any:
    module_name, _, attribute = target.partition(":")
    value: Any = importlib.import_module(module_name)
    for part in attribute.split(".") if attribute else []:
        value = getattr(value, part)
    return value


__all__ = ["BUILTIN", "DISTRIBUTION", "LoadError", "PluginRegistry"]
