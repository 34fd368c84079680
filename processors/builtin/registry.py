"""The processor catalogue: every processor type the studio can offer, from built-ins, plug-ins and user files.

::

    from processors.builtin.registry import load_catalogue

    catalogue = load_catalogue(user_folder=Path("~/processors").expanduser())
    for kind in catalogue:
        print(kind.type_name, kind.lanes, kind.needs_model, kind.source)
    guard = catalogue.create("RegexFilter", {"presets": ["pii"], "strategy": "redact"})
    for source, message in catalogue.errors:       # broken plug-ins were skipped, not fatal
        print(source, message)

Two sources, in this order (the first to provide a type name wins; a later duplicate is reported):

1. **Entry points** of the group ``processor_studio.processors`` — the one registry of processor types: each
   names a processor class (``RegexFilter = "processors.builtin.regex_filter:RegexFilter"``). The built-ins
   register there (``pyproject.toml``) the same way third-party packages do; an entry point of this project's own
   distribution is ``builtin``, any other ``plugin:<distribution>``. The package must be installed (``pip install
   -e .`` in a checkout) for its entry points to be known: when the group holds no built-in, ``catalogue.errors``
   says so.
2. Every ``*.py`` file of the **user folder** (names starting with ``_`` are skipped), imported by path; every
   :class:`Processor` subclass defined in the file with an ``id`` becomes a type (``file:<path>``).

A plug-in or file that fails to import (``ImportError``, ``SyntaxError``, an exception at import), names
something that is not a processor, or defines none, is recorded in ``catalogue.errors`` as ``(source,
message)`` and skipped: the others still load. That includes a plug-in that raises a ``BaseException`` which is
no ``Exception`` while it is imported or described — ``KeyboardInterrupt``, ``SystemExit`` (``sys.exit()`` in a
module), ``GeneratorExit`` or a class of its own: loading is synchronous code with no ``await`` in it, so such an
exception can only come from the plug-in's own code, never from the user or the event loop, and one plug-in must
not stop the catalogue (or quit the studio).

Each :class:`ProcessorType` says what the palette shows: type name, id, name, description, the hooks the
class implements and so the lanes it fits (input, output, error), whether it needs a model, and the JSON
schema of its ``Options`` (for a processor that is not a ``BuiltinProcessor``, the schema it declares, if any:
:mod:`processors.builtin.plugin_options`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import logging
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.plugin_options import check_declared_options, check_undeclared_options, declared_schema
from processors.errors import ProcessorsError
from processors.pipeline.processor import Lane, Processor, implemented_hooks, lanes_for
from processors.problems import Problem

logger = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "processor_studio.processors"
#: The distribution whose entry points are the built-ins.
DISTRIBUTION = "processor-studio"
#: Module name prefix for user files imported by path.
USER_MODULE_PREFIX = "processor_studio_user"

#: What ``catalogue.errors`` says when no built-in is registered (a source tree run without installing it).
NOT_INSTALLED = (
    "no built-in processor is registered: the processor-studio distribution's entry points are unknown "
    "(install the package, e.g. pip install -e . in a checkout)"
)


class UnknownProcessorTypeError(ProcessorsError, KeyError):
    """``catalogue.create()`` was asked for a type the catalogue does not have."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class ProcessorType:
    """One entry of the palette: what a processor class is and how to make one."""

    type_name: str
    id: str
    name: str
    description: str
    hooks: tuple[str, ...]
    lanes: tuple[Lane, ...]
    needs_model: bool
    options_schema: dict[str, Any]
    cls: type[Any] = field(repr=False)
    #: ``"builtin"``, ``"plugin:<distribution>"`` or ``"file:<path>"``.
    source: str = "builtin"

    @property
    def configurable(self) -> bool:
        """Whether the class takes validated options (a ``BuiltinProcessor``)."""
        return issubclass(self.cls, BuiltinProcessor)

    def create(self, options: Mapping[str, Any] | ProcessorOptions | None = None) -> Any:
        """A processor of this type. Bad options raise ``InvalidOptionsError`` naming the field (a plain processor's
        too, when it declares its options; when it does not, options its constructor cannot take are refused with
        what to declare: :mod:`processors.builtin.plugin_options`)."""
        if self.configurable:
            return self.cls.from_options(options)
        values = options.model_dump() if isinstance(options, ProcessorOptions) else dict(options or {})
        check_declared_options(self.type_name, self.cls, values)
        check_undeclared_options(self.type_name, self.cls, values)
        return self.cls(**values)

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise ``InvalidOptionsError`` when ``options`` are not what this type takes, without making a processor
        (the options form checks every keystroke): a built-in's ``Options`` model, what a plain processor declares
        (when it declares nothing, that its constructor can take them)."""
        if self.configurable:
            self.cls.parse_options(options)
        else:
            check_declared_options(self.type_name, self.cls, options)
            check_undeclared_options(self.type_name, self.cls, options)

    def describe(self) -> dict[str, Any]:
        """The JSON-safe description (everything but the class), for the studio and design files."""
        return {
            "typeName": self.type_name,
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "hooks": list(self.hooks),
            "lanes": list(self.lanes),
            "needsModel": self.needs_model,
            "optionsSchema": self.options_schema,
            "source": self.source,
        }


class Catalogue:
    """Processor types by type name, in load order, plus the errors of what could not be loaded."""

    def __init__(self) -> None:
        self.types: dict[str, ProcessorType] = {}
        self.errors: list[tuple[str, str]] = []

    def add(self, processor_type: ProcessorType) -> bool:
        existing = self.types.get(processor_type.type_name)
        if existing is not None:
            self.error(
                processor_type.source,
                f"type {processor_type.type_name!r} is already provided by {existing.source}; this one was skipped",
            )
            return False
        self.types[processor_type.type_name] = processor_type
        return True

    def error(self, source: str, message: str) -> None:
        logger.warning("Processor catalogue: %s: %s", source, message)
        self.errors.append((source, message))

    def get(self, type_name: str) -> ProcessorType | None:
        return self.types.get(type_name)

    def __getitem__(self, type_name: str) -> ProcessorType:
        found = self.types.get(type_name)
        if found is None:
            known = ", ".join(self.types) or "none"
            raise UnknownProcessorTypeError(
                Problem(
                    "catalogue:unknown_type",
                    "unknown processor type {type!r}; known: {known}",
                    type=type_name,
                    known=known,
                )
            )
        return found

    def __contains__(self, type_name: object) -> bool:
        return type_name in self.types

    def __iter__(self) -> Iterator[ProcessorType]:
        return iter(self.types.values())

    def __len__(self) -> int:
        return len(self.types)

    def create(self, type_name: str, options: Mapping[str, Any] | ProcessorOptions | None = None) -> Any:
        """A processor of ``type_name`` built from ``options`` (what a design file names)."""
        return self[type_name].create(options)

    def for_lane(self, lane: Lane) -> list[ProcessorType]:
        """The types that fit ``lane``."""
        return [kind for kind in self if lane in kind.lanes]

    def by_id(self, processor_id: str) -> ProcessorType | None:
        return next((kind for kind in self if kind.id == processor_id), None)


# --------------------------------------------------------------------------------------------- describing
def describe_class(cls: Any, *, type_name: str | None = None, source: str = "builtin") -> ProcessorType:
    """The catalogue entry of a processor class. Raises ``TypeError`` when the class is no usable processor."""
    if not inspect.isclass(cls):
        raise TypeError(f"{cls!r} is not a class")
    processor_id = getattr(cls, "id", None)
    if not isinstance(processor_id, str) or not processor_id:
        raise TypeError(f"{cls.__qualname__} has no 'id'")
    if not issubclass(cls, Processor) and not implemented_hooks(cls):
        raise TypeError(f"{cls.__qualname__} is not a Processor")
    hooks = implemented_hooks(cls)
    if not hooks:
        raise TypeError(f"{cls.__qualname__} implements no processor hook")
    schema: dict[str, Any] = {}
    if issubclass(cls, BuiltinProcessor):
        schema = cls.Options.model_json_schema()
        name = type_name or cls.type_name or cls.__name__
    else:
        schema = declared_schema(cls)  # its Options model's or its options_schema, when it declares either
        name = type_name or cls.__name__
    description = getattr(cls, "description", None) or _first_line(inspect.getdoc(cls))
    return ProcessorType(
        type_name=name,
        id=processor_id,
        name=getattr(cls, "name", None) or processor_id,
        description=description,
        hooks=hooks,
        lanes=lanes_for(cls),
        needs_model=bool(getattr(cls, "needs_model", False)),
        options_schema=schema,
        cls=cls,
        source=source,
    )


def _first_line(doc: str | None) -> str:
    return doc.strip().splitlines()[0] if doc and doc.strip() else ""


def _message(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


# --------------------------------------------------------------------------------------------- loading
def load_catalogue(user_folder: Path | str | None = None) -> Catalogue:
    """Every processor type: entry points (built-ins and plug-ins), then user files."""
    catalogue = Catalogue()
    found_builtin = False
    for entry_point in _group_entry_points():
        source = _entry_point_source(entry_point)
        found_builtin = found_builtin or source == "builtin"
        _load_entry_point(catalogue, entry_point.name, entry_point.load, source)
    if not found_builtin:
        catalogue.error("builtin", NOT_INSTALLED)
    if user_folder is not None:
        load_user_folder(catalogue, Path(user_folder))
    return catalogue


def _group_entry_points() -> list[EntryPoint]:
    try:
        return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (_entry_point_source(ep) != "builtin",))
    except Exception as error:  # a broken distribution's metadata must not hide every processor
        logger.warning("Reading the %s entry points failed: %s", ENTRY_POINT_GROUP, error)
        return []


def _entry_point_source(entry_point: EntryPoint) -> str:
    dist = getattr(entry_point, "dist", None)
    dist_name = getattr(dist, "name", None) or "unknown"
    normalised = dist_name.lower().replace("_", "-")
    return "builtin" if normalised == DISTRIBUTION else f"plugin:{dist_name}"


def _load_entry_point(catalogue: Catalogue, type_name: str, load: Any, source: str) -> None:
    try:
        cls = load()
    except BaseException as error:  # only this plug-in is skipped (module docstring)
        catalogue.error(source, f"{type_name}: {_message(error)}")
        return
    try:
        processor_type = describe_class(cls, type_name=type_name, source=source)
    except BaseException as error:  # only this plug-in is skipped (module docstring)
        catalogue.error(source, f"{type_name}: {_message(error)}")
        return
    catalogue.add(processor_type)


def load_user_folder(catalogue: Catalogue, folder: Path) -> None:
    """Add the processors defined in ``folder``'s ``*.py`` files (each file imported by path)."""
    if not folder.is_dir():
        if folder.exists():
            catalogue.error(f"file:{folder}", "the user processors folder is not a folder")
        return
    for path in sorted(folder.glob("*.py")):
        if path.name.startswith("_"):
            continue
        source = f"file:{path}"
        try:
            module = import_file(path)
        except BaseException as error:  # only this plug-in is skipped (module docstring)
            catalogue.error(source, _message(error))
            continue
        classes = [
            value
            for value in vars(module).values()
            if inspect.isclass(value)
            and issubclass(value, Processor)
            and value.__module__ == module.__name__
            and isinstance(getattr(value, "id", None), str)
            and value.id
        ]
        if not classes:
            catalogue.error(source, "defines no Processor subclass with an id")
            continue
        for cls in classes:
            try:
                processor_type = describe_class(cls, source=source)
            except BaseException as error:  # only this plug-in is skipped (module docstring)
                catalogue.error(source, f"{cls.__name__}: {_message(error)}")
                continue
            catalogue.add(processor_type)


def import_file(path: Path) -> ModuleType:
    """Import a Python file by path as a fresh module (re-importing an edited file picks up the edit)."""
    resolved = path.resolve()
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:10]
    module_name = f"{USER_MODULE_PREFIX}.{_identifier(path.stem)}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses, pydantic and pickling look the module up by name
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module


def _identifier(stem: str) -> str:
    cleaned = "".join(c if c.isalnum() or c == "_" else "_" for c in stem)
    return cleaned if cleaned and not cleaned[0].isdigit() else f"m_{cleaned}"


__all__ = [
    "ENTRY_POINT_GROUP",
    "NOT_INSTALLED",
    "Catalogue",
    "ProcessorType",
    "UnknownProcessorTypeError",
    "describe_class",
    "import_file",
    "load_catalogue",
    "load_user_folder",
]
