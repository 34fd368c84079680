"""``AgentDesign``: what the editor edits — model, instructions, tools, three processor chains, retries.

A design is a pydantic model saved as versioned JSON (``to_json``/``from_json``, ``save_design``/``load_design``);
``build_agent`` turns it into a runtime :class:`processors.Agent`, and ``design_to_python`` exports a runnable
script that builds the same agent with ``processors``. The editor never mutates a design in place outside its
undo commands.

Everything that can go wrong with a design the user wrote — a malformed file, a newer format, options a
processor refuses, a tool that is not there — raises :class:`DesignError`, whose message names where (a field
path, or a chain and position) so the studio can show it as it is.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import json
import keyword
import logging
import os
import re
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

if TYPE_CHECKING:
    from processors import Agent, Tool, Violation
    from processors.builtin.registry import Catalogue
    from processors.memory.base import Memory
    from processors.models.base import LanguageModel

logger = logging.getLogger(__name__)

DESIGN_VERSION = 1

Lane = Literal["input", "output", "error"]
LANES: tuple[Lane, ...] = ("input", "output", "error")

#: The model id that selects the offline demo model (no API key, no network).
DEMO_MODEL = "demo"


def new_uid() -> str:
    return uuid.uuid4().hex[:12]


class ChainEntry(BaseModel):
    """One processor in a chain: its catalogue type, its options, and whether it runs."""

    model_config = ConfigDict(extra="forbid")

    uid: str = Field(default_factory=new_uid, description="Stable identity of this entry inside the design")
    type: str = Field(description="Catalogue type name, e.g. 'RegexFilter'")
    options: dict[str, Any] = Field(default_factory=dict)
    enabled: bool = True


class ModelConfig(BaseModel):
    """Which model the agent talks to, and how."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(default=DEMO_MODEL, description="litellm model id ('provider/model') or 'demo'")
    api_base: str | None = Field(default=None, description="Base URL for local servers (Ollama, LM Studio)")
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_tokens: int | None = Field(default=None, ge=1)
    top_p: float | None = Field(default=None, ge=0, le=1)
    extra: dict[str, Any] = Field(default_factory=dict, description="Other call settings passed to the model")

    @property
    def is_demo(self) -> bool:
        return self.model.strip() == DEMO_MODEL

    def call_settings(self) -> dict[str, Any]:
        """The keyword settings the model is called with: ``extra``, then the named fields that are set.

        Raises :class:`DesignError` for an ``extra`` key that must not live in a design: ``api_key`` (secrets
        belong in the keyring, and designs get shared) or a name the model's own fields already cover.
        """
        for key in self.extra:
            if key in _SECRET_SETTINGS:
                raise DesignError(
                    f"model.extra.{key}: API keys must not be saved in a design; the studio reads them from the "
                    "keyring when a run starts",
                    path=f"model.extra.{key}",
                )
            if key in _RESERVED_SETTINGS:
                raise DesignError(
                    f"model.extra.{key}: '{key}' is set by the model settings themselves, not as an extra setting",
                    path=f"model.extra.{key}",
                )
        named = {"temperature": self.temperature, "max_tokens": self.max_tokens, "top_p": self.top_p}
        return {**self.extra, **{key: value for key, value in named.items() if value is not None}}


class AgentDesign(BaseModel):
    """A complete agent design, as saved to the store and to ``.json`` files."""

    model_config = ConfigDict(extra="forbid")

    version: int = DESIGN_VERSION
    id: str = Field(default_factory=new_uid)
    name: str = "Untitled agent"
    instructions: str = ""
    model: ModelConfig = Field(default_factory=ModelConfig)
    #: Names of tools: built-in demo tools, or ``file.py:function`` for user tool files.
    tools: list[str] = Field(default_factory=list)
    input: list[ChainEntry] = Field(default_factory=list)
    output: list[ChainEntry] = Field(default_factory=list)
    error: list[ChainEntry] = Field(default_factory=list)
    max_processor_retries: int | None = Field(default=None, ge=0, le=50)
    max_steps: int = Field(default=5, ge=1, le=100)

    def chain(self, lane: Lane) -> list[ChainEntry]:
        return {"input": self.input, "output": self.output, "error": self.error}[lane]

    def find(self, uid: str) -> tuple[Lane, int, ChainEntry] | None:
        for lane in LANES:
            for index, entry in enumerate(self.chain(lane)):
                if entry.uid == uid:
                    return lane, index, entry
        return None

    def to_json(self) -> str:
        """Pretty JSON with a stable key order: fields as declared, free-form dicts (options, extra) sorted.

        Stable output keeps saved files diff-friendly: saving an unchanged design gives the same bytes.
        """
        data = self.model_dump(mode="json")
        for lane in LANES:
            for entry in data[lane]:
                entry["options"] = _sorted_keys(entry["options"])
        data["model"]["extra"] = _sorted_keys(data["model"]["extra"])
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> AgentDesign:
        """Parse a design file's text. Raises :class:`DesignError` naming the field path of each problem."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise DesignError(
                f"Not valid JSON (line {error.lineno}, column {error.colno}): {error.msg}", path=""
            ) from None
        except UnicodeDecodeError as error:
            raise DesignError(f"Not a text file: {error.reason}", path="") from None
        if not isinstance(data, dict):
            raise DesignError(f"An agent design is a JSON object, not {_json_kind(data)}", path="")
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> AgentDesign:
        """Validate already-parsed JSON (from a file or the store): version first, then every field."""
        data = _upgrade(data)
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            problems = [(_error_path(item["loc"]), _error_message(item)) for item in error.errors()]
            listing = "\n".join(f"- {path or '(design)'}: {message}" for path, message in problems)
            raise DesignError(
                f"Invalid agent design:\n{listing}",
                path=problems[0][0],
                problems=problems,
            ) from None


# ------------------------------------------------------------------------------------------------- errors


class DesignError(ValueError):
    """A design that cannot be read, saved or built, with a message written for the user.

    ``path`` is the field path of the (first) problem (``"output[1].options"``, ``""`` for the whole file);
    ``problems`` lists every ``(path, message)`` found. For a chain entry that cannot be built, ``lane``,
    ``index`` (0-based position in its chain) and ``uid`` say which, so the editor can select it.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        problems: Sequence[tuple[str, str]] = (),
        lane: Lane | None = None,
        index: int | None = None,
        uid: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.problems = list(problems) or ([(path, message)] if path is not None else [])
        self.lane = lane
        self.index = index
        self.uid = uid


#: ``extra`` model settings refused because they are secrets.
_SECRET_SETTINGS = frozenset({"api_key"})
#: ``extra`` model settings refused because a field of :class:`ModelConfig` (or the runtime) sets them.
_RESERVED_SETTINGS = frozenset({"model", "model_id", "api_base", "base_url", "messages", "stream", "tools"})

_LANE_TITLES: dict[Lane, str] = {"input": "Input chain", "output": "Output chain", "error": "Error chain"}

#: Upgrades of older design formats: ``_UPGRADES[n]`` turns version ``n`` data into version ``n + 1``.
_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


# ----------------------------------------------------------------------------------------- JSON and files


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Check the format version and bring older data up to :data:`DESIGN_VERSION`."""
    if "version" not in data:
        raise DesignError("version: missing — this does not look like an agent design file", path="version")
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise DesignError(f"version: must be a whole number, got {json.dumps(version)}", path="version")
    if version > DESIGN_VERSION:
        raise DesignError(
            f"version: this design was saved by a newer Processor Studio (design format {version}; this version "
            f"reads formats up to {DESIGN_VERSION}). Update Processor Studio to open it.",
            path="version",
        )
    if version < 1:
        raise DesignError(f"version: unknown design format {version}", path="version")
    while version < DESIGN_VERSION:
        data = _UPGRADES[version](dict(data))
        version += 1
        data["version"] = version
    return data


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(item) for item in value]
    return value


def _error_path(loc: Iterable[int | str]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _error_message(item: Any) -> str:
    if item["type"] == "extra_forbidden":
        return "unknown field"
    if item["type"] == "missing":
        return "missing"
    return str(item["msg"])


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    return "a boolean" if isinstance(value, bool) else "a number"


def load_design(path: str | os.PathLike[str]) -> AgentDesign:
    """Read a design file. Raises :class:`DesignError` (naming the file) when it cannot be read or is invalid."""
    file = Path(path)
    try:
        text = file.read_bytes()
    except OSError as error:
        raise DesignError(f"{file.name}: cannot read the file: {error.strerror or error}", path="") from error
    try:
        return AgentDesign.from_json(text)
    except DesignError as error:
        raise DesignError(
            f"{file.name}: {error.message}", path=error.path, problems=error.problems
        ) from None


def save_design(design: AgentDesign, path: str | os.PathLike[str]) -> None:
    """Write ``design`` to ``path`` atomically: a crash mid-write leaves the old file, never half a new one."""
    file = Path(path)
    text = design.to_json()
    handle, temp_name = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".tmp", dir=file.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp_name, file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


# ---------------------------------------------------------------------------------------- building an agent


def entry_label(lane: Lane, index: int, entry: ChainEntry) -> str:
    """How messages name a chain entry: ``"Output chain, #2 (RegexFilter)"`` (positions count from 1)."""
    return f"{_LANE_TITLES[lane]}, #{index + 1} ({entry.type})"


def build_processor(catalogue: Catalogue, lane: Lane, index: int, entry: ChainEntry) -> Any:
    """One chain entry as a runtime processor. Raises :class:`DesignError` naming the entry on any failure."""
    from processors.agent import check_lane

    where = entry_label(lane, index, entry)
    try:
        processor = catalogue.create(entry.type, entry.options)
        check_lane([processor], lane)
    except Exception as error:  # unknown type, invalid options, a plug-in's own failure: all the user's to fix
        raise DesignError(
            f"{where}: {error}", path=f"{lane}[{index}]", lane=lane, index=index, uid=entry.uid
        ) from error
    return processor


@dataclass
class BuiltEntry:
    """A chain entry and the processor built from it; ``default_id`` is the id it had before de-duplication."""

    lane: Lane
    index: int
    entry: ChainEntry
    processor: Any
    default_id: str


def build_chains(design: AgentDesign, catalogue: Catalogue) -> dict[Lane, list[BuiltEntry]]:
    """Every enabled entry of each chain with its processor, processor ids made unique across the agent.

    Two processors sharing an id would share their per-run ``state`` (the runtime keys it by id), so a
    second ``PIIDetector`` becomes ``pii-detector-2``.
    """
    chains: dict[Lane, list[BuiltEntry]] = {}
    taken: set[str] = set()
    for lane in LANES:
        chains[lane] = []
        for index, entry in enumerate(design.chain(lane)):
            if not entry.enabled:
                continue
            processor = build_processor(catalogue, lane, index, entry)
            default_id = str(getattr(processor, "id", "") or "processor")
            unique = _unique_id(default_id, taken)
            if unique != getattr(processor, "id", None):
                processor.id = unique
            chains[lane].append(BuiltEntry(lane, index, entry, processor, default_id))
    return chains


def _unique_id(wanted: str, taken: set[str]) -> str:
    candidate, number = wanted, 2
    while candidate in taken:
        candidate = f"{wanted}-{number}"
        number += 1
    taken.add(candidate)
    return candidate


def _listen(processor: Any, listener: Callable[[str, Violation], None]) -> None:
    """Make ``processor.on_violation`` tell ``listener(processor id, violation)`` first, then do what it did."""
    original = getattr(processor, "on_violation", None)
    processor_id = str(processor.id)

    def on_violation(violation: Violation) -> Any:
        try:
            listener(processor_id, violation)
        except Exception:  # the studio's listing must never break the guardrail or its own alert
            logger.warning("violation listener failed for processor %s", processor_id, exc_info=True)
        return original(violation) if callable(original) else None

    processor.on_violation = on_violation


def build_model(config: ModelConfig, *, api_key: str | None = None) -> LanguageModel:
    """The design's model: the offline demo model for ``"demo"``, else litellm (the key is passed, never saved)."""
    if config.is_demo:
        from studio.demo import demo_model

        return demo_model()
    model_id = config.model.strip()
    if not model_id:
        raise DesignError("model.model: choose a model (a litellm id such as 'openai/gpt-4o-mini', or 'demo')",
                          path="model.model")
    from processors.models.litellm import LiteLLMModel

    return LiteLLMModel(model_id, api_base=config.api_base or None, api_key=api_key, **config.call_settings())


def _tool_file_and_function(name: str) -> tuple[str, str] | None:
    """``"weather.py:forecast"`` → ``("weather.py", "forecast")``; ``None`` for a demo tool name."""
    if ":" not in name:
        return None
    file_name, _, function = name.rpartition(":")
    return file_name, function


def resolve_tool(name: str, *, tool_folder: Path | None = None) -> Tool:
    """A design's tool name as a :class:`processors.Tool`: a demo tool, or ``file.py:function`` from the tools folder.

    The file is imported afresh each time, so edits to a tool file apply to the next run.
    """
    from processors.builtin.registry import import_file
    from processors.tools import Tool, tool

    target = _tool_file_and_function(name)
    if target is None:
        from studio.demo import DEMO_TOOLS

        if name not in DEMO_TOOLS:
            known = ", ".join(sorted(DEMO_TOOLS))
            raise DesignError(f"Tool '{name}': no such demo tool (demo tools: {known}; a tool from a file is "
                              "written 'file.py:function')", path="tools")
        return DEMO_TOOLS[name]
    file_name, function = target
    if tool_folder is None:
        from studio.paths import tools_folder

        tool_folder = tools_folder()
    path = Path(file_name) if Path(file_name).is_absolute() else tool_folder / file_name
    if not path.is_file():
        raise DesignError(f"Tool '{name}': the file {file_name} is not in the tools folder ({tool_folder})",
                          path="tools")
    try:
        module = import_file(path)
    except Exception as error:
        raise DesignError(f"Tool '{name}': cannot import {file_name}: {type(error).__name__}: {error}",
                          path="tools") from error
    found = getattr(module, function, None)
    if found is None:
        raise DesignError(f"Tool '{name}': {file_name} has no function named '{function}'", path="tools")
    if isinstance(found, Tool):
        return found
    if not callable(found):
        raise DesignError(f"Tool '{name}': '{function}' in {file_name} is not a function", path="tools")
    try:
        return tool(found)
    except (TypeError, ValueError) as error:
        raise DesignError(f"Tool '{name}': {error}", path="tools") from error


def resolve_tools(names: Iterable[str], *, tool_folder: Path | None = None) -> list[Tool]:
    """Every tool of a design; two tools answering to the same name are refused (the model could not tell)."""
    tools: list[Tool] = []
    seen: dict[str, str] = {}
    for name in names:
        found = resolve_tool(name, tool_folder=tool_folder)
        if found.name in seen:
            raise DesignError(f"Tool '{name}': its name '{found.name}' is already used by '{seen[found.name]}'",
                              path="tools")
        seen[found.name] = name
        tools.append(found)
    return tools


def build_agent(
    design: AgentDesign,
    *,
    catalogue: Catalogue,
    api_key: str | None = None,
    memory: Memory | None = None,
    on_violation: Callable[[str, Violation], None] | None = None,
    tool_folder: Path | None = None,
) -> Agent:
    """The runtime :class:`processors.Agent` for ``design``; raises :class:`DesignError` for what cannot be built.

    Only enabled chain entries run; the agent's ``<lane>_processors[i]`` is the ``i``-th enabled entry of that
    chain. ``on_violation(processor_id, violation)`` is told about every abort, before each processor's own
    ``on_violation`` runs as usual; processor ids are unique within the agent, and :func:`processor_entries`
    maps them back to chain entries. ``catalogue`` is a
    :class:`processors.builtin.registry.Catalogue` (``studio.catalog.studio_catalogue()`` in the app).
    """
    from processors import Agent

    chains = build_chains(design, catalogue)
    if on_violation is not None:
        for built in chains.values():
            for item in built:
                _listen(item.processor, on_violation)
    model = build_model(design.model, api_key=api_key)
    tools = resolve_tools(design.tools, tool_folder=tool_folder)
    return Agent(
        id=design.id,
        name=design.name,
        instructions=design.instructions,
        model=model,
        tools=tools,
        input_processors=[item.processor for item in chains["input"]],
        output_processors=[item.processor for item in chains["output"]],
        error_processors=[item.processor for item in chains["error"]],
        max_processor_retries=design.max_processor_retries,
        max_steps=design.max_steps,
        memory=memory,
    )


def processor_entries(design: AgentDesign, agent: Agent) -> dict[str, ChainEntry]:
    """Processor id → the chain entry it was built from, for an agent :func:`build_agent` made from ``design``.

    The inspector and the chat use it to point from a trace event or a tripwire back to the chain editor.
    """
    mapping: dict[str, ChainEntry] = {}
    for lane, processors in (
        ("input", agent.input_processors),
        ("output", agent.output_processors),
        ("error", agent.error_processors),
    ):
        enabled = [entry for entry in design.chain(lane) if entry.enabled]  # type: ignore[arg-type]
        for entry, processor in zip(enabled, processors or [], strict=False):  # type: ignore[arg-type]
            mapping[str(getattr(processor, "id", ""))] = entry
    return mapping


# ------------------------------------------------------------------------------------------- Python export

#: Environment variables litellm itself reads for providers whose name does not simply give ``<NAME>_API_KEY``.
_KEY_ENV_NAMES = {"together_ai": "TOGETHERAI_API_KEY", "azure": "AZURE_API_KEY", "vertex_ai": "VERTEXAI_API_KEY"}


def api_key_env_var(model_id: str) -> str:
    """The environment variable an exported script reads the API key from (the provider's usual one)."""
    provider = model_id.split("/", 1)[0] if "/" in model_id else "openai"
    return _KEY_ENV_NAMES.get(provider, re.sub(r"\W", "_", provider).upper() + "_API_KEY")


def design_to_python(
    design: AgentDesign, *, catalogue: Catalogue | None = None, tool_folder: Path | None = None
) -> str:
    """A runnable Python script that builds the same agent with ``processors`` and chats on stdin/stdout.

    Every processor is constructed as ``Type(**options)`` from the module that defines it; the API key is read
    from an environment variable at run time, never written into the script. The script imports ``studio`` only
    for the offline demo model and demo tools. Building the design first means an export that could not run is
    refused with the same :class:`DesignError` a run would give. ``catalogue`` defaults to the studio's.
    """
    if catalogue is None:
        from studio.catalog import studio_catalogue

        catalogue = studio_catalogue()
    chains = build_chains(design, catalogue)
    resolve_tools(design.tools, tool_folder=tool_folder)  # refuse what would fail when the script runs
    return _Script(design, catalogue, tool_folder).render(chains)


def _catalogue_class(catalogue: Catalogue, type_name: str, fallback: type) -> tuple[type, Path | None]:
    """The class the catalogue records for ``type_name`` (what ``create`` instantiates), and its user file if any."""
    record = catalogue.get(type_name)
    if record is None:
        return fallback, None
    file = Path(record.source.removeprefix("file:")) if record.source.startswith("file:") else None
    return record.cls, file


# --- Python source for JSON values, formatted as ruff format would ------------------------------------------

_WIDTH = 110


def _literal(value: Any, indent: int) -> str:
    """``value`` (JSON data) as Python source; containers that do not fit on the line are split, one item a line."""
    flat = _flat_literal(value)
    if len(flat) + indent <= _WIDTH:
        return flat
    if isinstance(value, str):
        return _string_literal(value, indent)
    if isinstance(value, dict) and value:
        items = [f"{_string_literal(str(k), indent + 4)}: {_literal(v, indent + 4)}" for k, v in value.items()]
        return _bracketed("{", items, "}", indent)
    if isinstance(value, list) and value:
        return _bracketed("[", [_literal(item, indent + 4) for item in value], "]", indent)
    return flat


def _bracketed(opening: str, items: Sequence[str], closing: str, indent: int) -> str:
    if not items:
        return opening + closing
    inner = " " * (indent + 4)
    return opening + "\n" + "".join(f"{inner}{item},\n" for item in items) + " " * indent + closing


def _flat_literal(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid Python string literal
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flat_literal(str(k))}: {_flat_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flat_literal(item) for item in value) + "]"
    return repr(value)


def _string_literal(text: str, indent: int) -> str:
    """A long string as implicitly concatenated pieces in parentheses, split after spaces and line ends."""
    flat = json.dumps(text, ensure_ascii=False)
    if len(flat) + indent <= _WIDTH:
        return flat
    room = max(30, _WIDTH - indent - 6)
    pieces: list[str] = []
    current = ""
    for word in re.findall(r"[^ \n]+ *\n?| +\n?|\n", text):
        if current and (current.endswith("\n") or len(json.dumps(current + word, ensure_ascii=False)) > room):
            pieces.append(current)
            current = ""
        current += word
    if current:
        pieces.append(current)
    return _bracketed("(", [json.dumps(piece, ensure_ascii=False) for piece in pieces], ")", indent).replace(
        ",\n", "\n"
    )


def _is_name(key: str) -> bool:
    return key.isidentifier() and not keyword.iskeyword(key)


def _call(callee: str, kwargs: dict[str, Any], indent: int, leading: Sequence[str] = (), *, before: int = 0) -> str:
    """``callee(leading..., key=value, ...)`` on one line if it fits, else one argument a line.

    ``indent`` is the line's indentation, ``before`` how many characters precede ``callee`` after it.
    """
    if all(_is_name(key) for key in kwargs):
        flat_parts = [*leading, *(f"{key}={_flat_literal(value)}" for key, value in kwargs.items())]
        parts = [*leading, *(f"{key}={_literal(value, indent + 4)}" for key, value in kwargs.items())]
    else:
        flat_parts = [*leading, f"**{_flat_literal(kwargs)}"]
        parts = [*leading, f"**{_literal(kwargs, indent + 4)}"]
    one_line = f"{callee}({', '.join(flat_parts)})"
    if len(one_line) + indent + before <= _WIDTH:
        return one_line
    return _bracketed(f"{callee}(", parts, ")", indent)


def _docstring_text(text: str) -> str:
    return " ".join(text.split()).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


# --- the script ---------------------------------------------------------------------------------------------

_LOAD_FROM_FILE = '''
def load_from_file(path: Path, name: str) -> Any:
    """Import ``name`` from a Python file by its path (user processor and tool files are not packages)."""
    spec = importlib.util.spec_from_file_location(f"exported_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return getattr(module, name)
'''

_AS_TOOL = '''
def as_tool(found: Any) -> Tool:
    """A ``@tool`` object as it is; a plain function wrapped with ``tool``."""
    return found if isinstance(found, Tool) else tool(found)
'''

_CHAT = '''
async def chat(agent: Agent) -> None:
    """Answer each line read from standard input, streaming the reply to standard output."""
    loop = asyncio.get_running_loop()
    while True:
        if sys.stdin.isatty():
            print("> ", end="", flush=True)
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        if not line.strip():
            continue
        stream = agent.stream(line.strip())
        async for chunk in stream:
            if chunk.type == "text-delta":
                print(chunk.payload.text, end="", flush=True)
            elif chunk.type == "tool-call":
                print(f"[tool {chunk.payload.tool_name}({chunk.payload.args})]", flush=True)
            elif chunk.type == "tripwire":
                print(f"[blocked by {chunk.payload.processor_id}: {chunk.payload.reason}]", flush=True)
            elif chunk.type == "error":
                print(f"[error: {chunk.payload.error}]", flush=True)
        print(flush=True)


def main() -> None:
    try:
        asyncio.run(chat(build_agent()))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
'''

#: Local names of ``build_agent()`` that a renamed processor's variable must not take.
_BUILD_LOCALS = frozenset({"model", "tools", "input_processors", "output_processors", "error_processors"})


class _Script:
    """Writes the exported script: imports collected as classes are met, ``build_agent()``, the chat loop."""

    def __init__(self, design: AgentDesign, catalogue: Catalogue, tool_folder: Path | None) -> None:
        self.design = design
        self.catalogue = catalogue
        self.tool_folder = tool_folder
        self.stdlib: set[str] = {"import asyncio", "import sys"}
        self.imports: dict[str, set[str]] = {"processors": {"Agent"}}
        self.constants: list[str] = []
        self.helpers: list[str] = []
        self.loads: list[str] = []  # statements of build_agent() that load classes from user files
        self.local_names: dict[str, tuple[str, str]] = {}  # local name -> (module or file, its name there)

    # --- names -----------------------------------------------------------------------------------------------
    def _bind(self, origin: str, name: str) -> str:
        local, number = name, 2
        while local in self.local_names and self.local_names[local] != (origin, name):
            local = f"{name}_{number}"
            number += 1
        self.local_names[local] = (origin, name)
        return local

    def _import(self, module: str, name: str) -> str:
        local = self._bind(module, name)
        self.imports.setdefault(module, set()).add(name if local == name else f"{name} as {local}")
        return local

    def _helper(self, source: str) -> None:
        if source in self.helpers:
            return
        self.helpers.append(source)
        if source is _AS_TOOL:
            self._import("processors", "Tool")
            self._import("processors", "tool")
        self.stdlib.update({"import importlib.util", "from pathlib import Path", "from typing import Any"})

    def class_expression(self, cls: type, file: Path | None = None) -> str:
        """How the script names ``cls``: imported from its module, or loaded from its file (user files)."""
        qualname = cls.__qualname__
        if "<locals>" in qualname:
            raise DesignError(f"{qualname} is defined inside a function and cannot be exported", path="")
        top, _, rest = qualname.partition(".")
        module_name = cls.__module__
        module = sys.modules.get(module_name)
        if file is None and _importable(module_name, module):
            local = self._import(module_name, top)
        else:
            file = file or getattr(module, "__file__", None)
            if not file:
                raise DesignError(f"{qualname} comes from {module_name}, which a script cannot import", path="")
            fresh = (str(file), top) not in self.local_names.values()
            local = self._bind(str(file), top)
            if fresh:
                self._helper(_LOAD_FROM_FILE)
                self.loads.append(f"{local} = load_from_file(Path({_flat_literal(str(file))}), {_flat_literal(top)})")
        return f"{local}.{rest}" if rest else local

    # --- the statements of build_agent() -------------------------------------------------------------------
    def chains(self, chains: dict[Lane, list[BuiltEntry]]) -> list[str]:
        statements: list[str] = []
        lists: list[str] = []
        for lane in LANES:
            items = []
            for item in chains[lane]:
                cls, file = _catalogue_class(self.catalogue, item.entry.type, type(item.processor))
                options = _sorted_keys(item.entry.options)
                if item.processor.id == item.default_id:
                    items.append(_call(self.class_expression(cls, file), options, 8))
                    continue
                # A de-duplicated id: the processor gets a variable, and its id is set as build_agent() does.
                variable = re.sub(r"\W", "_", item.processor.id)
                if not _is_name(variable) or variable in _BUILD_LOCALS:
                    variable = f"processor_{variable}"
                constructor = self.class_expression(cls, file)
                statements.append(f"{variable} = {_call(constructor, options, 4, before=len(variable) + 3)}")
                statements.append(f"{variable}.id = {_flat_literal(item.processor.id)}")
                items.append(variable)
            lists.append(f"{lane}_processors = {_bracketed('[', items, ']', 4)}")
        return statements + lists

    def model(self) -> str:
        config = self.design.model
        if config.is_demo:
            return f"model = {self._import('studio.demo', 'demo_model')}()"
        self.stdlib.add("import os")
        model_id = config.model.strip()
        self.constants.insert(0, f"API_KEY_ENV = {_flat_literal(api_key_env_var(model_id))}")
        leading = [
            _flat_literal(model_id),
            f"api_base={_flat_literal(config.api_base or None)}",
            "api_key=os.environ.get(API_KEY_ENV)",
        ]
        constructor = self._import("processors.models", "LiteLLMModel")
        return f"model = {_call(constructor, _sorted_keys(config.call_settings()), 4, leading, before=8)}"

    def tools(self) -> str:
        expressions = []
        for name in self.design.tools:
            target = _tool_file_and_function(name)
            if target is None:
                expressions.append(f"{self._import('studio.demo', 'DEMO_TOOLS')}[{_flat_literal(name)}]")
                continue
            if _AS_TOOL not in self.helpers:
                self._helper(_LOAD_FROM_FILE)
                self._helper(_AS_TOOL)
                self.stdlib.add("import os")
                folder = _flat_literal(str(self.tool_folder or _default_tools_folder()))
                self.constants.append(f'TOOLS_FOLDER = Path(os.environ.get("PROCESSOR_STUDIO_TOOLS") or {folder})')
            file_name, function = target
            path = (
                f"Path({_flat_literal(file_name)})"
                if Path(file_name).is_absolute()
                else f"TOOLS_FOLDER / {_flat_literal(file_name)}"
            )
            expressions.append(f"as_tool(load_from_file({path}, {_flat_literal(function)}))")
        return f"tools = {_bracketed('[', expressions, ']', 4)}"

    # --- the whole script ----------------------------------------------------------------------------------
    def render(self, chains: dict[Lane, list[BuiltEntry]]) -> str:
        design = self.design
        chain_statements = self.chains(chains)
        statements = [*self.loads, *chain_statements, self.model(), self.tools()]
        self.constants.append(f"INSTRUCTIONS = {_string_literal(design.instructions, 0)}")
        arguments = [
            f"id={_flat_literal(design.id)}",
            f"name={_string_literal(design.name, 8)}",
            "instructions=INSTRUCTIONS",
            "model=model",
            "tools=tools",
            "input_processors=input_processors",
            "output_processors=output_processors",
            "error_processors=error_processors",
            f"max_processor_retries={design.max_processor_retries!r}",
            f"max_steps={design.max_steps!r}",
        ]
        statements.append(f"return {_bracketed('Agent(', arguments, ')', 4)}")
        build = (
            "def build_agent() -> Agent:\n"
            '    """The agent as designed in Processor Studio."""\n'
            + "".join(f"    {statement}\n" for statement in statements)
        )
        head = [self._header(), self._imports(), "\n".join(self.constants)]
        definitions = [*self.helpers, build, _CHAT]
        return "\n\n".join(part.strip("\n") for part in head) + "\n\n\n" + "\n\n\n".join(
            part.strip("\n") for part in definitions
        ) + "\n"

    def _header(self) -> str:
        design = self.design
        if design.model.is_demo:
            key_note = "It uses the offline demo model (no API key, no network), so `studio` must be importable."
        else:
            env = api_key_env_var(design.model.model.strip())
            key_note = f"The API key is read from the {env} environment variable."
        return (
            f'"""{_docstring_text(design.name)}: an agent exported from Processor Studio.\n\n'
            "Run it and type messages, one per line (Ctrl-D ends); each reply streams back. Every line starts a\n"
            f"new conversation. {key_note}\n"
            '"""'
        )

    def _imports(self) -> str:
        plain = sorted(line for line in self.stdlib if line.startswith("import "))
        froms = sorted(line for line in self.stdlib if line.startswith("from "))
        first_party = [
            f"from {module} import {', '.join(sorted(names, key=_isort_key))}"
            for module, names in sorted(self.imports.items())
        ]
        return "from __future__ import annotations\n\n" + "\n".join(plain + froms) + "\n\n" + "\n".join(first_party)


def _isort_key(name: str) -> tuple[int, str]:
    """isort's order within one ``from`` import: CONSTANTS, then Classes, then functions."""
    bare = name.split(" as ")[0]
    kind = 0 if bare.isupper() else 1 if bare[:1].isupper() else 2
    return kind, bare


def _default_tools_folder() -> Path:
    from studio.paths import tools_folder

    return tools_folder()


def _importable(module_name: str, module: ModuleType | None) -> bool:
    """Whether a fresh interpreter can ``import module_name``: its top-level package is on ``sys.path``.

    ``PathFinder`` looks at ``sys.path`` only; ``find_spec`` would also trust ``sys.modules``, where files
    imported by path (user processors) sit under made-up names.
    """
    if module_name == "__main__" or module is None:
        return False
    top = module_name.partition(".")[0]
    return top in sys.builtin_module_names or importlib.machinery.PathFinder.find_spec(top) is not None
