"""The payloads of stream chunks (``chunk.payload``), in Mastra's wire shape: camelCase aliases, unknown fields kept.

Separate from :mod:`processors.chunks` (the chunk types, reading chunks back, the hot path) because payloads are the
data a processor reads and writes, while chunks are the envelope; both are re-exported by ``processors.chunks``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from processors.usage import Usage

_WIRE = ConfigDict(alias_generator=to_camel, validate_by_name=True, validate_by_alias=True, extra="allow")


def fast_copy(model: Any, changes: dict[str, Any]) -> Any:
    """A shallow copy of a pydantic model with some fields replaced, without re-validation.

    ``model_copy(update=...)`` does the same at several times the cost; on the per-chunk path that matters.
    """
    new = object.__new__(type(model))
    values = model.__dict__.copy()
    values.update(changes)
    object.__setattr__(new, "__dict__", values)
    object.__setattr__(new, "__pydantic_fields_set__", model.__pydantic_fields_set__ | changes.keys())
    extra = model.__pydantic_extra__
    object.__setattr__(new, "__pydantic_extra__", None if extra is None else dict(extra))
    object.__setattr__(new, "__pydantic_private__", model.__pydantic_private__)
    return new


class Payload(BaseModel):
    """Base of chunk payloads. Unknown fields are kept (providers add their own)."""

    model_config = _WIRE


class EmptyPayload(Payload):
    pass


class TextPayload(Payload):
    id: str
    provider_metadata: dict[str, Any] | None = None


class TextDeltaPayload(TextPayload):
    text: str


class ToolCallPayload(Payload):
    tool_call_id: str
    tool_name: str
    args: Any = None
    provider_executed: bool | None = None


class ToolCallStreamingStartPayload(Payload):
    tool_call_id: str
    tool_name: str


class ToolCallDeltaPayload(Payload):
    tool_call_id: str
    args_text_delta: str
    tool_name: str | None = None


class ToolCallStreamingEndPayload(Payload):
    tool_call_id: str


class ToolResultPayload(Payload):
    tool_call_id: str
    tool_name: str
    result: Any = None
    args: Any = None
    is_error: bool | None = None
    provider_executed: bool | None = None


class ToolErrorPayload(Payload):
    tool_call_id: str
    tool_name: str
    args: Any = None
    error: Any = None
    #: The id of the processor whose tripwire blocked the tool's result (``""`` when it has none), else ``None``.
    blocked_by: str | None = None


class StepStartPayload(Payload):
    message_id: str | None = None
    request: dict[str, Any] = Field(default_factory=dict)
    warnings: list[Any] = Field(default_factory=list)


class StepResult(Payload):
    """Why a step ended. ``reason`` is a finish reason, or ``"tripwire"``/``"retry"`` (the loop's own)."""

    reason: str
    raw_reason: str | None = None
    is_continued: bool = False
    warnings: list[Any] = Field(default_factory=list)


class ToolCallInfo(Payload):
    """A tool call as steps report it (``{toolCallId, toolName, args}`` on the wire)."""

    tool_call_id: str
    tool_name: str
    args: Any = None


class StepOutput(Payload):
    text: str = ""
    tool_calls: list[ToolCallInfo] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)


class StepFinishPayload(Payload):
    id: str | None = None
    message_id: str | None = None
    step_result: StepResult
    output: StepOutput = Field(default_factory=StepOutput)
    metadata: dict[str, Any] = Field(default_factory=dict)


class FinishPayload(Payload):
    step_result: StepResult
    output: StepOutput = Field(default_factory=StepOutput)
    metadata: dict[str, Any] = Field(default_factory=dict)


class ErrorPayload(Payload):
    error: Any


class TripwirePayload(Payload):
    reason: str
    retry: bool = False
    metadata: Any = None
    processor_id: str | None = None
    #: The reason's code and values (:class:`processors.tripwire.TripwireData`), left out when absent.
    code: str | None = Field(default=None, exclude_if=lambda value: value is None)
    params: dict[str, Any] = Field(default_factory=dict, exclude_if=lambda value: not value)


class ResponseMetadataPayload(Payload):
    id: str | None = None
    model_id: str | None = None
