"""The memory protocol: how an agent remembers a thread between calls.

An agent with memory loads a thread's latest messages as ``remembered`` before the run, and after every
processor ran saves what ended in the ``MessageList`` (input and response; never ``context`` messages, never
transient data chunks, never a response a ``process_output_result`` tripwire rejected).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from processors.messages import Message


@runtime_checkable
class Memory(Protocol):
    """Thread storage. Both methods are async; blocking I/O must run off the event loop's thread."""

    #: How many of a thread's latest messages a run remembers.
    last_messages: int

    async def load_messages(
        self, thread_id: str, *, resource_id: str | None = None, last_messages: int | None = None
    ) -> list[Message]: ...

    async def save_messages(
        self, thread_id: str, messages: Sequence[Message], *, resource_id: str | None = None
    ) -> None: ...


class InMemoryMemory:
    """A process-local memory: for tests and throwaway demos (nothing survives the process)."""

    def __init__(self, last_messages: int = 50) -> None:
        self.last_messages = last_messages
        self.threads: dict[str, list[Message]] = {}

    async def load_messages(
        self, thread_id: str, *, resource_id: str | None = None, last_messages: int | None = None
    ) -> list[Message]:
        limit = self.last_messages if last_messages is None else last_messages
        messages = self.threads.get(thread_id, [])
        return [m.model_copy(deep=True) for m in (messages[-limit:] if limit else [])]

    async def save_messages(
        self, thread_id: str, messages: Sequence[Message], *, resource_id: str | None = None
    ) -> None:
        stored = self.threads.setdefault(thread_id, [])
        index = {m.id: i for i, m in enumerate(stored)}
        for message in messages:
            copy = message.model_copy(deep=True)
            if message.id in index:
                stored[index[message.id]] = copy
            else:
                index[message.id] = len(stored)
                stored.append(copy)
