"""The runner's documented result forms for message and mapping hooks (``apply_message_result``,
``normalise_mapping``): what each form does to the prompt, the list and the sources."""

from __future__ import annotations

from typing import Any

import pydantic

from processors import Message, MessageList
from processors.messages import MessageContent, TextPart
from processors.models import ScriptedModel
from tests.processors.helpers import INSTRUCTIONS, Fn, get_weather, make_agent, run_stream


def contents(model: ScriptedModel) -> list[tuple[str, Any]]:
    return [(m["role"], m["content"]) for m in model.requests[0].messages]


async def test_a_system_message_in_a_returned_array_becomes_a_system_message() -> None:
    def add_rule(args: Any) -> Any:
        rule = Message(role="system", content=MessageContent(parts=[TextPart(text="Answer in French.")]))
        return [*args.messages, rule]

    model = ScriptedModel(["ok"])
    await make_agent(model, input_processors=[Fn("rules", process_input=add_rule)]).generate("hi")
    assert contents(model) == [("system", INSTRUCTIONS), ("system", "Answer in French."), ("user", "hi")]


async def test_a_tuple_result_replaces_the_messages_as_a_list_does() -> None:
    model = ScriptedModel(["ok"])
    keep_first = Fn("first", process_input=lambda args: tuple(args.messages[:1]))
    await make_agent(model, input_processors=[keep_first]).generate(["one", "two"])
    assert contents(model) == [("system", INSTRUCTIONS), ("user", "one")]


async def test_dict_items_are_read_as_messages() -> None:
    def as_dicts(args: Any) -> Any:
        items = [message.to_json() for message in args.messages]
        items[0]["content"]["parts"][0]["text"] = "edited"
        return items

    model = ScriptedModel(["ok"])
    await make_agent(model, input_processors=[Fn("dicts", process_input=as_dicts)]).generate("original")
    assert contents(model) == [("system", INSTRUCTIONS), ("user", "edited")]


async def test_an_invalid_dict_item_or_a_foreign_item_is_a_contract_error() -> None:
    for value, named in (
        ([{"role": "nobody"}], "invalid message"),
        ([42], "int inside the message list"),
        (MessageList(), "different MessageList"),
    ):
        agent = make_agent(ScriptedModel(["ok"]), input_processors=[Fn("bad", process_input=lambda a, v=value: v)])
        _chunks, result = await run_stream(agent)
        assert result.finish_reason == "error"
        assert result.error is not None and named in result.error and "'bad'" in result.error


async def test_camel_case_override_keys_are_read() -> None:
    model = ScriptedModel(["ok"])
    step = Fn("step", process_input_step=lambda args: {"toolChoice": "none"})
    await make_agent(model, tools=[get_weather], input_processors=[step]).generate("weather?")
    assert model.requests[0].tool_choice == "none"
    assert [tool["function"]["name"] for tool in model.requests[0].tools] == ["get_weather"]
    model = ScriptedModel(["ok"])
    step = Fn("step", process_input_step=lambda args: {"activeTools": []})
    await make_agent(model, tools=[get_weather], input_processors=[step]).generate("weather?")
    assert model.requests[0].tools == []


async def test_a_pydantic_object_is_read_as_overrides() -> None:
    class Overrides(pydantic.BaseModel):
        tool_choice: str | None = None
        model_settings: dict[str, Any] | None = None

    model = ScriptedModel(["ok"])
    step = Fn("step", process_input_step=lambda args: Overrides(tool_choice="none"))
    await make_agent(model, tools=[get_weather], input_processors=[step]).generate("weather?")
    assert model.requests[0].tool_choice == "none"


async def test_messages_a_processor_adds_get_the_hooks_source() -> None:
    seen: dict[str, Any] = {}

    def add_note(args: Any) -> Any:
        return [*args.messages, Message.user("a note from the processor")]

    def look(args: Any) -> None:
        seen["sources"] = [(m.text, args.message_list.get_source(m)) for m in args.message_list.get.all.db()]

    agent = make_agent(
        ScriptedModel(["ok"]), input_processors=[Fn("add", process_input=add_note), Fn("look", process_input=look)]
    )
    await agent.generate("hi")
    assert seen["sources"] == [("hi", "input"), ("a note from the processor", "input")]

    def add_answer(args: Any) -> Any:
        return [*args.messages, Message.user("a follow-up the processor added")]

    def look_at_result(args: Any) -> None:
        seen["result"] = [(m.text, args.message_list.get_source(m)) for m in args.message_list.get.all.db()]

    agent = make_agent(
        ScriptedModel(["ok"]),
        output_processors=[
            Fn("add", process_output_result=add_answer),
            Fn("look", process_output_result=look_at_result),
        ],
    )
    await agent.generate("hi")
    assert seen["result"] == [("hi", "input"), ("ok", "response"), ("a follow-up the processor added", "response")]
