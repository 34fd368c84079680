"""Stream chunks: typed values whose ``type`` strings and wire shape are Mastra's.

Every chunk is a pydantic model tagged by ``type``. Agent chunks carry ``run_id``, ``from_`` (``"AGENT"``) and a
``payload``; data chunks (``data-*``) carry ``data`` and optionally ``id``/``transient`` and nothing else, as in
Mastra. ``chunk.to_wire()`` gives Mastra's camelCase JSON (``runId``, ``from``, ``payload.toolCallId`` ...), so a
recorded stream can be compared with one recorded from Mastra. :func:`chunk_from_wire` reads that shape back.

Processors replace a chunk by returning a new one; ``part.with_payload(text="...")`` is the short way::

    def process_output_stream(self, args):
        if args.part.type == "text-delta":
            return args.part.with_payload(text=args.part.payload.text.upper())
        return args.part
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
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


class ResponseMetadataPayload(Payload):
    id: str | None = None
    model_id: str | None = None


class Chunk(BaseModel):
    """An agent stream chunk: ``{type, run_id, from, payload, metadata?}``."""

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True)

    type: str
    run_id: str = Field(default="", alias="runId")
    from_: str = Field(default="AGENT", alias="from")
    payload: Payload = Field(default_factory=EmptyPayload)
    metadata: dict[str, Any] | None = None

    #: Chunk types that carry streamed model output (what stream guardrails usually inspect).
    TEXT_TYPES: ClassVar[frozenset[str]] = frozenset({"text-delta", "reasoning-delta"})

    def with_payload(self, **changes: Any) -> Chunk:
        """A copy of this chunk with some payload fields changed; the original is left as it was.

        Built without re-validation (stream processors call this per chunk): pass values the fields accept.
        """
        copied: Chunk = fast_copy(self, {"payload": fast_copy(self.payload, changes)})
        return copied

    def to_wire(self) -> dict[str, Any]:
        """Mastra's JSON shape: camelCase keys, ``from``, no empty optional fields."""
        wire: dict[str, Any] = {"type": self.type, "runId": self.run_id, "from": self.from_}
        wire["payload"] = self.payload.model_dump(mode="json", by_alias=True, exclude_none=True)
        if self.metadata:
            wire["metadata"] = self.metadata
        return wire


class StartChunk(Chunk):
    """The ``start`` chunk."""

    type: Literal["start"] = "start"
    payload: EmptyPayload = Field(default_factory=EmptyPayload)


class StepStartChunk(Chunk):
    """The ``step-start`` chunk."""

    type: Literal["step-start"] = "step-start"
    payload: StepStartPayload


class ResponseMetadataChunk(Chunk):
    """The ``response-metadata`` chunk."""

    type: Literal["response-metadata"] = "response-metadata"
    payload: ResponseMetadataPayload


class TextStartChunk(Chunk):
    """The ``text-start`` chunk."""

    type: Literal["text-start"] = "text-start"
    payload: TextPayload


class TextDeltaChunk(Chunk):
    """The ``text-delta`` chunk."""

    type: Literal["text-delta"] = "text-delta"
    payload: TextDeltaPayload


class TextEndChunk(Chunk):
    """The ``text-end`` chunk."""

    type: Literal["text-end"] = "text-end"
    payload: TextPayload


class ReasoningStartChunk(Chunk):
    """The ``reasoning-start`` chunk."""

    type: Literal["reasoning-start"] = "reasoning-start"
    payload: TextPayload


class ReasoningDeltaChunk(Chunk):
    """The ``reasoning-delta`` chunk."""

    type: Literal["reasoning-delta"] = "reasoning-delta"
    payload: TextDeltaPayload


class ReasoningEndChunk(Chunk):
    """The ``reasoning-end`` chunk."""

    type: Literal["reasoning-end"] = "reasoning-end"
    payload: TextPayload


class ToolCallInputStreamingStartChunk(Chunk):
    """The ``tool-call-input-streaming-start`` chunk."""

    type: Literal["tool-call-input-streaming-start"] = "tool-call-input-streaming-start"
    payload: ToolCallStreamingStartPayload


class ToolCallDeltaChunk(Chunk):
    """The ``tool-call-delta`` chunk."""

    type: Literal["tool-call-delta"] = "tool-call-delta"
    payload: ToolCallDeltaPayload


class ToolCallInputStreamingEndChunk(Chunk):
    """The ``tool-call-input-streaming-end`` chunk."""

    type: Literal["tool-call-input-streaming-end"] = "tool-call-input-streaming-end"
    payload: ToolCallStreamingEndPayload


class ToolCallChunk(Chunk):
    """The ``tool-call`` chunk."""

    type: Literal["tool-call"] = "tool-call"
    payload: ToolCallPayload


class ToolResultChunk(Chunk):
    """The ``tool-result`` chunk."""

    type: Literal["tool-result"] = "tool-result"
    payload: ToolResultPayload


class ToolErrorChunk(Chunk):
    """The ``tool-error`` chunk."""

    type: Literal["tool-error"] = "tool-error"
    payload: ToolErrorPayload


class StepFinishChunk(Chunk):
    """The ``step-finish`` chunk."""

    type: Literal["step-finish"] = "step-finish"
    payload: StepFinishPayload


class FinishChunk(Chunk):
    """The ``finish`` chunk."""

    type: Literal["finish"] = "finish"
    payload: FinishPayload


class ErrorChunk(Chunk):
    """The ``error`` chunk."""

    type: Literal["error"] = "error"
    payload: ErrorPayload


class TripwireChunk(Chunk):
    """The ``tripwire`` chunk."""

    type: Literal["tripwire"] = "tripwire"
    payload: TripwirePayload


class AbortChunk(Chunk):
    """The ``abort`` chunk."""

    type: Literal["abort"] = "abort"
    payload: EmptyPayload = Field(default_factory=EmptyPayload)


#: ``type`` string → chunk class, for reading recorded streams back.
CHUNK_CLASSES: dict[str, type[Chunk]] = {
    cls.model_fields["type"].default: cls
    for cls in (
        StartChunk, StepStartChunk, ResponseMetadataChunk, TextStartChunk, TextDeltaChunk, TextEndChunk,
        ReasoningStartChunk, ReasoningDeltaChunk, ReasoningEndChunk, ToolCallInputStreamingStartChunk,
        ToolCallDeltaChunk, ToolCallInputStreamingEndChunk, ToolCallChunk, ToolResultChunk, ToolErrorChunk,
        StepFinishChunk, FinishChunk, ErrorChunk, TripwireChunk, AbortChunk,
    )
}  # fmt: skip


class DataChunk(BaseModel):
    """A custom ``data-*`` chunk from a processor or tool: ``{type, data, id?, transient?}``.

    ``transient`` chunks are streamed to clients but never saved to memory.
    """

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True)

    type: str
    data: Any = None
    id: str | None = None
    transient: bool = False

    @field_validator("type")
    @classmethod
    def _must_be_data(cls, value: str) -> str:
        if not value.startswith("data-"):
            raise ValueError(f"a custom chunk's type must start with 'data-', got {value!r}")
        return value

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"type": self.type, "data": self.data}
        if self.id is not None:
            wire["id"] = self.id
        if self.transient:
            wire["transient"] = True
        return wire


AnyChunk = Chunk | DataChunk


def chunk_from_wire(wire: dict[str, Any]) -> AnyChunk:
    """Read a chunk in Mastra's JSON shape (as ``to_wire`` writes it)."""
    chunk_type = wire.get("type", "")
    if chunk_type.startswith("data-"):
        return DataChunk.model_validate(wire)
    cls = CHUNK_CLASSES.get(chunk_type)
    if cls is None:
        return Chunk(
            type=chunk_type,
            run_id=wire.get("runId", ""),
            **{"from": wire.get("from", "AGENT")},
            payload=Payload.model_validate(wire.get("payload", {})),
            metadata=wire.get("metadata"),
        )
    return cls.model_validate(wire)


# --------------------------------------------------------------------------------------------- hot path
_new = object.__new__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def text_delta(run_id: str, text_id: str, text: str, chunk_cls: type[Chunk] = TextDeltaChunk) -> Chunk:
    """A ``text-delta`` (or ``reasoning-delta``) chunk built without validation: the per-token hot path.

    The values come from the runtime itself (strings it already holds), so validating them again would only
    cost time; this is about twice as cheap as the validating constructor and gives an equal object.
    """
    payload = _new(TextDeltaPayload)
    payload.__dict__.update(id=text_id, provider_metadata=None, text=text)
    _set_fields(payload, _PAYLOAD_FIELDS_SET)
    _set_extra(payload, {})
    _set_private(payload, None)
    chunk = _new(chunk_cls)
    chunk.__dict__.update(type=_TYPE_OF[chunk_cls], run_id=run_id, from_="AGENT", payload=payload, metadata=None)
    _set_fields(chunk, _CHUNK_FIELDS_SET)
    _set_extra(chunk, None)
    _set_private(chunk, None)
    return chunk


_TYPE_OF: dict[type[Chunk], str] = {cls: type_name for type_name, cls in CHUNK_CLASSES.items()}
# Shared by every hot-path delta: two fewer objects per chunk for the garbage collector to scan while a run keeps
# its chunks (``stream_parts``). Assigning another field adds its name here, which only changes what an
# ``exclude_unset`` dump of these chunks reports (the runtime never makes one).
_PAYLOAD_FIELDS_SET = {"id", "text"}
_CHUNK_FIELDS_SET = {"run_id", "payload"}
