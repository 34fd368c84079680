"""The per-chunk hot path: ``process_output_stream`` across the output lane, one chunk at a time.

Every other hook runs a few times a run (:mod:`processors.pipeline.runner`); this one runs for every chunk the model
streams, so it has its own module and its own shape: args objects built once per run, sync hooks called without an
await, tracing summarised per step. ``tests/bench/bench_pipeline.py`` measures it; change it with the bench in hand.

A stream processor may stash a second part under :data:`REPROCESS_KEY` in its state; the loop then drives that
part through the whole chain after the current one (at most :data:`MAX_REPROCESS` waiting at a time).

A chunk a processor returned ``None`` for is reported *held*, not *dropped*, once the processor lets held text out
later in the step: it returns a chunk carrying more text than the one it was given, or an earlier chunk, or
stashes a part for reprocessing (a flush). Buffering guards then read as holding, and only chunks that never came
back out count as dropped. Likewise a chunk handed on in another shape is "changed" only when its text differs
from the text the processor was given (:mod:`processors.pipeline.text_flow`): a guard that keeps a tail of text
back, or lets it out with the next chunk, reads "held", and moved chunk boundaries alone read "passed".
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from processors.chunks import CHUNK_CLASSES, DELTA_CHUNKS, TERMINAL_CHUNKS, AnyChunk, Chunk, DataChunk, FinishChunk
from processors.errors import PatternTimeoutError, ProcessorContractError
from processors.messages.message_list import MessageList
from processors.pipeline.processor import ProcessOutputStreamArgs
from processors.pipeline.run_context import Entry, RunContext, common_args
from processors.pipeline.stream_parts import StreamParts
from processors.pipeline.text_flow import TextFlow, TextVerdict, chunk_text
from processors.problems import Problem
from processors.tracing import Outcome, TraceEvent, snapshot_state
from processors.tripwire import TripWire

__all__ = ["MAX_REPROCESS", "REPROCESS_KEY", "StreamChain", "forged_end", "typed_part", "wrong_part"]

# The warnings about a raising stream hook keep the logger name they had before this module was split from the
# runner, so logging configured for ``processors.pipeline.runner`` still sees them.
logger = logging.getLogger("processors.pipeline.runner")

#: A stream processor may stash a second part under this state key; after the part it returned is emitted, the
#: runtime drives the stashed part through the whole chain (Mastra's reprocess key). BatchParts and the PII
#: detector's carry-over buffer use it to emit "flushed text, then the chunk that caused the flush".
REPROCESS_KEY = "__reprocess_part"
MAX_REPROCESS = 1000

#: What ``process_output_stream`` may return besides ``None`` (drop the part).
_PARTS = (Chunk, DataChunk)


def forged_end(entry: Entry, handed: AnyChunk, given: AnyChunk) -> ProcessorContractError:
    """The error for a stream hook that hands on a terminal chunk that is not the run's own ``finish`` (the callers
    check it inline, only for a part that is not the one given: the per-chunk path pays no call).

    The runtime owns the stream's end: every stream ends with exactly one ``finish``, ``error`` or ``tripwire``
    chunk, which the chat, the recorder and replays read as the end, and ``result`` says the same. A processor's
    ``finish`` (or ``error``, ``tripwire``, ``abort``) mid-stream would end it twice, with a result that agrees
    with neither. Mastra has no rule for it; here the run ends once, with an ``error`` chunk naming the processor
    and the hook. Once the run's own ``finish`` entered the chain (:attr:`StreamChain.finishing`) a processor may
    still change it, stash it, or hold it back and let it out in place of a later part (a stream guard releasing
    held parts in the model's order); a processor that means to end the run calls ``args.abort()``.
    """
    kind = handed.type
    return ProcessorContractError(
        f"Processor '{entry.id}' handed on a '{kind}' chunk from process_output_stream in place of a "
        f"'{given.type}' chunk; the runtime ends the stream (a stream has exactly one terminal chunk): call "
        "args.abort(reason) to end the run, or change the 'finish' chunk when it comes",
        processor_id=entry.id,
        hook="process_output_stream",
    )


def wrong_part(entry: Entry, result: object) -> ProcessorContractError:
    """The error for a stream hook that returned something other than a part or ``None``.

    Unlike a hook that *raises* (the chunk goes on unchanged, Mastra's policy), a wrong return value cannot be
    passed on: the loop would fold a ``dict`` or ``str`` into the message and crash far from the cause. So the
    run ends with an ``error`` chunk that names the processor and the hook.
    """
    return ProcessorContractError(
        f"Processor '{entry.id}' returned {type(result).__name__} from process_output_stream; expected a chunk "
        "(the part it was given, a changed copy, or a new chunk) or None to drop the part",
        processor_id=entry.id,
        hook="process_output_stream",
    )


def typed_part(entry: Entry, part: Chunk) -> AnyChunk:
    """A part a processor built as a bare :class:`Chunk`, as the typed chunk of its ``type``.

    The loop and its clients read these chunks' payloads (a ``tool-call``'s id and arguments, a ``finish``'s
    reason, a ``tool-result``'s call id): a ``Chunk(type="tool-call")`` without them would end the run with an
    ``AttributeError`` far from its cause, or reach clients as a finish with no reason; and the chain's processors,
    the loop and the studio match on chunk classes, so a bare text delta would pass a guard unread. So it is read as
    its class (``ToolCallChunk``, ``TextDeltaChunk`` ...) and refused, naming the processor and the type, when its
    payload does not fit. A text or reasoning delta without text stays as it is (it adds nothing); a ``data-*`` part
    must be a :class:`DataChunk`.
    """
    kind = part.type
    cls = CHUNK_CLASSES.get(kind)
    if kind.startswith("data-"):
        problem = "a data part is a DataChunk(type=..., data=...), which carries the data and is saved"
    elif cls is None or (cls in DELTA_CHUNKS and getattr(part.payload, "text", None) is None):
        return part
    else:
        payload: Any = part.payload
        expected = cls.model_fields["payload"].annotation
        if not (isinstance(expected, type) and isinstance(payload, expected)):
            payload = payload.model_dump(by_alias=True, exclude_none=True)
        try:
            return cls(type=kind, run_id=part.run_id, from_=part.from_, payload=payload, metadata=part.metadata)
        except ValidationError as error:
            missing = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors(include_url=False)[:3]
            )
            problem = f"{missing} (build it as a {cls.__name__}, or change the part given with with_payload)"
    raise ProcessorContractError(
        f"Processor '{entry.id}' returned a chunk of type '{kind}' from process_output_stream that cannot be used: "
        f"{problem}",
        processor_id=entry.id,
        hook="process_output_stream",
    )


def _named(error: PatternTimeoutError, entry: Entry) -> PatternTimeoutError:
    """``error`` naming the processor and hook it came from (it ends the run, unlike other stream errors)."""
    if error.processor_id is None:
        error.processor_id = entry.id
    if error.hook is None:
        error.hook = "process_output_stream"
    return error


class StreamChain:
    """The per-chunk hot path: ``process_output_stream`` across the output lane.

    Args objects are built once per run and reused (only ``part`` changes), sync hooks are called without an
    await, and tracing is summarised per step, so five pass-through processors cost a few microseconds a chunk.
    """

    __slots__ = ("_ctx", "_links", "_stats", "finishing", "has_async", "reprocess", "stream_parts")

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
        #: Set by the loop when the run's own ``finish`` enters the chain: from then on a processor may hand it on
        #: (changed, or held back and let out in place of a later part); before, any terminal chunk is forged.
        self.finishing = False

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
            except PatternTimeoutError as error:
                raise _named(error, entry) from None
            except Exception as exc:
                self._raised(entry, exc)
                continue
            if REPROCESS_KEY in args.state:
                self._stash(entry, args.state, part)
            if result is None:
                return None
            if result is not part:
                if type(result) is Chunk:  # built bare by the processor: checked against its type's class
                    result = typed_part(entry, result)
                elif not isinstance(result, _PARTS):
                    raise wrong_part(entry, result)
                if isinstance(result, TERMINAL_CHUNKS) and not (self.finishing and type(result) is FinishChunk):
                    raise forged_end(entry, result, part)
            part = result
        return part

    def _stash(self, entry: Entry, state: dict[str, Any], given: AnyChunk) -> None:
        stashed = state.pop(REPROCESS_KEY)
        if stashed is not None:
            if type(stashed) is Chunk:
                stashed = typed_part(entry, stashed)
            if isinstance(stashed, TERMINAL_CHUNKS) and not (self.finishing and type(stashed) is FinishChunk):
                raise forged_end(entry, stashed, given)
            if len(self.reprocess) >= MAX_REPROCESS:
                raise ProcessorContractError(f"more than {MAX_REPROCESS} parts stashed for reprocessing")
            self.reprocess.append(stashed)

    async def process(self, part: AnyChunk) -> AnyChunk | None:
        """The general path: async hooks, tracing with per-step summaries, breakpoints."""
        tracing = self._ctx.tracer.active
        debugger = self._ctx.debugger
        self.stream_parts.append(part)
        is_data = type(part) is DataChunk
        for entry, fn, is_async, args in self._links:
            if is_data and not entry.wants_data:
                continue
            args.part = part
            if debugger is not None:  # may pause; the user may hand another part on
                ctx = self._ctx
                part = args.part = await debugger.before(
                    ctx.run_id, ctx.step_number, "process_output_stream", entry.id, args, args.state
                )
            started = time.perf_counter() if tracing else 0.0
            try:
                result = fn(args)
                if is_async:
                    result = await result
            except TripWire as tripwire:
                if tripwire.processor_id is None:
                    tripwire.processor_id = entry.id
                if tracing:
                    self._record(entry, started, "aborted", part, None, tripwire.coded_reason())
                raise
            except asyncio.CancelledError:
                raise
            except PatternTimeoutError as error:  # a guard that could not finish its check lets nothing through
                if tracing:
                    self._record(entry, started, "raised", part, None, str(error))
                raise _named(error, entry) from None
            except Exception as exc:
                if tracing:
                    self._record(entry, started, "raised", part, part, f"{type(exc).__name__}: {exc}")
                self._raised(entry, exc)
                continue
            stashed = REPROCESS_KEY in args.state
            try:
                if stashed:
                    self._stash(entry, args.state, part)
                if result is not None and result is not part:
                    if type(result) is Chunk:  # built bare by the processor: checked against its type's class
                        result = typed_part(entry, result)
                    elif not isinstance(result, _PARTS):
                        raise wrong_part(entry, result)
                    if isinstance(result, TERMINAL_CHUNKS) and not (self.finishing and type(result) is FinishChunk):
                        raise forged_end(entry, result, part)
            except ProcessorContractError as error:
                if tracing:
                    self._record(entry, started, "raised", part, part, str(error))
                raise
            if tracing:
                outcome: Outcome = "dropped" if result is None else "passed" if result is part else "changed"
                if outcome == "changed" and result == part:
                    outcome = "passed"
                self._record(entry, started, outcome, part, result, released=stashed)
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
        *,
        released: bool = False,
    ) -> None:
        stats = self._stats.get(entry.id)
        if stats is None:
            stats = self._stats[entry.id] = {
                "count": 0,
                "changed": 0,
                "held": 0,
                "dropped": 0,
                "aborted": 0,
                "raised": 0,
                "seconds": 0.0,
                "changes": [],
                "first": time.time(),
                "pending": [],
                "flow": TextFlow(),
            }
        stats["count"] += 1
        stats["seconds"] += time.perf_counter() - started
        # what handing ``after`` on did to the text: None when it is the part itself or judged by its shape alone
        verdict = None if after is before else self._text_verdict(stats["flow"], before, after, released)
        pending: list[tuple[dict[str, Any], AnyChunk]] = stats["pending"]
        if after is not None and pending:
            # An earlier chunk let out (in the current one's place, or itself coming back through the chain), a
            # stash (a flush, even beside the part handed on unchanged), text the processor was given earlier, or
            # more text than came in: what the processor returned None for was held back, not removed.
            late = any(after is chunk for _change, chunk in pending)
            let_out = verdict in ("held", "passed") and bool(chunk_text(after))
            if late or released or let_out or _text_length(after) > _text_length(before):
                for change, _chunk in pending:
                    change["outcome"] = "held"
                stats["held"] += len(pending)
                stats["dropped"] -= len(pending)
                pending.clear()
            if late and after is not before:  # the part itself is stashed to come back, or the late one takes its place
                outcome, after = ("passed", after) if released else ("dropped", None)
        if outcome == "changed" and verdict is not None:
            outcome = verdict
        if outcome != "passed":
            stats[outcome] += 1
            change = {
                "outcome": outcome,
                "before": before.to_wire(),
                "after": after.to_wire() if after is not None else None,
                "detail": None if detail is None else str(detail),
                **_codes(detail),
            }
            stats["changes"].append(change)
            if outcome == "dropped":
                pending.append((change, before))

    @staticmethod
    def _text_verdict(flow: TextFlow, before: AnyChunk, handed: AnyChunk | None, released: bool) -> TextVerdict | None:
        """What a part handed on in place of ``before`` (None: nothing) did to the text (:mod:`.text_flow`): a
        "changed" chunk whose text was only held back or let out again is "held" (text stays waiting) or "passed"
        (chunk boundaries alone moved). None when there is no text to judge it by: its shape decides."""
        if handed is not None and chunk_text(handed) is None:
            return None  # text (or another part) became a part without text: a change of its own
        if not released:  # a stashed part comes back through the chain, and is taken then
            flow.took(before)
        return None if handed is None else flow.gave(handed)

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
            del stats["pending"]  # what was never let out stays "dropped"
            del stats["flow"]
            outcome: Outcome = (
                "aborted"
                if stats["aborted"]
                else "raised"
                if stats["raised"]
                else "dropped"
                if stats["dropped"]
                else "changed"
                if stats["changed"]
                else "held"
                if stats["held"]
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
                    after=f"{stats['changed']} changed, {stats['held']} held, {stats['dropped']} dropped",
                    state=snapshot_state(self._ctx.state_for(entry.id)),
                    chunk_stats=stats,
                )
            )
        self._stats.clear()


def _codes(detail: str | None) -> dict[str, Any]:
    """An abort reason's code and values (``{"code", "params"}``) beside its English in a chunk change, so the trace
    shows it in the reader's language, also once stored as JSON; nothing for a reason without a code."""
    if not isinstance(detail, Problem):
        return {}
    return {"code": detail.code, "params": detail.to_dict()["params"]}


def _text_length(chunk: AnyChunk) -> int:
    """The text a chunk carries (0 for chunks without text): a result longer than its input lets held text out."""
    text = getattr(getattr(chunk, "payload", None), "text", None)
    return len(text) if isinstance(text, str) else 0
