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

A user's regular expression that runs past its time limit (:class:`~processors.errors.PatternTimeoutError`) ends
the run with an ``error`` chunk naming the rule, in every hook, the stream one included: a guard that could not
finish its check must not let the chunk through unchecked.

A *returned* value the hook does not allow is not an exception the processor raised but a broken contract, in
every hook alike, ``process_output_stream`` and ``process_api_error`` included: a :class:`ProcessorContractError`
naming processor and hook ends the run with an ``error`` chunk, and the turn is saved with what was streamed.
Allowed: ``None`` everywhere; a chunk from ``process_output_stream``; messages (a list, or the ``MessageList``
given) from the message hooks; a dict with the hook's keys from ``process_input``, ``process_input_step``,
``process_llm_request`` and ``process_api_error``; nothing else from ``process_llm_response``.

How a result is reconciled with the run (a message hook's list, a mapping's keys) lives in
:mod:`processors.pipeline.hook_results`, which the phases' ``apply`` functions call: the lane runner is entered once
per lane and never called back. The per-chunk path (``process_output_stream``) lives in
:mod:`processors.pipeline.stream_chain` and what a run shares in :mod:`processors.pipeline.run_context`.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from processors.errors import PatternTimeoutError, ProcessorContractError, ProcessorError, ProcessorRaisedError
from processors.messages.message_list import MessageList
from processors.pipeline.hook_results import (  # re-exported: the runner's public helpers before they moved
    STEP_OVERRIDE_KEYS,
    apply_message_result,
    describe_messages,
    messages_fingerprint,
    normalise_mapping,
)
from processors.pipeline.processor import HookArgs
from processors.pipeline.run_context import Entry, RunContext
from processors.tracing import Outcome, TraceEvent, snapshot_state
from processors.tripwire import TripWire, Violation

if TYPE_CHECKING:
    from processors.chunks import AnyChunk

logger = logging.getLogger(__name__)

#: What a lane turns into an ``error`` chunk naming the processor: a broken contract, a bad value.
CONTRACT_ERRORS: tuple[type[Exception], ...] = (ProcessorError, ValueError, TypeError)

#: The args class of the hook a lane runs (``ProcessInputArgs`` ...).
ArgsT = TypeVar("ArgsT", bound=HookArgs)


async def notify_violation(entry: Entry, tripwire: TripWire) -> None:
    """Tell the processor about its abort; a failing callback is logged and forgotten."""
    callback = getattr(entry.processor, "on_violation", None)
    if not callable(callback):
        return
    try:
        outcome = callback(
            Violation(
                processor_id=tripwire.processor_id or entry.id,
                message=tripwire.reason,
                detail=tripwire.metadata,
                code=tripwire.code,  # the reader's language: a retried abort's report is no run's tripwire
                params=tripwire.params,
            )
        )
        if inspect.isawaitable(outcome):
            await outcome
    except asyncio.CancelledError:
        raise
    except Exception:
        logger.warning("on_violation of processor %r raised; ignored", entry.id, exc_info=True)


async def invoke(
    ctx: RunContext,
    entry: Entry,
    hook: str,
    args: HookArgs,
    *,
    describe: Callable[[], str] | None = None,
    fingerprint: Callable[[], Any] | None = None,
    apply: Callable[[Any], None] | None = None,
    tool: Callable[[], tuple[str, Any]] | None = None,
) -> Any:
    """Call one hook of one processor with the error policy shared by every hook but the stream one.

    ``apply`` reconciles the result with the run (so the trace's "after" shows its effect); ``fingerprint``
    tells whether anything changed. Raises :class:`TripWire` (after ``on_violation``),
    :class:`ProcessorContractError` for a result the hook does not allow, or :class:`ProcessorRaisedError`
    naming processor and hook. ``tool`` gives ``(tool_call_id, what the tool returned)`` for ``process_tool_result``.
    """
    fn = entry.hooks[hook]
    if ctx.debugger is not None:  # a paused run waits here; DebuggerAbort ends it with an error chunk
        await ctx.debugger.before(ctx.run_id, ctx.step_number, hook, entry.id, args, ctx.state_for(entry.id))
    tracing = ctx.tracer.active
    facts = tool() if tracing and tool is not None else None
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
            _trace(ctx, entry, hook, started, "aborted", before, "", tripwire.coded_reason(), facts)  # code kept
        raise
    except asyncio.CancelledError:
        raise
    except ProcessorContractError as exc:
        if tracing:
            _trace(ctx, entry, hook, started, "raised", before, "", str(exc), facts)
        raise
    except PatternTimeoutError as exc:  # kept as it is (its code names the case), naming processor and hook
        exc.processor_id = exc.processor_id or entry.id
        exc.hook = exc.hook or hook
        if tracing:
            _trace(ctx, entry, hook, started, "raised", before, "", str(exc), facts)
        raise
    except Exception as exc:
        if tracing:
            _trace(ctx, entry, hook, started, "raised", before, "", f"{type(exc).__name__}: {exc}", facts)
        raise ProcessorRaisedError(
            f"Processor '{entry.id}' raised in {hook}: {type(exc).__name__}: {exc}", processor_id=entry.id, hook=hook
        ) from exc
    if tracing:
        changed = marker != fingerprint() if fingerprint is not None else result is not None
        after = describe() if describe else ""
        _trace(ctx, entry, hook, started, "changed" if changed else "passed", before, after, None, facts)
    return result


@dataclass(frozen=True, slots=True)
class LanePolicy:
    """What a lane does when a processor blocks or fails (the tables above): ``on_tripwire`` ends the step or the
    run, and must raise; an exception of ``failures`` goes to ``on_failure``, which raises to end the run or returns
    to ask the next processor (``process_api_error``'s policy). Anything else propagates."""

    on_tripwire: Callable[[TripWire], NoReturn]
    failures: tuple[type[Exception], ...]
    on_failure: Callable[[Exception], None]


async def run_lane(
    ctx: RunContext,
    entries: Sequence[Entry],
    hook: str,
    args_for: Callable[[Entry], ArgsT],
    *,
    policy: LanePolicy,
    apply: Callable[[Entry, ArgsT, Any], None] | None = None,
    reduce: Callable[[Entry, Any], bool] | None = None,
    drain: Callable[[], Awaitable[list[AnyChunk]]] | None = None,
    describe: Callable[[], str] | None = None,
    fingerprint: Callable[[], Any] | None = None,
    tool: Callable[[], tuple[str, Any]] | None = None,
    traced_list: MessageList | None = None,
) -> list[AnyChunk]:
    """Run ``hook`` across ``entries`` (the lane's processors that implement it, in order) and return the chunks
    they wrote on the way.

    The one loop every hook but the stream one runs through; what differs between the hooks is a parameter:
    ``args_for`` builds a processor's args (from what the processors before it left), ``apply`` reconciles its
    result with the run inside :func:`invoke` (so the trace's "after" shows the effect, and a ``ValueError`` or
    ``TypeError`` there is the processor's broken contract), ``reduce`` folds a result after the call and returns
    ``True`` to stop the lane (the first error processor that asks for a retry wins); ``policy`` says what a block
    or a failure does. ``drain`` collects what a processor wrote with ``writer.custom`` after each one that ran. A
    trace describes each call with ``describe`` and tells a change by ``fingerprint``; for a message hook, pass the
    list as ``traced_list`` instead (its messages before and after).
    """
    if traced_list is not None:
        describe = partial(describe_messages, traced_list)
        fingerprint = partial(messages_fingerprint, traced_list)
    out: list[AnyChunk] = []
    for entry in entries:
        args = args_for(entry)
        try:
            result = await invoke(
                ctx,
                entry,
                hook,
                args,
                describe=describe,
                fingerprint=fingerprint,
                apply=None if apply is None else partial(apply, entry, args),
                tool=tool,
            )
            if reduce is not None and reduce(entry, result):
                break
        except TripWire as tripwire:
            policy.on_tripwire(tripwire)
        except policy.failures as failure:
            policy.on_failure(failure)
            continue
        if drain is not None:
            out += await drain()
    return out


def _trace(
    ctx: RunContext,
    entry: Entry,
    hook: str,
    started: float,
    outcome: Outcome,
    before: str,
    after: str,
    detail: str | None = None,
    tool: tuple[str, Any] | None = None,
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
            tool_call_id=tool[0] if tool is not None else None,
            tool_result=tool[1] if tool is not None else None,
        )
    )


__all__ = [
    "CONTRACT_ERRORS",
    "STEP_OVERRIDE_KEYS",
    "LanePolicy",
    "apply_message_result",
    "describe_messages",
    "invoke",
    "messages_fingerprint",
    "normalise_mapping",
    "notify_violation",
    "run_lane",
]
