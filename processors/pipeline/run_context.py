"""What one ``generate``/``stream`` call prepares once and every hook call of it shares.

:class:`RunContext` holds the run's id, request context, writer, tracer, abort signal and the per-processor state
dicts; :class:`Entry` is a processor prepared for the run (its id, index and bound hooks); :func:`common_args` is
the part of every hook's args object that comes from those two. Both the hook runner (:mod:`processors.pipeline.runner`)
and the per-chunk stream chain (:mod:`processors.pipeline.stream_chain`) build on them, so they live apart from either.
"""

from __future__ import annotations

import asyncio
import inspect
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from processors.context import RequestContext, StreamWriter
from processors.pipeline.debugger import Debugger
from processors.pipeline.processor import HookArgs, processor_id
from processors.tracing import TraceHub

__all__ = ["ArgsRecipe", "Entry", "RunContext", "common_args"]


class RunContext:
    """What every hook call of one ``generate``/``stream`` call shares."""

    __slots__ = (
        "abort_signal", "debugger", "request_context", "run_id", "states", "step_number", "tracer", "warnings",
        "writer",
    )  # fmt: skip

    def __init__(
        self,
        *,
        run_id: str,
        request_context: RequestContext,
        writer: StreamWriter,
        tracer: TraceHub,
        abort_signal: asyncio.Event,
        debugger: Debugger | None = None,
    ) -> None:
        self.run_id = run_id
        self.request_context = request_context
        self.writer = writer
        self.tracer = tracer
        self.abort_signal = abort_signal
        #: One dict per processor id for the whole call (two instances with one id share it, as in Mastra).
        self.states: dict[str, dict[str, Any]] = {}
        self.step_number: int | None = None
        self.warnings: list[str] = []
        #: Breakpoints for this call (:mod:`processors.pipeline.debugger`); None, the usual case, costs nothing.
        self.debugger = debugger

    def state_for(self, pid: str) -> dict[str, Any]:
        state = self.states.get(pid)
        if state is None:
            state = self.states[pid] = {}
        return state


class Entry:
    """A processor prepared for one run: its id, index and the bound hook functions it implements."""

    __slots__ = ("asyncs", "hooks", "id", "index", "processor", "wants_data")

    def __init__(self, processor: Any, index: int) -> None:
        self.processor = processor
        self.id = processor_id(processor)
        self.index = index
        self.wants_data = bool(getattr(processor, "process_data_parts", False))
        self.hooks: dict[str, Callable[[Any], Any]] = {}
        self.asyncs: dict[str, bool] = {}
        for name in _class_hook_names(type(processor)) + tuple(getattr(processor, "__dict__", {})):
            if name.startswith("process_") and name not in self.hooks:
                fn = getattr(processor, name, None)
                if callable(fn) and name != "process_data_parts":
                    self.hooks[name] = fn
                    self.asyncs[name] = inspect.iscoroutinefunction(fn)


#: The ``process_*`` names of each processor class, in ``dir`` order: listing a class cost more than the rest of
#: preparing an :class:`Entry`, and a lab run prepares one per processor per case. Weak keys: the classes of a user
#: processors file that is loaded again go with their old module. A hook added to a class after its first run is
#: not seen (one set on an instance is).
_CLASS_HOOK_NAMES: weakref.WeakKeyDictionary[type, tuple[str, ...]] = weakref.WeakKeyDictionary()


def _class_hook_names(cls: type) -> tuple[str, ...]:
    names = _CLASS_HOOK_NAMES.get(cls)
    if names is None:
        names = _CLASS_HOOK_NAMES[cls] = tuple(
            name for name in dir(cls) if name.startswith("process_") and name != "process_data_parts"
        )
    return names


def common_args(ctx: RunContext, entry: Entry, retry_count: int = 0) -> dict[str, Any]:
    return {
        "processor_id": entry.id,
        "state": ctx.state_for(entry.id),
        "request_context": ctx.request_context,
        "writer": ctx.writer,
        "retry_count": retry_count,
        "abort_signal": ctx.abort_signal,
        "run_id": ctx.run_id,
    }


#: The args class a recipe builds (``ProcessInputArgs`` ...).
ArgsT = TypeVar("ArgsT", bound=HookArgs)


@dataclass(frozen=True, slots=True)
class ArgsRecipe(Generic[ArgsT]):
    """How a lane builds each processor's args, as data rather than a closure of the phase: the hook's args class,
    the values every processor of the lane is given as they are (``fixed``), and the ones read anew before each
    processor (``fresh``: what the processors before it may have changed, such as the message list's views; each a
    call of no argument, a bound method or a ``partial``), plus :func:`common_args` with ``retry_count``. ``live``
    is a mapping the lane's own reduction or apply updates (the prompt a processor rewrote, the step's overrides):
    its values as they stand before each processor, each passed through its ``views`` function if it has one (the
    model built from its id, a copy of the tools). ``flags`` are boolean args, true for the processors whose id is
    in their set (``process_input_step``'s ``llm_request_stage``).

    :func:`processors.pipeline.runner.run_lane` calls it as its ``args_for``; the phase that made it is not called
    back for it (``scripts/trace-flow``)."""

    ctx: RunContext
    args_type: type[ArgsT]
    fixed: Mapping[str, Any] = field(default_factory=dict)
    fresh: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    retry_count: int = 0
    live: Mapping[str, Any] = field(default_factory=dict)
    views: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    flags: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __call__(self, entry: Entry) -> ArgsT:
        values = {name: read() for name, read in self.fresh.items()}
        live = self.live
        if self.views:
            views = self.views
            live = {name: views[name](value) if name in views else value for name, value in live.items()}
        for name, ids in self.flags.items():
            values[name] = entry.id in ids
        return self.args_type(**self.fixed, **live, **values, **common_args(self.ctx, entry, self.retry_count))
