"""Every converter the lab can use: the built-ins and plug-ins, all found through one entry-point group.

A distribution registers converters in ``processor_studio.converters`` (pyproject.toml)::

    [project.entry-points."processor_studio.converters"]
    shout = "my_package.converters:SHOUT"          # one converter (or a class made with no arguments)
    my-bundle = "my_package.converters:ALL"        # or an iterable of converters

Processor Studio registers its own bundles the same way. A plug-in that fails to import, is not a converter,
has a name a chain cannot say, or reuses a taken name is listed in :attr:`ConverterRegistry.errors` and skipped;
it never stops the others from loading (built-ins load first, so a plug-in cannot replace one). The loading is
:class:`lab.plugin_registry.PluginRegistry`'s, shared with the strategies.
"""

from __future__ import annotations

from typing import Any

from lab.converters.base import Converter
from lab.converters.chain import NAME, Chain, parse_chain
from lab.converters.errors import UnknownConverterError
from lab.plugin_registry import DISTRIBUTION, LoadError, PluginRegistry

ENTRY_POINT_GROUP = "processor_studio.converters"
#: The built-in bundles as ``(entry point name, "module:attribute")``, exactly as ``pyproject.toml`` registers them;
#: used when the package's own metadata is not installed (a source checkout on ``sys.path``).
BUILTIN_ENTRY_POINTS: tuple[tuple[str, str], ...] = (
    ("builtin-identity", "lab.converters.identity:CONVERTERS"),
    ("builtin-encodings", "lab.converters.encodings:CONVERTERS"),
    ("builtin-characters", "lab.converters.characters:CONVERTERS"),
    ("builtin-wrappers", "lab.converters.wrappers:CONVERTERS"),
    ("builtin-chinese", "lab.converters.chinese:CONVERTERS"),
)


class ConverterRegistry(PluginRegistry[Converter]):
    """Converters by name (a read-only mapping), where each came from, and the plug-ins that failed."""

    group = ENTRY_POINT_GROUP
    builtin_entry_points = BUILTIN_ENTRY_POINTS
    noun = "converter"
    unknown_error = UnknownConverterError

    @property
    def converters(self) -> dict[str, Converter]:
        """The converters by name, in the order they loaded."""
        return self.by_name

    def chain(self, spec: str) -> Chain:
        """Parse a chain string over these converters (see :func:`lab.converters.chain.parse_chain`)."""
        return parse_chain(spec, self.by_name)

    def is_one(self, loaded: object) -> bool:
        return _looks_like_converter(loaded)

    def problem(self, plugin: Any) -> str | None:
        return _problem(plugin)


def load_converters() -> ConverterRegistry:
    """Every converter of the entry-point group (built-ins first, by entry point name), falling back to the
    built-in table."""
    return ConverterRegistry.load()


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


__all__ = [
    "BUILTIN_ENTRY_POINTS",
    "DISTRIBUTION",
    "ENTRY_POINT_GROUP",
    "ConverterRegistry",
    "LoadError",
    "load_converters",
]
