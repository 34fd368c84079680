"""What each form of a ``process_output_step`` result does to the step's answer, through whole agent runs.

The step's text is what the processors left of its answer in the message list: an in-place edit, removed text
parts, a removed answer (``""``, as removed text parts), an answer replaced by a new message (an OpenAI-style
``{"role": "assistant", "content": ...}`` dict too) or by one with the same id, in a single step or in a later
step of a tool loop. Each test asserts the deltas streamed (the model's, already sent), the ``step-finish`` and
``finish`` chunks' text, the result, the saved thread or the next prompt, and the trace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors import Agent, Message
from processors.memory import SqlMemory
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import Fn, get_weather, kinds, of_type, run_stream, streamed_text


async def one_step(tmp_path: Path, edit: Any, answer: str = "The model's answer.") -> tuple[Any, Any, Any, Any]:
    """One step answering ``answer``, ``edit`` as its process_output_step; chunks, result, saved thread, trace."""
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    tracer = RecordingTracer()
    agent = Agent(
        id="a", model=ScriptedModel([answer]), memory=memory, output_processors=[Fn("p", process_output_step=edit)]
    )
    chunks, result = await run_stream(agent, "q", thread_id="t1", tracers=[tracer])
    saved = await memory.all_messages("t1")
    await memory.close()
    [event] = [e for e in tracer.events if e.hook == "process_output_step"]
    return chunks, result, saved, event


def texts_told(chunks: list[Any]) -> tuple[list[str], str]:
    """The text each ``step-finish`` chunk carries, and the ``finish`` chunk's."""
    steps = [chunk.payload.output.text for chunk in of_type(chunks, "step-finish")]
    [finish] = of_type(chunks, "finish")
    return steps, finish.payload.output.text  # type: ignore[union-attr]


def text_parts(message: Message) -> list[str]:
    return [part.text for part in message.content.parts if part.type == "text"]  # type: ignore[union-attr]


# ------------------------------------------------------------------------------------------ one step
async def test_an_in_place_edit_of_the_text_is_the_steps_text(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        for part in args.messages[-1].content.parts:
            if part.type == "text":
                part.text = "Edited."
        return args.message_list

    chunks, result, saved, event = await one_step(tmp_path, edit)
    assert streamed_text(chunks) == "The model's answer."
    assert texts_told(chunks) == (["Edited."], "Edited.")
    assert (result.text, result.steps[0].text) == ("Edited.", "Edited.")
    assert [(m.role, m.text) for m in saved] == [("user", "q"), ("assistant", "Edited.")]
    assert event.outcome == "changed"


async def test_removed_text_parts_leave_the_step_no_text(tmp_path: Path) -> None:
    def strip(args: Any) -> Any:
        answer = args.messages[-1]
        answer.content.parts = [part for part in answer.content.parts if part.type != "text"]
        answer.content.content = None
        return args.message_list

    chunks, result, saved, event = await one_step(tmp_path, strip)
    assert streamed_text(chunks) == "The model's answer."
    assert texts_told(chunks) == ([""], "")
    assert (result.text, result.steps[0].text) == ("", "")
    assert [(m.role, text_parts(m)) for m in saved] == [("user", ["q"]), ("assistant", [])]
    assert event.outcome == "changed"


async def test_a_removed_answer_leaves_the_step_no_text(tmp_path: Path) -> None:
    def remove(args: Any) -> Any:
        return [m for m in args.messages if m.role != "assistant"]

    chunks, result, saved, event = await one_step(tmp_path, remove)
    assert kinds(chunks)[-1] == "finish"
    assert streamed_text(chunks) == "The model's answer."
    assert texts_told(chunks) == ([""], "")
    assert (result.text, result.steps[0].text, result.messages) == ("", "", [])
    assert [(m.role, m.text) for m in saved] == [("user", "q")]
    assert event.outcome == "changed"


async def test_an_answer_removed_from_the_message_list_leaves_the_step_no_text(tmp_path: Path) -> None:
    def remove(args: Any) -> Any:
        args.message_list.remove_by_ids([args.messages[-1].id])
        return args.message_list

    chunks, result, saved, _event = await one_step(tmp_path, remove)
    assert texts_told(chunks) == ([""], "")
    assert (result.text, result.messages) == ("", [])
    assert [m.role for m in saved] == ["user"]


async def test_an_answer_replaced_by_an_openai_style_message_is_the_steps_text(tmp_path: Path) -> None:
    def replace(args: Any) -> Any:
        return [*args.messages[:-1], {"role": "assistant", "content": "Replaced."}]

    chunks, result, saved, event = await one_step(tmp_path, replace)
    assert kinds(chunks)[-1] == "finish"
    assert streamed_text(chunks) == "The model's answer."
    assert texts_told(chunks) == (["Replaced."], "Replaced.")
    assert (result.text, result.steps[0].text) == ("Replaced.", "Replaced.")
    assert [(m.role, m.text) for m in result.messages] == [("assistant", "Replaced.")]
    assert [(m.role, m.text) for m in saved] == [("user", "q"), ("assistant", "Replaced.")]
    assert event.outcome == "changed"


async def test_an_answer_replaced_by_a_message_with_its_id_is_the_steps_text(tmp_path: Path) -> None:
    def replace(args: Any) -> Any:
        return [*args.messages[:-1], Message.assistant("Same id.", id=args.messages[-1].id)]

    chunks, result, saved, _event = await one_step(tmp_path, replace)
    assert texts_told(chunks) == (["Same id."], "Same id.")
    assert result.text == "Same id."
    assert [(m.role, m.text) for m in saved] == [("user", "q"), ("assistant", "Same id.")]


async def test_an_answer_replaced_by_an_empty_message_has_no_text(tmp_path: Path) -> None:
    def replace(args: Any) -> Any:
        return [*args.messages[:-1], {"role": "assistant", "content": ""}]

    chunks, result, _saved, _event = await one_step(tmp_path, replace)
    assert texts_told(chunks) == ([""], "")
    assert result.text == ""


async def test_an_invalid_message_in_the_array_names_the_processor(tmp_path: Path) -> None:
    def broken(args: Any) -> Any:
        return [*args.messages[:-1], {"role": "assistant", "content": {"parts": "not a list"}}]

    chunks, result, _saved, event = await one_step(tmp_path, broken)
    error = chunks[-1].payload.error
    assert (chunks[-1].type, error["processorId"], error["hook"]) == ("error", "p", "process_output_step")
    assert error["message"].startswith("Processor 'p' returned an invalid message from process_output_step: ")
    assert result.text == "The model's answer."
    assert event.outcome == "raised"


async def test_a_processor_that_changes_nothing_keeps_the_models_text(tmp_path: Path) -> None:
    chunks, result, saved, event = await one_step(tmp_path, lambda args: [*args.messages])
    assert texts_told(chunks) == (["The model's answer."], "The model's answer.")
    assert result.text == "The model's answer."
    assert [(m.role, m.text) for m in saved] == [("user", "q"), ("assistant", "The model's answer.")]
    assert event.outcome == "passed"


# ------------------------------------------------------------------------------------------ a tool loop
def tool_loop(final: str = "Sunny.") -> ScriptedModel:
    return ScriptedModel(
        [Turn(text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]), final]
    )


async def test_a_later_steps_edit_changes_only_that_steps_text() -> None:
    def edit(args: Any) -> Any:
        if args.step_number == 1:  # the turn's one assistant message holds both steps: edit the last text part
            [*_, last] = [p for p in args.messages[-1].content.parts if p.type == "text"]
            last.text = "Rewritten."
        return args.message_list

    model = tool_loop()
    agent = Agent(id="a", model=model, tools=[get_weather], output_processors=[Fn("p", process_output_step=edit)])
    chunks, result = await run_stream(agent)
    assert streamed_text(chunks) == "Checking.Sunny."
    assert texts_told(chunks) == (["Checking.", "Rewritten."], "Checking.Rewritten.")
    assert [step.text for step in result.steps] == ["Checking.", "Rewritten."]
    assert result.text == "Checking.Rewritten."
    assert [text_parts(m) for m in result.messages] == [["Checking.", "Rewritten."]]


async def test_a_later_steps_edit_in_a_deep_copy_of_the_messages_is_read_back() -> None:
    def edit(args: Any) -> Any:
        if args.step_number == 0:
            return None
        copies = [m.model_copy(deep=True) for m in args.messages]
        [*_, last] = [p for p in copies[-1].content.parts if p.type == "text"]
        last.text = "Rewritten."
        return copies

    agent = Agent(id="a", model=tool_loop(), tools=[get_weather], output_processors=[Fn("p", process_output_step=edit)])
    _chunks, result = await run_stream(agent)
    assert [step.text for step in result.steps] == ["Checking.", "Rewritten."]
    assert result.text == "Checking.Rewritten."


async def test_a_later_steps_answer_replaced_by_a_new_message(tmp_path: Path) -> None:
    def replace(args: Any) -> Any:
        if args.step_number == 1:  # replaces the turn's whole assistant message, the tool call with it
            return [*args.messages[:-1], {"role": "assistant", "content": "Replaced."}]
        return None

    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(
        id="a",
        model=tool_loop(),
        tools=[get_weather],
        memory=memory,
        output_processors=[Fn("p", process_output_step=replace)],
    )
    chunks, result = await run_stream(agent, "q", thread_id="t1")
    assert texts_told(chunks) == (["Checking.", "Replaced."], "Checking.Replaced.")
    assert result.text == "Checking.Replaced."
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text, m.tool_invocations) for m in saved] == [("user", "q", []), ("assistant", "Replaced.", [])]
    await memory.close()


async def test_a_rewritten_first_step_is_what_the_next_prompt_holds() -> None:
    def edit(args: Any) -> Any:
        if args.step_number == 0:
            [text] = [p for p in args.messages[-1].content.parts if p.type == "text"]
            text.text = "Let me look."
        return args.message_list

    model = tool_loop()
    agent = Agent(id="a", model=model, tools=[get_weather], output_processors=[Fn("p", process_output_step=edit)])
    _chunks, result = await run_stream(agent)
    [assistant] = [m for m in model.requests[1].messages if m["role"] == "assistant"]
    assert assistant["content"] == "Let me look."
    assert result.text == "Let me look.Sunny."


async def test_an_empty_step_after_a_tool_call_adds_no_text() -> None:
    """The turn's message holds the first step's text; an empty second step must not read it again."""
    agent = Agent(id="a", model=tool_loop(final=""), tools=[get_weather])
    chunks, result = await run_stream(agent)
    assert [step.text for step in result.steps] == ["Checking.", ""]
    assert texts_told(chunks) == (["Checking.", ""], "Checking.")
    assert result.text == "Checking."


async def test_an_empty_step_with_a_processor_that_changes_nothing_adds_no_text() -> None:
    agent = Agent(
        id="a",
        model=tool_loop(final=""),
        tools=[get_weather],
        output_processors=[Fn("p", process_output_step=lambda args: args.message_list)],
    )
    _chunks, result = await run_stream(agent)
    assert [step.text for step in result.steps] == ["Checking.", ""]
    assert result.text == "Checking."


async def test_text_a_processor_adds_to_an_empty_step_is_its_text() -> None:
    def add(args: Any) -> Any:
        if args.step_number == 1:
            return [*args.messages, Message.assistant("Nothing more to say.")]
        return None

    agent = Agent(
        id="a", model=tool_loop(final=""), tools=[get_weather], output_processors=[Fn("p", process_output_step=add)]
    )
    _chunks, result = await run_stream(agent)
    assert [step.text for step in result.steps] == ["Checking.", "Nothing more to say."]
    assert result.text == "Checking.Nothing more to say."


async def test_a_note_appended_after_a_tool_call_joins_that_steps_text() -> None:
    """The note merges into the answer after its tool call, with a ``step-start`` put before it (as Mastra
    merges): it is still the first step's text, read from that step's own marker."""

    def note(args: Any) -> Any:
        if args.step_number == 0:
            return [*args.messages, Message.assistant(" (noted)")]
        return None

    agent = Agent(id="a", model=tool_loop(), tools=[get_weather], output_processors=[Fn("p", process_output_step=note)])
    chunks, result = await run_stream(agent)
    assert [step.text for step in result.steps] == ["Checking. (noted)", "Sunny."]
    assert texts_told(chunks) == (["Checking. (noted)", "Sunny."], "Checking. (noted)Sunny.")
    assert [text_parts(m) for m in result.messages] == [["Checking.", " (noted)", "Sunny."]]


async def test_a_later_step_that_drops_the_earlier_steps_parts_keeps_its_own_text() -> None:
    """Only the last step is kept in the turn's message (the earlier text and the tool call dropped): the step's
    text is still its own, found by its marker, not by where its parts once started."""

    def keep_last_step(args: Any) -> Any:
        if args.step_number == 1:
            answer = args.messages[-1]
            starts = [i for i, part in enumerate(answer.content.parts) if part.type == "step-start"]
            answer.content.parts = answer.content.parts[starts[-1] :]
        return args.message_list

    agent = Agent(
        id="a", model=tool_loop(), tools=[get_weather], output_processors=[Fn("p", process_output_step=keep_last_step)]
    )
    _chunks, result = await run_stream(agent)
    assert [step.text for step in result.steps] == ["Checking.", "Sunny."]
    assert result.text == "Checking.Sunny."
    assert [(text_parts(m), m.tool_invocations) for m in result.messages] == [(["Sunny."], [])]


async def test_an_answer_replaced_by_a_message_of_several_text_parts_has_them_all(tmp_path: Path) -> None:
    def replace(args: Any) -> Any:
        content = [{"type": "text", "text": text} for text in ("One. ", "Two. ", "Three.")]
        return [*args.messages[:-1], {"role": "assistant", "content": content}]

    chunks, result, _saved, _event = await one_step(tmp_path, replace)
    assert texts_told(chunks) == (["One. Two. Three."], "One. Two. Three.")
    assert result.text == "One. Two. Three."
