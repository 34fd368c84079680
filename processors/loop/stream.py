"""``AgentStream``: what ``agent.stream()`` returns — an async iterator of chunks with the final result.

Iterate it to receive chunks as they arrive; ``await stream.result()`` finishes the run (consuming what is
left) and gives the same :class:`GenerateResult` that ``generate()`` returns. ``await stream.aclose()`` stops the
run: the model's HTTP stream is closed and nothing more is emitted.

``aclose()`` may be called from outside the run at any time: from the iterating task between chunks, from another
task while one iterates (a Stop button), before the first chunk, or twice. An async generator cannot be closed
while another task is inside it (Python raises ``RuntimeError: aclose(): asynchronous generator is already
running``), so in that case the iterating task is cancelled at the point where it waits for the run, and its
``__anext__`` turns that one cancellation into the end of the iteration; a cancellation from anyone else still
propagates. From inside the run, in the task iterating it (a processor holding its own stream), ``aclose()``
raises a ``RuntimeError``: the run cannot stop from within (a processor aborts with ``args.abort()``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from processors.chunks import AnyChunk, TextDeltaChunk
from processors.loop.run import Run
from processors.result import GenerateResult

#: The running task of each loop, the dict ``asyncio.current_task()`` reads. Reading it directly costs a fraction of
#: that call, which is a Python function in 3.11 and would add a measurable share to every chunk's cost. When a
#: Python version drops the dict, ``asyncio.current_task()`` is used.
_CURRENT_TASKS: dict[Any, asyncio.Task[Any]] | None = getattr(asyncio.tasks, "_current_tasks", None)


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
        #: The task inside ``__anext__`` (the run's generator is running for it), if any.
        self._consumer: asyncio.Task[Any] | None = None
        #: The consumer ``aclose()`` cancelled from another task: that cancellation is ours to turn into a clean end.
        self._cancelled: asyncio.Task[Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Set when the consumer has left ``__anext__`` after ``aclose()`` cancelled it.
        self._released: asyncio.Event | None = None
        #: Done when the first ``aclose()`` has stopped the run; a later ``aclose()`` or ``result()`` waits for it.
        self._closing: asyncio.Future[None] | None = None

    @property
    def run_id(self) -> str:
        return self._run.run_id

    @property
    def message_list(self):  # type: ignore[no-untyped-def]
        """The run's live MessageList (read-only use, please)."""
        return self._run.state.message_list

    def __aiter__(self) -> AsyncIterator[AnyChunk]:
        return self

    async def __anext__(self) -> AnyChunk:
        if self._done:
            raise StopAsyncIteration
        if self._consumer is not None:
            raise RuntimeError(
                "this stream is being iterated by another task; await result() there, or aclose() to stop it"
            )
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        current = _CURRENT_TASKS
        consumer = self._consumer = current.get(loop) if current is not None else asyncio.current_task(loop)
        try:
            chunk = await self._events.__anext__()
        except asyncio.CancelledError:
            # aclose() from another task cancelled us here: that is the end of the iteration, not an error.
            # A cancellation somebody else asked for too (uncancel() leaves it counted) still propagates.
            if consumer is not None and self._cancelled is consumer:
                self._cancelled = None
                if consumer.uncancel() == 0:
                    raise StopAsyncIteration from None  # aclose() has already marked the stream done
            raise
        finally:
            self._consumer = None
            if self._cancelled is not None and self._cancelled is consumer:
                # Something inside the run swallowed our cancellation and went on: take it back, so the task
                # is not left counted as cancelling; aclose() closes the generator once we are out.
                self._cancelled = None
                consumer.uncancel()
            if self._released is not None:
                self._released.set()
        if self._keep:
            self.chunks.append(chunk)
        return chunk

    async def text_stream(self) -> AsyncIterator[str]:
        """Only the text deltas, as strings (a convenience for terminals)."""
        async for chunk in self:
            if isinstance(chunk, TextDeltaChunk):
                yield chunk.payload.text

    async def result(self) -> GenerateResult:
        async for _chunk in self:
            pass
        while self._closing is not None and not self._closing.done():
            await asyncio.shield(self._closing)  # another task is stopping the run: its result is what aclose() left
        if self._run.state.result is None:  # closed before the run could finish itself
            self._stopped()
        assert self._run.state.result is not None
        return self._run.state.result

    async def aclose(self) -> None:
        """Stop the run now; the model call is cancelled. ``result()`` then reports what was done so far.

        Safe from any task, at any time, any number of times (not from inside the run: see the module). It returns
        once the run has stopped, its model stream is closed, and the turn is saved (when the run has memory).
        """
        consumer = self._consumer
        if consumer is not None and consumer is asyncio.current_task():
            # Called from inside the run, in the task iterating it (a processor holding its own stream): the run
            # cannot be stopped from within, and ending the iteration here would drop the step under way.
            raise RuntimeError(
                "aclose() was called from inside this stream's run; a processor stops a run with args.abort()"
            )
        self._done = True
        while self._closing is not None and not self._closing.done():
            # Another aclose() is stopping the run (it may be waiting for the model's stream to close): closing the
            # generator meanwhile would raise. Wait for it; what follows is then a no-op (or finishes the work of
            # one that was cancelled on the way).
            await asyncio.shield(self._closing)
        closing = self._closing = asyncio.get_running_loop().create_future()
        try:
            consumer = self._consumer
            if consumer is not None:
                # Another task is inside the run's generator: the generator cannot be closed from here. Cancel that
                # task where it waits; its __anext__ ends the iteration, and we wait until it has let go.
                if self._released is None:
                    self._released = asyncio.Event()
                if self._cancelled is not consumer:
                    self._cancelled = consumer
                    consumer.cancel()
                while self._consumer is not None:
                    self._released.clear()
                    await self._released.wait()
            # Nobody is inside the generator now (iteration is over for everyone: _done), so it can be closed; a
            # no-op when the cancellation already ended it.
            await self._events.aclose()
            self._stopped()
            saving = self._run.state.saving
            if saving is not None and not saving.done():
                await asyncio.shield(saving)
        finally:
            closing.set_result(None)

    def _stopped(self) -> None:
        state = self._run.state
        if state.result is None:
            state.finish_reason = "abort"
            state.finalise()
