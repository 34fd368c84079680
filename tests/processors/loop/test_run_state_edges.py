"""The run state's edges (``processors.loop.run_state``), through whole agent runs on scripted models: the ids a
run stamps on its answer, breakpoints and the message list on chunks outside the model's stream, parts re-driven
through the chain, the limit on written chunks, what a step-finish reports, data written after the last step, a
step kept or retracted after the model finished, and what a failed save logs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from processors import Agent, Message
from processors.chunks import DataChunk
from processors.memory import SqlMemory
from processors.models import ScriptedModel, ToolCall, Turn
from processors.pipeline.debugger import Breakpoint, Debugger, Pause
from processors.pipeline.stream_chain import REPROCESS_KEY
from processors.usage import Usage
from tests.processors.helpers import Abort, Fn, get_weather, kinds, make_agent, of_type, run_stream


def data_of(chunks: list[Any], prefix: str = "data-") -> list[tuple[str, Any]]:
    return [(chunk.type, chunk.data) for chunk in chunks if chunk.type.startswith(prefix)]


# ----------------------------------------------------------------------------------------- ids and context
async def test_the_answer_and_the_result_carry_the_calls_thread_and_resource(tmp_path: Path) -> None:
    store = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(id="a", model=ScriptedModel(["the answer"]), memory=store)
    _chunks, result = await run_stream(agent, "hi", thread_id="t1", resource_id="u1")
    assert (result.thread_id, result.resource_id) == ("t1", "u1")
    [answer] = result.messages
    assert (answer.thread_id, answer.resource_id) == ("t1", "u1")
    saved = await store.all_messages("t1")
    assert [(m.role, m.thread_id, m.resource_id) for m in saved] == [("user", "t1", "u1"), ("assistant", "t1", "u1")]
    await store.close()


async def test_a_stream_processor_sees_the_runs_message_list() -> None:
    seen: list[tuple[str, str]] = []

    def look(args: Any) -> Any:
        if args.part.type in ("step-start", "text-delta"):
            seen.append((args.part.type, args.message_list.get.input.db()[-1].text))
        return args.part

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("look", process_output_stream=look)])
    await run_stream(agent, "the question")
    assert seen == [("step-start", "the question"), ("text-delta", "the question")]


async def test_a_breakpoint_on_a_step_finish_chunk_pauses_there_and_its_edit_is_streamed() -> None:
    """step-start, step-finish, tool results and finish pass the chain outside the model's stream."""
    pauses: list[Pause] = []

    def on_pause(pause: Pause) -> None:
        pauses.append(pause)
        edited = pause.part.model_copy(update={"payload": pause.part.payload.model_copy(update={"message_id": "m9"})})
        asyncio.get_running_loop().call_soon(lambda: pause.resume(part=edited))

    debugger = Debugger([Breakpoint(chunk_type="step-finish")], on_pause=on_pause)
    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("p", process_output_stream=lambda a: a.part)])
    chunks, result = await run_stream(agent, debugger=debugger)
    assert [(p.hook, p.processor_id, p.part.type) for p in pauses] == [("process_output_stream", "p", "step-finish")]
    [step_finish] = of_type(chunks, "step-finish")
    assert step_finish.payload.message_id == "m9"  # type: ignore[union-attr]
    assert result.text == "ok"


# ----------------------------------------------------------------------------------------- re-driven parts
async def test_a_part_stashed_on_the_step_start_is_streamed_after_it() -> None:
    def stash(args: Any) -> Any:
        if args.part.type == "step-start":
            args.state[REPROCESS_KEY] = DataChunk(type="data-after-start", data=1)
        return args.part

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("s", process_output_stream=stash)])
    chunks, _result = await run_stream(agent)
    assert kinds(chunks)[:3] == ["start", "step-start", "data-after-start"]


async def test_parts_split_again_while_re_driven_keep_what_they_wrote_in_order() -> None:
    def split(args: Any) -> Any:
        part = args.part
        if part.type != "text-delta":
            return part
        head, _, tail = part.payload.text.partition("|")
        args.writer.custom({"type": "data-mark", "data": head})
        if tail:
            args.state[REPROCESS_KEY] = part.with_payload(text=tail)
        return part.with_payload(text=head)

    agent = make_agent(ScriptedModel([Turn(text=["a|b|c"])]), output_processors=[Fn("s", process_output_stream=split)])
    chunks, result = await run_stream(agent)
    streamed = [
        chunk.data if chunk.type == "data-mark" else chunk.payload.text  # type: ignore[union-attr]
        for chunk in chunks
        if chunk.type in ("data-mark", "text-delta")
    ]
    assert streamed == ["a", "a", "b", "b", "c", "c"]
    assert result.text == "abc"


# ----------------------------------------------------------------------------------------- written chunks
def writes(count: int) -> Fn:
    def write(args: Any) -> None:
        for n in range(count):
            args.writer.custom({"type": "data-n", "data": n, "transient": True})

    return Fn("w", process_output_step=write)


async def test_ten_thousand_chunks_written_at_once_are_all_streamed() -> None:
    chunks, result = await run_stream(make_agent(ScriptedModel(["ok"]), output_processors=[writes(10_000)]))
    assert len(of_type(chunks, "data-n")) == 10_000
    assert kinds(chunks)[-1] == "finish"
    assert result.error is None


async def test_one_chunk_more_than_ten_thousand_pending_ends_the_run_with_an_error() -> None:
    chunks, result = await run_stream(make_agent(ScriptedModel(["ok"]), output_processors=[writes(10_001)]))
    assert kinds(chunks)[-1] == "error"
    assert result.error == "writer.custom() was called in a loop: more than 10,000 chunks pending"


async def test_a_written_chunk_a_stream_processor_drops_does_not_hold_back_the_next() -> None:
    class DropOne(Fn):
        process_data_parts = True

    def on_finish(args: Any) -> Any:
        if args.part.type == "finish":
            args.writer.custom({"type": "data-dropped", "data": 1})
            args.writer.custom({"type": "data-kept", "data": 2})
        if args.part.type == "data-dropped":
            return None
        return args.part

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[DropOne("d", process_output_stream=on_finish)])
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-2:] == ["data-kept", "finish"]
    [answer] = result.messages
    assert [part.type for part in answer.content.parts] == ["step-start", "text", "data-kept"]


# ----------------------------------------------------------------------------------------- step-finish
async def test_a_step_finish_reports_the_raw_reason_the_tool_calls_and_the_usage() -> None:
    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")], usage=Usage(input_tokens=4)),
            Turn(text="cut", finish_reason="length", usage=Usage(input_tokens=6, output_tokens=1)),
        ]
    )
    chunks, _result = await run_stream(make_agent(model, tools=[get_weather]))
    first, second = (chunk.payload for chunk in of_type(chunks, "step-finish"))  # type: ignore[union-attr]
    assert (first.step_result.reason, first.step_result.raw_reason, first.step_result.is_continued) == (
        "tool-calls",
        "tool-calls",
        True,
    )
    assert [(c.tool_call_id, c.tool_name, c.args) for c in first.output.tool_calls] == [
        ("c1", "get_weather", {"city": "Oslo"})
    ]
    assert first.output.usage.input_tokens == 4
    assert (second.step_result.reason, second.step_result.raw_reason) == ("length", "length")
    assert (second.output.text, second.output.tool_calls) == ("cut", [])
    assert (second.output.usage.input_tokens, second.output.usage.output_tokens) == (6, 1)


# ----------------------------------------------------------------------------------------- late data
async def test_data_written_after_the_answer_was_removed_is_saved_as_its_own_answer(tmp_path: Path) -> None:
    def replace(args: Any) -> Any:
        args.writer.custom({"type": "data-verdict", "data": {"ok": False}})
        return [m for m in args.messages if m.role != "assistant"]

    store = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(
        id="a",
        model=ScriptedModel(["withdrawn"]),
        memory=store,
        output_processors=[Fn("replace", process_output_result=replace)],
    )
    chunks, result = await run_stream(agent, "hi", thread_id="t1")
    assert kinds(chunks)[-1] == "finish"
    [answer] = result.messages
    assert answer.role == "assistant"
    assert [(part.type, part.data) for part in answer.content.parts] == [("data-verdict", {"ok": False})]  # type: ignore[union-attr]
    saved = await store.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "hi"), ("assistant", "")]
    assert [part.type for part in saved[-1].content.parts] == ["data-verdict"]
    await store.close()


# ----------------------------------------------------------------------------------------- kept and retracted steps
async def test_a_step_blocked_after_the_model_finished_keeps_its_text_usage_and_reason() -> None:
    guard = Abort("guard", "process_output_stream", reason="late", when=lambda a: a.part.type == "text-end")
    model = ScriptedModel([Turn(text="abc", usage=Usage(input_tokens=3, output_tokens=2))])
    chunks, result = await run_stream(make_agent(model, output_processors=[guard]))
    assert kinds(chunks)[-1] == "tripwire"
    [step] = result.steps
    assert (step.text, step.finish_reason) == ("abc", "tripwire")
    assert step.tripwire is not None
    assert step.tripwire.reason == "late"
    assert (step.usage.input_tokens, step.usage.output_tokens) == (3, 2)


async def test_a_step_retried_after_the_model_finished_keeps_its_text_and_usage_in_the_record() -> None:
    guard = Abort(
        "guard",
        "process_output_stream",
        reason="again",
        retry=True,
        when=lambda a: a.part.type == "text-end" and a.retry_count == 0,
    )
    model = ScriptedModel(
        [
            Turn(text="vague", usage=Usage(input_tokens=2, output_tokens=1)),
            Turn(text="precise", usage=Usage(input_tokens=3, output_tokens=2)),
        ]
    )
    _chunks, result = await run_stream(make_agent(model, output_processors=[guard], max_processor_retries=1))
    retried, accepted = result.steps
    assert (retried.finish_reason, retried.text, retried.rejected_text) == ("retry", "", "vague")
    assert (retried.usage.input_tokens, retried.usage.output_tokens) == (2, 1)
    assert accepted.text == "precise"
    assert (result.usage.input_tokens, result.usage.output_tokens) == (5, 3)


async def test_a_step_retracted_after_its_tools_ran_reports_no_calls_and_no_results() -> None:
    def scan(args: Any) -> None:
        if args.tool_call_id == "c2" and args.retry_count == 0:
            args.abort("suspicious result", retry=True)

    model = ScriptedModel(
        [
            Turn(
                text="Checking.",
                tool_calls=[
                    ToolCall("get_weather", {"city": "Oslo"}, id="c1"),
                    ToolCall("get_weather", {"city": "Rome"}, id="c2"),
                ],
            ),
            "Done.",
        ]
    )
    agent = make_agent(
        model, tools=[get_weather], output_processors=[Fn("scan", process_tool_result=scan)], max_processor_retries=1
    )
    _chunks, result = await run_stream(agent)
    retried, accepted = result.steps
    assert (retried.finish_reason, retried.text, retried.rejected_text) == ("retry", "", "Checking.")
    assert (retried.tool_calls, retried.tool_results) == ([], [])
    assert accepted.text == "Done."
    assert result.text == "Done."


# ----------------------------------------------------------------------------------------- the end
class City(BaseModel):
    city: str


async def test_a_structured_answer_is_read_into_the_model_class_given() -> None:
    model = ScriptedModel(['{"city": "Oslo"}'])
    _chunks, result = await run_stream(make_agent(model), structured_output={"schema": City})
    assert result.object == City(city="Oslo")


async def test_a_blocked_input_saves_nothing_of_the_turn(tmp_path: Path) -> None:
    store = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(
        id="a",
        model=ScriptedModel(["never"]),
        memory=store,
        input_processors=[Abort("gate", "process_input", reason="not here")],
    )
    chunks, result = await run_stream(agent, "a secret", thread_id="t1")
    assert kinds(chunks)[-1] == "tripwire"
    assert result.tripwire is not None
    assert await store.count_messages("t1") == 0
    await store.close()


async def test_an_input_processor_that_raises_saves_nothing_of_the_turn(tmp_path: Path) -> None:
    def broken(args: Any) -> Any:
        raise KeyError("missing")

    store = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(
        id="a", model=ScriptedModel(["never"]), memory=store, input_processors=[Fn("broken", process_input=broken)]
    )
    chunks, result = await run_stream(agent, "a question", thread_id="t1")
    assert kinds(chunks)[-1] == "error"
    assert result.error == "Processor 'broken' raised in process_input: KeyError: 'missing'"
    assert await store.count_messages("t1") == 0
    await store.close()


class BrokenStore:
    """A ``Memory`` whose disk is full."""

    async def load_messages(self, thread_id: str, *, resource_id: str | None = None) -> list[Message]:
        return []

    async def save_messages(
        self, thread_id: str, messages: Sequence[Message], *, resource_id: str | None = None
    ) -> None:
        raise OSError("disk full")


async def test_a_failed_save_is_logged_with_its_thread(caplog: pytest.LogCaptureFixture) -> None:
    agent = Agent(id="a", model=ScriptedModel(["the answer"]), memory=BrokenStore())
    with caplog.at_level(logging.ERROR, logger="processors.loop.run"):
        _chunks, result = await run_stream(agent, "hi", thread_id="t7")
    assert result.text == "the answer"
    records = [record for record in caplog.records if record.name == "processors.loop.run"]
    assert [record.getMessage() for record in records] == ["saving thread t7 failed"]
    assert records[0].exc_info is not None
    assert isinstance(records[0].exc_info[1], OSError)


async def test_a_saved_turn_leaves_nothing_in_the_event_loops_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(id="a", model=ScriptedModel(["the answer"]), memory=store)
    with caplog.at_level(logging.DEBUG, logger="asyncio"):
        _chunks, result = await run_stream(agent, "hi", thread_id="t1")
        await asyncio.sleep(0)  # one turn of the loop: the save task's done callbacks run
    assert result.text == "the answer"
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []
    assert await store.count_messages("t1") == 2
    await store.close()
