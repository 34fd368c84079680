"""A ``process_output_step`` processor that edits a value nested inside a tool call's arguments, in place in the
message list, is refused like one that edits a top-level argument (test_output_step_tool_calls.py): the step's
message holds a deep copy of the model's arguments, so the edit cannot reach the streamed tool-call chunk or the
call that runs, and the check sees it. A shallow copy would share the nested dict: the edit would slip past the
check and the tool would run with arguments the model never sent (mutation testing, issue 25)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors import Agent, tool
from processors.memory import SqlMemory
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.helpers import Fn, kinds, of_type, run_stream

RAN: list[dict[str, Any]] = []


@tool
def lookup(place: dict[str, str]) -> str:
    """Look a place up.

    Args:
        place: The place, as {"city": ...}.
    """
    RAN.append(place)
    return f"Sunny in {place.get('city')}"


async def test_a_nested_argument_edited_in_place_is_refused_and_the_streamed_call_keeps_it(tmp_path: Path) -> None:
    def edit(args: Any) -> Any:
        [part] = [p for p in args.messages[-1].content.parts if p.type == "tool-invocation"]
        part.tool_invocation.args["place"]["city"] = "Oslo"
        return args.message_list

    RAN.clear()
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    model = ScriptedModel(
        [Turn(text="Checking.", tool_calls=[ToolCall("lookup", {"place": {"city": "Paris"}}, id="c1")]), "Done."]
    )
    agent = Agent(
        id="a", model=model, tools=[lookup], memory=memory, output_processors=[Fn("guard", process_output_step=edit)]
    )
    chunks, result = await run_stream(agent, "weather?", thread_id="t1")
    await memory.close()
    assert RAN == [], "the tool never ran with the edited arguments"
    assert kinds(chunks)[-1] == "error" and result.finish_reason == "error"
    message: str = chunks[-1].payload.error["message"]  # type: ignore[union-attr]
    assert message.startswith(
        "Processor 'guard' changed the arguments of tool call 'c1' (lookup) in process_output_step"
    )
    assert [c.payload.args for c in of_type(chunks, "tool-call")] == [{"place": {"city": "Paris"}}]  # type: ignore[union-attr]
