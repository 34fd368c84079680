"""``RunView``: the part of a run that the hooks around a step use.

``phases``, ``output_phases`` and ``tool_calls`` run hooks before and after the model call; they read the run's config
and messages, keep its counters and emit chunks through its output chain. Typing them against this protocol instead
of the ``Run`` class keeps the loop one-way (``run`` → the phases/``tool_calls`` → ``run_view``) and says exactly
what a hook phase may touch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn, Protocol

if TYPE_CHECKING:
    from processors.chunks import AnyChunk, Chunk
    from processors.context import StreamWriter
    from processors.loop.config import RunConfig
    from processors.messages.message_list import MessageList
    from processors.pipeline.run_context import RunContext
    from processors.pipeline.runner import LanePolicy
    from processors.result import Step
    from processors.tripwire import TripWire
    from processors.usage import Usage


class RunView(Protocol):
    """What a hook phase reads and changes of the run it belongs to."""

    config: RunConfig
    ctx: RunContext
    writer: StreamWriter
    message_list: MessageList
    steps: list[Step]
    text_parts: list[str]
    usage: Usage
    finish_reason: str
    #: What memory keeps: "none" (blocked input), "input" (rejected response) or "all".
    save_mode: str
    #: Chunks to emit just before the terminal one (the ``step-finish`` of a tripped step).
    pending_terminal: list[AnyChunk]
    #: Tool calls of the current step whose result a processor blocked → that processor's id.
    blocked_calls: dict[str, str | None]
    #: The processor whose ``process_llm_request`` answered the current step instead of the model.
    cache_source: str | None
    retry_count: int
    api_retry_count: int
    max_retries: int | None
    #: The lane policy of most hooks: a block or a broken contract ends the run.
    ends_run: LanePolicy

    def chunk(self, cls: type[Chunk], payload: Any) -> Chunk: ...

    async def emit(self, chunk: AnyChunk) -> list[AnyChunk]: ...

    async def drain(self) -> list[AnyChunk]: ...

    def tripwire_chunk(self, tripwire: TripWire) -> Chunk: ...

    def error_chunk(self, error: BaseException, message: str | None = None) -> Chunk: ...

    def step_finish_chunk(self, step: Step, message_id: str, reason: str, *, is_continued: bool) -> Chunk: ...

    def can_retry(self, tripwire: TripWire) -> bool: ...

    def end_with_tripwire(self, tripwire: TripWire) -> NoReturn: ...

    def end_with_error(self, error: Exception) -> NoReturn: ...


__all__ = ["RunView"]
