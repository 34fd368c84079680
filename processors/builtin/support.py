"""Small helpers the built-ins share: checking and rewriting the text of messages, and reporting violations.

``on_violation`` is called by the runner when a hook aborts. Built-ins whose strategy does *not* abort
(``RegexFilter``'s redact and warn, ``CostGuard``'s warn, ...) report through the same callback themselves, as
Mastra's do, with :func:`report_violation`. A callback may be sync or async; its errors are logged and
swallowed, so a broken alert never breaks the guardrail.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Container
from typing import Any

from processors.chunks import Chunk
from processors.messages import Message, TextPart
from processors.tripwire import Violation

logger = logging.getLogger(__name__)

#: Callbacks that returned an awaitable from a sync hook: kept referenced until they finish.
_BACKGROUND: set[asyncio.Task[Any]] = set()


def map_text(message: Message, transform: Callable[[str], str]) -> Message:
    """``message`` with ``transform`` applied to each text part (and the flattened ``content``).

    Returns the same object when nothing changed, else a copy (the original is left as it was).
    """
    changed = False
    has_text = False
    parts: list[Any] = []
    for part in message.content.parts:
        if isinstance(part, TextPart):
            has_text = True
            text = transform(part.text)
            if text != part.text:
                part = part.model_copy(update={"text": text})
                changed = True
        parts.append(part)
    flattened = message.content.content
    if has_text:
        if changed and flattened is not None:
            flattened = "".join(p.text for p in parts if isinstance(p, TextPart))
    elif isinstance(flattened, str) and flattened:
        flattened = transform(flattened)
        changed = flattened != message.content.content
    if not changed:
        return message
    content = message.content.model_copy(update={"parts": parts, "content": flattened})
    return message.model_copy(update={"content": content})


async def check_messages(
    messages: list[Message],
    roles: Container[str],
    check: Callable[[Message, str], Awaitable[Message | None]],
    *,
    last_only: bool = False,
    min_length: int | None = None,
) -> list[Message]:
    """``messages`` with each one to check replaced by ``await check(message, message.text)`` (None drops it).

    A message is checked when its role is in ``roles``, its text is not empty (with ``min_length``: at least that
    long once stripped) and, with ``last_only``, it is the last message; the others are kept as they are.
    """
    out: list[Message] = []
    for message in messages:
        text = message.text
        if (
            message.role not in roles
            or (not text if min_length is None else len(text.strip()) < min_length)
            or (last_only and message is not messages[-1])
        ):
            out.append(message)
            continue
        result = await check(message, text)
        if result is not None:
            out.append(result)
    return out


def text_segments(message: Message) -> list[tuple[int | None, str]]:
    """The message's texts to inspect: ``(part index, text)`` per text part, or ``(None, content)``."""
    segments: list[tuple[int | None, str]] = [
        (index, part.text) for index, part in enumerate(message.content.parts) if isinstance(part, TextPart)
    ]
    if not segments and isinstance(message.content.content, str) and message.content.content:
        segments.append((None, message.content.content))
    return segments


def report_violation(processor: Any, processor_id: str, message: str, detail: Any = None) -> Awaitable[None] | None:
    """Call ``processor.on_violation``; errors are logged and swallowed.

    Returns an awaitable when the callback is async (an ``async`` hook should await it); :func:`report_soon`
    is the form for sync hooks.
    """
    callback = getattr(processor, "on_violation", None)
    if not callable(callback):
        return None
    try:
        outcome = callback(Violation(processor_id=processor_id, message=message, detail=detail))
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


def with_text(part: Chunk, text: str) -> Chunk:
    """A copy of a ``text-delta``/``reasoning-delta`` chunk with another text (``part.with_payload(text=...)``,
    faster: this is the stream hot path)."""
    return part.with_payload(text=text)
