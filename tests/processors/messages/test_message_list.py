"""Message and MessageList (item 10): sources, system buckets, views, formats, add/remove, tool invocations."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Message, MessageList
from processors.memory import InMemoryMemory
from processors.messages import MessageContent, TextPart, ToolInvocation, ToolInvocationPart
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.helpers import INSTRUCTIONS, Fn, get_weather, make_agent, of_type, run_stream, system, user


def tool_call_message(call_id: str = "c1", *, state: str = "call", result: Any = None, text: str = "") -> Message:
    parts: list[Any] = []
    if text:
        parts.append(TextPart(text=text))
    parts.append(
        ToolInvocationPart(
            tool_invocation=ToolInvocation(
                state=state, tool_call_id=call_id, tool_name="get_weather", args={"city": "Paris"}, result=result
            )
        )
    )
    return Message(role="assistant", content=MessageContent(parts=parts))


# ---------------------------------------------------------------------------------------------- Message
def test_message_text_joins_text_parts_and_falls_back_to_content() -> None:
    message = Message(role="assistant", content=MessageContent(parts=[TextPart(text="a"), TextPart(text="b")]))
    assert message.text == "ab"
    legacy = Message(role="user", content=MessageContent(parts=[], content="legacy"))
    assert legacy.text == "legacy"
    assert Message.user("hi").text == "hi"
    assert Message.user("hi").role == "user"


def test_message_json_is_mastras_camel_case_shape() -> None:
    message = tool_call_message(state="result", result="Sunny")
    data = message.to_json()
    assert set(data) >= {"id", "role", "createdAt", "content"}
    assert data["role"] == "assistant"
    assert data["content"]["format"] == 2
    assert data["content"]["parts"] == [
        {
            "type": "tool-invocation",
            "toolInvocation": {
                "state": "result",
                "toolCallId": "c1",
                "toolName": "get_weather",
                "args": {"city": "Paris"},
                "result": "Sunny",
            },
        }
    ]
    assert Message.model_validate(data) == message


def test_message_with_text_keeps_other_parts() -> None:
    message = tool_call_message(text="old")
    new = message.with_text("new")
    assert new.text == "new"
    assert new.id == message.id
    assert [p.type for p in new.content.parts] == ["text", "tool-invocation"]
    assert message.text == "old"


# ---------------------------------------------------------------------------------------------- sources and views
def test_sources_and_views() -> None:
    ml = MessageList(thread_id="t", resource_id="r")
    ml.add("current question", "input")
    ml.add([Message.user("old q"), Message.assistant("old a")], "memory")
    ml.add(Message.assistant("answer"), "response")
    ml.add("background", "context")
    assert [m.text for m in ml.get.all.db()] == ["old q", "old a", "current question", "answer", "background"]
    assert [m.text for m in ml.get.input.db()] == ["current question"]
    assert [m.text for m in ml.get.remembered.db()] == ["old q", "old a"]
    assert [m.text for m in ml.get.response.db()] == ["answer"]
    assert [ml.get_source(m) for m in ml.get.all.db()] == ["memory", "memory", "input", "response", "context"]
    assert all(m.thread_id == "t" and m.resource_id == "r" for m in ml.get.all.db())
    assert len(ml) == 5


def test_unknown_source_and_bad_items_are_refused() -> None:
    ml = MessageList()
    with pytest.raises(ValueError, match="source"):
        ml.add("x", "bogus")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ml.add(123)


def test_db_view_returns_the_live_messages() -> None:
    ml = MessageList()
    ml.add("original", "input")
    ml.get.all.db()[0].content.parts[0].text = "edited"
    assert ml.get.input.core() == [user("edited")]


def test_core_format_is_openai_chat() -> None:
    ml = MessageList()
    ml.add_system("sys")
    ml.add("weather?", "input")
    ml.add(tool_call_message(state="result", result={"temp": 21}, text="Checking."), "response")
    ml.add(Message.assistant("It is 21."), "response", merge=False)
    assert ml.get.all.core() == [
        user("weather?"),
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '{"temp": 21}'},
        {"role": "assistant", "content": "It is 21."},
    ]
    assert ml.to_prompt()[0] == system("sys")


def test_core_format_leaves_out_unanswered_calls() -> None:
    ml = MessageList()
    ml.add("q", "input")
    ml.add(tool_call_message(state="call", text="Checking."), "response")
    assert ml.get.all.core() == [user("q"), {"role": "assistant", "content": "Checking."}]


def test_ui_format() -> None:
    ml = MessageList()
    ml.add("q", "input")
    ml.add(tool_call_message(state="result", result="Sunny", text="Checking."), "response")
    user_ui, assistant_ui = ml.get.all.ui()
    assert user_ui["role"] == "user"
    assert user_ui["parts"] == [{"type": "text", "text": "q"}]
    assert assistant_ui["parts"] == [
        {"type": "text", "text": "Checking."},
        {
            "type": "tool-get_weather",
            "toolCallId": "c1",
            "state": "output-available",
            "input": {"city": "Paris"},
            "output": "Sunny",
        },
    ]


def test_core_and_ui_dicts_can_be_added_back() -> None:
    ml = MessageList()
    ml.add({"role": "user", "content": "from core"}, "input")
    ml.add({"id": "u1", "role": "user", "parts": [{"type": "text", "text": "from ui"}]}, "input")
    assert [m.text for m in ml.get.input.db()] == ["from core", "from ui"]
    assert ml.get.input.db()[1].id == "u1"


# ---------------------------------------------------------------------------------------------- system messages
def test_tagged_and_untagged_system_messages() -> None:
    ml = MessageList()
    ml.add_system("instructions")
    ml.add_system("instructions")  # exact repeat ignored
    ml.add_system("guidance", "mcp-guidance")
    ml.add_system({"role": "system", "content": "more"})
    ml.add({"role": "system", "content": "from add"}, "input")
    ml.add({"role": "system", "content": "ignored from memory"}, "memory")
    assert ml.get_system_messages() == [system("instructions"), system("more"), system("from add")]
    assert ml.get_system_messages("mcp-guidance") == [system("guidance")]
    assert ml.get_all_system_messages() == [
        system("instructions"),
        system("more"),
        system("from add"),
        system("guidance"),
    ]
    assert ml.get.all.db() == []  # system messages are never in the message views

    ml.replace_all_system_messages([system("replaced"), user("not a system message")])
    assert ml.get_system_messages() == [system("replaced")]
    assert ml.get_system_messages("mcp-guidance") == [system("guidance")]  # tagged buckets stay
    ml.clear_system_messages("mcp-guidance")
    assert ml.get_all_system_messages() == [system("replaced")]
    ml.clear_system_messages()
    assert ml.get_all_system_messages() == []


def test_system_message_snapshots_are_copies() -> None:
    ml = MessageList()
    ml.add_system("keep")
    ml.get_system_messages()[0]["content"] = "changed"
    assert ml.get_system_messages() == [system("keep")]


# ---------------------------------------------------------------------------------------------- add / remove
def test_same_id_replaces() -> None:
    ml = MessageList()
    first = Message.user("v1")
    ml.add(first, "input")
    ml.add(Message.user("v2", id=first.id), "input")
    assert [m.text for m in ml.get.all.db()] == ["v2"]


def test_consecutive_response_assistant_messages_merge_unless_merge_false() -> None:
    ml = MessageList()
    ml.add("q", "input")
    ml.add(Message.assistant("one"), "response")
    ml.add(Message.assistant("two"), "response")
    assert [m.role for m in ml.get.all.db()] == ["user", "assistant"]
    assert [p.text for p in ml.get.response.db()[0].content.parts] == ["one", "two"]
    ml.add(Message.assistant("three"), "response", merge=False)
    assert [m.text for m in ml.get.response.db()] == ["onetwo", "three"]


def test_remove_by_ids_returns_what_was_removed() -> None:
    ml = MessageList()
    a, b, c = Message.user("a"), Message.user("b"), Message.assistant("c")
    ml.add([a, b], "input")
    ml.add(c, "response")
    removed = ml.remove_by_ids([a.id, c.id, "missing"])
    assert [m.text for m in removed] == ["a", "c"]
    assert [m.text for m in ml.get.all.db()] == ["b"]
    assert ml.get_source(a.id) is None
    assert ml.get.response.db() == []
    assert ml.remove_by_ids(["nothing"]) == []


def test_update_tool_invocation_merges_into_the_call() -> None:
    ml = MessageList()
    ml.add("q", "input")
    ml.add(tool_call_message(), "response")
    assert (
        ml.update_tool_invocation(
            {
                "type": "tool-invocation",
                "toolInvocation": {
                    "state": "result",
                    "toolCallId": "c1",
                    "toolName": "get_weather",
                    "args": {"city": "Paris"},
                    "result": {"redacted": True},
                },
            }
        )
        is True
    )
    invocation = ml.get.response.db()[0].tool_invocations[0]
    assert (invocation.state, invocation.result, invocation.args) == ("result", {"redacted": True}, {"city": "Paris"})
    assert (
        ml.update_tool_invocation(
            ToolInvocationPart(
                tool_invocation=ToolInvocation(state="result", tool_call_id="unknown", tool_name="x", result=1)
            )
        )
        is False
    )


# ---------------------------------------------------------------------------------------------- through the agent
class RedactToolResult:
    """The reference's example: replace a tool result with messageList.updateToolInvocation."""

    id = "redact-tool-result"

    def process_tool_result(self, args: Any) -> None:
        if args.tool_name != "get_weather":
            return
        args.message_list.update_tool_invocation(
            {
                "type": "tool-invocation",
                "toolInvocation": {
                    "state": "result",
                    "toolCallId": args.tool_call_id,
                    "toolName": args.tool_name,
                    "args": args.args,
                    "result": "[REDACTED]",
                },
            }
        )


async def test_tool_result_replacement_reaches_stream_history_and_next_prompt() -> None:
    memory = InMemoryMemory()
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]), "Done."])
    agent = make_agent(model, tools=[get_weather], output_processors=[RedactToolResult()], memory=memory)
    chunks, result = await run_stream(agent, "weather?", thread_id="t")
    assert [c.payload.result for c in of_type(chunks, "tool-result")] == ["[REDACTED]"]
    assert [inv.result for m in result.messages for inv in m.tool_invocations] == ["[REDACTED]"]
    assert [inv.result for m in memory.threads["t"] for inv in m.tool_invocations] == ["[REDACTED]"]
    assert {"role": "tool", "tool_call_id": "c1", "content": "[REDACTED]"} in model.requests[1].messages
    assert "Sunny" not in str(model.requests[1].messages)
    assert result.steps[0].tool_results[0]["result"] == "[REDACTED]"


async def test_processors_see_sources_through_the_list() -> None:
    seen: dict[str, Any] = {}

    def on_input(args: Any) -> Any:
        ml = args.message_list
        seen["input"] = [m.text for m in ml.get.input.db()]
        seen["remembered"] = [m.text for m in ml.get.remembered.db()]
        seen["all"] = [m.text for m in ml.get.all.db()]

    def on_result(args: Any) -> Any:
        seen["response"] = [m.text for m in args.message_list.get.response.db()]
        seen["input_later"] = [m.text for m in args.message_list.get.input.db()]

    memory = InMemoryMemory()
    memory.threads["t"] = [Message.user("old q"), Message.assistant("old a")]
    model = ScriptedModel(["new a"])
    agent = make_agent(
        model,
        memory=memory,
        input_processors=[Fn("i", process_input=on_input)],
        output_processors=[Fn("o", process_output_result=on_result)],
    )
    await agent.generate("new q", thread_id="t")
    assert seen == {
        "input": ["new q"],
        "remembered": ["old q", "old a"],
        "all": ["old q", "old a", "new q"],
        "response": ["new a"],
        "input_later": ["new q"],
    }
    assert model.requests[0].messages == [
        system(INSTRUCTIONS),
        user("old q"),
        {"role": "assistant", "content": "old a"},
        user("new q"),
    ]


async def test_context_messages_reach_the_prompt_but_are_not_saved() -> None:
    memory = InMemoryMemory()
    model = ScriptedModel(["ok"])
    agent = make_agent(model, memory=memory)
    await agent.generate("q", thread_id="t", context=["Some background."])
    assert user("Some background.") in model.requests[0].messages
    assert [m.text for m in memory.threads["t"]] == ["q", "ok"]


async def test_processor_removing_a_message_by_id_removes_it_from_the_prompt() -> None:
    def drop_first(args: Any) -> Any:
        first = args.message_list.get.all.db()[0]
        args.message_list.remove_by_ids([first.id])
        return args.message_list

    model = ScriptedModel(["ok"])
    await make_agent(model, input_processors=[Fn("drop", process_input_step=drop_first)]).generate(["a", "b"])
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("b")]


# ---------------------------------------------------------------------------------------------- merging
# Mastra's MessageList.add merges an assistant message into the assistant message right before it (same thread,
# not from memory, the latest not sealed); a processor's array result is re-added message by message through
# add(), so extra assistant messages a processor returns join the reply (runner.test.ts: processOutputResult
# pushing two extra assistant messages leaves one message with the text parts "initial response",
# "extra message A", "extra message B"; mastra-behaviour.md B-40).
async def test_assistant_messages_added_by_process_output_result_merge_into_the_reply() -> None:
    def add_two(args: Any) -> Any:
        return [*args.messages, Message.assistant("extra message A"), Message.assistant("extra message B")]

    memory = InMemoryMemory()
    model = ScriptedModel([["initial response"]])
    agent = make_agent(model, memory=memory, output_processors=[Fn("extra", process_output_result=add_two)])
    result = await agent.generate("hi", thread_id="t")

    assert [m.role for m in result.messages] == ["assistant"]
    texts = [p.text for p in result.messages[0].content.parts if isinstance(p, TextPart)]
    assert texts == ["initial response", "extra message A", "extra message B"]
    assert [m.role for m in memory.threads["t"]] == ["user", "assistant"]
    assert memory.threads["t"][1].id == result.messages[0].id
    assert [p.text for p in memory.threads["t"][1].content.parts if isinstance(p, TextPart)] == texts


async def test_assistant_messages_added_by_process_output_step_merge_into_the_step_message() -> None:
    def add_note(args: Any) -> Any:
        return [*args.messages, Message.assistant("(checked)")]

    model = ScriptedModel(["answer"])
    agent = make_agent(model, output_processors=[Fn("note", process_output_step=add_note)])
    result = await agent.generate("hi")
    assert [m.role for m in result.messages] == ["assistant"]
    assert [p.text for p in result.messages[0].content.parts if isinstance(p, TextPart)] == ["answer", "(checked)"]


def test_an_array_result_is_merged_as_add_merges() -> None:
    ml = MessageList(thread_id="t")
    ml.add("q", "input")
    reply = Message.assistant("one")
    ml.add(reply, "response")
    extra = Message.assistant("two")
    ml.replace_block([reply.id], [reply, extra], "response")
    assert [m.id for m in ml.get.all.db()][1:] == [reply.id]
    assert extra.id not in ml
    assert [p.text for p in ml.get.response.db()[0].content.parts] == ["one", "two"]


def test_merging_follows_mastras_rules() -> None:
    ml = MessageList(thread_id="t")
    ml.add("q", "input")
    ml.add(tool_call_message("c1", text="Checking."), "response")
    # the call's result updates the call in place
    ml.add(tool_call_message("c1", state="result", result="Sunny"), "response")
    (merged,) = ml.get.response.db()
    assert [p.type for p in merged.content.parts] == ["text", "tool-invocation"]
    assert merged.tool_invocations[0].state == "result"
    assert merged.tool_invocations[0].result == "Sunny"
    # text after a tool call starts a new step; the content string is the latest message's
    ml.add(
        Message(role="assistant", content=MessageContent(parts=[TextPart(text="Sunny.")], content="Sunny.")), "response"
    )
    assert [p.type for p in merged.content.parts] == ["text", "tool-invocation", "step-start", "text"]
    assert merged.content.content == "Sunny."
    # not into a sealed message, not across threads, not from memory, not into a remembered message
    ml.seal(merged.id)
    ml.add(Message.assistant("after seal"), "response")
    assert len(ml.get.response.db()) == 2
    other = Message.assistant("other thread")
    other.thread_id = "elsewhere"
    ml.add(other, "response")
    assert len(ml.get.response.db()) == 3
    remembered = MessageList(thread_id="t")
    remembered.add([Message.user("old"), Message.assistant("a"), Message.assistant("b")], "memory")
    assert [m.text for m in remembered.get.remembered.db()] == ["old", "a", "b"]
    remembered.add(Message.assistant("new"), "response")
    assert [m.text for m in remembered.get.all.db()] == ["old", "a", "b", "new"]


# ---------------------------------------------------------------------------------------------- edges
def test_a_returned_array_keeps_its_place_in_the_list() -> None:
    ml = MessageList(thread_id="t")
    ml.add([Message.user("old q"), Message.assistant("old a")], "memory")
    first, second = Message.user("first"), Message.user("second")
    ml.add([first, second], "input")
    ml.add("background", "context")
    replacement = Message.user("replaced")
    ml.replace_block([first.id, second.id], [replacement, second], "input")
    assert [m.text for m in ml.get.all.db()] == ["old q", "old a", "replaced", "second", "background"]
    assert [ml.get_source(m) for m in ml.get.all.db()] == ["memory", "memory", "input", "input", "context"]
    assert replacement.thread_id == "t"
    with pytest.raises(ValueError, match="same id twice"):
        ml.replace_block([replacement.id], [replacement, replacement], "input")


def test_rollback_drops_new_messages_and_the_new_parts_of_old_ones() -> None:
    ml = MessageList()
    ml.add("q", "input")
    reply = Message.assistant("kept")
    ml.add(reply, "response")
    boundary = ml.boundary()
    reply.content.parts.append(TextPart(text=" and retracted"))
    reply.content.content = "kept and retracted"
    ml.add(Message.user("later"), "input")
    ml.rollback(boundary)
    assert [m.text for m in ml.get.all.db()] == ["q", "kept"]
    assert [p.text for p in reply.content.parts] == ["kept"]
    assert reply.content.content == "kept"


def test_update_tool_invocation_finds_the_call_behind_later_messages() -> None:
    ml = MessageList()
    ml.add("q", "input")
    ml.add(tool_call_message("c1"), "response")
    ml.add(Message.user("a later question"), "input")
    ml.add(Message.assistant("a later answer"), "response")
    assert (
        ml.update_tool_invocation(
            {
                "type": "tool-invocation",
                "toolInvocation": {"state": "result", "toolCallId": "c1", "toolName": "get_weather", "result": "Sunny"},
            }
        )
        is True
    )
    assert ml.find_tool_invocation("c1") is not None
    call = ml.get.all.db()[1]
    assert (call.tool_invocations[0].state, call.tool_invocations[0].result) == ("result", "Sunny")
    assert [m.text for m in ml.get.all.db()[2:]] == ["a later question", "a later answer"]


def test_clear_removes_all_or_one_source() -> None:
    ml = MessageList()
    ml.add("q", "input")
    ml.add([Message.user("old")], "memory")
    ml.add(Message.assistant("a"), "response")
    assert [m.text for m in ml.clear("memory")] == ["old"]
    assert [m.text for m in ml.get.all.db()] == ["q", "a"]
    assert [m.text for m in ml.clear()] == ["q", "a"]
    assert len(ml) == 0


def test_the_context_view_holds_only_context_messages() -> None:
    ml = MessageList()
    ml.add("q", "input")
    ml.add("background", "context")
    assert [m.text for m in ml.get.context.db()] == ["background"]
    assert ml.get.context.core() == [user("background")]


def test_serialize_and_deserialize_round_trip_sources_and_system_messages() -> None:
    ml = MessageList(thread_id="t", resource_id="r")
    ml.add("q", "input")
    ml.add([Message.user("old")], "memory")
    ml.add(tool_call_message("c1", state="result", result="Sunny", text="Looking."), "response")
    ml.add_system("Be brief.")
    ml.add_system("Use metric units.", "units")
    data = ml.serialize()
    assert (data["threadId"], data["resourceId"]) == ("t", "r")
    copy = MessageList.deserialize(data)
    assert [m.to_json() for m in copy.get.all.db()] == [m.to_json() for m in ml.get.all.db()]
    assert [copy.get_source(m) for m in copy.get.all.db()] == ["memory", "input", "response"]
    assert copy.get_all_system_messages() == ml.get_all_system_messages()
    assert (copy.thread_id, copy.resource_id) == ("t", "r")
    assert copy.serialize() == data
