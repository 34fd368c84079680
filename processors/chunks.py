"""Stream chunks: typed values whose ``type`` strings and wire shape are Mastra's.

Every chunk is a pydantic model tagged by ``type``. Agent chunks carry ``run_id``, ``from_`` (``"AGENT"``) and a
``payload``; data chunks (``data-*``) carry ``data`` and optionally ``id``/``transient`` and nothing else, as in
Mastra. ``chunk.to_wire()`` gives Mastra's camelCase JSON (``runId``, ``from``, ``payload.toolCallId`` ...), so a
recorded stream can be compared with one recorded from Mastra. :func:`chunk_from_wire` reads that shape back.

The concrete classes form a discriminated union on ``type`` (:data:`AgentChunk`, as pydantic-ai's stream events),
so a reader matches on classes rather than on ``type`` strings. Processors replace a chunk by returning a new one;
``part.with_payload(text="...")`` is the short way::

    def process_output_stream(self, args):
        match args.part:
            case TextDeltaChunk(payload=payload):
                return args.part.with_payload(text=payload.text.upper())
        return args.part

A chunk of a type this runtime does not know (a newer Mastra's) is read back as a plain :class:`Chunk`.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from processors.chunk_payloads import (
    EmptyPayload,
    ErrorPayload,
    FinishPayload,
    Payload,
    ResponseMetadataPayload,
    StepFinishPayload,
    StepOutput,
    StepResult,
    StepStartPayload,
    TextDeltaPayload,
    TextPayload,
    ToolCallDeltaPayload,
    ToolCallInfo,
    ToolCallPayload,
    ToolCallStreamingEndPayload,
    ToolCallStreamingStartPayload,
    ToolErrorPayload,
    ToolResultPayload,
    TripwirePayload,
    fast_copy,
)


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


#: Every agent chunk the runtime makes, told apart by ``type``: what a ``match`` on chunk classes covers.
AgentChunk = Annotated[
    StartChunk | StepStartChunk | ResponseMetadataChunk | TextStartChunk | TextDeltaChunk | TextEndChunk
    | ReasoningStartChunk | ReasoningDeltaChunk | ReasoningEndChunk | ToolCallInputStreamingStartChunk
    | ToolCallDeltaChunk | ToolCallInputStreamingEndChunk | ToolCallChunk | ToolResultChunk | ToolErrorChunk
    | StepFinishChunk | FinishChunk | ErrorChunk | TripwireChunk | AbortChunk,
    Field(discriminator="type"),
]  # fmt: skip

#: ``type`` string → chunk class, for reading recorded streams back.
CHUNK_CLASSES: dict[str, type[Chunk]] = {
    cls.model_fields["type"].default: cls for cls in get_args(get_args(AgentChunk)[0])
}

#: Reads a recorded agent chunk into its class by its ``type`` (the union's discriminator).
_AGENT_CHUNK: TypeAdapter[AgentChunk] = TypeAdapter(AgentChunk)

#: The chunks that end a stream; only the runtime makes them (``processors.pipeline.stream_chain.forged_end``).
TERMINAL_CHUNKS: tuple[type[Chunk], ...] = (FinishChunk, ErrorChunk, TripwireChunk, AbortChunk)

#: The chunks that carry streamed model output (what stream guardrails usually inspect).
DELTA_CHUNKS: tuple[type[Chunk], ...] = (TextDeltaChunk, ReasoningDeltaChunk)


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
    if chunk_type not in CHUNK_CLASSES:
        return Chunk(
            type=chunk_type,
            run_id=wire.get("runId", ""),
            **{"from": wire.get("from", "AGENT")},
            payload=Payload.model_validate(wire.get("payload", {})),
            metadata=wire.get("metadata"),
        )
    chunk: Chunk = _AGENT_CHUNK.validate_python(wire)
    return chunk


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

__all__ = [
    "CHUNK_CLASSES",
    "DELTA_CHUNKS",
    "TERMINAL_CHUNKS",
    "AbortChunk",
    "AgentChunk",
    "AnyChunk",
    "Chunk",
    "DataChunk",
    "EmptyPayload",
    "ErrorChunk",
    "ErrorPayload",
    "FinishChunk",
    "FinishPayload",
    "Payload",
    "ReasoningDeltaChunk",
    "ReasoningEndChunk",
    "ReasoningStartChunk",
    "ResponseMetadataChunk",
    "ResponseMetadataPayload",
    "StartChunk",
    "StepFinishChunk",
    "StepFinishPayload",
    "StepOutput",
    "StepResult",
    "StepStartChunk",
    "StepStartPayload",
    "TextDeltaChunk",
    "TextDeltaPayload",
    "TextEndChunk",
    "TextPayload",
    "TextStartChunk",
    "ToolCallChunk",
    "ToolCallDeltaChunk",
    "ToolCallDeltaPayload",
    "ToolCallInfo",
    "ToolCallInputStreamingEndChunk",
    "ToolCallInputStreamingStartChunk",
    "ToolCallPayload",
    "ToolCallStreamingEndPayload",
    "ToolCallStreamingStartPayload",
    "ToolErrorChunk",
    "ToolErrorPayload",
    "ToolResultChunk",
    "ToolResultPayload",
    "TripwireChunk",
    "TripwirePayload",
    "chunk_from_wire",
    "fast_copy",
    "text_delta",
]
