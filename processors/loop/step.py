"""Pieces of one step: the reducer that folds streamed chunks into the step's assistant message, model events
turned into chunks, and the control-flow signals the loop uses to end or retry a step."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from typing import Any, ClassVar

from pydantic import BaseModel
from pydantic_core import SchemaSerializer, core_schema

from processors import json_limits
from processors.chunks import (
    CHUNK_CLASSES,
    AnyChunk,
    Chunk,
    FinishChunk,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningStartChunk,
    ResponseMetadataChunk,
    ResponseMetadataPayload,
    TextDeltaChunk,
    TextEndChunk,
    TextPayload,
    TextStartChunk,
    ToolCallChunk,
    ToolCallDeltaChunk,
    ToolCallDeltaPayload,
    ToolCallInputStreamingEndChunk,
    ToolCallInputStreamingStartChunk,
    ToolCallPayload,
    ToolCallStreamingEndPayload,
    ToolCallStreamingStartPayload,
    chunk_from_wire,
    text_delta,
)
from processors.errors import ProcessorContractError
from processors.messages import (
    Message,
    MessageContent,
    ReasoningPart,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
)
from processors.messages.message_list import MessageList
from processors.messages.surrogates import scrub, scrub_json
from processors.models.base import (
    Finish,
    ModelEvent,
    ReasoningDelta,
    ResponseMetadata,
    TextDelta,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStart,
)
from processors.result import Step
from processors.tripwire import TripWire
from processors.usage import Usage


class EndRun(Exception):
    """Ends the run early with ``chunk`` as its terminal chunk (a tripwire or an error)."""

    def __init__(self, chunk: Chunk) -> None:
        super().__init__(chunk.type)
        self.chunk = chunk


class RetryStep(Exception):
    """The current step was rejected and may be tried again with the tripwire's reason as feedback."""

    def __init__(self, tripwire: TripWire, *, error: Exception | None = None) -> None:
        super().__init__(tripwire.reason)
        self.tripwire = tripwire
        #: Set when an error processor asked to retry a failed model call (no feedback, no rollback).
        self.error = error


class InvalidArgs:
    """Tool-call arguments that were not valid JSON: kept as text so the tool error can quote them.

    In JSON (a ``tool-call`` chunk's ``to_wire()``, which the inspector shows) they are that text: pydantic
    serialises an object in an ``Any`` field through its class's ``__pydantic_serializer__``.
    """

    __slots__ = ("text",)
    __pydantic_serializer__: ClassVar[SchemaSerializer] = SchemaSerializer(
        core_schema.any_schema(
            serialization=core_schema.plain_serializer_function_ser_schema(lambda args: args.text, when_used="json")
        )
    )

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InvalidArgs) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def plain_args(args: Any) -> Any:
    return args.text if isinstance(args, InvalidArgs) else args


def parse_args(arguments: str) -> Any:
    """The tool call's arguments; :class:`InvalidArgs` for text that is no JSON, or JSON beyond the limits of
    :mod:`processors.json_limits` (NaN, nesting so deep that the chunk and the saved message cannot be written).
    Lone surrogates (keys too) become U+FFFD, as everywhere text is kept (:mod:`processors.messages.surrogates`)."""
    if not arguments.strip():
        return {}
    try:
        value = json_limits.loads(arguments)
    except ValueError:  # JSONDecodeError, or too deep for the parser (JsonLimitError)
        return InvalidArgs(arguments)
    if json_limits.problems(value, limit=1):
        return InvalidArgs(arguments)
    return scrub_json(value)  # a "\ud83d" escape decodes to a lone surrogate: no chunk or message could hold it


class StepState:
    """What the loop knows about the step in progress, so a retry or a block can undo or keep it."""

    __slots__ = ("accepted", "boundary", "builder", "step")

    def __init__(self) -> None:
        self.boundary: tuple[list[str], dict[str, int]] | None = None
        self.builder: StepBuilder | None = None
        self.step: Step | None = None
        #: True once the step's text counts towards the result (tools may still reject it).
        self.accepted = False


class StepBuilder:
    """Folds the chunks a client saw into the step's assistant message.

    It is the one reducer for "chunks → message": the loop uses it for what it saves, and a UI can use it to
    build the message it shows from the same chunks.
    """

    def __init__(self, run_id: str, message_id: str) -> None:
        self.run_id = run_id
        self.message_id = message_id
        self.text_id = message_id
        self.reset()

    def reset(self) -> None:
        self.texts: list[str] = []
        self.reasoning: list[str] = []
        self.tool_calls: list[dict[str, Any]] = []
        self.text_open = False
        self.reasoning_open = False
        self.finish_reason = "unknown"
        self.usage = Usage()
        self.finished = False
        #: Every tool-call id the step's chunks carry so far (the calls' own ids, and the ones given to repeats).
        self.call_ids: set[str] = set()
        #: The model's id → the ids given to its calls whose arguments are streaming (a ``ToolCallStart`` came and
        #: its ``ToolCallComplete`` not yet), oldest first; a call that arrives complete has none.
        self.streaming_calls: dict[str, list[str]] = {}
        #: The model's id → the id given to the last call started under it (where its argument deltas go).
        self.latest_call: dict[str, str] = {}

    def fold(self, chunk: AnyChunk) -> None:
        match chunk:
            case TextDeltaChunk(payload=payload):
                self.texts.append(payload.text)
            case ReasoningDeltaChunk(payload=payload):
                self.reasoning.append(payload.text)
            case ToolCallChunk():
                self._fold_call(chunk)
            case Chunk() if CHUNK_CLASSES.get(chunk.type) is ToolCallChunk:  # a bare one: refused, naming its lack
                self._fold_call(chunk)

    def _fold_call(self, chunk: AnyChunk) -> None:
        """A ``tool-call`` chunk becomes one call of the step. The model's calls come with ids of their own
        (:meth:`convert` gives a repeated id a new one), so a chunk the reducer cannot use is a processor's: it is
        refused with an error naming the id, before any client saw the chunk, rather than crash or mix two calls up.
        """
        payload: Any = getattr(chunk, "payload", None)
        if not isinstance(payload, ToolCallPayload):
            raise ProcessorContractError(
                "A 'tool-call' chunk without a tool call (toolCallId, toolName, args) was handed on in the step's "
                "stream: build it as ToolCallChunk(payload=ToolCallPayload(...))",
                hook="process_output_stream",
            )
        call_id = payload.tool_call_id
        if any(call["tool_call_id"] == call_id for call in self.tool_calls):
            raise ProcessorContractError(
                f"Two tool calls of one step have the id '{call_id}': a call a processor handed on reuses the id of "
                "an earlier call of the step, so their results could not be told apart (the trace shows which "
                "processor changed the chunk); give each call its own id",
                hook="process_output_stream",
            )
        self.call_ids.add(call_id)
        self.tool_calls.append({"tool_call_id": call_id, "tool_name": payload.tool_name, "args": payload.args})

    def _new_call_id(self, wanted: str) -> str:
        """The id for a call the model named ``wanted``: its own, or ``wanted-2``, ``-3``… when the step already
        has a call with it. Providers give every call of a response its own id, but a scripted model, a local
        server or a replayed answer may repeat one; two calls under one id would share one tool invocation in the
        thread and one result (Mastra keeps both ids and updates the newest invocation twice)."""
        candidate, number = wanted, 2
        while candidate in self.call_ids:
            candidate = f"{wanted}-{number}"
            number += 1
        self.call_ids.add(candidate)
        return candidate

    def text(self) -> str:
        # scrub: surrogate halves split across deltas by any model are joined, lone ones replaced (storable text)
        return scrub("".join(self.texts))

    def message(self, extra_parts: list[Any]) -> Message:
        parts: list[Any] = [StepStartPart()]
        if self.reasoning:
            parts.append(ReasoningPart(reasoning=scrub("".join(self.reasoning))))
        text = self.text()
        if text:
            parts.append(TextPart(text=text))
        for call in self.tool_calls:
            invocation = ToolInvocation(
                state="call",
                tool_call_id=call["tool_call_id"],
                tool_name=call["tool_name"],
                # a copy: an edit in the list must not reach the streamed tool-call chunk or the call that runs
                args=copy.deepcopy(plain_args(call["args"])),
            )
            parts.append(ToolInvocationPart(tool_invocation=invocation))
        parts.extend(extra_parts)
        if len(parts) == 1:
            parts = list(extra_parts)
        return Message(id=self.message_id, role="assistant", content=MessageContent(parts=parts, content=text or None))

    def sync_tool_calls(self, message_list: MessageList) -> None:
        """Drop calls a ``process_output_step`` processor removed from the list: they will not run."""
        kept = [c for c in self.tool_calls if message_list.find_tool_invocation(c["tool_call_id"]) is not None]
        self.tool_calls[:] = kept

    # ------------------------------------------------------------------------------------------ events → chunks
    def convert(self, event: ModelEvent | Chunk) -> tuple[Chunk, ...]:
        """The chunks one model event stands for (text blocks get their start/end chunks around them)."""
        run_id = self.run_id
        if isinstance(event, TextDelta):
            delta = text_delta(run_id, self.text_id, event.text)
            if self.text_open:
                return (delta,)
            closing = self.close_blocks()  # reasoning ends where the answer starts
            self.text_open = True
            return *closing, TextStartChunk(run_id=run_id, payload=TextPayload(id=self.text_id)), delta
        if isinstance(event, ReasoningDelta):
            reasoning_id = self.text_id + "-reasoning"
            delta = text_delta(run_id, reasoning_id, event.text, ReasoningDeltaChunk)
            if self.reasoning_open:
                return (delta,)
            self.reasoning_open = True
            return ReasoningStartChunk(run_id=run_id, payload=TextPayload(id=reasoning_id)), delta
        if isinstance(event, ToolCallStart):
            call_id = self.latest_call[event.tool_call_id] = self._new_call_id(event.tool_call_id)
            self.streaming_calls.setdefault(event.tool_call_id, []).append(call_id)
            start = ToolCallInputStreamingStartChunk(
                run_id=run_id,
                payload=ToolCallStreamingStartPayload(tool_call_id=call_id, tool_name=event.tool_name),
            )
            return (*self.close_blocks(), start)
        if isinstance(event, ToolCallDelta):
            call_id = self.latest_call.get(event.tool_call_id, event.tool_call_id)
            payload = ToolCallDeltaPayload(tool_call_id=call_id, args_text_delta=event.args_text_delta)
            return (ToolCallDeltaChunk(run_id=run_id, payload=payload),)
        if isinstance(event, ToolCallComplete):
            args = parse_args(event.arguments)
            streaming = self.streaming_calls.get(event.tool_call_id)
            if not streaming:  # in one piece: no input-streaming chunks to end
                call_id = self._new_call_id(event.tool_call_id)
                call = ToolCallPayload(tool_call_id=call_id, tool_name=event.tool_name, args=args)
                return (*self.close_blocks(), ToolCallChunk(run_id=run_id, payload=call))
            call_id = streaming.pop(0)  # calls under one id end in the order they started (a provider's: by index)
            call = ToolCallPayload(tool_call_id=call_id, tool_name=event.tool_name, args=args)
            end = ToolCallStreamingEndPayload(tool_call_id=call_id)
            return (
                ToolCallInputStreamingEndChunk(run_id=run_id, payload=end),
                ToolCallChunk(run_id=run_id, payload=call),
            )
        if isinstance(event, ResponseMetadata):
            metadata = ResponseMetadataPayload(id=event.response_id, model_id=event.model_id)
            return (ResponseMetadataChunk(run_id=run_id, payload=metadata),)
        if isinstance(event, Finish):
            self.finish_reason = event.finish_reason
            self.usage = event.usage
            self.finished = True
            return self.close_blocks()
        if isinstance(event, Chunk):  # a cached response being replayed
            return self._replayed(event)
        return ()

    def _replayed(self, chunk: Chunk) -> tuple[Chunk, ...]:
        if isinstance(chunk, FinishChunk):  # read back by ``chunk_from_wire``: a reason is required, usage defaults
            self.finish_reason = chunk.payload.step_result.reason
            self.usage = chunk.payload.output.usage
            self.finished = True
            return self.close_blocks()
        match chunk:
            case TextStartChunk():
                self.text_open = True
            case TextEndChunk():
                self.text_open = False
        return (chunk,)

    def close_blocks(self) -> tuple[Chunk, ...]:
        out: list[Chunk] = []
        if self.reasoning_open:
            self.reasoning_open = False
            out.append(ReasoningEndChunk(run_id=self.run_id, payload=TextPayload(id=self.text_id + "-reasoning")))
        if self.text_open:
            self.text_open = False
            out.append(TextEndChunk(run_id=self.run_id, payload=TextPayload(id=self.text_id)))
        return tuple(out)

    def finish_record(self) -> dict[str, Any]:
        """The compact ``finish`` entry that ends the chunks handed to ``process_llm_response`` (and caches)."""
        return {
            "type": "finish",
            "payload": {
                "stepResult": {"reason": self.finish_reason},
                "output": {"usage": self.usage.model_dump(by_alias=True, exclude_none=True)},
            },
        }


async def replay(chunks: list[dict[str, Any]], run_id: str) -> AsyncIterator[Chunk]:
    """A cached response's chunks, re-stamped with this run's id (a ``finish`` entry carries reason and usage)."""
    for item in chunks:
        payload = item.get("payload")
        if isinstance(payload, BaseModel):
            payload = payload.model_dump(by_alias=True, exclude_none=True)
        chunk = chunk_from_wire({"type": item["type"], "runId": run_id, "from": "AGENT", "payload": payload or {}})
        if isinstance(chunk, Chunk):
            yield chunk
