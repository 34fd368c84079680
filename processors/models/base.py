"""The model protocol: what the loop needs from any language model, and the events a model streams.

A model turns one :class:`ModelRequest` (OpenAI chat-format messages, because that is what litellm and most
local servers speak) into an async iterator of small event objects. Provider failures are raised as
:class:`processors.errors.ModelAPIError`, either before the first event or mid-stream; the loop routes them to
the error processors. Anything else an adapter raises (a bug in a custom model, an unexpected failure in a provider
library) is wrapped by the loop in :class:`processors.errors.ModelAdapterError`, a ``ModelAPIError`` that names the
model, so it takes the same path: error processors, then an ``error`` chunk and a saved turn. Cancellation is never
wrapped. Events are plain slotted classes, not pydantic models: they are the per-token hot path
and never leave the runtime (the loop turns them into public ``Chunk``s).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from processors.usage import Usage

#: Mastra's finish reasons (AI SDK's, plus the loop's own ``tripwire`` and ``retry``).
FINISH_REASONS = ("stop", "length", "content-filter", "tool-calls", "error", "other", "unknown")


@dataclass
class ModelRequest:
    """One call to a model: the prompt and the settings for this step only."""

    #: OpenAI chat-format messages: ``{"role": "system"|"user"|"assistant"|"tool", "content": ..., ...}``.
    messages: list[dict[str, Any]]
    #: OpenAI tool definitions: ``{"type": "function", "function": {"name", "description", "parameters"}}``.
    tools: list[dict[str, Any]] = field(default_factory=list)
    #: ``"auto"``, ``"none"``, ``"required"`` or ``{"type": "tool", "toolName": name}``.
    tool_choice: str | dict[str, Any] | None = None
    #: Call settings: ``temperature``, ``max_tokens``, ``top_p``, ``stop``, ``seed``, ``timeout`` ...
    settings: dict[str, Any] = field(default_factory=dict)
    #: Provider-specific options, passed through untouched.
    provider_options: dict[str, Any] = field(default_factory=dict)
    #: A JSON schema the answer must follow, when structured output is asked for.
    response_format: dict[str, Any] | None = None


class ModelEvent:
    """Base of the events a model streams."""

    __slots__ = ()


class TextDelta(ModelEvent):
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class ReasoningDelta(ModelEvent):
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class ToolCallStart(ModelEvent):
    """A tool call begins; its arguments follow as :class:`ToolCallDelta` fragments."""

    __slots__ = ("tool_call_id", "tool_name")

    def __init__(self, tool_call_id: str, tool_name: str) -> None:
        self.tool_call_id = tool_call_id
        self.tool_name = tool_name


class ToolCallDelta(ModelEvent):
    __slots__ = ("args_text_delta", "tool_call_id")

    def __init__(self, tool_call_id: str, args_text_delta: str) -> None:
        self.tool_call_id = tool_call_id
        self.args_text_delta = args_text_delta


class ToolCallComplete(ModelEvent):
    """A complete tool call. ``arguments`` is the raw JSON text the model produced (it may be invalid)."""

    __slots__ = ("arguments", "tool_call_id", "tool_name")

    def __init__(self, tool_call_id: str, tool_name: str, arguments: str) -> None:
        self.tool_call_id = tool_call_id
        self.tool_name = tool_name
        self.arguments = arguments


class ResponseMetadata(ModelEvent):
    __slots__ = ("model_id", "response_id")

    def __init__(self, response_id: str | None = None, model_id: str | None = None) -> None:
        self.response_id = response_id
        self.model_id = model_id


class Finish(ModelEvent):
    """The last event of a successful call. ``finish_reason`` is one of :data:`FINISH_REASONS`."""

    __slots__ = ("finish_reason", "raw_finish_reason", "usage")

    def __init__(self, finish_reason: str, usage: Usage | None = None, raw_finish_reason: str | None = None) -> None:
        self.finish_reason = finish_reason
        self.usage = usage or Usage()
        self.raw_finish_reason = raw_finish_reason


@runtime_checkable
class LanguageModel(Protocol):
    """Anything that streams model events for a request. ``provider``/``model_id`` are for display and tracing."""

    provider: str
    model_id: str

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Start the call; iterate to receive events. Closing the iterator must cancel the call."""
        ...
