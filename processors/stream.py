"""``AgentStream``: what ``agent.stream()`` returns — an async iterator of chunks with the final result.

Iterate it to receive chunks as they arrive; ``await stream.result()`` finishes the run (consuming what is
left) and gives the same :class:`GenerateResult` that ``generate()`` returns. ``await stream.aclose()`` stops the
run: the model's HTTP stream is closed and nothing more is emitted.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator

from processors.chunks import AnyChunk
from processors.loop import Run
from processors.result import GenerateResult


class AgentStream:
    """One run's stream. Not restartable; iterate it once (``result()`` may be awaited any number of times)."""

    def __init__(self, run: Run, *, keep_chunks: bool = False) -> None:
        self._run = run
        self._events: AsyncGenerator[AnyChunk, None] = run.events()
        #: Every chunk emitted so far, in order, when the stream was made with ``keep_chunks=True``. Off by
        #: default: holding every chunk of a long reply makes each garbage collection scan them all (measured:
        #: 4.4 → 7.7 µs per chunk over 20,000 chunks).
        self.chunks: list[AnyChunk] = []
        self._keep = keep_chunks
        self._done = False

    @property
    def run_id(self) -> str:
        return self._run.run_id

    @property
    def message_list(self):  # type: ignore[no-untyped-def]
        """The run's live MessageList (read-only use, please)."""
        return self._run.message_list

    def __aiter__(self) -> AsyncIterator[AnyChunk]:
        return self

    async def __anext__(self) -> AnyChunk:
        if self._done:
            raise StopAsyncIteration
        try:
            chunk = await self._events.__anext__()
        except StopAsyncIteration:
            self._done = True
            raise
        if self._keep:
            self.chunks.append(chunk)
        return chunk

    async def text_stream(self) -> AsyncIterator[str]:
        """Only the text deltas, as strings (a convenience for terminals)."""
        async for chunk in self:
            if chunk.type == "text-delta":
                yield chunk.payload.text  # type: ignore[union-attr]

    async def result(self) -> GenerateResult:
        async for _chunk in self:
            pass
        assert self._run.result is not None
        return self._run.result

    async def aclose(self) -> None:
        """Stop the run now; the model call is cancelled. ``result()`` then reports what was done so far."""
        self._done = True
        await self._events.aclose()
        if self._run.result is None:
            self._run.finish_reason = "abort"
            self._run._finalise()
