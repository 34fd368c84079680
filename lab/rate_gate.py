"""The lab run's shared pause: when a provider says "slow down" (429, 503), every worker backs off together.

In ``model`` mode each case's model is wrapped in a :class:`GatedModel`, which waits out the run's pause before
every call, extends it when a call meets a rate limit (the provider's Retry-After, else an exponential back-off),
so a rate limit never becomes a storm of refused calls, and then tries the call again itself, below every
processor, so a case's verdict does not depend on whether its call happened to meet the limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from processors import ModelAPIError
from processors.models.base import ModelEvent, ModelRequest

__all__ = ["RATE_LIMIT_STATUSES", "GatedModel", "RateGate"]


#: Statuses that mean "slow down": the whole run pauses, not only the case that met them.
RATE_LIMIT_STATUSES = (429, 503)


class RateGate:
    """The run's shared pause. In ``model`` mode every model call waits it out first, and a rate limit any call
    meets extends it (the provider's Retry-After, else an exponential back-off): so every worker backs off
    together (without the gate the other workers kept calling into the limit).

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
    """Waits out the run's pause before each call of ``inner``; a rate-limited call pauses the whole run and is
    tried again here, below every processor, up to ``attempts`` times in all.

    A rate limit is the lab's own load meeting the provider's quota, not something the case did: which calls meet
    it depends on timing. When the design's error processors saw it (the sample's ``StreamErrorRetry`` retries a
    429), their retry was a change in the case's trace and a benign case that met the limit came out
    ``modified`` instead of ``passed``: the same 1,000 cases gave a few different verdicts on every run. Retried
    here, the chain sees one call that answered, as in a run that met no limit, and the recording holds only that
    answer. Only when every attempt was refused does the error reach the chain (its error processors, then the
    case's verdict). A stream that already gave events is never started again (its events are the case's).

    :attr:`refused`: how many of this case's calls the provider refused and this model tried again."""

    def __init__(self, inner: Any, gate: RateGate, attempts: int = 6) -> None:
        self.inner = inner
        self.gate = gate
        self.attempts = attempts
        self.refused = 0
        self.provider = getattr(inner, "provider", "lab")
        self.model_id = getattr(inner, "model_id", "lab")

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        while True:
            await self.gate.wait()
            answered = False
            try:
                async for event in self.inner.stream(request):
                    answered = True
                    yield event
            except ModelAPIError as error:
                if not (error.retryable and error.status_code in RATE_LIMIT_STATUSES):
                    raise
                self.gate.limited(error.retry_after)
                if answered or self.refused + 1 >= self.attempts:
                    raise  # the case's budget of tries is spent (also for its error processors' own retries)
                self.refused += 1
                continue
            self.gate.answered()
            return
