"""Every converter the lab can use: the built-ins and plug-ins, all found through one entry-point group.

A distribution registers converters in ``processor_studio.converters`` (pyproject.toml)::

    [project.entry-points."processor_studio.converters"]
    shout = "my_package.converters:SHOUT"          # one converter (or a class made with no arguments)
    my-bundle = "my_package.converters:ALL"        # or an iterable of converters

Processor Studio registers its own bundles the same way. A plug-in that fails to import, is not a converter,
has a name a chain cannot say, or reuses a taken name is listed in :attr:`ConverterRegistry.errors` and skipped;
it never stops the others from loading (built-ins load first, so a plug-in cannot replace one).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from lab.converters.base import Converter
from lab.converters.chain import NAME, Chain, parse_chain
from lab.converters.errors import UnknownConverterError

logger = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "processor_studio.converters"
#: The distribution whose entry points are the built-ins.
DISTRIBUTION = "processor-studio"
#: The built-in bundles as ``(entry point name, "module:attribute")``, exactly as ``pyproject.toml`` registers them;
#: used when the package's own metadata is not installed (a source checkout on ``sys.path``).
BUILTIN_ENTRY_POINTS: tuple[tuple[str, str], ...] = (
    ("builtin-identity", "lab.converters.identity:CONVERTERS"),
    ("builtin-encodings", "lab.converters.encodings:CONVERTERS"),
    ("builtin-characters", "lab.converters.characters:CONVERTERS"),
    ("builtin-wrappers", "lab.converters.wrappers:CONVERTERS"),
    ("builtin-chinese", "lab.converters.chinese:CONVERTERS"),
)


@dataclass(frozen=True, slots=True)
class LoadError:
    """A plug-in that was skipped: where it came from (``builtin`` or ``plugin:<distribution>``) and why."""

    source: str
    entry_point: str
    message: str


@dataclass
class ConverterRegistry(Mapping[str, Converter]):
    """Converters by name (a read-only mapping), where each came from, and the plug-ins that failed."""

    converters: dict[str, Converter] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    errors: list[LoadError] = field(default_factory=list)

    def __getitem__(self, name: str) -> Converter:
        try:
            return self.converters[name]
        except KeyError:
            raise UnknownConverterError(name, self.converters) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.converters)

    def __len__(self) -> int:
        return len(self.converters)

    def chain(self, spec: str) -> Chain:
        """Parse a chain string over these converters (see :func:`lab.converters.chain.parse_chain`)."""
        return parse_chain(spec, self.converters)

    def add(self, converter: Converter, source: str, entry_point: str) -> None:
        problem = _problem(converter)
        if problem is None and converter.name in self.converters:
            problem = f"the name {converter.name!r} is taken (by {self.sources[converter.name]})"
        if problem is not None:
            self.errors.append(LoadError(source, entry_point, problem))
            logger.warning("Converter plug-in %s (%s) skipped: %s", entry_point, source, problem)
            return
        self.converters[converter.name] = converter
        self.sources[converter.name] = source


def load_converters() -> ConverterRegistry:
    """Every converter of the entry-point group (built-ins first), falling back to the built-in table."""
    registry = ConverterRegistry()
    points = _group_entry_points()
    found_builtin = any(_source(point) == "builtin" for point in points)
    if not found_builtin:
        for name, target in BUILTIN_ENTRY_POINTS:
            _load(registry, name, lambda target=target: _load_target(target), "builtin")
    for point in points:
        _load(registry, point.name, point.load, _source(point))
    return registry


def _group_entry_points() -> list[EntryPoint]:
    try:
        points = entry_points(group=ENTRY_POINT_GROUP)
    except Exception as error:  # a broken distribution's metadata must not hide every converter
        logger.warning("Reading the %s entry points failed: %s", ENTRY_POINT_GROUP, error)
        return []
    return sorted(points, key=lambda point: (_source(point) != "builtin", point.name))


def _source(point: EntryPoint) -> str:
    dist_name = getattr(getattr(point, "dist", None), "name", None) or "unknown"
    return "builtin" if dist_name.lower().replace("_", "-") == DISTRIBUTION else f"plugin:{dist_name}"


def _load_target(target: str) -> Any:
    module_name, _, attribute = target.partition(":")
    value: Any = importlib.import_module(module_name)
    for part in attribute.split(".") if attribute else []:
        value = getattr(value, part)
    return value


def _load(registry: ConverterRegistry, entry_point: str, load: Any, source: str) -> None:
    try:
        loaded = load()
        if isinstance(loaded, type):
            loaded = loaded()
    except Exception as error:  # only this plug-in is skipped (module docstring)
        registry.errors.append(LoadError(source, entry_point, f"{type(error).__name__}: {error}"))
        logger.warning("Converter plug-in %s (%s) failed to load: %s", entry_point, source, error)
        return
    if _looks_like_converter(loaded):
        registry.add(loaded, source, entry_point)
        return
    try:
        bundle = list(loaded)
    except TypeError:
        registry.errors.append(LoadError(source, entry_point, f"not a converter: {type(loaded).__name__}"))
        return
    for converter in bundle:
        registry.add(converter, source, entry_point)


def _looks_like_converter(value: object) -> bool:
    return all(hasattr(value, attribute) for attribute in ("name", "description", "convert"))


def _problem(converter: Any) -> str | None:
    """Why ``converter`` cannot be used (None when it can). ``revert`` is needed only when it is reversible."""
    if not _looks_like_converter(converter) or not hasattr(converter, "reversible"):
        return f"not a converter: {type(converter).__name__} lacks name, description, reversible or convert"
    name, description, reversible = converter.name, converter.description, converter.reversible
    if not isinstance(name, str) or not NAME.fullmatch(name):
        return f"the name {name!r} is not lower-case letters, digits and dashes"
    if not isinstance(description, str) or not description.strip():
        return f"{name}: the description is empty"
    if not isinstance(reversible, bool):
        return f"{name}: reversible is not True or False"
    if not callable(converter.convert):
        return f"{name}: convert is not callable"
    if reversible and not callable(getattr(converter, "revert", None)):
        return f"{name}: reversible, but has no revert(text)"
    return None
