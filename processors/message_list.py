"""``MessageList``: the live conversation of one run, with where each message came from.

Sources: ``memory`` (remembered history), ``input`` (this call's user messages), ``response`` (what the model
and tools produced this run) and ``context`` (put in the prompt, never saved). System messages live apart, in
an *untagged* bucket (instructions; reset at every step to what ``process_input`` left) and *tagged* buckets
(``add_system(text, tag)``; kept for the whole run).

Views: ``get.input``, ``get.response``, ``get.remembered``, ``get.context`` and ``get.all``, each with the
formats ``db()`` (the live :class:`Message` objects, so in-place edits stick), ``ui()`` (AI SDK v5 UI messages)
and ``core()`` (OpenAI chat messages: what litellm receives). ``to_prompt()`` adds the system messages.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Literal

from processors.messages import (
    DataPart,
    FilePart,
    Message,
    MessageContent,
    ReasoningPart,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    system_text,
)

Source = Literal["memory", "input", "response", "context"]
SOURCES: tuple[Source, ...] = ("memory", "input", "response", "context")

CoreMessage = dict[str, Any]


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
        is already here replaces it. A response assistant message right after another one of this run merges
        into it (one assistant message per turn, as Mastra stores it) unless ``merge=False``.
        """
        if source not in SOURCES:
            raise ValueError(f"unknown message source {source!r}; expected one of {', '.join(SOURCES)}")
        for message in _as_messages(messages):
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
        if merge and message.role == "assistant" and source == "response" and self._messages:
            last = self._messages[-1]
            if (
                last.role == "assistant"
                and self._source.get(last.id) == "response"
                and last.id not in self._sealed
                and last.thread_id == message.thread_id
            ):
                last.content.parts.extend(message.content.parts)
                last.content.content = last.text or last.content.content
                return
        if source == "memory":
            position = next(
                (i for i, m in enumerate(self._messages) if self._source.get(m.id) != "memory"), len(self._messages)
            )
            self._messages.insert(position, message)
        else:
            self._messages.append(message)
        self._source[message.id] = source

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
        ``default_source``. Messages outside the given block keep their place.
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
        self._messages = rebuilt
        self._source = {}
        for message in rebuilt:
            self._source[message.id] = old_sources.get(message.id, default_source)
            if message.thread_id is None and self.thread_id is not None:
                message.thread_id = self.thread_id
            if message.resource_id is None and self.resource_id is not None:
                message.resource_id = self.resource_id

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
        """Add a system message (text, core dict or Message) untagged or under ``tag``; exact repeats are ignored."""
        items = message if isinstance(message, list) else [message]
        bucket = self._system if tag is None else self._tagged.setdefault(tag, [])
        for item in items:
            text = system_text(item)
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
                message.content.content = message.text or None

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


# --------------------------------------------------------------------------------------------- converters
def _as_messages(messages: Any) -> list[Message]:
    if messages is None:
        return []
    if isinstance(messages, (str, Message, dict)):
        messages = [messages]
    result: list[Message] = []
    for item in messages:
        if isinstance(item, Message):
            result.append(item)
        elif isinstance(item, str):
            result.append(Message.user(item))
        elif isinstance(item, dict):
            result.extend(_from_dict(item))
        else:
            raise TypeError(f"cannot add {type(item).__name__} to a MessageList: expected str, Message or dict")
    return result


def _from_dict(data: dict[str, Any]) -> list[Message]:
    content = data.get("content")
    if isinstance(content, dict) or ("parts" in data and "content" not in data):
        if "parts" in data and not isinstance(content, dict):  # UI-shaped
            return [_from_ui(data)]
        return [Message.model_validate(data)]
    return from_core(data)


def _from_ui(data: dict[str, Any]) -> Message:
    parts: list[Any] = []
    for part in data.get("parts", []):
        kind = part.get("type", "")
        if kind == "text":
            parts.append(TextPart(text=part.get("text", "")))
        elif kind == "reasoning":
            parts.append(ReasoningPart(reasoning=part.get("text", "")))
        elif kind == "step-start":
            parts.append(StepStartPart())
        elif kind.startswith("data-"):
            parts.append(DataPart(type=kind, data=part.get("data")))
        elif kind.startswith("tool-"):
            state = part.get("state")
            invocation = ToolInvocation(
                tool_call_id=part["toolCallId"],
                tool_name=kind.removeprefix("tool-"),
                args=part.get("input"),
                result=part.get("output"),
                state="result"
                if state == "output-available"
                else "output-error"
                if state == "output-error"
                else "call",
                error_text=part.get("errorText"),
            )
            parts.append(ToolInvocationPart(tool_invocation=invocation))
    fields = {k: data[k] for k in ("id",) if k in data}
    text = "".join(p.text for p in parts if isinstance(p, TextPart))
    metadata = data.get("metadata")
    return Message(
        role=data["role"], content=MessageContent(parts=parts, content=text or None, metadata=metadata), **fields
    )


def from_core(data: dict[str, Any]) -> list[Message]:
    """Read one OpenAI chat message (user/assistant/system/tool) as stored messages."""
    role = data.get("role")
    content = data.get("content")
    fields = {k: data[k] for k in ("id",) if k in data}
    if role == "tool":
        invocation = ToolInvocation(
            state="result",
            tool_call_id=data["tool_call_id"],
            tool_name=data.get("name", ""),
            result=_maybe_json(content),
        )
        return [
            Message(role="assistant", content=MessageContent(parts=[ToolInvocationPart(tool_invocation=invocation)]))
        ]
    parts: list[Any] = []
    if isinstance(content, str):
        if content:
            parts.append(TextPart(text=content))
    elif isinstance(content, list):
        for item in content:
            if item.get("type") == "text":
                parts.append(TextPart(text=item.get("text", "")))
            elif item.get("type") == "image_url":
                url = item.get("image_url", {}).get("url", "")
                parts.append(FilePart(mime_type="image/*", data=url))
    for call in data.get("tool_calls") or []:
        function = call.get("function", {})
        parts.append(
            ToolInvocationPart(
                tool_invocation=ToolInvocation(
                    state="call",
                    tool_call_id=call["id"],
                    tool_name=function.get("name", ""),
                    args=_maybe_json(function.get("arguments")),
                )
            )
        )
    if role not in ("user", "assistant", "system"):
        raise ValueError(f"unsupported message role {role!r}")
    text = "".join(p.text for p in parts if isinstance(p, TextPart))
    return [Message(role=role, content=MessageContent(parts=parts, content=text or None), **fields)]


def _maybe_json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _json_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, default=str, ensure_ascii=False)


def to_core(messages: Iterable[Message]) -> list[CoreMessage]:
    """Messages in OpenAI chat format. An assistant message is split at step boundaries into
    ``assistant(tool_calls)`` + ``tool`` results + the next step's ``assistant``, as providers expect.
    Calls without a result yet are left out (providers reject unanswered calls)."""
    core: list[CoreMessage] = []
    for message in messages:
        if message.role == "user":
            files = [p for p in message.content.parts if isinstance(p, FilePart)]
            if files:
                items: list[dict[str, Any]] = [{"type": "text", "text": message.text}] if message.text else []
                items += [{"type": "image_url", "image_url": {"url": f.data}} for f in files]
                core.append({"role": "user", "content": items})
            else:
                core.append({"role": "user", "content": message.text})
        elif message.role == "assistant":
            core.extend(_assistant_to_core(message))
        elif message.role == "system":
            core.append({"role": "system", "content": message.text})
    return core


def _assistant_to_core(message: Message) -> list[CoreMessage]:
    out: list[CoreMessage] = []
    text: list[str] = []
    calls: list[ToolInvocation] = []

    def flush() -> None:
        answered = [c for c in calls if c.state in ("result", "output-error")]
        joined = "".join(text)
        if answered:
            out.append(
                {
                    "role": "assistant",
                    "content": joined or None,
                    "tool_calls": [
                        {
                            "id": c.tool_call_id,
                            "type": "function",
                            "function": {
                                "name": c.tool_name,
                                "arguments": _json_text(c.args if c.args is not None else {}),
                            },
                        }
                        for c in answered
                    ],
                }
            )
            for c in answered:
                result = c.error_text if c.state == "output-error" and c.result is None else c.result
                out.append({"role": "tool", "tool_call_id": c.tool_call_id, "content": _json_text(result)})
        elif joined:
            out.append({"role": "assistant", "content": joined})
        text.clear()
        calls.clear()

    parts = message.content.parts
    if not parts and message.content.content:
        return [{"role": "assistant", "content": message.content.content}]
    for part in parts:
        if isinstance(part, StepStartPart):
            if text or calls:
                flush()
        elif isinstance(part, TextPart):
            if calls:  # text after tool calls in the same step belongs to the next assistant turn
                flush()
            text.append(part.text)
        elif isinstance(part, ToolInvocationPart):
            calls.append(part.tool_invocation)
    flush()
    return out


def to_ui(message: Message) -> dict[str, Any]:
    """One message as an AI SDK v5 UI message (``parts`` with ``tool-<name>`` entries)."""
    parts: list[dict[str, Any]] = []
    for part in message.content.parts:
        if isinstance(part, TextPart):
            parts.append({"type": "text", "text": part.text})
        elif isinstance(part, ReasoningPart):
            parts.append({"type": "reasoning", "text": part.reasoning})
        elif isinstance(part, StepStartPart):
            parts.append({"type": "step-start"})
        elif isinstance(part, ToolInvocationPart):
            inv = part.tool_invocation
            state = {"result": "output-available", "output-error": "output-error"}.get(inv.state, "input-available")
            entry: dict[str, Any] = {
                "type": f"tool-{inv.tool_name}",
                "toolCallId": inv.tool_call_id,
                "state": state,
                "input": inv.args,
            }
            if inv.state == "result":
                entry["output"] = inv.result
            if inv.error_text:
                entry["errorText"] = inv.error_text
            parts.append(entry)
        elif isinstance(part, DataPart):
            parts.append({"type": part.type, "data": part.data})
        elif isinstance(part, FilePart):
            parts.append({"type": "file", "mediaType": part.mime_type, "url": part.data})
    ui: dict[str, Any] = {"id": message.id, "role": message.role, "parts": parts}
    if message.content.metadata:
        ui["metadata"] = message.content.metadata
    return ui
