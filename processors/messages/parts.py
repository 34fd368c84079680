"""``Message``: the stored message shape, mirroring Mastra's ``MastraDBMessage`` (format 2).

A message has a role, a creation time, optional thread/resource ids and ``content`` with typed ``parts``
(text, reasoning, file, source, step-start, error, tool-invocation, ``data-*``), a flattened ``content``
string kept for old readers, and free ``metadata``. ``message.text`` is the reading helper every processor
wants: the joined text parts, falling back to ``content.content``.

Serialised with ``model_dump(mode="json", by_alias=True)`` the shape is Mastra's camelCase JSON
(``createdAt``, ``toolInvocation.toolCallId`` ...), which is also the thread import/export format.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag
from pydantic.alias_generators import to_camel

_WIRE = ConfigDict(alias_generator=to_camel, validate_by_name=True, validate_by_alias=True)

Role = Literal["user", "assistant", "system", "signal"]


def new_id(prefix: str = "msg") -> str:
    """A sortable-enough unique id for messages and runs."""
    return f"{prefix}_{uuid.uuid4().hex}"


def now() -> datetime:
    return datetime.now(UTC)


class TextPart(BaseModel):
    model_config = _WIRE
    type: Literal["text"] = "text"
    text: str
    provider_metadata: dict[str, Any] | None = None


class ReasoningPart(BaseModel):
    model_config = _WIRE
    type: Literal["reasoning"] = "reasoning"
    reasoning: str
    details: list[dict[str, Any]] = Field(default_factory=list)
    provider_metadata: dict[str, Any] | None = None


class FilePart(BaseModel):
    model_config = _WIRE
    type: Literal["file"] = "file"
    mime_type: str
    data: str
    filename: str | None = None


class SourcePart(BaseModel):
    model_config = _WIRE
    type: Literal["source"] = "source"
    source_id: str
    url: str | None = None
    title: str | None = None


class StepStartPart(BaseModel):
    """Marks where a model step begins inside an assistant message (AI SDK v5 convention)."""

    model_config = _WIRE
    type: Literal["step-start"] = "step-start"
    model: str | None = None


class ErrorInfo(BaseModel):
    name: str = "Error"
    message: str


class ErrorPart(BaseModel):
    """A terminal model error recorded on the assistant message, so a reopened thread shows what failed."""

    model_config = _WIRE
    type: Literal["error"] = "error"
    error: ErrorInfo


ToolState = Literal["partial-call", "call", "result", "output-error", "output-denied"]


class ToolInvocation(BaseModel):
    model_config = _WIRE
    state: ToolState = "call"
    tool_call_id: str
    tool_name: str
    args: Any = None
    result: Any = None
    is_error: bool | None = None
    error_text: str | None = None
    #: The id of the processor whose tripwire blocked the tool's result (``""`` when it has none); ``None`` when
    #: no processor did. Data, so a view can say "blocked by …" in its language without parsing ``error_text``.
    blocked_by: str | None = None


class ToolInvocationPart(BaseModel):
    model_config = _WIRE
    type: Literal["tool-invocation"] = "tool-invocation"
    tool_invocation: ToolInvocation
    provider_executed: bool | None = None


class DataPart(BaseModel):
    """A persisted custom ``data-*`` chunk."""

    model_config = _WIRE
    type: str
    data: Any = None
    id: str | None = None


def _part_tag(value: Any) -> str:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    if isinstance(kind, str) and kind.startswith("data-"):
        return "data"
    return kind if isinstance(kind, str) else "text"


Part = Annotated[
    Annotated[TextPart, Tag("text")]
    | Annotated[ReasoningPart, Tag("reasoning")]
    | Annotated[FilePart, Tag("file")]
    | Annotated[SourcePart, Tag("source")]
    | Annotated[StepStartPart, Tag("step-start")]
    | Annotated[ErrorPart, Tag("error")]
    | Annotated[ToolInvocationPart, Tag("tool-invocation")]
    | Annotated[DataPart, Tag("data")],
    Discriminator(_part_tag),
]


class MessageContent(BaseModel):
    model_config = _WIRE
    format: Literal[2] = 2
    parts: list[Part] = Field(default_factory=list)
    content: str | None = None
    metadata: dict[str, Any] | None = None


class Message(BaseModel):
    """One message of a conversation, as stored (Mastra's ``MastraDBMessage``)."""

    model_config = _WIRE

    id: str = Field(default_factory=new_id)
    role: Role
    created_at: datetime = Field(default_factory=now)
    thread_id: str | None = None
    resource_id: str | None = None
    type: str | None = None
    content: MessageContent = Field(default_factory=MessageContent)

    @property
    def text(self) -> str:
        """The message's text: its text parts joined, else the flattened ``content.content``."""
        text = "".join(part.text for part in self.content.parts if isinstance(part, TextPart))
        if not text and isinstance(self.content.content, str):
            return self.content.content
        return text

    @property
    def tool_invocations(self) -> list[ToolInvocation]:
        return [p.tool_invocation for p in self.content.parts if isinstance(p, ToolInvocationPart)]

    @classmethod
    def user(cls, text: str, **fields: Any) -> Message:
        return cls(role="user", content=MessageContent(parts=[TextPart(text=text)], content=text), **fields)

    @classmethod
    def assistant(cls, text: str, **fields: Any) -> Message:
        return cls(role="assistant", content=MessageContent(parts=[TextPart(text=text)], content=text), **fields)

    @classmethod
    def system(cls, text: str, **fields: Any) -> Message:
        return cls(role="system", content=MessageContent(parts=[TextPart(text=text)], content=text), **fields)

    def with_text(self, text: str) -> Message:
        """A copy whose text parts are replaced by one text part (other parts kept in place)."""
        parts: list[Any] = []
        placed = False
        for part in self.content.parts:
            if isinstance(part, TextPart):
                if not placed:
                    parts.append(TextPart(text=text))
                    placed = True
            else:
                parts.append(part)
        if not placed:
            parts.append(TextPart(text=text))
        content = self.content.model_copy(update={"parts": parts, "content": text})
        return self.model_copy(update={"content": content})

    def to_json(self) -> dict[str, Any]:
        """Mastra's camelCase JSON (the thread import/export shape)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


def system_text(message: Any) -> str:
    """Text of a system message in any accepted form: a string, a core dict, or a :class:`Message`."""
    if isinstance(message, str):
        return message
    if isinstance(message, Message):
        return message.text
    if isinstance(message, dict):
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if isinstance(content, dict):  # a DB-shaped dict
            return Message.model_validate(message).text
    raise TypeError(f"not a system message: {message!r}")
