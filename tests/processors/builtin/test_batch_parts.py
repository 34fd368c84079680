"""BatchParts: text deltas combined in batches; a non-text part flushes the batch and follows it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from processors import Agent, RequestContext
from processors.builtin.base import InvalidOptionsError
from processors.builtin.batch_parts import BatchParts
from processors.chunks import (
    AnyChunk,
    Chunk,
    ReasoningDeltaChunk,
    TextDeltaPayload,
    TextEndChunk,
    TextPayload,
)
from processors.messages.message_list import MessageList
from processors.models import ScriptedModel, ToolCall, Turn
from processors.models.base import Finish, ModelEvent, ModelRequest, ReasoningDelta, TextDelta
from processors.pipeline.processor import ProcessOutputStreamArgs
from processors.pipeline.stream_chain import REPROCESS_KEY
from processors.usage import Usage
from tests.processors.helpers import collect, deltas, get_weather, kinds, streamed_text
from tests.processors.helpers import drive_stream as drive
from tests.processors.helpers import text_delta as text

TEXT = "one two three four five six seven eight nine ten eleven"


async def test_deltas_are_combined_in_batches() -> None:
    stream = Agent(id="a", model=ScriptedModel([TEXT]), output_processors=[BatchParts(batch_size=4)]).stream("hi")
    chunks = await collect(stream)
    result = await stream.result()
    assert deltas(chunks) == ["one two three four ", "five six seven eight ", "nine ten eleven"]
    assert kinds(chunks)[-3:] == ["text-end", "step-finish", "finish"]
    assert result.text == TEXT and result.messages[-1].text == TEXT


async def test_a_non_text_part_flushes_the_batch_and_follows_it() -> None:
    plain = await collect(
        Agent(
            id="a",
            model=ScriptedModel(
                [Turn(text="let me check", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), "Sunny."]
            ),
            tools=[get_weather],
        ).stream("hi")
    )
    batched = await collect(
        Agent(
            id="a",
            model=ScriptedModel(
                [Turn(text="let me check", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), "Sunny."]
            ),
            tools=[get_weather],
            output_processors=[BatchParts(batch_size=50)],
        ).stream("hi")
    )
    assert deltas(batched) == ["let me check", "Sunny."]
    non_text = [kind for kind in kinds(plain) if kind != "text-delta"]
    assert [kind for kind in kinds(batched) if kind != "text-delta"] == non_text  # nothing lost, nothing doubled
    first_end = kinds(batched).index("text-end")
    assert kinds(batched)[first_end - 1] == "text-delta"  # the flushed text comes right before what flushed it
    assert streamed_text(batched) == streamed_text(plain)


async def test_max_wait_releases_a_batch_that_waited_long_enough() -> None:
    model = ScriptedModel([Turn(text=["a ", "b ", "c ", "d "], delay=0.03)])
    chunks = await collect(
        Agent(id="a", model=model, output_processors=[BatchParts(batch_size=100, max_wait_ms=20)]).stream("hi")
    )
    assert len(deltas(chunks)) >= 2 and streamed_text(chunks) == "a b c d "


def shape(parts: list[AnyChunk]) -> list[tuple[str, str | None]]:
    return [(p.type, getattr(getattr(p, "payload", None), "text", None)) for p in parts]


# Ported from Mastra's batch-parts.test.ts, "should not emit immediately when emitOnNonText is false": the
# non-text part is held in the batch, not passed on.
def test_without_emit_on_non_text_a_non_text_part_is_held_in_the_batch() -> None:
    batcher = BatchParts(batch_size=5, emit_on_non_text=False)
    state: dict[str, Any] = {}
    args = ProcessOutputStreamArgs(
        part=text("Hello"),
        stream_parts=[],
        message_list=MessageList(),
        processor_id=batcher.id,
        state=state,
        request_context=RequestContext(),
    )
    assert batcher.process_output_stream(args) is None
    args.part = ReasoningDeltaChunk(run_id="r", payload=TextDeltaPayload(id="r1", text="hmm"))
    assert batcher.process_output_stream(args) is None
    assert REPROCESS_KEY not in state


# Mastra's case exactly: the object part comes with a fresh state ({}), so it arrives to an EMPTY batch, and it
# is held all the same (Mastra returns null) — issue 25 item 3.
def test_without_emit_on_non_text_a_non_text_part_to_an_empty_batch_is_held_as_mastra_holds_it() -> None:
    batcher = BatchParts(batch_size=5, emit_on_non_text=False)

    def call(part: AnyChunk, state: dict[str, Any]) -> AnyChunk | None:
        args = ProcessOutputStreamArgs(
            part=part,
            stream_parts=[part],
            message_list=MessageList(),
            processor_id=batcher.id,
            state=state,
            request_context=RequestContext(),
        )
        return batcher.process_output_stream(args)

    assert call(text("Hello"), {}) is None
    fresh: dict[str, Any] = {}
    assert call(Chunk(type="object", run_id="1", metadata={"object": {"key": "value"}}), fresh) is None
    assert REPROCESS_KEY not in fresh
    held = batcher.flush(fresh)  # nothing is lost: flushing gives the held part back
    assert held is not None and held.type == "object" and batcher.flush(fresh) is None


def test_without_emit_on_non_text_a_part_held_in_an_empty_batch_goes_out_in_its_place() -> None:
    reasoning = ReasoningDeltaChunk(run_id="r", payload=TextDeltaPayload(id="r1", text="hmm"))
    end = TextEndChunk(run_id="r", payload=TextPayload(id="t1"))
    out = drive(BatchParts(batch_size=3, emit_on_non_text=False), [reasoning, text("a"), text("b"), text("c"), end])
    assert shape(out) == [("reasoning-delta", "hmm"), ("text-delta", "ab"), ("text-delta", "c"), ("text-end", None)]
    assert shape(drive(BatchParts(batch_size=3, emit_on_non_text=False), [reasoning])) == []
    assert shape(drive(BatchParts(batch_size=3, emit_on_non_text=False), [reasoning, end])) == [
        ("reasoning-delta", "hmm"),
        ("text-end", None),
    ]


def test_without_emit_on_non_text_the_batch_keeps_the_order_and_text_end_still_flushes() -> None:
    reasoning = ReasoningDeltaChunk(run_id="r", payload=TextDeltaPayload(id="r1", text="hmm"))
    end = TextEndChunk(run_id="r", payload=TextPayload(id="t1"))
    out = drive(BatchParts(batch_size=10, emit_on_non_text=False), [text("a"), reasoning, text("b"), text("c"), end])
    assert shape(out) == [("text-delta", "a"), ("reasoning-delta", "hmm"), ("text-delta", "bc"), ("text-end", None)]
    out = drive(BatchParts(batch_size=10), [text("a"), reasoning, text("b"), end])
    assert shape(out) == [("text-delta", "a"), ("reasoning-delta", "hmm"), ("text-delta", "b"), ("text-end", None)]


def test_without_emit_on_non_text_a_held_part_counts_towards_the_batch_size() -> None:
    reasoning = ReasoningDeltaChunk(run_id="r", payload=TextDeltaPayload(id="r1", text="hmm"))
    out = drive(BatchParts(batch_size=3, emit_on_non_text=False), [text("a"), reasoning, text("b"), text("c")])
    assert shape(out) == [("text-delta", "a"), ("reasoning-delta", "hmm"), ("text-delta", "b")]
    assert shape(drive(BatchParts(batch_size=3, emit_on_non_text=False), [text("a"), reasoning])) == []


class InterleavedModel:
    """A model that streams reasoning in the middle of its text (as some providers do)."""

    provider = "test"
    model_id = "interleaved"

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield TextDelta("a ")
        yield ReasoningDelta("hmm")
        yield TextDelta("b ")
        yield TextDelta("c")
        yield Finish("stop", Usage(input_tokens=1, output_tokens=3, total_tokens=4), raw_finish_reason="stop")


async def test_without_emit_on_non_text_an_agent_stream_keeps_its_order() -> None:
    batcher = BatchParts(batch_size=10, emit_on_non_text=False)
    stream = Agent(id="a", model=InterleavedModel(), output_processors=[batcher]).stream("hi")
    chunks = await collect(stream)
    result = await stream.result()
    assert shape(chunks)[2:] == [
        ("text-start", None),
        ("text-delta", "a "),
        ("reasoning-start", None),
        ("reasoning-delta", "hmm"),
        ("text-delta", "b c"),
        ("reasoning-end", None),
        ("text-end", None),
        ("step-finish", None),
        ("finish", None),
    ]
    assert result.text == "a b c"


async def test_without_emit_on_non_text_a_tool_step_loses_and_doubles_nothing() -> None:
    def agent(processors: list[BatchParts]) -> Agent:
        model = ScriptedModel(
            [Turn(text="let me check", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), "Sunny."]
        )
        return Agent(id="a", model=model, tools=[get_weather], output_processors=processors)

    plain_stream = agent([]).stream("hi")
    plain = await collect(plain_stream)
    stream = agent([BatchParts(batch_size=50, emit_on_non_text=False)]).stream("hi")
    batched = await collect(stream)
    assert [kind for kind in kinds(batched) if kind != "text-delta"] == [
        kind for kind in kinds(plain) if kind != "text-delta"
    ]  # the call was held, then released by itself within its step: the tool ran and the model answered
    assert streamed_text(batched) == streamed_text(plain)
    assert (await stream.result()).text == (await plain_stream.result()).text


class ReasoningOnlyModel:
    """A model that only reasons, then stops: the step's last block is a reasoning block."""

    provider = "test"
    model_id = "reasoning-only"

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield ReasoningDelta("thinking ")
        yield ReasoningDelta("hard")
        yield Finish("stop", Usage(input_tokens=1, output_tokens=2, total_tokens=3), raw_finish_reason="stop")


async def test_without_emit_on_non_text_held_reasoning_stays_in_its_step() -> None:
    plain_stream = Agent(id="a", model=ReasoningOnlyModel()).stream("hi")
    plain = await collect(plain_stream)
    batcher = BatchParts(batch_size=50, emit_on_non_text=False)
    stream = Agent(id="a", model=ReasoningOnlyModel(), output_processors=[batcher]).stream("hi")
    batched = await collect(stream)
    assert kinds(batched) == kinds(plain)
    saved = (await stream.result()).messages[-1].to_json()
    assert saved["content"] == (await plain_stream.result()).messages[-1].to_json()["content"]
    assert "thinking hard" in str(saved["content"])


def test_flush_returns_what_is_buffered() -> None:
    batcher = BatchParts(batch_size=10)
    state: dict[str, Any] = {"batch": [text("x"), text("y")]}
    flushed = batcher.flush(state)
    assert flushed is not None and flushed.payload.text == "xy" and state["batch"] == []  # type: ignore[union-attr]
    assert batcher.flush(state) is None


@pytest.mark.parametrize(
    ("options", "field"), [({"batch_size": 0}, "batch_size"), ({"max_wait_ms": -1}, "max_wait_ms")]
)
def test_bad_options_name_the_field(options: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptionsError, match=field):
        BatchParts(**options)


def test_flush_drains_a_mixed_batch_part_by_part() -> None:
    reasoning = ReasoningDeltaChunk(run_id="r", payload=TextDeltaPayload(id="r1", text="hmm"))
    batcher = BatchParts(batch_size=10, emit_on_non_text=False)
    state: dict[str, Any] = {"batch": [text("x"), text("y"), reasoning, text("z")]}
    drained = []
    while (part := batcher.flush(state)) is not None:
        drained.append(part)
    assert shape(drained) == [("text-delta", "xy"), ("reasoning-delta", "hmm"), ("text-delta", "z")]
