"""``Agent``: a model, instructions, tools and three processor lanes; ``generate()`` and ``stream()`` run it.

Each lane (``input_processors``, ``output_processors``, ``error_processors``) is a list, or a callable that
receives the call's :class:`RequestContext` and returns a list. Per-call arguments of the same names replace
the agent's lists for that call (an empty list disables the lane). A processor placed in a lane whose hooks it
lacks is refused when the agent is built (or, for callables, when the call starts). A processor in the input or
output lane that implements ``process_api_error`` gets a :class:`ProcessorLaneWarning`: only the error lane is
asked about model API errors (as in Mastra 1.71), so that hook would never run there.
"""

from __future__ import annotations

import contextlib
import inspect
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from processors.context import RequestContext
from processors.errors import ProcessorContractError, ProcessorLaneWarning
from processors.loop.config import RunConfig
from processors.loop.run import Run
from processors.loop.stream import AgentStream
from processors.memory.base import Memory
from processors.models.base import LanguageModel
from processors.pipeline.debugger import Debugger
from processors.pipeline.processor import LANE_HOOKS, Lane, implemented_hooks, processor_id
from processors.pipeline.run_context import Entry
from processors.result import GenerateResult
from processors.tools import Tool, tools_by_name
from processors.tracing import TraceHub, Tracer

ProcessorList = Sequence[Any] | Callable[..., Sequence[Any]]


def check_lane(processors: Iterable[Any], lane: Lane) -> list[Any]:
    """Refuse processors that implement none of the lane's hooks, naming what they do implement."""
    checked = []
    for processor in processors:
        pid = processor_id(processor)
        hooks = implemented_hooks(processor)
        if not set(hooks) & set(LANE_HOOKS[lane]):
            has = ", ".join(hooks) or "no hooks"
            raise ProcessorContractError(
                f"Processor '{pid}' cannot go in the {lane} lane: it implements {has}, but the {lane} lane runs "
                f"{', '.join(LANE_HOOKS[lane])}",
                processor_id=pid,
            )
        checked.append(processor)
    return checked


def warn_unreachable_api_error(lanes: Mapping[Lane, Sequence[Any]], *, stacklevel: int = 3) -> None:
    """Warn about input/output processors whose ``process_api_error`` would never run.

    Mastra 1.71 asks only the error lane about model API errors; a processor that implements the hook but sits
    only in another lane would keep that code silently dead. The same instance in the error lane is fine.
    """
    in_error_lane = {id(p) for p in lanes.get("error", ())}
    lane: Lane
    for lane in ("input", "output"):
        for processor in lanes.get(lane, ()):
            if id(processor) in in_error_lane or not getattr(processor, "warn_unreachable_hooks", True):
                continue
            if callable(getattr(processor, "process_api_error", None)):
                warnings.warn(
                    f"Processor '{processor_id(processor)}' implements process_api_error, but in the {lane} lane "
                    "that hook is never called: only error_processors are asked about model API errors. Add it "
                    "to error_processors as well if it should handle them.",
                    ProcessorLaneWarning,
                    stacklevel=stacklevel,
                )


def _resolve_lane(value: ProcessorList | None, lane: Lane, request_context: RequestContext) -> list[Any]:
    if value is None:
        return []
    if callable(value) and not isinstance(value, (list, tuple)):
        params = inspect.signature(value).parameters
        resolved = value(request_context=request_context) if "request_context" in params else value(request_context)
        if inspect.isawaitable(resolved):
            raise ProcessorContractError(f"the {lane} processors callable must return a list, not a coroutine")
        return check_lane(list(resolved), lane)
    return check_lane(list(value), lane)


def _entries(processors: list[Any]) -> list[Entry]:
    entries = []
    for index, processor in enumerate(processors):
        with contextlib.suppress(AttributeError):  # Mastra writes it onto the processor object
            processor.processor_index = index
        entries.append(Entry(processor, index))
    return entries


class Agent:
    """A configured agent. Cheap to build; every call gets fresh processor state."""

    def __init__(
        self,
        *,
        id: str,
        model: LanguageModel | str,
        instructions: str | Sequence[str] = "",
        name: str | None = None,
        description: str | None = None,
        tools: Iterable[Tool] | Mapping[str, Tool] | None = None,
        input_processors: ProcessorList | None = None,
        output_processors: ProcessorList | None = None,
        error_processors: ProcessorList | None = None,
        max_processor_retries: int | None = None,
        max_steps: int = 5,
        memory: Memory | None = None,
        model_settings: Mapping[str, Any] | None = None,
        provider_options: Mapping[str, Any] | None = None,
        tracers: Sequence[Tracer] = (),
    ) -> None:
        if not id:
            raise ValueError("an agent needs a non-empty id")
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        if max_processor_retries is not None and max_processor_retries < 0:
            raise ValueError(f"max_processor_retries must be 0 or more, got {max_processor_retries}")
        self.id = id
        self.name = name or id
        self.description = description
        self.model = model
        self.instructions = [instructions] if isinstance(instructions, str) else list(instructions)
        self.tools = tools_by_name(tools)
        fixed: dict[Lane, Sequence[Any]] = {}
        given: tuple[tuple[Lane, ProcessorList | None], ...] = (
            ("input", input_processors),
            ("output", output_processors),
            ("error", error_processors),
        )
        for lane, value in given:
            if value is not None and not callable(value):
                fixed[lane] = check_lane(value, lane)
        warn_unreachable_api_error(fixed)
        self.input_processors = input_processors
        self.output_processors = output_processors
        self.error_processors = error_processors
        self.max_processor_retries = max_processor_retries
        self.max_steps = max_steps
        self.memory = memory
        self.model_settings = dict(model_settings or {})
        self.provider_options = dict(provider_options or {})
        self.tracer = TraceHub(list(tracers))

    def subscribe(self, tracer: Tracer) -> Callable[[], None]:
        """Observe every hook call of every later run; returns the function that unsubscribes."""
        return self.tracer.subscribe(tracer)

    def stream(
        self,
        messages: Any,
        *,
        thread_id: str | None = None,
        resource_id: str | None = None,
        request_context: RequestContext | None = None,
        input_processors: ProcessorList | None = None,
        output_processors: ProcessorList | None = None,
        error_processors: ProcessorList | None = None,
        max_processor_retries: int | None = None,
        max_steps: int | None = None,
        model_settings: Mapping[str, Any] | None = None,
        tool_choice: Any = None,
        active_tools: Sequence[str] | None = None,
        structured_output: Any = None,
        context: Sequence[Any] = (),
        instructions: str | None = None,
        tracers: Sequence[Tracer] = (),
        keep_chunks: bool = False,
        debugger: Debugger | None = None,
    ) -> AgentStream:
        """Start a run and return its stream (nothing happens until it is iterated or awaited). ``debugger`` pauses
        it at breakpoints (:mod:`processors.pipeline.debugger`)."""
        ctx = request_context or RequestContext()
        if thread_id is not None:
            ctx.set("thread_id", thread_id)
        if resource_id is not None:
            ctx.set("resource_id", resource_id)
        lanes = {
            "input": input_processors if input_processors is not None else self.input_processors,
            "output": output_processors if output_processors is not None else self.output_processors,
            "error": error_processors if error_processors is not None else self.error_processors,
        }
        resolved = {lane: _resolve_lane(value, lane, ctx) for lane, value in lanes.items()}  # type: ignore[arg-type]
        # The agent's own fixed lists were checked when it was built; lanes given per call or made by a callable
        # are new here.
        overrides = {"input": input_processors, "output": output_processors}
        fresh = [lane for lane in ("input", "output") if overrides[lane] is not None or callable(lanes[lane])]
        if fresh:
            warn_unreachable_api_error({lane: resolved[lane] for lane in (*fresh, "error")})  # type: ignore[misc]
        # Mastra's `options.maxProcessorRetries ?? agent.maxProcessorRetries`: None falls back to the agent
        retries = self.max_processor_retries if max_processor_retries is None else max_processor_retries
        hub = TraceHub([*self.tracer._observers, *tracers])
        config = RunConfig(
            agent_id=self.id,
            instructions=[instructions] if instructions is not None else self.instructions,
            model=self.model,
            tools=self.tools,
            input_entries=_entries(resolved["input"]),
            output_entries=_entries(resolved["output"]),
            error_entries=_entries(resolved["error"]),
            max_processor_retries=retries,
            max_steps=max_steps or self.max_steps,
            memory=self.memory,
            thread_id=thread_id,
            resource_id=resource_id,
            request_context=ctx,
            tracer=hub,
            model_settings={**self.model_settings, **dict(model_settings or {})},
            provider_options=self.provider_options,
            tool_choice=tool_choice,
            active_tools=list(active_tools) if active_tools is not None else None,
            structured_output=structured_output,
            context_messages=list(context),
            debugger=debugger,
            agent_name=self.name,
        )
        return AgentStream(Run(config, messages), keep_chunks=keep_chunks)

    async def generate(self, messages: Any, **options: Any) -> GenerateResult:
        """Run to the end and return the result (``stream()`` with the chunks consumed for you)."""
        return await self.stream(messages, **options).result()

    def __repr__(self) -> str:
        return f"Agent(id={self.id!r}, model={getattr(self.model, 'model_id', self.model)!r})"
