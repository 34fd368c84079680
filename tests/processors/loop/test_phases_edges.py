"""The phases before the model (``processors.loop.phases``) at their edges, through whole agent runs: a processor
without a phase's hook does not stop the ones after it, messages a hook adds are the turn's input (they are saved
and the next processor sees them), a ``messages`` or ``message_list`` override is checked like a returned list, and
the trace tells whether ``process_input_step`` changed anything, in place or through its result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors import Agent, Message, MessageList
from processors.memory import SqlMemory
from processors.models import ScriptedModel
from processors.tracing import RecordingTracer
from tests.processors.helpers import Fn, make_agent, run_stream, terminal_count


def error_of(chunks: list[Any]) -> dict[str, Any]:
    assert terminal_count(chunks) == 1
    assert chunks[-1].type == "error"
    return chunks[-1].payload.error  # type: ignore[no-any-return]


def texts(messages: list[Message]) -> list[tuple[str, str]]:
    return [(m.role, m.text) for m in messages]


# ------------------------------------------------------------------------------------- a processor without the hook
async def test_process_input_reaches_a_processor_after_one_without_it() -> None:
    seen: list[str] = []
    agent = make_agent(
        ScriptedModel(["ok"]),
        input_processors=[
            Fn("step-only", process_input_step=lambda args: None),
            Fn("input", process_input=lambda args: seen.append(args.messages[-1].text)),
        ],
    )
    await run_stream(agent, "question")
    assert seen == ["question"]


# ----------------------------------------------------------------------------------------- messages a hook adds
def memory_at(tmp_path: Path) -> SqlMemory:
    return SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")


async def test_a_message_process_input_adds_is_input_saved_with_the_turn_and_seen_by_the_next(tmp_path: Path) -> None:
    memory = memory_at(tmp_path)
    seen: list[list[str]] = []
    add = Fn("add", process_input=lambda args: [*args.messages, Message.user("a note")])
    look = Fn("look", process_input=lambda args: seen.append([m.text for m in args.messages]))
    agent = Agent(id="a", model=ScriptedModel(["ok"]), memory=memory, input_processors=[add, look])
    await run_stream(agent, "hi", thread_id="t1")
    assert seen == [["hi", "a note"]]
    assert texts(await memory.all_messages("t1")) == [("user", "hi"), ("user", "a note"), ("assistant", "ok")]
    await memory.close()


async def test_a_message_added_through_process_inputs_messages_key_is_input_too(tmp_path: Path) -> None:
    memory = memory_at(tmp_path)
    add = Fn("add", process_input=lambda args: {"messages": [*args.messages, Message.user("a note")]})
    agent = Agent(id="a", model=ScriptedModel(["ok"]), memory=memory, input_processors=[add])
    await run_stream(agent, "hi", thread_id="t1")
    assert texts(await memory.all_messages("t1")) == [("user", "hi"), ("user", "a note"), ("assistant", "ok")]
    await memory.close()


async def test_a_message_process_input_step_returns_is_input_saved_with_the_turn(tmp_path: Path) -> None:
    memory = memory_at(tmp_path)
    add = Fn("add", process_input_step=lambda args: [*args.messages, Message.user("a note")])
    agent = Agent(id="a", model=ScriptedModel(["ok"]), memory=memory, input_processors=[add])
    await run_stream(agent, "hi", thread_id="t1")
    assert texts(await memory.all_messages("t1")) == [("user", "hi"), ("user", "a note"), ("assistant", "ok")]
    await memory.close()


async def test_a_message_in_process_input_steps_messages_override_is_input_saved_with_the_turn(tmp_path: Path) -> None:
    memory = memory_at(tmp_path)
    model = ScriptedModel(["ok"])

    def add(args: Any) -> Any:
        return {"messages": [*args.messages, Message.user("a note")], "tool_choice": "none"}

    agent = Agent(id="a", model=model, memory=memory, input_processors=[Fn("add", process_input_step=add)])
    await run_stream(agent, "hi", thread_id="t1")
    assert [m["content"] for m in model.requests[0].messages] == ["hi", "a note"]
    assert texts(await memory.all_messages("t1")) == [("user", "hi"), ("user", "a note"), ("assistant", "ok")]
    await memory.close()


# ----------------------------------------------------------------------------------------- overrides checked as results
async def test_a_messages_override_that_is_not_a_list_is_refused_naming_the_processor_and_hook() -> None:
    model = ScriptedModel(["never"])
    bad = Fn("bad", process_input_step=lambda args: {"messages": "hello"})
    chunks, result = await run_stream(make_agent(model, input_processors=[bad]))
    error = error_of(chunks)
    assert error["message"] == (
        "Processor 'bad' returned str from process_input_step; expected a list of messages, the message_list, or None"
    )
    assert (error["name"], error["processorId"], error["hook"]) == (
        "ProcessorContractError",
        "bad",
        "process_input_step",
    )
    assert model.requests == []
    assert result.finish_reason == "error"


async def test_another_message_list_as_the_message_list_override_is_refused() -> None:
    model = ScriptedModel(["never"])
    other = Fn("other", process_input_step=lambda args: {"message_list": MessageList()})
    chunks, _result = await run_stream(make_agent(model, input_processors=[other]))
    error = error_of(chunks)
    assert error["message"] == (
        "Processor 'other' returned a different MessageList from process_input_step: mutate and return the "
        "message_list it was given, or return a list of messages"
    )
    assert (error["processorId"], error["hook"]) == ("other", "process_input_step")
    assert model.requests == []


# --------------------------------------------------------------------------------- the trace of process_input_step
async def test_the_trace_tells_whether_process_input_step_changed_the_messages_or_the_step() -> None:
    tracer = RecordingTracer()

    def in_place(args: Any) -> None:
        args.message_list.add(Message.user("added in place"), "input")

    processors = [
        Fn("in-place", process_input_step=in_place),
        Fn("same-list", process_input_step=lambda args: {"message_list": args.message_list}),
        Fn("same-choice", process_input_step=lambda args: {"tool_choice": None}),
        Fn("nothing", process_input_step=lambda args: {}),
        Fn("choice", process_input_step=lambda args: {"tool_choice": "none"}),
    ]
    await run_stream(make_agent(ScriptedModel(["ok"]), input_processors=processors), tracers=[tracer])
    events = [event for event in tracer.events if event.hook == "process_input_step"]
    assert [(event.processor_id, event.outcome) for event in events] == [
        ("in-place", "changed"),
        ("same-list", "passed"),
        ("same-choice", "passed"),
        ("nothing", "passed"),
        ("choice", "changed"),
    ]
