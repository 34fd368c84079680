"""Converting messages between the shapes the outside world uses and the stored :class:`Message`.

A :class:`~processors.messages.message_list.MessageList` holds :class:`Message` objects (Mastra's DB shape) and
hands them out in three formats; this module is those conversions, kept apart from the list's bookkeeping of sources and
system messages:

- :func:`to_core` / :func:`from_core`: OpenAI chat messages (what litellm receives). An assistant message is split
  at step boundaries into ``assistant(tool_calls)`` + ``tool`` results, and ``tool`` messages read back as results.
- :func:`to_ui`: AI SDK v5 UI messages (``parts`` with ``tool-<name>`` entries); UI-shaped dicts read back too.
- :func:`as_messages`: whatever ``MessageList.add`` accepts (strings, :class:`Message`, DB-, UI- or chat-shaped
  dicts) as a list of :class:`Message`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

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
)

__all__ = ["CoreMessage", "as_messages", "from_core", "to_core", "to_ui"]

#: One message in OpenAI chat format (``{"role": ..., "content": ...}``).
CoreMessage = dict[str, Any]


def as_messages(messages: Any) -> list[Message]:
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
