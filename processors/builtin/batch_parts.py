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
(through the whole chain, as in Mastra). With ``emit_on_non_text=False`` other parts (reasoning, tool-call
deltas, sources ...) pass straight through, ahead of the buffered text, without breaking the batch; a
``text-end``, ``step-finish``, ``finish``, ``error`` or ``tripwire`` part still releases it first, so text never
outlives its block. Only text deltas are ever buffered, so a stashed part is always a non-text part.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from pydantic import Field

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.support import with_text
from processors.chunks import AnyChunk, Chunk
from processors.processor import ProcessOutputStreamArgs
from processors.runner import REPROCESS_KEY

#: Parts that end a text block, a step or the run: the batch is released before them whatever
#: ``emit_on_non_text`` says.
_RELEASING = frozenset({"text-end", "step-finish", "finish", "error", "tripwire", "abort"})


class BatchPartsOptions(ProcessorOptions):
    batch_size: int = Field(default=5, ge=1, le=10_000, description="How many parts to combine into one.")
    max_wait_ms: int | None = Field(
        default=None, ge=1, le=600_000,
        description="Release a batch whose first part has waited this long (checked when the next part arrives).",
    )
    emit_on_non_text: bool = Field(
        default=True, description="Release the batch as soon as a non-text part (tool call, text end ...) arrives."
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
        batch: list[AnyChunk] = state.setdefault("batch", [])
        if part.type != "text-delta":
            if not batch:
                return part
            if not self.options.emit_on_non_text and part.type not in _RELEASING:
                return part  # passes ahead of the buffered text; the batch goes on
            # Two parts to emit and one return value: the text now, the part re-driven right after it.
            state[REPROCESS_KEY] = part
            return self._release(state)
        if not batch:
            state["first_at"] = time.monotonic()
        batch.append(part)
        options = self.options
        if len(batch) >= options.batch_size:
            return self._release(state)
        if options.max_wait_ms is not None and (time.monotonic() - state["first_at"]) * 1000 >= options.max_wait_ms:
            return self._release(state)
        return None

    @staticmethod
    def _release(state: dict[str, Any]) -> AnyChunk | None:
        batch: list[AnyChunk] = state["batch"]
        state["batch"] = []
        return combine(batch)

    def flush(self, state: dict[str, Any]) -> AnyChunk | None:
        """The buffered text as one chunk (None if nothing is buffered), for callers driving the processor."""
        return self._release(state) if state.get("batch") else None


def combine(parts: list[AnyChunk]) -> AnyChunk | None:
    """Text deltas combined into one ``text-delta`` carrying the first one's id and run id."""
    if not parts:
        return None
    first = parts[0]
    if len(parts) == 1 or not isinstance(first, Chunk):
        return first
    return with_text(first, "".join(p.payload.text for p in parts))  # type: ignore[union-attr]
