"""``MessageList``: the live conversation of one run, with where each message came from.

Sources: ``memory`` (remembered history), ``input`` (this call's user messages), ``response`` (what the model
and tools produced this run) and ``context`` (put in the prompt, never saved). System messages live apart, in
an *untagged* bucket (instructions; reset at every step to what ``process_input`` left) and *tagged* buckets
(``add_system(text, tag)``; kept for the whole run).

Views: ``get.input``, ``get.response``, ``get.remembered``, ``get.context`` and ``get.all``, each with the
formats ``db()`` (the live :class:`Message` objects, so in-place edits stick), ``ui()`` (AI SDK v5 UI messages)
and ``core()`` (OpenAI chat messages: what litellm receives). ``to_prompt()`` adds the system messages.

The conversions between those formats live in :mod:`processors.messages.formats`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from processors.messages import (
    Message,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    system_text,
)
from processors.messages.formats import CoreMessage, as_messages, to_core, to_ui

Source = Literal["memory", "input", "response", "context"]
SOURCES: tuple[Source, ...] = ("memory", "input", "response", "context")


class _View:
    """One filtered view of the list; formats are methods so the list is read when asked, never cached."""

    __slots__ = ("_list", "_sources")

    def __init__(self, message_list: MessageList, sources: frozenset[str] | None) -> None:
        self._list = message_list
        self._sources = sources

    def db(self) -> list[Message]:
        if self._sources is None:
            return list(self._list._messages)
        source_of = self._list._source
        return [m for m in self._list._messages if source_of.get(m.id) in self._sources]

    def core(self) -> list[CoreMessage]:
        return to_core(self.db())

    def ui(self) -> list[dict[str, Any]]:
        return [to_ui(m) for m in self.db()]

    def text(self) -> str:
        """All the text of this view, one message per line (handy for detectors)."""
        return "\n".join(m.text for m in self.db() if m.text)


class _Views:
    __slots__ = ("all", "context", "input", "remembered", "response")

    def __init__(self, message_list: MessageList) -> None:
        self.all = _View(message_list, None)
        self.input = _View(message_list, frozenset({"input"}))
        self.response = _View(message_list, frozenset({"response"}))
        self.remembered = _View(message_list, frozenset({"memory"}))
        self.context = _View(message_list, frozenset({"context"}))


class MessageList:
    """The messages of one run. Processors mutate it in place, or return message arrays the runner applies."""

    def __init__(self, *, thread_id: str | None = None, resource_id: str | None = None) -> None:
        self.thread_id = thread_id
        self.resource_id = resource_id
        self._messages: list[Message] = []
        self._source: dict[str, Source] = {}
        self._system: list[CoreMessage] = []
        self._tagged: dict[str, list[CoreMessage]] = {}
        self._sealed: set[str] = set()
        self.get = _Views(self)

    # ----------------------------------------------------------------------------------------- adding
    def add(self, messages: Any, source: Source = "input", *, merge: bool = True) -> MessageList:
        """Add messages: strings (user text), :class:`Message`, DB/UI-shaped dicts or OpenAI chat dicts.

        System messages go to the untagged system bucket (and are ignored from memory). A message whose id
        is already here replaces it. An assistant message right after another one merges into it (one
        assistant message per turn, as Mastra stores it) unless ``merge=False``; see :meth:`can_merge`.
        """
        if source not in SOURCES:
            raise ValueError(f"unknown message source {source!r}; expected one of {', '.join(SOURCES)}")
        for message in as_messages(messages):
            if message.role == "system":
                if source != "memory":
                    self.add_system(message.text)
                continue
            self._add_one(message, source, merge)
        return self

    def _add_one(self, message: Message, source: Source, merge: bool) -> None:
        if message.thread_id is None and self.thread_id is not None:
            message.thread_id = self.thread_id
        if message.resource_id is None and self.resource_id is not None:
            message.resource_id = self.resource_id
        if message.id in self._source:
            for index, existing in enumerate(self._messages):
                if existing.id == message.id:
                    self._messages[index] = message
                    break
            self._source[message.id] = self._source[message.id] if source == "input" else source
            return
        if merge and self._messages and self.can_merge(self._messages[-1], message, source):
            merge_into(self._messages[-1], message)
            return
        if source == "memory":
            position = next(
                (i for i, m in enumerate(self._messages) if self._source.get(m.id) != "memory"), len(self._messages)
            )
            self._messages.insert(position, message)
        else:
            self._messages.append(message)
        self._source[message.id] = source

    def can_merge(self, latest: Message, message: Message, source: Source) -> bool:
        """Whether ``message`` (added from ``source``) merges into ``latest``, the message right before it.

        Mastra's rule (``MessageMerger.shouldMerge``): both are assistant messages of the same thread, the new one
        is not from memory, and ``latest`` is not sealed. One narrowing, because a message here has one source
        where Mastra's may have several: the two must come from the same source, so a response never merges into
        a remembered or a context message (it would then not be saved, or rewrite history).
        """
        return (
            message.role == "assistant"
            and latest.role == "assistant"
            and source != "memory"
            and self._source.get(latest.id) == source
            and latest.id not in self._sealed
            and latest.thread_id == message.thread_id
        )

    def seal(self, message_id: str) -> None:
        """Stop later response messages from merging into this one."""
        self._sealed.add(message_id)

    def remove_by_ids(self, ids: Iterable[str]) -> list[Message]:
        wanted = set(ids)
        removed = [m for m in self._messages if m.id in wanted]
        if removed:
            self._messages = [m for m in self._messages if m.id not in wanted]
            for message in removed:
                self._source.pop(message.id, None)
        return removed

    def replace_block(self, given_ids: list[str], messages: list[Message], default_source: Source) -> None:
        """Put ``messages`` where the ``given_ids`` messages stood (a processor's array result).

        Given messages missing from ``messages`` are removed; the rest keep their source; new ones get
        ``default_source``. Messages outside the given block keep their place. A returned assistant message
        right after another one merges into it, as :meth:`add` merges (Mastra re-adds every returned message).
        """
        given = set(given_ids)
        old_sources = dict(self._source)
        new_ids = {m.id for m in messages}
        if len(new_ids) != len(messages):
            raise ValueError("the returned messages contain the same id twice")
        outside = [m for m in self._messages if m.id not in given and m.id in new_ids]
        if outside:  # a returned message that lives outside the block moves into it
            self._messages = [m for m in self._messages if m not in outside]
        rebuilt: list[Message] = []
        placed = False
        for message in self._messages:
            if message.id in given:
                if not placed:
                    rebuilt.extend(messages)
                    placed = True
            else:
                rebuilt.append(message)
        if not placed:
            rebuilt.extend(messages)
        self._messages = []
        self._source = {}
        block = {m.id for m in messages}
        for message in rebuilt:
            source = old_sources.get(message.id, default_source)
            if message.thread_id is None and self.thread_id is not None:
                message.thread_id = self.thread_id
            if message.resource_id is None and self.resource_id is not None:
                message.resource_id = self.resource_id
            # Mastra re-adds each returned message with add(), so returned assistant messages merge as added ones do
            if message.id in block and self._messages and self.can_merge(self._messages[-1], message, source):
                merge_into(self._messages[-1], message)
                continue
            self._messages.append(message)
            self._source[message.id] = source

    def clear(self, source: Source | None = None) -> list[Message]:
        """Remove all messages (or those of one source); returns what was removed."""
        ids = [m.id for m in self._messages if source is None or self._source.get(m.id) == source]
        return self.remove_by_ids(ids)

    # ----------------------------------------------------------------------------------------- sources
    def get_source(self, message: Message | str) -> Source | None:
        message_id = message if isinstance(message, str) else message.id
        return self._source.get(message_id)

    def make_message_source_checker(self) -> dict[str, set[str]]:
        checker: dict[str, set[str]] = {source: set() for source in SOURCES}
        for message_id, source in self._source.items():
            checker[source].add(message_id)
        return checker

    def __contains__(self, message: object) -> bool:
        message_id = message.id if isinstance(message, Message) else message
        return message_id in self._source

    def __len__(self) -> int:
        return len(self._messages)

    # ----------------------------------------------------------------------------------------- system
    def add_system(self, message: Any, tag: str | None = None) -> None:
        """Add a system message (text, core dict or Message) untagged or under ``tag``.

        Exact repeats are ignored, and so is empty text (Mastra's ``addSystem`` returns at once for an empty
        value): an agent without instructions sends no empty system message.
        """
        items = message if isinstance(message, list) else [message]
        for item in items:
            text = system_text(item)
            if not text:
                continue
            bucket = self._system if tag is None else self._tagged.setdefault(tag, [])
            if any(existing["content"] == text for existing in bucket):
                continue
            bucket.append({"role": "system", "content": text})

    def get_system_messages(self, tag: str | None = None) -> list[CoreMessage]:
        bucket = self._system if tag is None else self._tagged.get(tag, [])
        return [dict(m) for m in bucket]

    def get_all_system_messages(self) -> list[CoreMessage]:
        merged = [dict(m) for m in self._system]
        for bucket in self._tagged.values():
            merged.extend(dict(m) for m in bucket)
        return merged

    def clear_system_messages(self, tag: str | None = None) -> None:
        if tag is None:
            self._system = []
        else:
            self._tagged.pop(tag, None)

    def replace_all_system_messages(self, messages: Iterable[Any]) -> None:
        """Replace the untagged bucket only; tagged buckets stay. Non-system entries are ignored."""
        self._system = []
        for message in messages:
            role = message.get("role") if isinstance(message, dict) else getattr(message, "role", "system")
            if role == "system":
                self.add_system(message)

    @property
    def tags(self) -> list[str]:
        return list(self._tagged)

    # ----------------------------------------------------------------------------------------- tools
    def update_tool_invocation(self, part: ToolInvocationPart | dict[str, Any]) -> bool:
        """Merge a tool invocation (usually a result) into the newest assistant part with the same call id.

        This is how ``process_tool_result`` replaces a tool's result: the runtime reads it back from here
        before streaming the ``tool-result`` chunk and before the next prompt. Returns False if no call matches.
        """
        incoming = part if isinstance(part, ToolInvocationPart) else ToolInvocationPart.model_validate(part)
        update = incoming.tool_invocation
        for message in reversed(self._messages):
            if message.role != "assistant":
                continue
            for index, existing in enumerate(message.content.parts):
                if (
                    isinstance(existing, ToolInvocationPart)
                    and existing.tool_invocation.tool_call_id == update.tool_call_id
                ):
                    merged = existing.tool_invocation.model_copy(
                        update=update.model_dump(exclude_unset=True, exclude={"tool_call_id"})
                    )
                    message.content.parts[index] = existing.model_copy(update={"tool_invocation": merged})
                    return True
        return False

    def find_tool_invocation(self, tool_call_id: str) -> ToolInvocation | None:
        for message in reversed(self._messages):
            for part in message.content.parts:
                if isinstance(part, ToolInvocationPart) and part.tool_invocation.tool_call_id == tool_call_id:
                    return part.tool_invocation
        return None

    # ----------------------------------------------------------------------------------------- steps
    def boundary(self) -> tuple[list[str], dict[str, int]]:
        """Where the list stands now, so a rejected step can be rolled back to it."""
        return [m.id for m in self._messages], {m.id: len(m.content.parts) for m in self._messages}

    def rollback(self, boundary: tuple[list[str], dict[str, int]]) -> None:
        """Undo what was added since ``boundary``: new messages removed, new parts of old messages dropped."""
        ids, part_counts = boundary
        keep = set(ids)
        self.remove_by_ids([m.id for m in self._messages if m.id not in keep])
        for message in self._messages:
            count = part_counts.get(message.id)
            if count is not None and len(message.content.parts) > count:
                del message.content.parts[count:]
                # from the parts left, not ``message.text``: that falls back to the content being retracted
                kept = "".join(part.text for part in message.content.parts if isinstance(part, TextPart))
                message.content.content = kept or None

    # ----------------------------------------------------------------------------------------- prompt
    def to_prompt(self) -> list[CoreMessage]:
        """System messages (untagged, then tagged) followed by every message in OpenAI chat format."""
        return self.get_all_system_messages() + self.get.all.core()

    def serialize(self) -> dict[str, Any]:
        return {
            "threadId": self.thread_id,
            "resourceId": self.resource_id,
            "messages": [{"source": self._source[m.id], "message": m.to_json()} for m in self._messages],
            "system": [m["content"] for m in self._system],
            "tagged": {tag: [m["content"] for m in bucket] for tag, bucket in self._tagged.items()},
        }

    @classmethod
    def deserialize(cls, data: dict[str, Any]) -> MessageList:
        message_list = cls(thread_id=data.get("threadId"), resource_id=data.get("resourceId"))
        for entry in data.get("messages", []):
            message_list.add(Message.model_validate(entry["message"]), entry["source"], merge=False)
        for text in data.get("system", []):
            message_list.add_system(text)
        for tag, texts in data.get("tagged", {}).items():
            for text in texts:
                message_list.add_system(text, tag)
        return message_list

    def __repr__(self) -> str:
        counts = {s: sum(1 for v in self._source.values() if v == s) for s in SOURCES}
        return f"MessageList({counts}, system={len(self._system)}, tagged={list(self._tagged)})"


def merge_into(latest: Message, message: Message) -> None:
    """Merge ``message``'s parts into ``latest`` (Mastra's ``MessageMerger.merge``, in place).

    A tool invocation whose call is already in ``latest`` updates that call (its result, when it has one)
    instead of being added again; other parts are appended, with a ``step-start`` put before a text part that
    follows a tool call, so the text reads as the next step. The flattened ``content`` becomes the new
    message's (Mastra's "the content string is the latest text"), and ``created_at`` the later of the two.
    Unlike Mastra, parts equal to ones already there are still appended: Mastra deduplicates because the AI
    SDK re-sends whole messages while they stream, which never happens here.
    """
    parts = latest.content.parts
    incoming = message.content.parts
    for index, part in enumerate(incoming):
        if isinstance(part, ToolInvocationPart):
            position = _call_position(parts, part.tool_invocation.tool_call_id)
            if position is not None:
                target = parts[position]
                if part.tool_invocation.state == "result" and isinstance(target, ToolInvocationPart):
                    existing = target.tool_invocation
                    update = part.tool_invocation
                    args = existing.args
                    if isinstance(args, dict) and isinstance(update.args, dict):
                        args = {**args, **update.args}
                    elif update.args is not None:
                        args = update.args
                    merged = existing.model_copy(update={"state": "result", "result": update.result, "args": args})
                    parts[position] = target.model_copy(update={"tool_invocation": merged})
                continue
        if (
            isinstance(part, TextPart)
            and parts
            and isinstance(parts[-1], ToolInvocationPart)
            and not (index > 0 and isinstance(incoming[index - 1], StepStartPart))
        ):
            parts.append(StepStartPart())
        parts.append(part)
    if message.content.content is not None:
        latest.content.content = message.content.content
    if message.created_at > latest.created_at:
        latest.created_at = message.created_at


def _call_position(parts: list[Any], tool_call_id: str) -> int | None:
    """Index of the newest tool invocation part with this call id, if any."""
    for index in range(len(parts) - 1, -1, -1):
        part = parts[index]
        if isinstance(part, ToolInvocationPart) and part.tool_invocation.tool_call_id == tool_call_id:
            return index
    return None
