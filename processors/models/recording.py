"""Recordings of what a model said, and their replay through a changed chain: hold the model still, move only the
guardrails.

Recording happens at the model boundary, below every processor: :class:`RecordingModel` wraps any
:class:`~processors.models.base.LanguageModel` and keeps, for each call (a step), the events the model itself
streamed — text and reasoning deltas, tool-call pieces, metadata, the finish and its usage, or the provider error —
before any output processor saw them. :func:`record_tools` does the same for tools: what each returned, or raised.
A :class:`Recording` serialises to compressed JSON (:meth:`Recording.to_bytes`) and never holds a key: requests are
kept only as a fingerprint of their messages and tool names, to notice when a replay has diverged.

:class:`ReplayModel` streams the recorded events again, step by step, without network; :func:`replay_tools` returns
the recorded tool results (a call whose arguments changed is answered all the same and marked in
:attr:`Recording.changed_tool_calls`). When a replayed step's request no longer matches the recorded one (the
conversation diverged: an input processor changed the prompt, a retry asked again), :class:`ReplayModel` says so at
that step — :attr:`ReplayModel.divergences` — and, with ``on_divergence="raise"``, stops with
:class:`ReplayDiverged`; with a ``fallback`` model it continues live from there::

    recording = Recording()
    agent = Agent(model=RecordingModel(LiteLLMModel("openai/gpt-4o-mini"), recording), tools=record_tools(tools,
                  recording), output_processors=[...])
    await agent.generate("Look up customer 42")
    data = recording.to_bytes()                       # store it with the run

    again = Recording.from_bytes(data)
    replayed = Agent(model=ReplayModel(again), tools=replay_tools(tools, again), output_processors=[changed, ...])
    result = await replayed.generate("Look up customer 42")   # same model output, new chain, no network
"""

from __future__ import annotations

import copy
import hashlib
import json
import zlib
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from processors.errors import ModelAPIError, ProcessorsError
from processors.models.base import (
    Finish,
    LanguageModel,
    ModelEvent,
    ModelRequest,
    ReasoningDelta,
    ResponseMetadata,
    TextDelta,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStart,
)
from processors.problems import Problem, ProblemError
from processors.tools import Tool, tools_by_name
from processors.usage import Usage

#: The format of :meth:`Recording.to_bytes` (bumped when it changes; older data is read when possible).
FORMAT_VERSION = 1


class ReplayDiverged(ModelAPIError):
    """A replayed step's request no longer matches the recorded one, or the recording has no more steps.

    To the loop the replayed model failed the call (not retryable): the run ends with an ``error`` chunk that
    says where the conversation diverged, and error processors see it as they see a provider's failure. The
    :class:`Divergence` itself (the step, what it is asked now) is :attr:`divergence`.
    """

    def __init__(self, message: str, divergence: Divergence | None = None) -> None:
        super().__init__(None, message, False, provider="replay")
        self.divergence = divergence


# --------------------------------------------------------------------------------------------- events <-> JSON
def event_to_json(event: ModelEvent) -> list[Any]:
    """A model event as a short JSON array (``["t", "Hel"]``): short, because a run can hold 10,000 of them."""
    kind = type(event)
    if kind is TextDelta:
        return ["t", event.text]  # type: ignore[attr-defined]
    if kind is ReasoningDelta:
        return ["r", event.text]  # type: ignore[attr-defined]
    if kind is ToolCallStart:
        return ["cs", event.tool_call_id, event.tool_name]  # type: ignore[attr-defined]
    if kind is ToolCallDelta:
        return ["cd", event.tool_call_id, event.args_text_delta]  # type: ignore[attr-defined]
    if kind is ToolCallComplete:
        return ["cc", event.tool_call_id, event.tool_name, event.arguments]  # type: ignore[attr-defined]
    if kind is ResponseMetadata:
        return ["m", event.response_id, event.model_id]  # type: ignore[attr-defined]
    if kind is Finish:
        usage = event.usage.model_dump(exclude_none=True)  # type: ignore[attr-defined]
        return ["f", event.finish_reason, usage, event.raw_finish_reason]  # type: ignore[attr-defined]
    raise TypeError(f"cannot record a {kind.__name__} model event")


def event_from_json(item: list[Any]) -> ModelEvent:
    tag = item[0]
    if tag == "t":
        return TextDelta(item[1])
    if tag == "r":
        return ReasoningDelta(item[1])
    if tag == "cs":
        return ToolCallStart(item[1], item[2])
    if tag == "cd":
        return ToolCallDelta(item[1], item[2])
    if tag == "cc":
        return ToolCallComplete(item[1], item[2], item[3])
    if tag == "m":
        return ResponseMetadata(item[1], item[2])
    if tag == "f":
        return Finish(item[1], Usage.model_validate(item[2]), item[3])
    raise ValueError(f"unknown recorded event {tag!r}")


_PROMPT_KEYS = ("role", "content", "tool_calls", "tool_call_id", "name")


def request_shape(request: ModelRequest) -> dict[str, Any]:
    """What a step was asked: the messages' roles, text and tool calls and the names of the tools offered (never
    settings or keys). JSON-safe; what :func:`request_fingerprint` hashes, and what a divergence shows."""
    return {
        "messages": [
            json.loads(json.dumps({key: message[key] for key in _PROMPT_KEYS if key in message}, default=str))
            for message in request.messages
        ],
        "tools": sorted(tool.get("function", {}).get("name", "") for tool in request.tools),
    }


def request_fingerprint(request: ModelRequest) -> str:
    """What a step was asked, as a hash of its :func:`request_shape`."""
    return shape_fingerprint(request_shape(request))


def shape_fingerprint(shape: Mapping[str, Any]) -> str:
    text = json.dumps(shape, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


# --------------------------------------------------------------------------------------------- the recording
@dataclass
class RecordedStep:
    """One model call: the request's fingerprint, the events in order, and the error that ended it, if any."""

    fingerprint: str
    events: list[list[Any]] = field(default_factory=list)
    #: ``ModelAPIError.to_dict()``-like fields when the provider failed the call (before or during the stream).
    error: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"fingerprint": self.fingerprint, "events": self.events}
        if self.error is not None:
            data["error"] = self.error
        return data


@dataclass
class RecordedToolCall:
    """What a tool returned (or the error it raised) for one call."""

    tool_name: str
    arguments: Any
    result: Any = None
    error: str | None = None


@dataclass
class Recording:
    """Everything a run's model and tools said, in order. Serialise with :meth:`to_bytes`."""

    steps: list[RecordedStep] = field(default_factory=list)
    tool_calls: list[RecordedToolCall] = field(default_factory=list)
    #: Filled during a replay: ``(tool name, recorded arguments, arguments now)`` for calls whose arguments changed.
    changed_tool_calls: list[tuple[str, Any, Any]] = field(default_factory=list)

    @property
    def chunk_count(self) -> int:
        return sum(len(step.events) for step in self.steps)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "steps": [step.to_json() for step in self.steps],
            "tools": [
                {"name": call.tool_name, "args": call.arguments, "result": call.result, "error": call.error}
                for call in self.tool_calls
            ],
        }

    def to_bytes(self) -> bytes:
        """Compressed JSON (zlib, level 9): text deltas compress well, so 10,000 chunks take tens of kilobytes."""
        text = json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"), default=repr)
        return zlib.compress(text.encode("utf-8", "surrogatepass"), 9)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Recording:
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise ValueError(f"recording format {version!r} is not supported (this version reads {FORMAT_VERSION})")
        steps = [
            RecordedStep(str(step["fingerprint"]), [list(event) for event in step["events"]], step.get("error"))
            for step in data["steps"]
        ]
        tools = [
            RecordedToolCall(str(call["name"]), call.get("args"), call.get("result"), call.get("error"))
            for call in data.get("tools", [])
        ]
        return cls(steps=steps, tool_calls=tools)

    @classmethod
    def from_bytes(cls, data: bytes) -> Recording:
        try:
            text = zlib.decompress(data).decode("utf-8", "surrogatepass")
            return cls.from_json(json.loads(text))
        except (zlib.error, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
            raise ProblemError(
                Problem("runs:unreadable", "not a readable recording: {error}", error=str(error))
            ) from error


# --------------------------------------------------------------------------------------------- recording
class RecordingModel:
    """A :class:`LanguageModel` that passes every call to ``model`` and records what it streamed."""

    def __init__(self, model: LanguageModel, recording: Recording | None = None) -> None:
        self.model = model
        self.recording = recording if recording is not None else Recording()
        self.provider = model.provider
        self.model_id = model.model_id

    async def prepare(self) -> None:
        prepare = getattr(self.model, "prepare", None)
        if prepare is not None:
            await prepare()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        step = RecordedStep(request_fingerprint(request))
        self.recording.steps.append(step)
        try:
            async for event in self.model.stream(request):
                step.events.append(event_to_json(event))
                yield event
        except ModelAPIError as error:
            step.error = _api_error_to_json(error)
            raise


def record_tools(tools: Iterable[Tool] | Mapping[str, Tool], recording: Recording) -> dict[str, Tool]:
    """Copies of ``tools`` that also record what each call returned (or raised) into ``recording``."""
    recorded: dict[str, Tool] = {}
    for name, tool in tools_by_name(tools).items():
        recorded[name] = _wrapped(tool, _recording_call(tool, recording))
    return recorded


def _recording_call(tool: Tool, recording: Recording) -> Any:
    original = tool.call

    async def call(arguments: Any, **options: Any) -> Any:
        entry = RecordedToolCall(tool.name, _plain(arguments))
        recording.tool_calls.append(entry)
        try:
            result = await original(arguments, **options)
        except Exception as error:
            entry.error = f"{type(error).__name__}: {error}"
            raise
        entry.result = _plain(result)
        return result

    return call


# --------------------------------------------------------------------------------------------- replaying
@dataclass
class Divergence:
    """A replayed step whose request differs from the recorded one: the two fingerprints, and what the step is asked
    now (:func:`request_shape`). A recording keeps only fingerprints, so :attr:`recorded_request` is ``None`` here;
    whoever replays the run's own chain alongside (which asks exactly what was recorded) fills it in."""

    step: int
    recorded: str | None
    now: str
    action: str
    request: dict[str, Any] = field(default_factory=dict)
    recorded_request: dict[str, Any] | None = None


class ReplayModel:
    """A :class:`LanguageModel` that streams a :class:`Recording`'s steps again, in order, with no network.

    ``on_divergence`` decides what happens when a step's request no longer matches the recording: ``"continue"``
    (replay the recorded answer anyway; the divergence is noted), ``"raise"`` (:class:`ReplayDiverged`), or, with a
    ``fallback`` model, ``"live"`` (that step and the rest go to the live model).
    """

    provider = "replay"

    def __init__(
        self,
        recording: Recording,
        *,
        on_divergence: Literal["continue", "raise", "live"] = "continue",
        fallback: LanguageModel | None = None,
    ) -> None:
        if on_divergence == "live" and fallback is None:
            raise ValueError("on_divergence='live' needs a fallback model")
        self.recording = recording
        self.on_divergence = on_divergence
        self.fallback = fallback
        self.model_id = "recording"
        self.divergences: list[Divergence] = []
        #: What each step was asked (:func:`request_shape`), in order: the replay's own requests.
        self.asked: list[dict[str, Any]] = []
        self._next = 0
        self._live = False

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        index = self._next
        self._next += 1
        shape = request_shape(request)
        self.asked.append(shape)
        now = shape_fingerprint(shape)
        if self._live:
            assert self.fallback is not None
            async for event in self.fallback.stream(request):
                yield event
            return
        recorded = self.recording.steps[index] if index < len(self.recording.steps) else None
        if recorded is None or recorded.fingerprint != now:
            action = self.on_divergence if recorded is not None else ("live" if self.fallback else "raise")
            divergence = Divergence(index, recorded.fingerprint if recorded else None, now, action, shape)
            self.divergences.append(divergence)
            if action == "raise":
                what = "has no step" if recorded is None else "was asked something else"
                raise ReplayDiverged(
                    f"replay step {index + 1}: the recording {what} (the conversation diverged)", divergence
                )
            if action == "live":
                assert self.fallback is not None
                self._live = True
                async for event in self.fallback.stream(request):
                    yield event
                return
        assert recorded is not None
        for item in recorded.events:
            yield event_from_json(item)
        if recorded.error is not None:
            raise _api_error_from_json(recorded.error)


def replay_tools(tools: Iterable[Tool] | Mapping[str, Tool], recording: Recording) -> dict[str, Tool]:
    """Copies of ``tools`` that answer with the recorded results, in order per tool, without running anything.

    A call whose arguments differ from the recorded ones still gets the recorded result, and is listed in
    ``recording.changed_tool_calls``; a call the recording does not have runs the real tool.
    """
    queues: dict[str, list[RecordedToolCall]] = {}
    for call in recording.tool_calls:
        queues.setdefault(call.tool_name, []).append(call)
    replayed: dict[str, Tool] = {}
    for name, tool in tools_by_name(tools).items():
        replayed[name] = _wrapped(tool, _replaying_call(tool, queues.get(tool.name, []), recording))
    return replayed


def _replaying_call(tool: Tool, queue: list[RecordedToolCall], recording: Recording) -> Any:
    original = tool.call

    async def call(arguments: Any, **options: Any) -> Any:
        if not queue:
            return await original(arguments, **options)
        entry = queue.pop(0)
        now = _plain(arguments)
        if _normalised(now) != _normalised(entry.arguments):
            recording.changed_tool_calls.append((tool.name, entry.arguments, now))
        if entry.error is not None:
            raise RecordedToolError(entry.error)
        return copy.deepcopy(entry.result)

    return call


class RecordedToolError(ProcessorsError):
    """The recorded tool call raised this (replayed as it happened)."""


# --------------------------------------------------------------------------------------------- helpers
def _wrapped(tool: Tool, call: Any) -> Tool:
    clone = copy.copy(tool)
    clone.call = call  # type: ignore[method-assign]
    return clone


def _plain(value: Any) -> Any:
    """A JSON-safe copy (tool arguments come as text or mappings; results may be anything)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    try:
        return json.loads(json.dumps(value, default=repr))
    except (TypeError, ValueError):
        return repr(value)


def _normalised(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _api_error_to_json(error: ModelAPIError) -> dict[str, Any]:
    return {
        "status_code": error.status_code, "message": error.message, "retryable": error.retryable,
        "retry_after": error.retry_after, "provider": error.provider,
    }  # fmt: skip


def _api_error_from_json(data: Mapping[str, Any]) -> ModelAPIError:
    return ModelAPIError(
        data.get("status_code"), str(data.get("message", "")), bool(data.get("retryable", False)),
        retry_after=data.get("retry_after"), provider=data.get("provider"),
    )  # fmt: skip


__all__ = [
    "FORMAT_VERSION",
    "Divergence",
    "RecordedStep",
    "RecordedToolCall",
    "RecordedToolError",
    "Recording",
    "RecordingModel",
    "ReplayDiverged",
    "ReplayModel",
    "event_from_json",
    "event_to_json",
    "record_tools",
    "replay_tools",
    "request_fingerprint",
    "request_shape",
    "shape_fingerprint",
]
