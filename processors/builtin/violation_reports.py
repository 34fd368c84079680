"""Reporting a violation a guard did not abort for, through the processor's ``on_violation``.

``on_violation`` is called by the runner when a hook aborts. Built-ins whose strategy does *not* abort
(``RegexFilter``'s redact and warn, ``CostGuard``'s warn, ...) report through the same callback themselves, as
Mastra's do, with :func:`report_violation`. A callback may be sync or async; its errors are logged and
swallowed, so a broken alert never breaks the guardrail.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable
from typing import Any

from processors.problems import problem_of
from processors.tripwire import Violation

logger = logging.getLogger(__name__)

#: Callbacks that returned an awaitable from a sync hook: kept referenced until they finish.
_BACKGROUND: set[asyncio.Task[Any]] = set()


def report_violation(processor: Any, processor_id: str, message: str, detail: Any = None) -> Awaitable[None] | None:
    """Call ``processor.on_violation``; errors are logged and swallowed.

    Returns an awaitable when the callback is async (an ``async`` hook should await it); :func:`report_soon`
    is the form for sync hooks.
    """
    callback = getattr(processor, "on_violation", None)
    if not callable(callback):
        return None
    try:
        coded = problem_of(message)  # a coded message keeps its code and values (the reader's language)
        code, params = (coded.code, coded.params) if coded is not None else (None, {})
        outcome = callback(
            Violation(processor_id=processor_id, message=message, detail=detail, code=code, params=dict(params))
        )
    except Exception:
        logger.warning("on_violation of processor %r raised; ignored", processor_id, exc_info=True)
        return None
    if inspect.isawaitable(outcome):
        return _guarded(outcome, processor_id)
    return None


async def _guarded(outcome: Awaitable[Any], processor_id: str) -> None:
    try:
        await outcome
    except asyncio.CancelledError:
        raise
    except Exception:
        logger.warning("on_violation of processor %r raised; ignored", processor_id, exc_info=True)


def report_soon(processor: Any, processor_id: str, message: str, detail: Any = None) -> asyncio.Task[None] | None:
    """:func:`report_violation` from a sync hook: an async callback runs as a task on the running loop.

    The task is returned (and kept referenced until done) so a later async hook can await it.
    """
    pending = report_violation(processor, processor_id, message, detail)
    if pending is None:
        return None
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no loop (a direct call in a sync test): run it to completion here
        asyncio.run(_as_coroutine(pending))
        return None
    task = loop.create_task(_as_coroutine(pending))
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
    return task


async def settle(tasks: list[asyncio.Task[None]]) -> None:
    """Wait for report tasks started by :func:`report_soon` (their errors were already swallowed)."""
    if tasks:
        pending, tasks[:] = list(tasks), []
        await asyncio.gather(*pending, return_exceptions=True)


async def _as_coroutine(awaitable: Awaitable[None]) -> None:
    await awaitable
