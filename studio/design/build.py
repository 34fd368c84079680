"""Building a runtime :class:`processors.Agent` from an :class:`~studio.design.agent_design.AgentDesign`.

Each enabled chain entry becomes a processor from the catalogue, the model config becomes a model (the offline
demo model or litellm), tool names become tools (demo tools or ``file.py:function`` from the user tools folder).
Anything that cannot be built raises :class:`~studio.design.agent_design.DesignError` naming the lane, position and
type.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from processors import Agent, Tool, Violation
    from processors.builtin.registry import Catalogue
    from processors.memory.base import Memory
    from processors.models.base import LanguageModel
    from processors.models.recording import Recording

from pydantic import ValidationError

from processors.problems import problem_of
from studio.design.agent_design import (
    _LANE_TITLES,
    LANES,
    AgentDesign,
    ChainEntry,
    DesignError,
    Lane,
    ModelConfig,
    explain_option_error,
)
from studio.texts.translator import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)


def entry_label(lane: Lane, index: int, entry: ChainEntry) -> str:
    """How messages name a chain entry: ``"Output chain, #2 (RegexFilter)"`` (positions count from 1)."""
    return f"{_LANE_TITLES[lane]}, #{index + 1} ({entry.type})"


def build_processor(catalogue: Catalogue, lane: Lane, index: int, entry: ChainEntry) -> Any:
    """One chain entry as a runtime processor. Raises :class:`DesignError` naming the entry on any failure."""
    from processors.agent import check_lane

    where: dict[str, Any] = {"lane_title": _LANE_TITLES[lane], "position": index + 1, "type": entry.type}
    from processors.builtin.base import InvalidOptionsError

    try:
        try:
            processor = catalogue.create(entry.type, entry.options)
        except ValidationError as refusal:  # a plug-in that checks its options with its own pydantic model
            raise InvalidOptionsError.of_validation(entry.type, refusal) from None
        check_lane([processor], lane)
    except InvalidOptionsError as error:  # named as the form names it (text kept as typed that is no JSON...)
        problems = [
            (path, explain_option_error(entry.options, path, message)) for path, message in error.errors.items()
        ]
        # each problem's code and values, for the reader's language (not for one explained as JSON kept as typed)
        codes = {path: list(error.codes[path]) for path, message in problems if (path, message) in error.errors.items()}
        raise DesignError.of(
            QT_TRANSLATE_NOOP(
                "DesignError", "{lane_title}, #{position} ({type}): Invalid options for {type}: {options}"
            ),
            path=f"{lane}[{index}]",
            lane=lane,
            index=index,
            uid=entry.uid,
            options=problems,
            option_codes=codes,
            **where,
        ) from error
    except Exception as error:  # unknown type, invalid options, a plug-in's own failure: all the user's to fix
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "{lane_title}, #{position} ({type}): {error}"),
            path=f"{lane}[{index}]",
            lane=lane,
            index=index,
            uid=entry.uid,
            error=problem_of(error) or str(error),  # a coded problem keeps its code (the reader's language)
            **where,
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


def build_chains(
    design: AgentDesign, catalogue: Catalogue, *, reuse: dict[tuple[str, ...], Any] | None = None
) -> dict[Lane, list[BuiltEntry]]:
    """Every enabled entry of each chain with its processor, processor ids made unique across the agent.

    Two processors sharing an id would share their per-run ``state`` (the runtime keys it by id), so a
    second ``PIIDetector`` becomes ``pii-detector-2``. With ``reuse`` (a dict the caller keeps between builds),
    an entry whose type and options did not change keeps its processor instance, as an agent in code keeps its
    processors between calls: a ``ResponseCache`` keeps its cache and a ``CostGuard`` its ledger. Per-call state
    is the runtime's ``args.state``, fresh for every call either way.
    """
    chains: dict[Lane, list[BuiltEntry]] = {}
    taken: set[str] = set()
    for lane in LANES:
        chains[lane] = []
        for index, entry in enumerate(design.chain(lane)):
            if not entry.enabled:
                continue
            key = (lane, entry.uid, entry.type, json.dumps(entry.options, sort_keys=True, default=str))
            processor = reuse.get(key) if reuse is not None else None
            if processor is None:
                processor = build_processor(catalogue, lane, index, entry)
                if reuse is not None:
                    reuse[key] = processor
            default_id = str(getattr(processor, "id", "") or "processor")
            unique = _unique_id(default_id, taken)
            if unique != getattr(processor, "id", None):
                _rename(processor, unique, lane, index, entry, default_id)
            chains[lane].append(BuiltEntry(lane, index, entry, processor, default_id))
    return chains


def _rename(processor: Any, unique: str, lane: Lane, index: int, entry: ChainEntry, taken_id: str) -> None:
    """Give ``processor`` the id ``unique``; a processor that keeps its own (frozen, or ignoring what is set on it)
    is refused, naming the entry and the id, rather than built into an agent where two processors share a state."""
    with contextlib.suppress(AttributeError, TypeError, ValueError):  # frozen (a dataclass, a pydantic model)
        processor.id = unique
    if getattr(processor, "id", None) == unique:
        return
    raise DesignError.of(
        QT_TRANSLATE_NOOP(
            "DesignError",
            "{lane_title}, #{position} ({type}): another processor of this agent has the id '{id}' and this one's id "
            "cannot be changed (two processors with one id would share their state); remove one of them",
        ),
        path=f"{lane}[{index}]",
        lane=lane,
        index=index,
        uid=entry.uid,
        lane_title=_LANE_TITLES[lane],
        position=index + 1,
        type=entry.type,
        id=taken_id,
    )


def _unique_id(wanted: str, taken: set[str]) -> str:
    candidate, number = wanted, 2
    while candidate in taken:
        candidate = f"{wanted}-{number}"
        number += 1
    taken.add(candidate)
    return candidate


def _listen(processor: Any, listener: Callable[[str, Violation], None]) -> None:
    """Make ``processor.on_violation`` tell ``listener(processor id, violation)`` first, then do what it did.

    A processor built before (reused) is not wrapped twice: its first wrapper is replaced."""
    original = getattr(processor, "_studio_original_on_violation", getattr(processor, "on_violation", None))
    processor._studio_original_on_violation = original
    processor_id = str(processor.id)

    def on_violation(violation: Violation) -> Any:
        try:
            listener(processor_id, violation)
        except Exception:  # the studio's listing must never break the guardrail or its own alert
            logger.warning("violation listener failed for processor %s", processor_id, exc_info=True)
        return original(violation) if callable(original) else None

    processor.on_violation = on_violation


def build_model(config: ModelConfig, *, api_key: str | None = None) -> LanguageModel:
    """The design's model, built by the provider its id names (:mod:`processors.models.providers`: the offline demo
    model for ``"demo"``, litellm for the hosted and local providers, a plug-in's own model); the key is passed,
    never saved. A credential in the settings is refused whatever the model (:meth:`ModelConfig.check_credentials`)."""
    config.check_credentials()
    from processors.models.providers import provider_for

    model_id = config.model.strip()
    if not model_id:
        raise DesignError.of(
            QT_TRANSLATE_NOOP(
                "DesignError", "model.model: choose a model (a litellm id such as 'openai/gpt-4o-mini', or 'demo')"
            ),
            path="model.model",
        )
    provider = provider_for(model_id)
    if provider.offline:
        return provider.build(model_id)
    settings = config.call_settings()
    try:
        return provider.build(model_id, api_base=config.api_base or None, api_key=api_key, **settings)
    except Exception as error:  # a plug-in provider's factory: the user's to fix (or to report), not a crash
        raise DesignError.of(
            QT_TRANSLATE_NOOP(
                "DesignError", "model.model: the provider '{provider}' could not build '{model}': {error}"
            ),
            path="model.model",
            provider=provider.name,
            model=model_id,
            error=f"{type(error).__name__}: {error}",
        ) from error


def _tool_file_and_function(name: str) -> tuple[str, str] | None:
    """``"weather.py:forecast"`` → ``("weather.py", "forecast")``; ``None`` for a demo tool name."""
    if ":" not in name:
        return None
    file_name, _, function = name.rpartition(":")
    return file_name, function


def tool_file(name: str, file_name: str, tool_folder: Path) -> Path:
    """The real path of a design's tool file, refused (:class:`DesignError`) unless it lies inside the tools folder.

    Designs get shared, and importing a file runs its code: a name such as ``../../Downloads/x.py``, an absolute
    path, or a symlink in the folder that points elsewhere must never reach the import. Both paths are resolved
    (symlinks followed) before they are compared, so only files really inside the folder load.
    """
    folder = tool_folder.resolve()
    written = Path(file_name)
    if written.is_absolute() or written.drive or written.anchor:
        raise DesignError.of(
            QT_TRANSLATE_NOOP(
                "DesignError",
                "Tool '{name}': tools load only from the tools folder ({folder}); '{file}' is an absolute path",
            ),
            path="tools",
            name=name,
            folder=str(folder),
            file=file_name,
        )
    if written.suffix != ".py":
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "Tool '{name}': '{file}' is not a Python file (file.py:function)"),
            path="tools",
            name=name,
            file=file_name,
        )
    try:
        path = (folder / written).resolve()
    except (OSError, RuntimeError, ValueError) as error:  # a symlink loop, a NUL in the name
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "Tool '{name}': cannot resolve '{file}': {error}"),
            path="tools",
            name=name,
            file=file_name,
            error=str(error),
        ) from None
    if not path.is_relative_to(folder):
        raise DesignError.of(
            QT_TRANSLATE_NOOP(
                "DesignError",
                "Tool '{name}': tools load only from the tools folder ({folder}); '{file}' leads outside it, "
                "to {target}",
            ),
            path="tools",
            name=name,
            folder=str(folder),
            file=file_name,
            target=str(path),
        )
    if not path.is_file():
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "Tool '{name}': the file {file} is not in the tools folder ({folder})"),
            path="tools",
            name=name,
            file=file_name,
            folder=str(tool_folder),
        )
    return path


def resolve_tool(name: str, *, tool_folder: Path | None = None) -> Tool:
    """A design's tool name as a :class:`processors.Tool`: a demo tool, or ``file.py:function`` from the tools folder.

    The file is imported afresh each time, so edits to a tool file apply to the next run. Only a file inside the
    tools folder is ever imported (:func:`tool_file`).
    """
    from processors.builtin.registry import import_file
    from processors.tools import Tool, tool

    target = _tool_file_and_function(name)
    if target is None:
        from processors.demo.offline import DEMO_TOOLS

        if name not in DEMO_TOOLS:
            known = ", ".join(sorted(DEMO_TOOLS))
            raise DesignError.of(
                QT_TRANSLATE_NOOP(
                    "DesignError",
                    "Tool '{name}': no such demo tool (demo tools: {known}; a tool from a file is written "
                    "'file.py:function')",
                ),
                path="tools",
                name=name,
                known=known,
            )
        return DEMO_TOOLS[name]
    file_name, function = target
    if tool_folder is None:
        from studio.system.paths import tools_folder

        tool_folder = tools_folder()
    path = tool_file(name, file_name, tool_folder)
    try:
        module = import_file(path)
    except Exception as error:
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "Tool '{name}': cannot import {file}: {error}"),
            path="tools",
            name=name,
            file=file_name,
            error=f"{type(error).__name__}: {error}",
        ) from error
    found = getattr(module, function, None)
    if found is None:
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "Tool '{name}': {file} has no function named '{function}'"),
            path="tools",
            name=name,
            file=file_name,
            function=function,
        )
    if isinstance(found, Tool):
        return found
    if not callable(found):
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "Tool '{name}': '{function}' in {file} is not a function"),
            path="tools",
            name=name,
            file=file_name,
            function=function,
        )
    try:
        return tool(found)
    except (TypeError, ValueError) as error:
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "Tool '{name}': {error}"), path="tools", name=name, error=str(error)
        ) from error


def resolve_tools(names: Iterable[str], *, tool_folder: Path | None = None) -> list[Tool]:
    """Every tool of a design; two tools answering to the same name are refused (the model could not tell)."""
    tools: list[Tool] = []
    seen: dict[str, str] = {}
    for name in names:
        found = resolve_tool(name, tool_folder=tool_folder)
        if found.name in seen:
            raise DesignError.of(
                QT_TRANSLATE_NOOP("DesignError", "Tool '{name}': its name '{tool}' is already used by '{other}'"),
                path="tools",
                name=name,
                tool=found.name,
                other=seen[found.name],
            )
        seen[found.name] = name
        tools.append(found)
    return tools


def build_agent(
    design: AgentDesign,
    *,
    catalogue: Catalogue | None = None,
    api_key: str | None = None,
    memory: Memory | None = None,
    on_violation: Callable[[str, Violation], None] | None = None,
    tool_folder: Path | None = None,
    reuse: dict[tuple[str, ...], Any] | None = None,
    recording: Recording | None = None,
    model: LanguageModel | None = None,
    wrap_tools: Callable[[list[Tool]], Any] | None = None,
    extra_tools: Iterable[Tool] = (),
) -> Agent:
    """The runtime :class:`processors.Agent` for ``design``; raises :class:`DesignError` for what cannot be built.

    Only enabled chain entries run; the agent's ``<lane>_processors[i]`` is the ``i``-th enabled entry of that
    chain. ``on_violation(processor_id, violation)`` is told about every abort, before each processor's own
    ``on_violation`` runs as usual; processor ids are unique within the agent, and :func:`processor_entries`
    maps them back to chain entries. ``catalogue`` is a
    :class:`processors.builtin.registry.Catalogue`; the studio's own (built-ins, plug-ins and the user's processors
    folder) unless another is given. ``extra_tools`` are added after the design's own (the enabled tools of its
    MCP servers, which the caller started: see :class:`studio.mcp.servers.McpSessions`).

    With ``recording``, the model and the tools (MCP ones included) record into it what they said, below every
    processor (the studio keeps it with the run, to replay it later). ``model`` replaces the design's model and
    ``wrap_tools`` the tools (a replay: :class:`~processors.models.recording.ReplayModel` and ``replay_tools``).
    """
    from processors import Agent

    if catalogue is None:
        from studio.design.catalog import studio_catalogue

        catalogue = studio_catalogue()

    chains = build_chains(design, catalogue, reuse=reuse)
    if on_violation is not None:
        for built in chains.values():
            for item in built:
                _listen(item.processor, on_violation)
    if model is None:
        model = build_model(design.model, api_key=api_key)
    own = resolve_tools(design.tools, tool_folder=tool_folder)
    taken = {tool.name for tool in own}
    for tool in extra_tools:
        if tool.name in taken:
            raise DesignError.of(
                QT_TRANSLATE_NOOP("DesignError", "Tool '{name}' of an MCP server: the name is already used"),
                path="mcp_servers",
                name=tool.name,
            )
        taken.add(tool.name)
        own.append(tool)
    tools: Any = own
    if recording is not None:
        from processors.models.recording import RecordingModel, record_tools

        model, tools = RecordingModel(model, recording), record_tools(tools, recording)
    if wrap_tools is not None:
        tools = wrap_tools(list(tools.values()) if isinstance(tools, dict) else tools)
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


def _default_tools_folder() -> Path:
    from studio.system.paths import tools_folder

    return tools_folder()


def available_tools(tool_folder: Path | None = None) -> tuple[list[str], list[str]]:
    """Tool names the agent settings offer: the demo set, then ``file.py:function`` for each ``@tool`` in the user
    tools folder. Returns (names, problems): a file that fails to import is reported and skipped, and so is a
    symlink that leads outside the folder (it is never imported)."""
    from processors.builtin.registry import import_file
    from processors.demo.offline import DEMO_TOOLS
    from processors.tools import Tool

    names = sorted(DEMO_TOOLS)
    problems: list[str] = []
    folder = tool_folder or _default_tools_folder()
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
        if not path.resolve().is_relative_to(folder.resolve()):
            problems.append(f"{path.name}: not loaded, it leads outside the tools folder (to {path.resolve()})")
            continue
        try:
            module = import_file(path)
        except Exception as error:
            problems.append(f"{path.name}: {type(error).__name__}: {error}")
            continue
        names.extend(
            f"{path.name}:{name}"
            for name, value in sorted(vars(module).items())
            if isinstance(value, Tool) and not name.startswith("_")
        )
    return names, problems
