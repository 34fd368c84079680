"""What a ``process_output_step`` processor can do to the step's tool calls, through whole agent runs.

The tools run with the model's calls as streamed (Mastra takes them from the stream before the hook and never
reads them back). So an edit of a call's arguments, name or state in the list, a call added in state ``call``,
or an edit of ``args.tool_calls`` / ``args.text`` (records of the model's step) ends the run with a
``ProcessorContractError`` naming the processor and the call, before any tool runs: the processor's author
learns why, and a guardrail that meant to sanitise the arguments never has the tool run with the originals.
Removing a call is honoured: it does not run. Each test asserts what the tool received, the chunks streamed,
the result, the saved thread and the trace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors import Agent, Message, tool
from processors.memory import SqlMemory
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import Fn, kinds, of_type, run_stream

RAN: list[dict[str, Any]] = []


@tool
def lookup(city: str) -> str:
    """Look a city up.

    Args:
        city: The city.
    """
    RAN.append({"city": city})
    return f"Sunny in {city}"


def model(*calls: ToolCall) -> ScriptedModel:
    return ScriptedModel([Turn(text="Checking.", tool_calls=list(calls)), "Done."])


def paris() -> ToolCall:
    return ToolCall("lookup", {"city": "Paris"}, id="c1")


def invocation_parts(message: Message) -> list[Any]:
    return [part for part in message.content.parts if part.type == "tool-invocation"]


async def refused(tmp_path: Path, edit: Any, *calls: ToolCall) -> tuple[list[Any], Any, list[Message], Any]:
    """Run ``edit`` as a process_output_step processor over ``calls``; return chunks, result, thread, trace event."""
    RAN.clear()
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    tracer = RecordingTracer()
    agent = Agent(
        id="a",
        model=model(*(calls or (paris(),))),
        tools=[lookup],
        memory=memory,
        output_processors=[Fn("guard", process_output_step=edit)],
    )
    chunks, result = await run_stream(agent, "weather?", thread_id="t1", tracers=[tracer])
    saved = await memory.all_messages("t1")
    await memory.close()
    [event] = [e for e in tracer.events if e.hook == "process_output_step"]
    return chunks, result, saved, event


def assert_refused(chunks: list[Any], result: Any, event: Any, message: str) -> None:
    assert RAN == []  # no tool ran, with either arguments
    assert kinds(chunks)[-1] == "error"
    assert not of_type(chunks, "tool-result")
    assert not of_type(chunks, "step-finish")
    error = chunks[-1].payload.error
    assert (error["processorId"], error["hook"]) == ("guard", "process_output_step")
    assert error["message"] == message
    assert result.finish_reason == "error"
    assert result.text == "Checking."
    assert (event.outcome, event.detail) == ("raised", message)


def changed(what: str, call: str = "c1", name: str = "lookup") -> str:
    return (
        f"Processor 'guard' changed the {what} of tool call '{call}' ({name}) in process_output_step; the tool runs "
        "with the model's call as streamed, so the change would be ignored. Change the tool-call chunk in "
        "process_output_stream instead, or remove the call from the message list (or abort) to stop it"
    )


# ------------------------------------------------------------------------------------------ refused edits
async def test_arguments_edited_in_place_in_the_messages_are_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        invocation_parts(args.messages[-1])[0].tool_invocation.args["city"] = "Oslo"
        return args.message_list

    chunks, result, saved, event = await refused(tmp_path, edit)
    assert_refused(chunks, result, event, changed("arguments"))
    # the streamed tool-call chunk still says what the model asked for
    assert [c.payload.args for c in of_type(chunks, "tool-call")] == [{"city": "Paris"}]  # type: ignore[union-attr]
    # the thread keeps the turn as the processor left it: the call never ran, so it is answered with why
    assert [(m.role, m.text) for m in saved] == [("user", "weather?"), ("assistant", "Checking.")]
    [part] = invocation_parts(saved[-1])
    assert (part.tool_invocation.state, part.tool_invocation.args) == ("output-error", {"city": "Oslo"})
    assert part.tool_invocation.error_text == "No result: the run ended before this tool call was answered (it failed)"


async def test_arguments_replaced_with_update_tool_invocation_are_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> None:
        args.message_list.update_tool_invocation(
            {
                "type": "tool-invocation",
                "tool_invocation": {
                    "state": "call",
                    "tool_call_id": "c1",
                    "tool_name": "lookup",
                    "args": {"city": "X"},
                },
            }
        )

    chunks, result, _saved, event = await refused(tmp_path, edit)
    assert_refused(chunks, result, event, changed("arguments"))


async def test_arguments_edited_in_a_returned_copy_of_the_answer_are_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        answer = args.messages[-1].model_copy(deep=True)
        invocation_parts(answer)[0].tool_invocation.args = {"city": "Oslo"}
        return [*args.messages[:-1], answer]

    chunks, result, _saved, event = await refused(tmp_path, edit)
    assert_refused(chunks, result, event, changed("arguments"))


async def test_a_renamed_call_is_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        invocation_parts(args.messages[-1])[0].tool_invocation.tool_name = "other"
        return args.message_list

    chunks, result, _saved, event = await refused(tmp_path, edit)
    assert_refused(chunks, result, event, changed("tool name"))


async def test_a_result_filled_in_for_a_pending_call_is_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        invocation = invocation_parts(args.messages[-1])[0].tool_invocation
        invocation.state, invocation.result = "result", "cached"
        return args.message_list

    chunks, result, _saved, event = await refused(tmp_path, edit)
    assert_refused(chunks, result, event, changed("state"))


async def test_the_second_of_two_calls_is_named(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        invocation_parts(args.messages[-1])[1].tool_invocation.args = {"city": "Oslo"}
        return args.message_list

    second = ToolCall("lookup", {"city": "Rome"}, id="c2")
    chunks, result, _saved, event = await refused(tmp_path, edit, paris(), second)
    assert_refused(chunks, result, event, changed("arguments", call="c2"))


async def test_a_call_added_in_state_call_is_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        added = {"role": "assistant", "content": None, "tool_calls": [{"id": "new", "function": {"name": "lookup"}}]}
        added["tool_calls"][0]["function"]["arguments"] = '{"city": "Oslo"}'
        return [*args.messages, added]

    chunks, result, _saved, event = await refused(tmp_path, edit)
    message = (
        "Processor 'guard' added tool call 'new' in process_output_step; only the model's calls run, so it would "
        "stay without a result. Add a tool invocation with its result instead"
    )
    assert_refused(chunks, result, event, message)


async def test_an_edit_of_args_tool_calls_is_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> None:
        args.tool_calls[0]["args"]["city"] = "Oslo"

    chunks, result, _saved, event = await refused(tmp_path, edit)
    message = (
        "Processor 'guard' changed args.tool_calls in process_output_step, which is a record of the model's calls; "
        "change the tool-call chunk in process_output_stream instead, or remove the call from the message list "
        "(or abort) to stop it"
    )
    assert_refused(chunks, result, event, message)


async def test_an_edit_of_args_text_is_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> None:
        args.text = "Rewritten."

    chunks, result, _saved, event = await refused(tmp_path, edit)
    message = (
        "Processor 'guard' changed args.text in process_output_step, which is a record of what the model said; "
        "rewrite the answer's text parts in the message list (args.messages) instead"
    )
    assert_refused(chunks, result, event, message)


# ------------------------------------------------------------------------------------------ what works
async def test_a_processor_that_only_reads_the_calls_lets_them_run(tmp_path: Path) -> None:
    RAN.clear()
    seen: list[Any] = []

    def look(args: Any) -> Any:
        seen.append([dict(call) for call in args.tool_calls])
        return [*args.messages]  # an array of the same messages: no change

    tracer = RecordingTracer()
    agent = Agent(
        id="a", model=model(paris()), tools=[lookup], output_processors=[Fn("look", process_output_step=look)]
    )
    chunks, result = await run_stream(agent, tracers=[tracer])
    assert RAN == [{"city": "Paris"}]
    assert seen[0] == [{"tool_call_id": "c1", "tool_name": "lookup", "args": {"city": "Paris"}}]
    assert [c.payload.result for c in of_type(chunks, "tool-result")] == ["Sunny in Paris"]  # type: ignore[union-attr]
    assert result.text == "Checking.Done."
    assert [e.outcome for e in tracer.events if e.hook == "process_output_step"] == ["passed", "passed"]


async def test_a_removed_call_does_not_run(tmp_path: Path) -> None:
    RAN.clear()
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")

    def remove(args: Any) -> Any:
        answer = args.messages[-1]
        answer.content.parts = [p for p in answer.content.parts if p.type != "tool-invocation"]
        return args.message_list

    calls = [paris(), ToolCall("lookup", {"city": "Rome"}, id="c2")]
    agent = Agent(
        id="a",
        model=ScriptedModel([Turn(text="Checking.", tool_calls=calls[:1])]),
        tools=[lookup],
        memory=memory,
        output_processors=[Fn("rm", process_output_step=remove)],
    )
    chunks, result = await run_stream(agent, "weather?", thread_id="t1")
    assert RAN == []
    assert kinds(chunks)[-1] == "finish"
    assert not of_type(chunks, "tool-result")
    assert result.steps[0].tool_calls == []
    assert result.text == "Checking."
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text, invocation_parts(m)) for m in saved] == [
        ("user", "weather?", []),
        ("assistant", "Checking.", []),
    ]
    await memory.close()


async def test_changing_the_tool_call_chunk_in_the_stream_changes_what_the_tool_runs_with() -> None:
    """The way the error points to: a stream processor's ``tool-call`` chunk is what the client sees and what
    the tool runs with."""
    RAN.clear()

    def redirect(args: Any) -> Any:
        part = args.part
        if part.type == "tool-call":
            return part.model_copy(update={"payload": part.payload.model_copy(update={"args": {"city": "Oslo"}})})
        return part

    agent = Agent(
        id="a", model=model(paris()), tools=[lookup], output_processors=[Fn("s", process_output_stream=redirect)]
    )
    chunks, result = await run_stream(agent)
    assert RAN == [{"city": "Oslo"}]
    assert [c.payload.args for c in of_type(chunks, "tool-call")] == [{"city": "Oslo"}]  # type: ignore[union-attr]
    [invocation] = [part.tool_invocation for part in invocation_parts(result.messages[-1])]
    assert (invocation.args, invocation.result) == ({"city": "Oslo"}, "Sunny in Oslo")


async def test_an_edit_after_a_removed_call_is_still_refused(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        answer = args.messages[-1]
        first, second = invocation_parts(answer)
        answer.content.parts.remove(first)  # refusing the first call is allowed ...
        second.tool_invocation.args = {"city": "Oslo"}  # ... editing the second is not
        return args.message_list

    second = ToolCall("lookup", {"city": "Rome"}, id="c2")
    chunks, result, _saved, event = await refused(tmp_path, edit, paris(), second)
    assert_refused(chunks, result, event, changed("arguments", call="c2"))


async def test_a_streamed_tool_call_chunk_changed_afterwards_is_refused(tmp_path: Path) -> None:
    """A processor that kept the ``tool-call`` chunk from ``process_output_stream`` and edits it in
    ``process_output_step``: the client already has the chunk as it was, so this is an edit of the call too."""

    def keep(args: Any) -> Any:
        if args.part.type == "tool-call":
            args.state["call"] = args.part
        return args.part

    def edit(args: Any) -> None:
        args.state["call"].payload.args["city"] = "Oslo"

    RAN.clear()
    tracer = RecordingTracer()
    agent = Agent(
        id="a",
        model=model(paris()),
        tools=[lookup],
        output_processors=[Fn("guard", process_output_stream=keep, process_output_step=edit)],
    )
    chunks, result = await run_stream(agent, tracers=[tracer])
    [event] = [e for e in tracer.events if e.hook == "process_output_step"]
    assert_refused(chunks, result, event, changed("arguments"))


async def test_a_call_changed_alike_in_the_kept_chunk_and_in_the_list_is_refused(tmp_path: Path) -> None:
    """Both records changed the same way still differ from the call the model made and the client was sent."""

    def keep(args: Any) -> Any:
        if args.part.type == "tool-call":
            args.state["call"] = args.part
        return args.part

    def edit(args: Any) -> Any:
        args.state["call"].payload.args["city"] = "Oslo"
        invocation_parts(args.messages[-1])[0].tool_invocation.args = {"city": "Oslo"}
        return args.message_list

    RAN.clear()
    tracer = RecordingTracer()
    agent = Agent(
        id="a",
        model=model(paris()),
        tools=[lookup],
        output_processors=[Fn("guard", process_output_stream=keep, process_output_step=edit)],
    )
    chunks, result = await run_stream(agent, tracers=[tracer])
    [event] = [e for e in tracer.events if e.hook == "process_output_step"]
    assert_refused(chunks, result, event, changed("arguments"))
