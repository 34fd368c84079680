"""The lab run's shared pause: when a provider says "slow down" (429, 503), every worker backs off together.

In ``model`` mode each case's model is wrapped in a :class:`GatedModel`, which waits out the run's pause before
every call and extends it when a call meets a rate limit (the provider's Retry-After, else an exponential
back-off), so a rate limit never becomes a storm of refused calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from processors import ModelAPIError
from processors.models.base import ModelEvent, ModelRequest

__all__ = ["RATE_LIMIT_STATUSES", "GatedModel", "RateGate", "RateLimited"]


class RateLimited(Exception):
    def __init__(self, retry_after: float | None, message: str) -> None:
        super().__init__(message)
        self.retry_after = retry_after


#: Statuses that mean "slow down": the whole run pauses, not only the case that met them.
RATE_LIMIT_STATUSES = (429, 503)


class RateGate:
    """The run's shared pause. In ``model`` mode every model call waits it out first, and a rate limit any call
    meets extends it (the provider's Retry-After, else an exponential back-off): so every worker backs off
    together, also when the design's own error processors retry the call inside its case (the run-level retry
    below never sees those, and without the gate the other workers kept calling into the limit).

    A run in worker processes (:mod:`lab.process_run`) gives every process's gate the same ``board``, a
    ``multiprocessing`` array of three doubles (when the pause ends on :func:`time.monotonic`'s clock, which is
    the machine's, how many pauses, the back-off's streak): a 429 one process meets pauses every process."""

    def __init__(self, backoff: float, max_backoff: float, board: Any = None) -> None:
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._board: Any = board if board is not None else [0.0, 0.0, 0.0]
        self._lock: Any = board.get_lock() if board is not None else contextlib.nullcontext()

    @staticmethod
    def board(context: Any) -> Any:
        """A board for the gates of a run's processes (``context``: the run's multiprocessing context)."""
        return context.Array("d", 3)

    @property
    def until(self) -> float:
        """When the pause ends (``time.monotonic()``); in the past when there is none."""
        return float(self._board[0])

    @property
    def pauses(self) -> int:
        """How many rate limits paused the run."""
        return int(self._board[1])

    async def wait(self) -> None:
        """Until the pause is over (a pause another call extended meanwhile too). A timer, not an event: the end
        of a pause is a time, nothing announces it."""
        delay = self.until - time.monotonic()
        while delay > 0:
            await asyncio.sleep(delay)
            delay = self.until - time.monotonic()

    def limited(self, retry_after: float | None) -> None:
        with self._lock:
            self._board[1] += 1
            self._board[2] += 1  # rate limits since the last answer: the back-off's exponent
            delay = retry_after
            if delay is None:
                delay = min(self.max_backoff, self.backoff * 2 ** (self._board[2] - 1))
            self._board[0] = max(self._board[0], time.monotonic() + delay)

    def answered(self) -> None:
        if self._board[2]:
            with self._lock:
                self._board[2] = 0


class GatedModel:
    """Waits out the run's pause before each call of ``inner``; a rate-limited call pauses the whole run."""

    def __init__(self, inner: Any, gate: RateGate) -> None:
        self.inner = inner
        self.gate = gate
        self.provider = getattr(inner, "provider", "lab")
        self.model_id = getattr(inner, "model_id", "lab")

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        await self.gate.wait()
        try:
            async for event in self.inner.stream(request):
                yield event
        except ModelAPIError as error:
            if error.retryable and error.status_code in RATE_LIMIT_STATUSES:
                self.gate.limited(error.retry_after)
            raise
        self.gate.answered()
