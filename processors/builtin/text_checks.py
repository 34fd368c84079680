"""The texts a guard checks: the text of each message of the roles it watches, and a stream chunk's text.

:func:`check_messages` walks the messages (the last only, or those long enough) and lets a check keep, change or
drop each; :func:`text_segments` is the text of one message part by part; :func:`with_text` a ``text-delta`` or
``reasoning-delta`` chunk with another text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Container

from processors.chunks import Chunk
from processors.messages import Message, TextPart


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


def with_text(part: Chunk, text: str) -> Chunk:
    """A copy of a ``text-delta``/``reasoning-delta`` chunk with another text (``part.with_payload(text=...)``,
    faster: this is the stream hot path)."""
    return part.with_payload(text=text)
