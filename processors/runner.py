"""Runs one hook across one lane's chain: state, abort, violations, error policy and tracing.

Processors run strictly in list order and each sees the previous one's output. A :class:`TripWire` stops the
chain at once (later processors do not run), calls the processor's ``on_violation`` (its errors swallowed) and
propagates to the loop. What happens when a hook raises an ordinary exception depends on the hook:

==========================  ======================================================================================
hook                        policy when it raises
==========================  ======================================================================================
process_input               the run ends with an ``error`` chunk naming processor and hook; the model is not called
process_input_step          the run ends with an ``error`` chunk before this step's model call
process_llm_request         same as process_input_step
process_llm_response        the run ends with an ``error`` chunk after the step (its text was already streamed)
process_output_stream       the chunk goes on unchanged (as it entered that processor), the rest of the chain
                            still runs, and a warning is recorded on the result and the trace (Mastra's policy)
process_output_step         the run ends with an ``error`` chunk; the step's text stays in the result
process_tool_result         the run ends with an ``error`` chunk; the tool's result is not committed
process_output_result       the run ends with ``finish_reason == "error"``; memory keeps what was saved before
process_api_error           logged and skipped; the next error processor is asked (Mastra's policy)
==========================  ======================================================================================
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Callable
from typing import Any

from processors.chunks import AnyChunk, DataChunk
from processors.context import RequestContext, StreamWriter
from processors.errors import ProcessorContractError, ProcessorRaisedError
from processors.message_list import MessageList
from processors.messages import Message
from processors.processor import HookArgs, ProcessOutputStreamArgs, processor_id
from processors.stream_parts import StreamParts
from processors.tracing import Outcome, TraceEvent, TraceHub, snapshot_state
from processors.tripwire import TripWire, Violation

logger = logging.getLogger(__name__)


class RunContext:
    """What every hook call of one ``generate``/``stream`` call shares."""

    __slots__ = ("abort_signal", "request_context", "run_id", "states", "step_number", "tracer", "warnings", "writer")

    def __init__(
        self,
        *,
        run_id: str,
        request_context: RequestContext,
        writer: StreamWriter,
        tracer: TraceHub,
        abort_signal: asyncio.Event,
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
        for name in dir(type(processor)) + list(getattr(processor, "__dict__", {})):
            if name.startswith("process_") and name not in self.hooks:
                fn = getattr(processor, name, None)
                if callable(fn) and name != "process_data_parts":
                    self.hooks[name] = fn
                    self.asyncs[name] = inspect.iscoroutinefunction(fn)


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


async def notify_violation(entry: Entry, tripwire: TripWire) -> None:
    """Tell the processor about its abort; a failing callback is logged and forgotten."""
    callback = getattr(entry.processor, "on_violation", None)
    if not callable(callback):
        return
    try:
        outcome = callback(
            Violation(processor_id=tripwire.processor_id or entry.id, message=tripwire.reason, detail=tripwire.metadata)
        )
        if inspect.isawaitable(outcome):
            await outcome
    except asyncio.CancelledError:
        raise
    except Exception:
        logger.warning("on_violation of processor %r raised; ignored", entry.id, exc_info=True)


def messages_fingerprint(message_list: MessageList) -> tuple[Any, ...]:
    """Cheap identity of the list's content, to tell 'changed' from 'passed' when tracing."""
    messages = tuple((m.id, m.role, repr(m.content)) for m in message_list.get.all.db())
    system = tuple(m["content"] for m in message_list.get_all_system_messages())
    return messages, system


def describe_messages(message_list: MessageList) -> str:
    messages = message_list.get.all.db()
    system = message_list.get_all_system_messages()
    last = messages[-1].text[:80] if messages else ""
    return f"{len(messages)} messages, {len(system)} system" + (f"; last: {last!r}" if last else "")


async def invoke(
    ctx: RunContext,
    entry: Entry,
    hook: str,
    args: HookArgs,
    *,
    describe: Callable[[], str] | None = None,
    fingerprint: Callable[[], Any] | None = None,
    apply: Callable[[Any], None] | None = None,
) -> Any:
    """Call one hook of one processor with the error policy shared by every hook but the stream one.

    ``apply`` reconciles the result with the run (so the trace's "after" shows its effect); ``fingerprint``
    tells whether anything changed. Raises :class:`TripWire` (after ``on_violation``),
    :class:`ProcessorContractError` for a result the hook does not allow, or :class:`ProcessorRaisedError`
    naming processor and hook.
    """
    fn = entry.hooks[hook]
    tracing = ctx.tracer.active
    if tracing:
        before = describe() if describe else ""
        marker = fingerprint() if fingerprint else None
        started = time.time()
    try:
        result = fn(args)
        if inspect.isawaitable(result):
            result = await result
        if apply is not None:
            try:
                apply(result)
            except (ValueError, TypeError) as exc:
                raise ProcessorContractError(
                    f"Processor '{entry.id}' returned an invalid value from {hook}: {exc}",
                    processor_id=entry.id,
                    hook=hook,
                ) from exc
    except TripWire as tripwire:
        if tripwire.processor_id is None:
            tripwire.processor_id = entry.id
        await notify_violation(entry, tripwire)
        if tracing:
            _trace(ctx, entry, hook, started, "aborted", before, "", tripwire.reason)
        raise
    except asyncio.CancelledError:
        raise
    except ProcessorContractError as exc:
        if tracing:
            _trace(ctx, entry, hook, started, "raised", before, "", str(exc))
        raise
    except Exception as exc:
        if tracing:
            _trace(ctx, entry, hook, started, "raised", before, "", f"{type(exc).__name__}: {exc}")
        raise ProcessorRaisedError(
            f"Processor '{entry.id}' raised in {hook}: {type(exc).__name__}: {exc}", processor_id=entry.id, hook=hook
        ) from exc
    if tracing:
        changed = marker != fingerprint() if fingerprint is not None else result is not None
        _trace(ctx, entry, hook, started, "changed" if changed else "passed", before, describe() if describe else "")
    return result


def _trace(
    ctx: RunContext,
    entry: Entry,
    hook: str,
    started: float,
    outcome: Outcome,
    before: str,
    after: str,
    detail: str | None = None,
) -> None:
    ctx.tracer.emit(
        TraceEvent(
            run_id=ctx.run_id,
            step_number=ctx.step_number,
            hook=hook,
            processor_id=entry.id,
            processor_index=entry.index,
            started_at=started,
            ended_at=time.time(),
            outcome=outcome,
            before=before,
            after=after,
            state=snapshot_state(ctx.state_for(entry.id)),
            detail=detail,
        )
    )


def trace_outcome(
    ctx: RunContext,
    entry: Entry,
    hook: str,
    started: float,
    outcome: Outcome,
    before: str = "",
    after: str = "",
    detail: str | None = None,
) -> None:
    """Emit a trace event for a call whose outcome the caller decided (e.g. a response that replaced the model)."""
    if ctx.tracer.active:
        _trace(ctx, entry, hook, started, outcome, before, after, detail)


# --------------------------------------------------------------------------------------------- messages
def apply_message_result(
    result: Any,
    *,
    entry: Entry,
    hook: str,
    message_list: MessageList,
    given: list[Message],
    default_source: str,
) -> None:
    """Reconcile what a message hook returned with the live list (Mastra's array-diff semantics).

    ``None`` or the same ``MessageList``: in-place edits stand. A list: it replaces the messages the hook was
    given (missing ones removed, new ones added, edited ones replaced, order taken from the list); system
    messages in it become untagged system messages. Another ``MessageList``: a contract error.
    """
    if result is None or result is message_list:
        return
    if isinstance(result, MessageList):
        raise ProcessorContractError(
            f"Processor '{entry.id}' returned a different MessageList from {hook}: mutate and return the "
            "message_list it was given, or return a list of messages",
            processor_id=entry.id,
            hook=hook,
        )
    if isinstance(result, tuple):
        result = list(result)
    if not isinstance(result, list):
        raise ProcessorContractError(
            f"Processor '{entry.id}' returned {type(result).__name__} from {hook}; expected a list of messages, "
            "the message_list, or None",
            processor_id=entry.id,
            hook=hook,
        )
    messages: list[Message] = []
    for item in result:
        if isinstance(item, Message):
            message = item
        elif isinstance(item, dict):
            try:
                message = Message.model_validate(item)
            except Exception as exc:
                raise ProcessorContractError(
                    f"Processor '{entry.id}' returned an invalid message from {hook}: {exc}",
                    processor_id=entry.id,
                    hook=hook,
                ) from exc
        else:
            raise ProcessorContractError(
                f"Processor '{entry.id}' returned a {type(item).__name__} inside the message list from {hook}",
                processor_id=entry.id,
                hook=hook,
            )
        if message.role == "system":
            message_list.add_system(message.text)
        else:
            messages.append(message)
    message_list.replace_block([m.id for m in given], messages, default_source)  # type: ignore[arg-type]


STEP_OVERRIDE_KEYS = frozenset(
    {
        "model",
        "tool_choice",
        "active_tools",
        "tools",
        "system_messages",
        "provider_options",
        "model_settings",
        "structured_output",
        "message_id",
    }
)


def normalise_mapping(result: Any, entry: Entry, hook: str, allowed: frozenset[str]) -> dict[str, Any]:
    """Read a dict result (snake_case or Mastra's camelCase keys) and refuse keys the hook does not know."""
    if hasattr(result, "model_dump"):
        result = result.model_dump(exclude_unset=True)
    elif not isinstance(result, dict):
        result = {key: getattr(result, key) for key in allowed if hasattr(result, key)}
    normalised: dict[str, Any] = {}
    for key, value in result.items():
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in key)
        if snake not in allowed:
            raise ProcessorContractError(
                f"Processor '{entry.id}' returned an unknown key {key!r} from {hook}; allowed: "
                + ", ".join(sorted(allowed)),
                processor_id=entry.id,
                hook=hook,
            )
        normalised[snake] = value
    return normalised


# --------------------------------------------------------------------------------------------- stream
#: A stream processor may stash a second part under this state key; after the part it returned is emitted, the
#: runtime drives the stashed part through the whole chain (Mastra's reprocess key). BatchParts and the PII
#: detector's carry-over buffer use it to emit "flushed text, then the chunk that caused the flush".
REPROCESS_KEY = "__reprocess_part"
MAX_REPROCESS = 1000


class StreamChain:
    """The per-chunk hot path: ``process_output_stream`` across the output lane.

    Args objects are built once per run and reused (only ``part`` changes), sync hooks are called without an
    await, and tracing is summarised per step, so five pass-through processors cost a few microseconds a chunk.
    """

    __slots__ = ("_ctx", "_links", "_stats", "has_async", "reprocess", "stream_parts")

    def __init__(self, ctx: RunContext, entries: list[Entry], message_list: MessageList) -> None:
        self._ctx = ctx
        self.stream_parts = StreamParts()
        self._links: list[tuple[Entry, Callable[[Any], Any], bool, ProcessOutputStreamArgs]] = []
        for entry in entries:
            fn = entry.hooks.get("process_output_stream")
            if fn is None:
                continue
            args = ProcessOutputStreamArgs(
                part=None,  # type: ignore[arg-type]
                stream_parts=self.stream_parts,
                message_list=message_list,
                **common_args(ctx, entry),
            )
            self._links.append((entry, fn, entry.asyncs["process_output_stream"], args))
        self.has_async = any(link[2] for link in self._links)
        self._stats: dict[str, dict[str, Any]] = {}
        #: Parts processors stashed under :data:`REPROCESS_KEY`, to run through the chain after the current one.
        self.reprocess: list[AnyChunk] = []

    def __bool__(self) -> bool:
        return bool(self._links)

    def set_retry_count(self, retry_count: int) -> None:
        """The stream hook sees the retry count of the step being streamed (set once per step, not per chunk)."""
        for _entry, _fn, _is_async, args in self._links:
            args.retry_count = retry_count

    def process_sync(self, part: AnyChunk) -> AnyChunk | None:
        """Run a chunk through a chain of sync hooks. Raises TripWire (the caller notifies and ends the step)."""
        self.stream_parts.append(part)
        is_data = type(part) is DataChunk
        for entry, fn, _is_async, args in self._links:
            if is_data and not entry.wants_data:
                continue
            args.part = part
            try:
                result = fn(args)
            except TripWire as tripwire:
                if tripwire.processor_id is None:
                    tripwire.processor_id = entry.id
                raise
            except Exception as exc:
                self._raised(entry, exc)
                continue
            if REPROCESS_KEY in args.state:
                self._stash(args.state)
            if result is None:
                return None
            part = result
        return part

    def _stash(self, state: dict[str, Any]) -> None:
        stashed = state.pop(REPROCESS_KEY)
        if stashed is not None:
            if len(self.reprocess) >= MAX_REPROCESS:
                raise ProcessorContractError(f"more than {MAX_REPROCESS} parts stashed for reprocessing")
            self.reprocess.append(stashed)

    async def process(self, part: AnyChunk) -> AnyChunk | None:
        """The general path: async hooks, tracing with per-step summaries."""
        tracing = self._ctx.tracer.active
        self.stream_parts.append(part)
        is_data = type(part) is DataChunk
        for entry, fn, is_async, args in self._links:
            if is_data and not entry.wants_data:
                continue
            args.part = part
            started = time.perf_counter() if tracing else 0.0
            try:
                result = fn(args)
                if is_async:
                    result = await result
            except TripWire as tripwire:
                if tripwire.processor_id is None:
                    tripwire.processor_id = entry.id
                if tracing:
                    self._record(entry, started, "aborted", part, None, tripwire.reason)
                raise
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if tracing:
                    self._record(entry, started, "raised", part, part, f"{type(exc).__name__}: {exc}")
                self._raised(entry, exc)
                continue
            if REPROCESS_KEY in args.state:
                self._stash(args.state)
            if tracing:
                outcome: Outcome = "dropped" if result is None else "passed" if result is part else "changed"
                if outcome == "changed" and result == part:
                    outcome = "passed"
                self._record(entry, started, outcome, part, result)
            if result is None:
                return None
            part = result
        return part

    def entry_for(self, pid: str | None) -> Entry | None:
        return next((link[0] for link in self._links if link[0].id == pid), None)

    def _raised(self, entry: Entry, exc: Exception) -> None:
        message = (
            f"Processor '{entry.id}' raised in process_output_stream: {type(exc).__name__}: {exc} "
            "(the chunk was passed on unchanged)"
        )
        logger.warning(message)
        if message not in self._ctx.warnings:
            self._ctx.warnings.append(message)

    def _record(
        self,
        entry: Entry,
        started: float,
        outcome: Outcome,
        before: AnyChunk,
        after: AnyChunk | None,
        detail: str | None = None,
    ) -> None:
        stats = self._stats.get(entry.id)
        if stats is None:
            stats = self._stats[entry.id] = {
                "count": 0,
                "changed": 0,
                "dropped": 0,
                "aborted": 0,
                "raised": 0,
                "seconds": 0.0,
                "changes": [],
                "first": time.time(),
            }
        stats["count"] += 1
        stats["seconds"] += time.perf_counter() - started
        if outcome != "passed":
            stats[outcome] += 1
            stats["changes"].append(
                {
                    "outcome": outcome,
                    "before": before.to_wire(),
                    "after": after.to_wire() if after is not None else None,
                    "detail": detail,
                }
            )

    def flush_trace(self) -> None:
        """Emit one summarised trace event per processor for the chunks seen since the last flush."""
        if not self._stats:
            return
        now = time.time()
        for entry, _fn, _is_async, _args in self._links:
            stats = self._stats.pop(entry.id, None)
            if stats is None:
                continue
            first = stats.pop("first")
            outcome: Outcome = (
                "aborted"
                if stats["aborted"]
                else "raised"
                if stats["raised"]
                else "dropped"
                if stats["dropped"]
                else "changed"
                if stats["changed"]
                else "passed"
            )
            self._ctx.tracer.emit(
                TraceEvent(
                    run_id=self._ctx.run_id,
                    step_number=self._ctx.step_number,
                    hook="process_output_stream",
                    processor_id=entry.id,
                    processor_index=entry.index,
                    started_at=first,
                    ended_at=now,
                    outcome=outcome,
                    before=f"{stats['count']} chunks",
                    after=f"{stats['changed']} changed, {stats['dropped']} dropped",
                    state=snapshot_state(self._ctx.state_for(entry.id)),
                    chunk_stats=stats,
                )
            )
        self._stats.clear()
