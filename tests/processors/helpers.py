"""Shared test processors and small helpers for the runtime's behaviour tests.

Everything here drives real objects: real ``Agent``s, real ``ScriptedModel``s and real processors.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from processors import Agent, Processor, RequestContext, tool
from processors.chunks import AnyChunk, Chunk, Payload, TextDeltaChunk, TextDeltaPayload
from processors.messages.message_list import MessageList
from processors.models import ScriptedModel, Turn
from processors.models.base import Finish, ReasoningDelta, ResponseMetadata, TextDelta
from processors.pipeline.processor import ProcessOutputStreamArgs
from processors.pipeline.stream_chain import REPROCESS_KEY

TERMINAL = ("finish", "tripwire", "error")
INSTRUCTIONS = "You are terse."


def system(text: str) -> dict[str, Any]:
    return {"role": "system", "content": text}


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def assistant(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


async def collect(stream: Any, limit: float = 5.0) -> list[AnyChunk]:
    """All chunks of a stream (with a timeout, so a hang fails instead of blocking the suite)."""

    async def run() -> list[AnyChunk]:
        return [chunk async for chunk in stream]

    return await asyncio.wait_for(run(), limit)


async def run_stream(agent: Agent, message: Any = "hi", **options: Any) -> tuple[list[AnyChunk], Any]:
    """Stream a call to the end; return (chunks, result)."""
    stream = agent.stream(message, **options)
    chunks = await collect(stream)
    result = await asyncio.wait_for(stream.result(), 5.0)
    return chunks, result


def kinds(chunks: list[AnyChunk]) -> list[str]:
    return [chunk.type for chunk in chunks]


def deltas(chunks: list[AnyChunk]) -> list[str]:
    return [chunk.payload.text for chunk in chunks if chunk.type == "text-delta"]  # type: ignore[union-attr]


def streamed_text(chunks: list[AnyChunk]) -> str:
    return "".join(deltas(chunks))


def terminal_count(chunks: list[AnyChunk]) -> int:
    return sum(1 for chunk in chunks if chunk.type in TERMINAL)


def last(chunks: list[AnyChunk], kind: str) -> AnyChunk:
    return [chunk for chunk in chunks if chunk.type == kind][-1]


def of_type(chunks: list[AnyChunk], kind: str) -> list[AnyChunk]:
    return [chunk for chunk in chunks if chunk.type == kind]


def make_agent(model: Any, **options: Any) -> Agent:
    options.setdefault("instructions", INSTRUCTIONS)
    return Agent(id="agent", model=model, **options)


class Fn(Processor):
    """A processor built from functions: ``Fn("p", process_input=lambda args: ...)``."""

    def __init__(self, id: str, **hooks: Callable[[Any], Any]) -> None:
        self.id = id
        for name, fn in hooks.items():
            setattr(self, name, fn)


class Abort(Processor):
    """Aborts from one hook with the given options (``reason=None`` uses the default reason)."""

    def __init__(
        self,
        id: str,
        hook: str,
        reason: str | None = "blocked",
        *,
        retry: bool = False,
        metadata: Any = None,
        when: Callable[[Any], bool] | None = None,
    ) -> None:
        self.id = id
        self.violations: list[Any] = []
        self.calls = 0

        def fire(args: Any) -> Any:
            self.calls += 1
            if when is None or when(args):
                args.abort(reason, retry=retry, metadata=metadata)
            if hook == "process_output_stream":
                return args.part
            return None

        setattr(self, hook, fire)

    def on_violation(self, violation: Any) -> None:
        self.violations.append(violation)


@tool
def get_weather(city: str) -> str:
    """Get the weather for a city.

    Args:
        city: The city name.
    """
    return f"Sunny in {city}"


@tool
def explode(reason: str) -> str:
    """A tool that always fails."""
    raise RuntimeError(f"kaboom: {reason}")


class DeltasIn(Processor):
    """Put first in the output chain: counts the model's text deltas as they enter the chain (so a test can tell
    how many the model had sent when something left the chain)."""

    id = "deltas-in"

    def __init__(self) -> None:
        self.count = 0

    def process_output_stream(self, args: Any) -> AnyChunk | None:
        if args.part.type == "text-delta":
            self.count += 1
        return args.part  # type: ignore[no-any-return]


#: What left a stream guard after each model delta entered it: ``(delta, [texts out])``; the last entry,
#: ``(None, [...])``, is what the end of the text run flushed.
Timeline = list[tuple[str | None, list[str]]]


async def guard_timeline(guard: Any, deltas: list[str], **agent_options: Any) -> Timeline:
    """Stream ``deltas`` through ``guard`` and record, for each delta, what left the guard before the next came
    (checked whole: nothing tripped, and what left is the result's text)."""
    log: Timeline = []

    def entering(args: Any) -> Any:
        part = args.part
        if part.type == "text-delta":
            log.append((part.payload.text, []))
        elif part.type == "text-end" and log and log[-1][0] is not None:
            log.append((None, []))
        return part

    def leaving(args: Any) -> Any:
        if args.part.type == "text-delta":
            log[-1][1].append(args.part.payload.text)
        return args.part

    lanes = [Fn("in", process_output_stream=entering), guard, Fn("out", process_output_stream=leaving)]
    agent = Agent(id="a", model=ScriptedModel([Turn(text=deltas)]), output_processors=lanes, **agent_options)
    result = await agent.generate("hi")
    assert result.tripwire is None
    assert "".join(text for _delta, out in log for text in out) == result.text
    return log


class RecordAndReplay:
    """An input processor caching the first step's raw chunks as given (payload objects) and answering later calls
    from them, as a response cache does."""

    id = "record-replay"

    def __init__(self) -> None:
        self.recorded: list[dict[str, Any]] | None = None

    def process_llm_request(self, args: Any) -> Any:
        return {"response": {"chunks": self.recorded}} if self.recorded is not None else None

    def process_llm_response(self, args: Any) -> None:
        if not args.from_cache:
            self.recorded = list(args.chunks)


#: Among the pieces :func:`guard_order` streams: a reasoning delta, and a ``data-*`` chunk a processor writes.
THINK = "<think>"
DATA = "<data>"


class Interleaving:
    """A model streaming text deltas with other chunks between them, in one step (the text block stays open across
    them, as with interleaved-thinking providers): :data:`THINK` is a reasoning delta ``r<n>``, :data:`DATA` a marker
    the processor in front of the chain turns into a ``data-note`` chunk, a ``Chunk`` is replayed as it is (a
    ``source``, a ``file``), and any other string is a text delta."""

    provider = "test"
    model_id = "interleaving"

    def __init__(self, pieces: list[Any]) -> None:
        self.pieces = pieces

    async def stream(self, request: Any) -> Any:
        yield ResponseMetadata("resp-1", self.model_id)
        thoughts = 0
        for piece in self.pieces:
            if piece == THINK:
                yield ReasoningDelta(f"r{thoughts}")
                thoughts += 1
            elif piece == DATA:
                yield Chunk(type="data-marker", payload=Payload())
            elif isinstance(piece, Chunk):
                yield piece
            else:
                yield TextDelta(piece)
        yield Finish("stop")


def label(part: Any) -> str:
    """A part as one string: ``t:<text>`` for a text delta, ``<type>:<text or data or id>`` for the others."""
    payload = getattr(part, "payload", None)
    if part.type == "text-delta":
        return f"t:{payload.text}"  # type: ignore[union-attr]
    if part.type.startswith("data-"):
        return f"{part.type}:{part.data}"
    detail = getattr(payload, "text", None) or getattr(payload, "id", None) or ""
    return f"{part.type}:{detail}"


def merged(labels: list[str]) -> list[str]:
    """Labels with the text deltas next to each other joined: the text runs between the other chunks."""
    out: list[str] = []
    for one in labels:
        if one.startswith("t:") and out and out[-1].startswith("t:"):
            out[-1] += one[2:]
        else:
            out.append(one)
    return out


async def guard_order(guards: list[Any], pieces: list[Any], **agent_options: Any) -> tuple[list[str], list[str], Any]:
    """Stream ``pieces`` (see :class:`Interleaving`) through ``guards``; return what entered the first guard and what
    left the last, each as :func:`merged` labels (a part the chain re-drives counts once), and the result."""
    entered: list[Any] = []
    left: list[str] = []
    notes = 0

    def entering(args: Any) -> Any:
        nonlocal notes
        part = args.part
        if part.type == "data-marker":
            args.writer.custom({"type": "data-note", "data": notes})
            notes += 1
            return None
        if part.type not in ("start", "step-start") and not any(seen is part for seen in entered):
            entered.append(part)
        return part

    def leaving(args: Any) -> Any:
        if args.part.type not in ("start", "step-start"):
            left.append(label(args.part))
        return args.part

    first, last = Fn("in", process_output_stream=entering), Fn("out", process_output_stream=leaving)
    first.process_data_parts = last.process_data_parts = True
    agent = Agent(id="a", model=Interleaving(pieces), output_processors=[first, *guards, last], **agent_options)
    result = await agent.generate("hi")
    return merged([label(part) for part in entered]), merged(left), result


def drive_stream(processor: Any, parts: list[AnyChunk], message_list: MessageList | None = None) -> list[AnyChunk]:
    """Feed parts to a processor's stream hook by hand, re-driving a stashed part right after, as the runtime does."""
    state: dict[str, Any] = {}
    args = ProcessOutputStreamArgs(
        part=parts[0],
        stream_parts=[],
        message_list=MessageList() if message_list is None else message_list,
        processor_id=processor.id,
        state=state,
        request_context=RequestContext(),
    )
    out: list[AnyChunk] = []
    queue = list(parts)
    while queue:
        args.part = queue.pop(0)
        result = processor.process_output_stream(args)
        if result is not None:
            out.append(result)
        if REPROCESS_KEY in state:
            queue.insert(0, state.pop(REPROCESS_KEY))
    return out


def text_delta(value: str) -> TextDeltaChunk:
    return TextDeltaChunk(run_id="r", payload=TextDeltaPayload(id="t1", text=value))
