"""``ScriptedModel``: an offline model that replays scripted turns, for tests, benchmarks and demos.

Each call consumes the next turn. A turn is a ``str`` (streamed as word-sized text deltas) or a :class:`Turn`
with text (a string, or a list of exact deltas), tool calls, reasoning, an error to raise, a finish reason,
usage, and a delay between deltas. A :class:`ToolCall` streams its arguments as a provider does, or comes in
one piece with ``streamed=False`` (as Mastra's tests script their mock model). Every request received is
recorded in ``.requests`` (``.messages`` is the OpenAI chat-format prompt that was sent), so tests can assert
what the model saw.

    model = ScriptedModel(["Hello there!", Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
                           Turn(error=ModelAPIError(429, "slow down", True))])
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from processors.errors import ModelAPIError
from processors.messages import new_id
from processors.models.base import (
    Finish,
    ModelEvent,
    ModelRequest,
    ReasoningDelta,
    ResponseMetadata,
    TextDelta,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStart,
)
from processors.usage import Usage

_WORDS = re.compile(r"\S+\s*|\s+")


@dataclass
class ToolCall:
    """A scripted tool call. ``args`` may be a dict (sent as JSON) or a raw string (sent as is, even if invalid).

    By default the call streams as a provider streams it (start, argument fragment, complete). With
    ``streamed=False`` it comes in one piece, as Mastra's tests script their mock model (a lone ``tool-call``
    part): the stream then has no ``tool-call-input-streaming-*`` or ``tool-call-delta`` chunks for it.
    """

    name: str
    args: dict[str, Any] | str = field(default_factory=dict)
    id: str | None = None
    streamed: bool = True


@dataclass
class Turn:
    """One scripted model response."""

    text: str | list[str] = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    reasoning: str | list[str] = ""
    #: Raised instead of answering (before any event), or after ``error_after`` deltas (a dropped stream).
    error: BaseException | None = None
    error_after: int | None = None
    finish_reason: str | None = None
    usage: Usage | None = None
    #: Seconds to wait before each delta (simulates a slow provider; lets tests cancel mid-stream).
    delay: float = 0.0


def split_words(text: str) -> list[str]:
    """Word-sized deltas, keeping the whitespace, so joining them gives the text back exactly."""
    return _WORDS.findall(text)


TurnSource = str | Turn | Callable[[ModelRequest], "str | Turn"]


class ScriptedModel:
    """Replays turns in order. When the script runs out, it raises a clear error (or repeats, if ``repeat``)."""

    def __init__(self, turns: Iterable[TurnSource] = (), *, model_id: str = "scripted", repeat: bool = False) -> None:
        self.provider = "scripted"
        self.model_id = model_id
        self.turns: list[TurnSource] = list(turns)
        self.repeat = repeat
        self.requests: list[ModelRequest] = []
        self._next = 0
        #: How many calls were closed before their stream finished (cancelled or abandoned).
        self.closed_early = 0

    def add(self, *turns: TurnSource) -> None:
        self.turns.extend(turns)

    def _take_turn(self, request: ModelRequest) -> Turn:
        if self._next >= len(self.turns):
            if self.repeat and self.turns:
                self._next = 0
            else:
                raise ModelAPIError(
                    None, f"ScriptedModel {self.model_id!r} has no scripted turn left (call {len(self.requests)})"
                )
        source = self.turns[self._next]
        self._next += 1
        if callable(source) and not isinstance(source, (str, Turn)):
            source = source(request)
        return source if isinstance(source, Turn) else Turn(text=source)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        self.requests.append(copy.deepcopy(request))
        turn = self._take_turn(request)
        if turn.error is not None and turn.error_after is None:
            raise turn.error
        finished = False
        try:
            yield ResponseMetadata(new_id("resp"), self.model_id)
            emitted = 0
            reasoning = turn.reasoning if isinstance(turn.reasoning, list) else split_words(turn.reasoning)
            text = turn.text if isinstance(turn.text, list) else split_words(turn.text)
            paced = turn.delay > 0 or (turn.error is not None and turn.error_after is not None)
            for delta_text in reasoning:
                if paced:
                    emitted = await self._pace(turn, emitted)
                yield ReasoningDelta(delta_text)
            for delta_text in text:
                if paced:
                    emitted = await self._pace(turn, emitted)
                yield TextDelta(delta_text)
            for call in turn.tool_calls:
                call_id = call.id or f"call_{uuid.uuid4().hex[:12]}"
                arguments = call.args if isinstance(call.args, str) else json.dumps(call.args)
                if call.streamed:
                    yield ToolCallStart(call_id, call.name)
                    yield ToolCallDelta(call_id, arguments)
                yield ToolCallComplete(call_id, call.name, arguments)
            if turn.error is not None:
                raise turn.error
            output_tokens = sum(len(t.split()) for t in text) + len(turn.tool_calls)
            input_tokens = sum(len(str(m.get("content") or "").split()) for m in request.messages)
            usage = turn.usage or Usage(
                input_tokens=input_tokens, output_tokens=output_tokens, total_tokens=input_tokens + output_tokens
            )
            reason = turn.finish_reason or ("tool-calls" if turn.tool_calls else "stop")
            finished = True
            yield Finish(reason, usage, raw_finish_reason=reason)
        finally:
            if not finished:
                self.closed_early += 1

    @staticmethod
    async def _pace(turn: Turn, emitted: int) -> int:
        if turn.error is not None and turn.error_after is not None and emitted >= turn.error_after:
            raise turn.error
        if turn.delay:
            await asyncio.sleep(turn.delay)
        return emitted + 1

    @property
    def remaining(self) -> int:
        return len(self.turns) - self._next


__all__ = ["ModelAPIError", "ScriptedModel", "ToolCall", "Turn", "split_words"]
