"""litellm's streamed response objects, assembled into the runtime's model events.

litellm hands back OpenAI-shaped chunks (pydantic objects or dicts, depending on the provider): text and reasoning
deltas, tool calls in pieces keyed by index, a finish reason and usage at the end. :class:`StreamAssembler` turns
them into :mod:`processors.models.base` events; nothing here imports litellm.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from processors.messages.surrogates import SurrogateJoiner, scrub
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
from processors.usage import Usage

_FINISH_REASONS: dict[str, str] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool-calls",
    "function_call": "tool-calls",
    "content_filter": "content-filter",
}


def get_field(obj: Any, name: str) -> Any:
    """Read a field from a litellm pydantic object or a plain dict (providers differ)."""
    if obj is None:
        return None
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


@dataclass
class _ToolCallState:
    index: int
    tool_call_id: str
    name: str | None = None
    arguments: list[str] = field(default_factory=list)
    started: bool = False


class StreamAssembler:
    """Turns litellm chunks into model events; keeps what ``Finish`` and ``ToolCallComplete`` need."""

    def __init__(self, model_id: str) -> None:
        self._model_id = model_id
        self._metadata_sent = False
        self._calls: list[_ToolCallState] = []
        self._current: dict[int, _ToolCallState] = {}
        self.raw_finish_reason: str | None = None
        self.usage: Usage | None = None
        self.saw_usage = False
        # A provider may split an emoji's JSON surrogate pair across two events: join the halves as they come.
        self._text = SurrogateJoiner()
        self._reasoning = SurrogateJoiner()
        self._produced = False

    def empty(self) -> bool:
        """Nothing at all came of the stream: no text, no reasoning, no tool call, no usage."""
        return not (self._produced or self._calls or self.saw_usage)

    def feed(self, chunk: Any) -> Iterator[ModelEvent]:
        if not self._metadata_sent:
            self._metadata_sent = True
            yield ResponseMetadata(get_field(chunk, "id"), get_field(chunk, "model") or self._model_id)
        usage = get_field(chunk, "usage")
        if usage is not None:
            self.saw_usage = True
            self.usage = _usage(usage)
        for choice in get_field(chunk, "choices") or ():  # the usage chunk has no choices
            if (get_field(choice, "index") or 0) != 0:
                continue
            delta = get_field(choice, "delta")
            if delta is not None:
                reasoning = get_field(delta, "reasoning_content")
                if reasoning:
                    self._produced = True
                    reasoning = self._reasoning.feed(reasoning)
                    if reasoning:
                        yield ReasoningDelta(reasoning)
                content = get_field(delta, "content")
                if content:
                    self._produced = True
                    content = self._text.feed(content)
                    if content:
                        yield TextDelta(content)
                for call in get_field(delta, "tool_calls") or ():
                    yield from self._tool_call(call)
            reason = get_field(choice, "finish_reason")
            if reason is not None:
                self.raw_finish_reason = str(reason)

    def _tool_call(self, call: Any) -> Iterator[ModelEvent]:
        index = get_field(call, "index") or 0
        call_id = get_field(call, "id")
        function = get_field(call, "function")
        name = get_field(function, "name")
        fragment = get_field(function, "arguments")
        state = self._current.get(index)
        if state is None or (call_id and call_id != state.tool_call_id):
            # Some adapters reuse index 0 for every call; a new id is then the only sign of a new call.
            state = _ToolCallState(index, call_id or f"call_{uuid.uuid4().hex}")
            self._current[index] = state
            self._calls.append(state)
        if name and not state.name:
            state.name = name
        if fragment:
            state.arguments.append(fragment)
        if not state.started:
            if state.name is None:
                return  # hold the fragments until the name arrives: a start needs one
            state.started = True
            yield ToolCallStart(state.tool_call_id, state.name)
            if state.arguments:
                yield ToolCallDelta(state.tool_call_id, "".join(state.arguments))
        elif fragment:
            yield ToolCallDelta(state.tool_call_id, fragment)

    def finish(self) -> Iterator[ModelEvent]:
        held = self._reasoning.flush()  # half a pair whose other half never came: U+FFFD
        if held:
            yield ReasoningDelta(held)
        held = self._text.flush()
        if held:
            yield TextDelta(held)
        for state in sorted(self._calls, key=lambda s: s.index):  # sorted() is stable: arrival order per index
            name = state.name or ""
            if not state.started:
                yield ToolCallStart(state.tool_call_id, name)
            yield ToolCallComplete(state.tool_call_id, name, scrub("".join(state.arguments)))
        reason = finish_reason(self.raw_finish_reason, had_tool_calls=bool(self._calls))
        yield Finish(reason, self.usage, self.raw_finish_reason)


def finish_reason(raw: str | None, *, had_tool_calls: bool = False) -> str:
    """Map an OpenAI/litellm finish reason to Mastra's (``tool_calls`` → ``tool-calls`` ...)."""
    if raw is None:
        return "tool-calls" if had_tool_calls else "unknown"
    return _FINISH_REASONS.get(raw, "other")


def _usage(usage: Any) -> Usage:
    prompt = get_field(usage, "prompt_tokens") or 0
    completion = get_field(usage, "completion_tokens") or 0
    total = get_field(usage, "total_tokens")
    return Usage(
        input_tokens=prompt,
        output_tokens=completion,
        total_tokens=total if total is not None else prompt + completion,
        reasoning_tokens=get_field(get_field(usage, "completion_tokens_details"), "reasoning_tokens"),
        cached_input_tokens=get_field(get_field(usage, "prompt_tokens_details"), "cached_tokens"),
    )


__all__ = ["StreamAssembler", "finish_reason", "get_field"]
