"""What a run holds and how its chunks pass the output chain (``processors.loop.run_state``), through whole agent
runs: chunks processors write, the data parts kept on the answer, the structured object, a rejected step's record,
a retry asked for without a budget, and a turn the store could not save."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import pytest

from processors import Agent, Message, ModelAPIError, ProcessorContractError
from processors.models import ScriptedModel
from processors.models.scripted import Turn
from processors.pipeline.stream_chain import REPROCESS_KEY
from processors.usage import Usage
from tests.processors.helpers import Abort, Fn, kinds, make_agent, of_type, run_stream, terminal_count


class BrokenStore:
    """A ``Memory`` whose disk is full: it remembers nothing and cannot save."""

    def __init__(self) -> None:
        self.saves = 0

    async def load_messages(self, thread_id: str, *, resource_id: str | None = None) -> list[Message]:
        return []

    async def save_messages(
        self, thread_id: str, messages: Sequence[Message], *, resource_id: str | None = None
    ) -> None:
        self.saves += 1
        raise OSError("disk full")


# ----------------------------------------------------------------------------------------- written chunks
async def test_chunks_a_stream_processor_writes_come_before_the_part_it_returns() -> None:
    def mark(args: Any) -> Any:
        if args.part.type == "text-delta":
            args.writer.custom({"type": "data-mark", "data": args.part.payload.text})
        return args.part

    agent = make_agent(ScriptedModel([Turn(text=["a", "b"])]), output_processors=[Fn("m", process_output_stream=mark)])
    chunks, _result = await run_stream(agent)
    texts = [
        (chunk.type, chunk.data if chunk.type == "data-mark" else chunk.payload.text)  # type: ignore[union-attr]
        for chunk in chunks
        if chunk.type in ("data-mark", "text-delta")
    ]
    assert texts == [("data-mark", "a"), ("text-delta", "a"), ("data-mark", "b"), ("text-delta", "b")]


async def test_written_data_is_kept_on_the_answer_unless_transient() -> None:
    def write(args: Any) -> Any:
        args.writer.custom({"type": "data-kept", "data": {"n": 1}, "id": "d1"})
        args.writer.custom({"type": "data-passing", "data": {"n": 2}, "transient": True})
        return None

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("w", process_output_step=write)])
    chunks, result = await run_stream(agent)
    assert [chunk.type for chunk in chunks if chunk.type.startswith("data-")] == ["data-kept", "data-passing"]
    [answer] = result.messages
    data = [part for part in answer.content.parts if part.type.startswith("data-")]
    assert [(part.type, part.data, part.id) for part in data] == [("data-kept", {"n": 1}, "d1")]  # type: ignore[union-attr]


async def test_a_processor_that_writes_for_every_chunk_it_is_given_is_stopped() -> None:
    class Echo:
        id = "echo"
        process_data_parts = True

        def process_output_stream(self, args: Any) -> Any:
            args.writer.custom({"type": "data-echo", "data": None})
            return args.part

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Echo()])
    chunks, result = await run_stream(agent)
    assert terminal_count(chunks) == 1
    assert chunks[-1].type == "error"
    assert result.error == "writer.custom() was called in a loop: more than 10,000 chunks pending"
    assert result.finish_reason == "error"
    assert ProcessorContractError.__name__ == chunks[-1].payload.error["name"]  # type: ignore[union-attr]


async def test_the_structured_output_chunk_is_the_results_object() -> None:
    def structured(args: Any) -> None:
        args.writer.custom({"type": "data-structured-output", "data": {"city": "Oslo"}})

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("s", process_output_result=structured)])
    _chunks, result = await run_stream(agent)
    assert result.object == {"city": "Oslo"}


async def test_a_reprocessed_part_is_streamed_after_the_part_returned_with_it() -> None:
    def split(args: Any) -> Any:
        part = args.part
        if part.type != "text-delta" or "|" not in part.payload.text:
            return part
        head, tail = part.payload.text.split("|", 1)
        args.state[REPROCESS_KEY] = part.model_copy(update={"payload": part.payload.model_copy(update={"text": tail})})
        return part.model_copy(update={"payload": part.payload.model_copy(update={"text": head})})

    agent = make_agent(
        ScriptedModel([Turn(text=["one|two", " three"])]), output_processors=[Fn("s", process_output_stream=split)]
    )
    chunks, result = await run_stream(agent)
    assert [chunk.payload.text for chunk in of_type(chunks, "text-delta")] == ["one", "two", " three"]  # type: ignore[union-attr]
    assert result.text == "onetwo three"


async def test_a_finish_chunk_a_stream_processor_drops_still_ends_the_stream() -> None:
    def drop_finish(args: Any) -> Any:
        return None if args.part.type == "finish" else args.part

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("d", process_output_stream=drop_finish)])
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-1] == "finish"
    assert terminal_count(chunks) == 1
    assert result.text == "ok"


# ----------------------------------------------------------------------------------------- retries
async def test_a_rejected_step_keeps_its_text_and_usage_in_the_record() -> None:
    guard = Abort("judge", "process_output_step", reason="too vague", retry=True, when=lambda a: a.retry_count == 0)
    model = ScriptedModel(
        [
            Turn(text="vague", usage=Usage(input_tokens=2, output_tokens=1)),
            Turn(text="precise", usage=Usage(input_tokens=3, output_tokens=2)),
        ]
    )
    agent = make_agent(model, output_processors=[guard], max_processor_retries=2)
    chunks, result = await run_stream(agent)
    retried, accepted = result.steps
    assert (retried.finish_reason, retried.text, retried.rejected_text) == ("retry", "", "vague")
    assert retried.tripwire is not None
    assert retried.tripwire.reason == "too vague"
    assert accepted.text == "precise"
    assert result.text == "precise"
    assert (result.usage.input_tokens, result.usage.output_tokens) == (5, 3)
    step_finishes = of_type(chunks, "step-finish")
    assert [chunk.payload.step_result.reason for chunk in step_finishes] == ["retry", "stop"]  # type: ignore[union-attr]
    assert step_finishes[0].payload.step_result.is_continued is True  # type: ignore[union-attr]
    feedback = [m["content"] for m in model.requests[1].messages if m["role"] == "system"]
    assert any("not accepted: too vague" in text for text in feedback)


async def test_a_retry_asked_for_without_a_budget_is_an_abort_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    guard = Abort("judge", "process_output_step", reason="again", retry=True)
    agent = make_agent(ScriptedModel(["first", "second"]), output_processors=[guard])
    with caplog.at_level(logging.WARNING, logger="processors.loop.run"):
        chunks, result = await run_stream(agent)
    assert chunks[-1].type == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.retry is True
    assert len(result.steps) == 1
    assert [record.getMessage() for record in caplog.records] == [
        "Processor 'judge' requested a retry but max_processor_retries is not set; treating it as an abort"
    ]


async def test_error_processors_give_output_retries_a_budget_of_ten() -> None:
    guard = Abort("judge", "process_output_step", reason="again", retry=True)
    model = ScriptedModel(["no"], repeat=True)
    agent = make_agent(
        model,
        output_processors=[guard],
        error_processors=[Fn("err", process_api_error=lambda a: None)],
        max_steps=20,
    )
    _chunks, result = await run_stream(agent)
    assert len(model.requests) == 11
    assert result.tripwire is not None


# ----------------------------------------------------------------------------------------- the end
async def test_a_turn_the_store_cannot_save_is_answered_with_a_warning() -> None:
    store = BrokenStore()
    agent = Agent(id="a", model=ScriptedModel(["the answer"]), memory=store)
    chunks, result = await run_stream(agent, "hi", thread_id="t1")
    assert chunks[-1].type == "finish"
    assert result.text == "the answer"
    assert store.saves == 1
    assert result.warnings == ["The conversation could not be saved: OSError: disk full"]


async def test_nothing_is_saved_without_a_thread() -> None:
    store = BrokenStore()
    agent = Agent(id="a", model=ScriptedModel(["the answer"]), memory=store)
    _chunks, result = await run_stream(agent, "hi")
    assert store.saves == 0
    assert result.warnings == []


async def test_a_processor_error_names_the_processor_and_hook_in_the_error_chunk() -> None:
    def broken(args: Any) -> Any:
        raise KeyError("missing")

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("broken", process_output_step=broken)])
    chunks, result = await run_stream(agent)
    error = chunks[-1].payload.error  # type: ignore[union-attr]
    assert error == {
        "name": "ProcessorRaisedError",
        "message": "Processor 'broken' raised in process_output_step: KeyError: 'missing'",
        "processorId": "broken",
        "hook": "process_output_step",
    }
    assert result.error == error["message"]


@pytest.mark.parametrize(("finish", "parsed"), [("stop", True), ("length", True), ("content-filter", False)])
async def test_the_structured_answer_is_read_when_the_model_finished_or_ran_out_of_tokens(
    finish: str, parsed: bool
) -> None:
    model = ScriptedModel([Turn(text='{"city": "Oslo"}', finish_reason=finish)])
    _chunks, result = await run_stream(make_agent(model), structured_output={"schema": {"type": "object"}})
    assert result.object == ({"city": "Oslo"} if parsed else None)


async def test_a_structured_output_chunk_does_not_replace_the_parsed_answer() -> None:
    def structured(args: Any) -> None:
        args.writer.custom({"type": "data-structured-output", "data": {"from": "processor"}})

    model = ScriptedModel(['{"from": "model"}'])
    agent = make_agent(model, output_processors=[Fn("s", process_output_result=structured)])
    _chunks, result = await run_stream(agent, structured_output={"schema": {"type": "object"}})
    assert result.object == {"from": "model"}


async def test_a_rejected_steps_retraction_names_its_message_and_drops_its_data() -> None:
    def mark(args: Any) -> Any:
        if args.part.type == "text-delta":
            args.writer.custom({"type": "data-seen", "data": args.part.payload.text})
        return args.part

    guard = Abort("judge", "process_output_step", reason="again", retry=True, when=lambda a: a.retry_count == 0)
    agent = make_agent(
        ScriptedModel(["first", "second"]),
        output_processors=[Fn("mark", process_output_stream=mark), guard],
        max_processor_retries=1,
    )
    chunks, result = await run_stream(agent)
    starts = of_type(chunks, "step-start")
    finishes = of_type(chunks, "step-finish")
    assert finishes[0].payload.message_id == starts[0].payload.message_id  # type: ignore[union-attr]
    [answer] = result.messages
    assert [part.data for part in answer.content.parts if part.type == "data-seen"] == ["second"]  # type: ignore[union-attr]


async def test_a_failed_call_retried_records_the_error_and_gives_no_feedback() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(503, "overloaded", True)), "fine"])
    retry = Fn("retry", process_api_error=lambda args: {"retry": True})
    agent = make_agent(model, error_processors=[retry])
    _chunks, result = await run_stream(agent)
    failed, answered = result.steps
    assert (failed.finish_reason, failed.tripwire, answered.text) == ("retry", None, "fine")
    assert failed.error is not None
    assert "overloaded" in failed.error
    assert model.requests[0].messages == model.requests[1].messages
