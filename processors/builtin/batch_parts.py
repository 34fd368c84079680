"""``BatchParts``: stream fewer, larger text chunks — combine text deltas in batches.

::

    from processors.builtin.batch_parts import BatchParts

    Agent(id="a", model="openai/gpt-4o-mini", output_processors=[BatchParts(batch_size=10)])
    # ten word-sized text-delta chunks reach the client as one

Mastra's ``BatchPartsProcessor`` (id ``batch-parts``), ``process_output_stream`` only. Parts are buffered (the
hook returns ``None``) until ``batch_size`` are held, then the buffered text deltas go out as one ``text-delta``
(the id and run id of the first). ``max_wait_ms`` also releases the batch once its first part has waited that
long (checked when the next part arrives: nothing runs between chunks).

When a non-text part arrives (``text-end``, a tool call, ``step-finish`` ...) with text buffered, the combined
text is returned and the non-text part is stashed under the runtime's reprocess key, so it follows right after
(through the whole chain, as in Mastra). With ``emit_on_non_text=False`` a non-text part is held in the batch
too — also when it arrives to an empty batch — and counts towards ``batch_size``, as Mastra holds it (its
``batch-parts.test.ts``, "should not emit immediately when emitOnNonText is false"), so the stream keeps its
order: when the batch is released each run of text deltas goes out as one ``text-delta`` and each held part as
itself, in the order they came. A ``text-end``, ``reasoning-end``, ``tool-call``, ``step-finish``, ``finish``,
``error``, ``tripwire`` or ``abort`` part still releases the batch (then goes out itself) whatever the option
says, so nothing is held past the end of its block, its step or the run: the loop builds the step's message and
runs its tools from what the chain lets out during the step, and a call held until ``step-finish`` would never
run (Mastra would hold even the ``finish`` part until the batch is full).

A release that has more than one part to emit returns the first and stashes the next under the reprocess key;
the runtime drives the stashed part through the chain right after, and this processor lets it pass and stashes
the one after it, until the release is done.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from pydantic import Field

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.text_checks import with_text
from processors.chunks import (
    AbortChunk,
    AnyChunk,
    Chunk,
    ErrorChunk,
    FinishChunk,
    ReasoningEndChunk,
    StepFinishChunk,
    TextDeltaChunk,
    TextEndChunk,
    ToolCallChunk,
    TripwireChunk,
)
from processors.pipeline.processor import ProcessOutputStreamArgs
from processors.pipeline.stream_chain import REPROCESS_KEY

#: Parts that end a text or reasoning block, a tool call, a step or the run: the batch is released before them
#: whatever ``emit_on_non_text`` says. The loop builds a step's message and runs its tools from the parts the
#: chain lets out while the step streams, so a delta or a call held past its block's end would leave the step.
_RELEASING: tuple[type[Chunk], ...] = (
    TextEndChunk,
    ReasoningEndChunk,
    ToolCallChunk,
    StepFinishChunk,
    FinishChunk,
    ErrorChunk,
    TripwireChunk,
    AbortChunk,
)


class BatchPartsOptions(ProcessorOptions):
    batch_size: int = Field(default=5, ge=1, le=10_000, description="How many parts to combine into one.")
    max_wait_ms: int | None = Field(
        default=None,
        ge=1,
        le=600_000,
        description="Release a batch whose first part has waited this long (checked when the next part arrives).",
    )
    emit_on_non_text: bool = Field(
        default=True,
        description="Release the batch as soon as a non-text part (tool call, text end ...) arrives; when off, "
        "other parts wait in the batch in stream order (a text end still releases it).",
    )


class BatchParts(BuiltinProcessor):
    """Combines streamed text deltas into batches of ``batch_size`` (fewer, larger chunks for slow clients)."""

    Options: ClassVar[type[ProcessorOptions]] = BatchPartsOptions
    type_name: ClassVar[str] = "BatchParts"
    id = "batch-parts"
    name = "Batch Parts"
    description = "Combines streamed text deltas into larger chunks: fewer, bigger updates for clients."

    options: BatchPartsOptions

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        part = args.part
        state = args.state
        released: list[AnyChunk] = state.setdefault("released", [])
        if state.pop("draining", False):
            # The part stashed by the last release, driven back through the chain: it goes on as it is.
            self._stash_next(state, released)
            return part
        batch: list[AnyChunk] = state.setdefault("batch", [])
        holds = isinstance(part, TextDeltaChunk) or (
            not self.options.emit_on_non_text and not isinstance(part, _RELEASING)
        )
        if not holds:
            return self._release(state, closing=part)  # the batch first, if any, then this part
        if not batch:
            state["first_at"] = time.monotonic()
        batch.append(part)  # a non-text part is held in its place, even in an empty batch; it counts too
        return self._release_if_due(state, batch)

    def _release_if_due(self, state: dict[str, Any], batch: list[AnyChunk]) -> AnyChunk | None:
        options = self.options
        if len(batch) >= options.batch_size:
            return self._release(state)
        if options.max_wait_ms is not None and (time.monotonic() - state["first_at"]) * 1000 >= options.max_wait_ms:
            return self._release(state)
        return None

    def _release(self, state: dict[str, Any], closing: AnyChunk | None = None) -> AnyChunk | None:
        """Emit the whole batch in order (then ``closing``): the first part now, the others stashed one by one."""
        batch: list[AnyChunk] = state["batch"]
        state["batch"] = []
        out = groups(batch)
        if closing is not None:
            out.append(closing)
        if not out:
            return None
        released: list[AnyChunk] = state["released"]
        released.extend(out[1:])
        self._stash_next(state, released)
        return out[0]

    @staticmethod
    def _stash_next(state: dict[str, Any], released: list[AnyChunk]) -> None:
        if released:
            state[REPROCESS_KEY] = released.pop(0)
            state["draining"] = True

    def flush(self, state: dict[str, Any]) -> AnyChunk | None:
        """The next buffered part, for callers driving the processor by hand (None when nothing is buffered).

        A run of text deltas comes out as one chunk; call again until None to drain a batch holding other parts.
        """
        batch: list[AnyChunk] = state.get("batch") or []
        if not batch:
            return None
        count = _text_run(batch) or 1
        state["batch"] = batch[count:]
        return combine(batch[:count])


def _text_run(parts: list[AnyChunk]) -> int:
    """How many text deltas the list starts with."""
    count = 0
    for part in parts:
        if not isinstance(part, TextDeltaChunk):
            break
        count += 1
    return count


def groups(parts: list[AnyChunk]) -> list[AnyChunk]:
    """``parts`` in order, each run of consecutive text deltas combined into one."""
    out: list[AnyChunk] = []
    run: list[AnyChunk] = []
    for part in parts:
        if isinstance(part, TextDeltaChunk):
            run.append(part)
            continue
        if run:
            out.append(combine(run))  # type: ignore[arg-type]
            run = []
        out.append(part)
    if run:
        out.append(combine(run))  # type: ignore[arg-type]
    return out


def combine(parts: list[AnyChunk]) -> AnyChunk | None:
    """Text deltas combined into one ``text-delta`` carrying the first one's id and run id."""
    if not parts:
        return None
    first = parts[0]
    if len(parts) == 1 or not isinstance(first, Chunk):
        return first
    return with_text(first, "".join(p.payload.text for p in parts))  # type: ignore[union-attr]
