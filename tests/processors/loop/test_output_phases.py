"""The phases after the model's stream (``processors.loop.output_phases``), through whole agent runs:
``process_llm_response``, ``process_output_step`` and ``process_output_result``. What each is given, what its
results change, and how a tripwire or a broken result ends the run and what is kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors import Agent, Message
from processors.memory import SqlMemory
from processors.models import ScriptedModel
from processors.models.scripted import ToolCall, Turn
from processors.tracing import RecordingTracer
from processors.usage import Usage
from tests.processors.helpers import Abort, Fn, get_weather, kinds, make_agent, of_type, run_stream, terminal_count


def error_of(chunks: list[Any]) -> dict[str, Any]:
    assert terminal_count(chunks) == 1
    assert chunks[-1].type == "error"
    return chunks[-1].payload.error  # type: ignore[no-any-return]


def events_of(tracer: RecordingTracer, hook: str) -> list[Any]:
    return [event for event in tracer.events if event.hook == hook]


# ----------------------------------------------------------------------------------------- process_llm_response
async def test_process_llm_response_sees_the_steps_raw_chunks() -> None:
    seen: list[tuple[int, bool, list[str]]] = []

    def record(args: Any) -> None:
        seen.append((args.step_number, args.from_cache, [chunk["type"] for chunk in args.chunks]))
        assert (args.model.model_id, len(args.steps), args.retry_count) == ("scripted", 1, 0)

    agent = make_agent(ScriptedModel([Turn(text=["a", "b"])]), input_processors=[Fn("r", process_llm_response=record)])
    await run_stream(agent)
    [(step, from_cache, types)] = seen
    assert (step, from_cache) == (0, False)
    assert types.count("text-delta") == 2
    assert types[-1] == "finish"


async def test_a_value_from_process_llm_response_ends_the_run_naming_the_processor() -> None:
    agent = make_agent(ScriptedModel(["ok"]), input_processors=[Fn("r", process_llm_response=lambda args: {"x": 1})])
    chunks, result = await run_stream(agent)
    error = error_of(chunks)
    assert error["message"] == (
        "Processor 'r' returned dict from process_llm_response, which returns nothing (None); the chunks it is "
        "given are a record of what was streamed"
    )
    assert (error["processorId"], error["hook"]) == ("r", "process_llm_response")
    assert result.finish_reason == "error"


async def test_a_tripwire_in_process_llm_response_ends_the_run() -> None:
    agent = make_agent(ScriptedModel(["ok"]), input_processors=[Abort("resp-guard", "process_llm_response")])
    chunks, result = await run_stream(agent)
    assert chunks[-1].type == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.processor_id == "resp-guard"


async def test_the_trace_of_process_llm_response_counts_the_chunks_and_says_when_cached() -> None:
    tracer = RecordingTracer()
    agent = make_agent(
        ScriptedModel([Turn(text=["a", "b"])]), input_processors=[Fn("r", process_llm_response=lambda a: None)]
    )
    await run_stream(agent, tracers=[tracer])
    [event] = events_of(tracer, "process_llm_response")
    assert event.before.endswith(" chunks")
    assert int(event.before.split()[0]) >= 3

    tracer = RecordingTracer()
    cached = [{"type": "text-delta", "payload": {"id": "t", "text": "c"}}]
    cache = Fn(
        "cache",
        process_llm_request=lambda args: {"response": {"chunks": cached}},
        process_llm_response=lambda args: None,
    )
    await run_stream(make_agent(ScriptedModel([]), input_processors=[cache]), tracers=[tracer])
    [event] = events_of(tracer, "process_llm_response")
    assert event.before.endswith(" chunks (from cache)")


# ----------------------------------------------------------------------------------------- process_output_step
async def test_process_output_step_sees_the_steps_answer() -> None:
    seen: list[dict[str, Any]] = []

    def record(args: Any) -> None:
        seen.append(
            {
                "step": args.step_number,
                "text": args.text,
                "finish": args.finish_reason,
                "calls": [call["tool_name"] for call in args.tool_calls],
                "output_tokens": args.usage.output_tokens,
                "steps": len(args.steps),
            }
        )

    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"})], usage=Usage(input_tokens=1, output_tokens=2)),
            Turn(text="Sunny.", usage=Usage(input_tokens=3, output_tokens=4)),
        ]
    )
    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("r", process_output_step=record)])
    await run_stream(agent)
    assert seen == [
        {"step": 0, "text": "", "finish": "tool-calls", "calls": ["get_weather"], "output_tokens": 2, "steps": 1},
        {"step": 1, "text": "Sunny.", "finish": "stop", "calls": [], "output_tokens": 4, "steps": 2},
    ]


async def test_a_tripwire_in_process_output_step_ends_with_the_steps_finish_then_the_tripwire() -> None:
    agent = make_agent(ScriptedModel(["the answer"]), output_processors=[Abort("step-guard", "process_output_step")])
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-2:] == ["step-finish", "tripwire"]
    step_finish = chunks[-2]
    [step_start] = of_type(chunks, "step-start")
    assert step_finish.payload.message_id == step_start.payload.message_id  # type: ignore[union-attr]
    assert step_finish.payload.step_result.reason == "tripwire"  # type: ignore[union-attr]
    assert step_finish.payload.step_result.is_continued is False  # type: ignore[union-attr]
    assert step_finish.payload.output.text == "the answer"  # type: ignore[union-attr]
    assert result.finish_reason == "other"
    assert result.text == "the answer"
    [step] = result.steps
    assert step.finish_reason == "tripwire"
    assert step.tripwire is not None
    assert step.tripwire.processor_id == "step-guard"


async def test_a_broken_process_output_step_result_keeps_the_text_streamed() -> None:
    agent = make_agent(ScriptedModel(["the answer"]), output_processors=[Fn("bad", process_output_step=lambda a: 42)])
    chunks, result = await run_stream(agent)
    error = error_of(chunks)
    assert (error["processorId"], error["hook"]) == ("bad", "process_output_step")
    assert result.text == "the answer"
    assert result.finish_reason == "error"


async def test_process_output_step_writes_are_streamed_before_the_step_finishes() -> None:
    def note(args: Any) -> None:
        args.writer.custom({"type": "data-step-note", "data": args.step_number})

    writers = [Fn("n", process_output_step=note), Fn("m", process_output_step=note)]
    chunks, _result = await run_stream(make_agent(ScriptedModel(["ok"]), output_processors=writers))
    types = kinds(chunks)
    assert types.count("data-step-note") == 2
    assert types.index("data-step-note") < types.index("step-finish")


async def test_the_trace_of_process_output_step_tells_a_rewrite() -> None:
    def rewrite(args: Any) -> Any:
        last = args.messages[-1]
        return [*args.messages[:-1], Message.assistant("rewritten", id=last.id)]

    tracer = RecordingTracer()
    agent = make_agent(ScriptedModel(["original"]), output_processors=[Fn("rw", process_output_step=rewrite)])
    _chunks, result = await run_stream(agent, tracers=[tracer])
    assert result.text == "rewritten"
    [event] = events_of(tracer, "process_output_step")
    assert event.outcome == "changed"
    assert event.before != event.after


# ----------------------------------------------------------------------------------------- process_output_result
async def test_process_output_result_sees_the_runs_result() -> None:
    seen: list[Any] = []

    def record(args: Any) -> None:
        seen.append(
            (
                args.result.text,
                args.result.finish_reason,
                args.result.usage.output_tokens,
                len(args.result.steps),
                [m.text for m in args.messages],
                args.retry_count,
            )
        )

    model = ScriptedModel([Turn(text="all done", usage=Usage(input_tokens=5, output_tokens=7))])
    agent = make_agent(model, output_processors=[Fn("r", process_output_result=record)])
    await run_stream(agent)
    assert seen == [("all done", "stop", 7, 1, ["all done"], 0)]


async def test_a_rewritten_final_answer_is_the_results_text() -> None:
    def rewrite(args: Any) -> Any:
        last = args.messages[-1]
        return [*args.messages[:-1], Message.assistant("final, rewritten", id=last.id)]

    agent = make_agent(ScriptedModel(["draft"]), output_processors=[Fn("rw", process_output_result=rewrite)])
    _chunks, result = await run_stream(agent)
    assert result.text == "final, rewritten"
    assert [m.text for m in result.messages] == ["final, rewritten"]


async def test_an_unchanged_final_answer_keeps_every_steps_text() -> None:
    model = ScriptedModel([Turn(text="Checking. ", tool_calls=[ToolCall("get_weather", {"city": "Oslo"})]), "Sunny."])
    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("r", process_output_result=lambda a: None)])
    _chunks, result = await run_stream(agent)
    assert result.text == "Checking. Sunny."


async def test_a_rejected_final_answer_is_not_saved_and_leaves_no_text(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(
        id="a",
        model=ScriptedModel(["the answer"]),
        memory=memory,
        output_processors=[Abort("final-guard", "process_output_result")],
    )
    chunks, result = await run_stream(agent, "question", thread_id="t1")
    assert chunks[-1].type == "tripwire"
    assert result.text == ""
    assert result.finish_reason == "other"
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "question")]
    await memory.close()


async def test_a_broken_process_output_result_ends_with_an_error() -> None:
    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("bad", process_output_result=lambda a: 42)])
    chunks, result = await run_stream(agent)
    error = error_of(chunks)
    assert (error["processorId"], error["hook"]) == ("bad", "process_output_result")
    assert result.finish_reason == "error"


async def test_process_output_result_writes_are_streamed_and_kept_on_the_answer() -> None:
    def note(args: Any) -> None:
        args.writer.custom({"type": "data-summary", "data": {"chars": len(args.result.text)}})

    writers = [Fn("n", process_output_result=note), Fn("m", process_output_result=note)]
    chunks, result = await run_stream(make_agent(ScriptedModel(["four"]), output_processors=writers))
    assert [data.data for data in of_type(chunks, "data-summary")] == [{"chars": 4}, {"chars": 4}]  # type: ignore[union-attr]
    assert kinds(chunks).index("data-summary") < kinds(chunks).index("finish")
    parts = [part for part in result.messages[-1].content.parts if part.type == "data-summary"]
    assert [part.data for part in parts] == [{"chars": 4}, {"chars": 4}]  # type: ignore[union-attr]


async def test_process_output_step_sees_the_messages_and_the_system_messages() -> None:
    seen: list[Any] = []

    def record(args: Any) -> None:
        seen.append(([m.role for m in args.messages], [m["content"] for m in args.system_messages]))

    agent = make_agent(ScriptedModel(["ok"]), output_processors=[Fn("r", process_output_step=record)])
    await run_stream(agent, "hi")
    assert seen == [(["user", "assistant"], ["You are terse."])]


async def test_a_message_process_output_result_adds_is_part_of_the_answer(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")

    def add(args: Any) -> Any:
        return [*args.messages, Message.assistant("P.S. checked.")]

    agent = Agent(
        id="a",
        model=ScriptedModel(["the answer"]),
        memory=memory,
        output_processors=[Fn("ps", process_output_result=add)],
    )
    _chunks, result = await run_stream(agent, "q", thread_id="t1")
    # merged into the answer as a second text part (Mastra merges consecutive assistant messages)
    assert [(m.role, m.text) for m in result.messages] == [("assistant", "the answerP.S. checked.")]
    assert result.text == "the answerP.S. checked."
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "q"), ("assistant", "the answerP.S. checked.")]
    await memory.close()


async def test_a_run_whose_answer_a_processor_removed_ends_with_no_text() -> None:
    # As when only the answer's text parts are removed (tests/processors/loop/test_output_step_results.py): what
    # the processors left of the step's answer is its text; the deltas were streamed, the result does not keep them.
    def remove_answer(args: Any) -> Any:
        return [m for m in args.messages if m.role != "assistant"]

    seen: list[int] = []
    agent = make_agent(
        ScriptedModel(["streamed"]),
        output_processors=[
            Fn("remove", process_output_step=remove_answer),
            Fn("count", process_output_result=lambda args: seen.append(len(args.messages))),
        ],
    )
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-1] == "finish"
    assert seen == [0]
    assert result.messages == []
    assert result.text == ""
    assert result.steps[0].text == ""


async def test_a_final_answer_removed_by_process_output_result_leaves_no_text() -> None:
    """The result follows what the processors left (as the thread does): no answer, no text."""

    def remove_answer(args: Any) -> Any:
        return [m for m in args.messages if m.role != "assistant"]

    agent = make_agent(
        ScriptedModel(["streamed"]), output_processors=[Fn("remove", process_output_result=remove_answer)]
    )
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-1] == "finish"
    assert result.messages == []
    assert result.text == ""


async def test_the_trace_of_process_output_result_describes_the_messages() -> None:
    def rewrite(args: Any) -> Any:
        last = args.messages[-1]
        return [*args.messages[:-1], Message.assistant("rewritten", id=last.id)]

    tracer = RecordingTracer()
    processors = [Fn("look", process_output_result=lambda args: None), Fn("rw", process_output_result=rewrite)]
    await run_stream(make_agent(ScriptedModel(["original"]), output_processors=processors), tracers=[tracer])
    look, rw = events_of(tracer, "process_output_result")
    assert (look.outcome, rw.outcome) == ("passed", "changed")
    assert look.before
    assert look.before == look.after
    assert rw.before != rw.after


async def test_process_llm_response_reaches_a_processor_after_one_without_it() -> None:
    seen: list[int] = []
    agent = make_agent(
        ScriptedModel(["ok"]),
        input_processors=[
            Fn("other", process_input=lambda args: None),
            Fn("r", process_llm_response=lambda args: seen.append(args.step_number)),
        ],
    )
    await run_stream(agent)
    assert seen == [0]


async def test_a_message_process_output_step_adds_is_saved_with_the_answer(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")

    def add(args: Any) -> Any:
        return [*args.messages, Message.assistant(" (checked)")]

    agent = Agent(
        id="a", model=ScriptedModel(["answer"]), memory=memory, output_processors=[Fn("add", process_output_step=add)]
    )
    _chunks, result = await run_stream(agent, "q", thread_id="t1")
    assert [(m.role, m.text) for m in result.messages] == [("assistant", "answer (checked)")]
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "q"), ("assistant", "answer (checked)")]
    await memory.close()
