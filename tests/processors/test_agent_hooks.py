"""The nine hooks through the agent: when they run, in which order, with which args, and every result form."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Message, MessageList, Processor, RequestContext, tool
from processors.errors import ModelAPIError
from processors.memory import InMemoryMemory
from processors.models import ScriptedModel, ToolCall, Turn
from processors.usage import Usage
from tests.processors.helpers import (
    INSTRUCTIONS,
    Fn,
    assistant,
    collect,
    get_weather,
    kinds,
    make_agent,
    of_type,
    run_stream,
    streamed_text,
    system,
    user,
)

TOOL_TURN = Turn(text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")])
STREAM_KINDS = ("text-delta", "tool-call", "tool-result")


# ---------------------------------------------------------------------------------------------- recorders
def make_recorders(log: list[str], *, is_async: bool) -> tuple[Processor, Processor, Processor]:
    """An input, an output and an error processor that log every hook call (sync or async hooks)."""

    def sync_input() -> Processor:
        class InputAll(Processor):
            id = "in-all"

            def process_input(self, args: Any) -> Any:
                log.append("process_input")

            def process_input_step(self, args: Any) -> Any:
                log.append(f"process_input_step:{args.step_number}")

            def process_llm_request(self, args: Any) -> Any:
                log.append(f"process_llm_request:{args.step_number}")

            def process_llm_response(self, args: Any) -> Any:
                log.append(f"process_llm_response:{args.step_number}")

        return InputAll()

    def async_input() -> Processor:
        class InputAllAsync(Processor):
            id = "in-all"

            async def process_input(self, args: Any) -> Any:
                log.append("process_input")

            async def process_input_step(self, args: Any) -> Any:
                log.append(f"process_input_step:{args.step_number}")

            async def process_llm_request(self, args: Any) -> Any:
                log.append(f"process_llm_request:{args.step_number}")

            async def process_llm_response(self, args: Any) -> Any:
                log.append(f"process_llm_response:{args.step_number}")

        return InputAllAsync()

    def sync_output() -> Processor:
        class OutputAll(Processor):
            id = "out-all"

            def process_output_stream(self, args: Any) -> Any:
                if args.part.type in STREAM_KINDS:
                    log.append(f"stream:{args.part.type}")
                return args.part

            def process_output_step(self, args: Any) -> Any:
                log.append(f"process_output_step:{args.step_number}")

            def process_tool_result(self, args: Any) -> Any:
                log.append(f"process_tool_result:{args.tool_call_id}")

            def process_output_result(self, args: Any) -> Any:
                log.append("process_output_result")

        return OutputAll()

    def async_output() -> Processor:
        class OutputAllAsync(Processor):
            id = "out-all"

            async def process_output_stream(self, args: Any) -> Any:
                if args.part.type in STREAM_KINDS:
                    log.append(f"stream:{args.part.type}")
                return args.part

            async def process_output_step(self, args: Any) -> Any:
                log.append(f"process_output_step:{args.step_number}")

            async def process_tool_result(self, args: Any) -> Any:
                log.append(f"process_tool_result:{args.tool_call_id}")

            async def process_output_result(self, args: Any) -> Any:
                log.append("process_output_result")

        return OutputAllAsync()

    class ErrorSync(Processor):
        id = "err-all"

        def process_api_error(self, args: Any) -> Any:
            log.append(f"process_api_error:{args.retry_count}")
            return {"retry": True}

    class ErrorAsync(Processor):
        id = "err-all"

        async def process_api_error(self, args: Any) -> Any:
            log.append(f"process_api_error:{args.retry_count}")
            return {"retry": True}

    if is_async:
        return async_input(), async_output(), ErrorAsync()
    return sync_input(), sync_output(), ErrorSync()


def collapse(log: list[str]) -> list[str]:
    out: list[str] = []
    for item in log:
        if not out or out[-1] != item:
            out.append(item)
    return out


# ---------------------------------------------------------------------------------------------- order
@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
async def test_all_hooks_run_in_the_reference_order(is_async: bool) -> None:
    log: list[str] = []
    inp, out, err = make_recorders(log, is_async=is_async)
    model = ScriptedModel([TOOL_TURN, "Sunny."])
    agent = make_agent(
        model, tools=[get_weather], input_processors=[inp], output_processors=[out], error_processors=[err]
    )
    chunks, result = await run_stream(agent, "weather?")
    assert collapse(log) == [
        "process_input",
        "process_input_step:0",
        "process_llm_request:0",
        "stream:text-delta",
        "stream:tool-call",
        "process_llm_response:0",
        "process_output_step:0",
        "process_tool_result:c1",
        "stream:tool-result",
        "process_input_step:1",
        "process_llm_request:1",
        "stream:text-delta",
        "process_llm_response:1",
        "process_output_step:1",
        "process_output_result",
    ]
    assert log.count("process_input") == 1
    assert log.count("process_output_result") == 1
    assert not any(entry.startswith("process_api_error") for entry in log)
    assert result.text == "Checking.Sunny."
    assert kinds(chunks)[-1] == "finish"


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
async def test_stream_hook_runs_once_per_chunk(is_async: bool) -> None:
    seen: list[str] = []

    class Sync(Processor):
        id = "s"

        def process_output_stream(self, args: Any) -> Any:
            seen.append(args.part.type)
            return args.part

    class Async(Processor):
        id = "s"

        async def process_output_stream(self, args: Any) -> Any:
            seen.append(args.part.type)
            return args.part

    model = ScriptedModel([Turn(text=["a", "b", "c"])])
    agent = make_agent(model, output_processors=[Async() if is_async else Sync()])
    chunks, _ = await run_stream(agent)
    assert seen.count("text-delta") == 3
    assert "finish" in seen  # the reference's WordCounter example logs on the finish chunk
    assert [c.type for c in chunks if c.type != "start"] == [t for t in seen if t != "start"]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
async def test_api_error_hook_runs_when_the_model_call_fails(is_async: bool) -> None:
    log: list[str] = []
    inp, out, err = make_recorders(log, is_async=is_async)
    model = ScriptedModel([Turn(error=ModelAPIError(500, "upstream down")), "Recovered."])
    agent = make_agent(model, input_processors=[inp], output_processors=[out], error_processors=[err])
    chunks, result = await run_stream(agent)
    assert len(model.requests) == 2
    assert result.text == "Recovered."
    assert result.finish_reason == "stop"
    first_error = log.index("process_api_error:0")
    first_response = next(i for i, entry in enumerate(log) if entry.startswith("process_llm_response"))
    assert log.index("process_llm_request:0") < first_error
    assert first_error < log.index("stream:text-delta")
    assert first_error < first_response
    assert [e for e in log if e.startswith("process_api_error")] == ["process_api_error:0"]
    assert [e for e in log if e.startswith("process_llm_response")] == [log[first_response]]  # once: one answer
    assert kinds(chunks)[-1] == "finish"


# ---------------------------------------------------------------------------------------------- args
async def test_hook_args_carry_what_the_reference_lists() -> None:
    got: dict[str, Any] = {}
    ctx = RequestContext()
    ctx.set("tenant", "acme")

    class In(Processor):
        id = "in"

        def process_input(self, args: Any) -> Any:
            got["input"] = {
                "texts": [m.text for m in args.messages],
                "roles": [m.role for m in args.messages],
                "system": args.system_messages,
                "ml": args.message_list,
                "retry": args.retry_count,
                "state": args.state,
                "tenant": args.request_context.get("tenant"),
                "writer": args.writer is not None,
            }

        def process_input_step(self, args: Any) -> Any:
            got.setdefault("input_step", []).append(
                {
                    "step": args.step_number,
                    "steps": len(args.steps),
                    "texts": [m.text for m in args.messages],
                    "roles": [m.role for m in args.messages],
                    "system": args.system_messages,
                    "model": args.model,
                    "tools": sorted(args.tools),
                    "tool_choice": args.tool_choice,
                    "active_tools": args.active_tools,
                    "provider_options": dict(args.provider_options),
                    "model_settings": dict(args.model_settings),
                    "retry": args.retry_count,
                    "ml": args.message_list,
                }
            )

        def process_llm_request(self, args: Any) -> Any:
            got.setdefault("llm_request", []).append(
                {
                    "prompt": [dict(m) for m in args.prompt],
                    "model": args.model,
                    "step": args.step_number,
                    "steps": len(args.steps),
                }
            )

        def process_llm_response(self, args: Any) -> Any:
            got.setdefault("llm_response", []).append(
                {
                    "types": [c["type"] for c in args.chunks],
                    "texts": [c["payload"].text for c in args.chunks if c["type"] == "text-delta"],
                    "from_cache": args.from_cache,
                    "step": args.step_number,
                    "steps": len(args.steps),
                    "model": args.model,
                }
            )

    class Out(Processor):
        id = "out"

        def process_output_stream(self, args: Any) -> Any:
            if args.part.type == "text-delta":
                # equal, not the same object: stream_parts keeps text deltas in a compact form
                got.setdefault("stream", []).append(
                    (args.part.payload.text, len(args.stream_parts), args.stream_parts[-1] == args.part)
                )
            return args.part

        def process_output_step(self, args: Any) -> Any:
            got.setdefault("output_step", []).append(
                {
                    "step": args.step_number,
                    "text": args.text,
                    "finish_reason": args.finish_reason,
                    "tool_calls": [dict(c) for c in args.tool_calls],
                    "usage": args.usage,
                    "steps": len(args.steps),
                    "last_role": args.messages[-1].role,
                    "last_text": args.messages[-1].text,
                    "system": args.system_messages,
                }
            )

        def process_tool_result(self, args: Any) -> Any:
            got["tool_result"] = {
                "name": args.tool_name,
                "id": args.tool_call_id,
                "args": args.args,
                "result": args.result,
                "step": args.step_number,
                "has_call": any(inv.tool_call_id == "c1" for m in args.messages for inv in m.tool_invocations),
                "system": args.system_messages,
            }

        def process_output_result(self, args: Any) -> Any:
            got["output_result"] = {
                "roles": [m.role for m in args.messages],
                "text": args.result.text,
                "finish_reason": args.result.finish_reason,
                "steps": len(args.result.steps),
                "usage": args.result.usage,
            }

    memory = InMemoryMemory()
    memory.threads["t1"] = [Message.user("earlier question"), Message.assistant("earlier answer")]
    model = ScriptedModel(
        [
            Turn(
                text="Checking.",
                tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")],
                usage=Usage(input_tokens=5, output_tokens=2, total_tokens=7),
            ),
            "Sunny.",
        ]
    )
    agent = make_agent(
        model,
        tools=[get_weather],
        input_processors=[In()],
        output_processors=[Out()],
        memory=memory,
        provider_options={"openai": {"user": "x"}},
        model_settings={"temperature": 0.5},
    )
    result = await agent.generate(
        "weather?", thread_id="t1", request_context=ctx, tool_choice="auto", active_tools=["get_weather"]
    )

    assert got["input"]["texts"] == ["weather?"]  # input-source messages only, no memory
    assert got["input"]["roles"] == ["user"]
    assert got["input"]["system"] == [system(INSTRUCTIONS)]
    assert isinstance(got["input"]["ml"], MessageList)
    assert got["input"]["retry"] == 0
    assert got["input"]["state"] == {}
    assert got["input"]["tenant"] == "acme"
    assert got["input"]["writer"] is True

    step0, step1 = got["input_step"]
    assert step0["step"] == 0
    assert step0["steps"] == 0
    assert step0["texts"] == ["earlier question", "earlier answer", "weather?"]  # ALL messages
    assert step0["system"] == [system(INSTRUCTIONS)]
    assert step0["model"] is model
    assert step0["tools"] == ["get_weather"]
    assert step0["tool_choice"] == "auto"
    assert step0["active_tools"] == ["get_weather"]
    assert step0["provider_options"] == {"openai": {"user": "x"}}
    assert step0["model_settings"] == {"temperature": 0.5}
    assert step0["retry"] == 0
    assert step0["ml"] is got["input"]["ml"]
    assert step1["step"] == 1
    assert step1["steps"] == 1
    assert step1["roles"] == ["user", "assistant", "user", "assistant"]

    req0, req1 = got["llm_request"]
    assert req0["prompt"] == model.requests[0].messages
    assert req1["prompt"] == model.requests[1].messages
    assert req0["model"] is model
    assert (req0["step"], req0["steps"]) == (0, 0)
    assert (req1["step"], req1["steps"]) == (1, 1)

    resp0, resp1 = got["llm_response"]
    assert resp0["texts"] == ["Checking."]
    assert "tool-call" in resp0["types"]
    assert resp1["texts"] == ["Sunny."]
    assert resp0["from_cache"] is False
    assert (resp0["step"], resp0["steps"]) == (0, 1)  # steps include the current one
    assert (resp1["step"], resp1["steps"]) == (1, 2)
    assert resp0["model"] is model

    assert got["stream"][0][0] == "Checking."
    assert all(is_last for _, _, is_last in got["stream"])
    assert got["stream"][1][1] > got["stream"][0][1]  # stream_parts grows over the run

    out0, out1 = got["output_step"]
    assert out0["step"] == 0
    assert out0["text"] == "Checking."
    assert out0["finish_reason"] == "tool-calls"
    assert [(c["tool_call_id"], c["tool_name"], c["args"]) for c in out0["tool_calls"]] == [
        ("c1", "get_weather", {"city": "Paris"})
    ]
    assert out0["usage"] == Usage(input_tokens=5, output_tokens=2, total_tokens=7)
    assert out0["steps"] == 1
    assert (out0["last_role"], out0["last_text"]) == ("assistant", "Checking.")
    assert out0["system"] == [system(INSTRUCTIONS)]
    assert out1["text"] == "Sunny."
    assert out1["finish_reason"] == "stop"
    assert out1["tool_calls"] == []
    assert out1["steps"] == 2

    assert got["tool_result"] == {
        "name": "get_weather",
        "id": "c1",
        "args": {"city": "Paris"},
        "result": "Sunny in Paris",
        "step": 0,
        "has_call": True,
        "system": [system(INSTRUCTIONS)],
    }

    assert got["output_result"]["roles"] == ["assistant"]  # response messages only
    assert got["output_result"]["text"] == "Checking.Sunny."
    assert got["output_result"]["finish_reason"] == "stop"
    assert got["output_result"]["steps"] == 2
    assert got["output_result"]["usage"] == result.usage
    assert result.text == "Checking.Sunny."


async def test_api_error_args() -> None:
    got: list[dict[str, Any]] = []
    failure = ModelAPIError(429, "slow down", True)

    def on_error(args: Any) -> Any:
        got.append(
            {
                "error": args.error,
                "step": args.step_number,
                "steps": len(args.steps),
                "texts": [m.text for m in args.messages],
                "retry": args.retry_count,
                "state_is_dict": isinstance(args.state, dict),
                "ml": isinstance(args.message_list, MessageList),
            }
        )
        return {"retry": True}

    model = ScriptedModel([Turn(error=failure), Turn(error=failure), "ok"])
    agent = make_agent(model, error_processors=[Fn("e", process_api_error=on_error)])
    result = await agent.generate("hello")
    assert result.text == "ok"
    assert [g["retry"] for g in got] == [0, 1]
    assert got[0]["error"] is failure
    assert got[0]["step"] == 0
    assert got[0]["texts"] == ["hello"]
    assert got[0]["state_is_dict"]
    assert got[0]["ml"]


# ---------------------------------------------------------------------------------------------- process_input results
def _upper(messages: list[Message]) -> list[Message]:
    return [m.with_text(m.text.upper()) for m in messages]


async def test_process_input_returns_a_message_list_array() -> None:
    model = ScriptedModel(["ok"])
    memory = InMemoryMemory()
    agent = make_agent(model, input_processors=[Fn("upper", process_input=lambda a: _upper(a.messages))], memory=memory)
    await agent.generate("hello there", thread_id="t")
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("HELLO THERE")]
    assert [m.text for m in memory.threads["t"]] == ["HELLO THERE", "ok"]


async def test_process_input_returns_the_same_message_list_after_editing_in_place() -> None:
    def edit(args: Any) -> Any:
        args.messages[0].content.parts[0].text = "edited"
        args.message_list.add("added", "input")
        return args.message_list

    model = ScriptedModel(["ok"])
    agent = make_agent(model, input_processors=[Fn("edit", process_input=edit)])
    await agent.generate("original")
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("edited"), user("added")]


async def test_process_input_returns_none_changes_nothing() -> None:
    model = ScriptedModel(["ok"])
    agent = make_agent(model, input_processors=[Fn("noop", process_input=lambda a: None)])
    await agent.generate("same")
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("same")]


async def test_process_input_array_removes_and_adds_messages() -> None:
    def keep_last_add_one(args: Any) -> Any:
        return [args.messages[-1], Message.user("appended")]

    model = ScriptedModel(["ok"])
    agent = make_agent(model, input_processors=[Fn("p", process_input=keep_last_add_one)])
    await agent.generate(["first", "second"])
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("second"), user("appended")]


async def test_process_input_messages_and_system_messages_and_system_edits_persist_across_steps() -> None:
    def rewrite(args: Any) -> Any:
        return {"messages": _upper(args.messages), "system_messages": [system("New rules.")]}

    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(model, tools=[get_weather], input_processors=[Fn("p", process_input=rewrite)])
    await agent.generate("weather?")
    assert model.requests[0].messages == [system("New rules."), user("WEATHER?")]
    assert model.requests[1].messages[0] == system("New rules.")  # process_input system edits persist
    assert [m for m in model.requests[1].messages if m["role"] == "system"] == [system("New rules.")]


async def test_process_input_chain_passes_each_result_to_the_next() -> None:
    seen: list[list[str]] = []

    def second(args: Any) -> Any:
        seen.append([m.text for m in args.messages])
        return [m.with_text(m.text + "!") for m in args.messages]

    model = ScriptedModel(["ok"])
    agent = make_agent(
        model, input_processors=[Fn("a", process_input=lambda a: _upper(a.messages)), Fn("b", process_input=second)]
    )
    await agent.generate("hey")
    assert seen == [["HEY"]]
    assert model.requests[0].messages[-1] == user("HEY!")


async def test_process_input_returning_another_message_list_is_a_clear_error() -> None:
    model = ScriptedModel(["never"])
    agent = make_agent(model, input_processors=[Fn("foreign-list", process_input=lambda a: MessageList())])
    chunks, result = await run_stream(agent)
    assert model.requests == []
    assert kinds(chunks)[-1] == "error"
    assert result.finish_reason == "error"
    assert "foreign-list" in result.error
    assert "MessageList" in result.error


# ------------------------------------------------------------------------------------- process_input_step results
async def test_process_input_step_array_result() -> None:
    model = ScriptedModel(["ok"])
    agent = make_agent(model, input_processors=[Fn("p", process_input_step=lambda a: _upper(a.messages))])
    await agent.generate("quiet")
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("QUIET")]


async def test_process_input_step_same_message_list_result() -> None:
    def edit(args: Any) -> Any:
        args.message_list.add(Message.user("from step"), "input")
        return args.message_list

    model = ScriptedModel(["ok"])
    agent = make_agent(model, input_processors=[Fn("p", process_input_step=edit)])
    await agent.generate("hi")
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("hi"), user("from step")]


@pytest.mark.parametrize("key", ["messages", "message_list"])
async def test_process_input_step_object_with_messages_or_message_list(key: str) -> None:
    def step(args: Any) -> Any:
        if key == "messages":
            return {"messages": _upper(args.messages), "tool_choice": "none"}
        args.messages[0].content.parts[0].text = "in place"
        return {"message_list": args.message_list, "tool_choice": "none"}

    model = ScriptedModel(["ok"])
    agent = make_agent(model, tools=[get_weather], input_processors=[Fn("p", process_input_step=step)])
    await agent.generate("hi")
    expected = "HI" if key == "messages" else "in place"
    assert model.requests[0].messages == [system(INSTRUCTIONS), user(expected)]
    assert model.requests[0].tool_choice == "none"


async def test_process_input_step_returning_messages_and_message_list_is_a_clear_error() -> None:
    model = ScriptedModel(["never"])
    both = Fn("both-keys", process_input_step=lambda a: {"messages": a.messages, "message_list": a.message_list})
    agent = make_agent(model, input_processors=[both])
    chunks, result = await run_stream(agent)
    assert model.requests == []
    assert kinds(chunks)[-1] == "error"
    assert result.finish_reason == "error"
    assert "both-keys" in result.error


async def test_process_input_step_returning_another_message_list_is_a_clear_error() -> None:
    model = ScriptedModel(["never"])
    agent = make_agent(model, input_processors=[Fn("foreign-step", process_input_step=lambda a: MessageList())])
    chunks, result = await run_stream(agent)
    assert model.requests == []
    assert kinds(chunks)[-1] == "error"
    assert "foreign-step" in result.error


async def test_process_input_step_model_override_is_for_one_step_only() -> None:
    other = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")])], model_id="other")
    model = ScriptedModel(["Final."])

    def step(args: Any) -> Any:
        return {"model": other} if args.step_number == 0 else None

    agent = make_agent(model, tools=[get_weather], input_processors=[Fn("switch", process_input_step=step)])
    result = await agent.generate("hi")
    assert len(other.requests) == 1
    assert len(model.requests) == 1
    assert result.steps[0].model_id == "other"
    assert result.steps[1].model_id == "scripted"
    assert result.text == "Final."


async def test_process_input_step_overrides_apply_to_one_step_only() -> None:
    @tool
    def extra(q: str) -> str:
        """An extra tool."""
        return f"extra:{q}"

    schema = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}

    def step(args: Any) -> Any:
        if args.step_number != 0:
            return None
        return {
            "tools": {**args.tools, "extra": extra},
            "active_tools": ["get_weather", "extra"],
            "tool_choice": "required",
            "system_messages": [system("Step-only rules.")],
            "provider_options": {**args.provider_options, "openai": {"reasoningEffort": "low"}},
            "model_settings": {**args.model_settings, "temperature": 0.1},
            "structured_output": {"schema": schema},
        }

    model = ScriptedModel([Turn(tool_calls=[ToolCall("extra", {"q": "x"}, id="c1")]), "Done."])
    agent = make_agent(
        model,
        tools=[get_weather, tool(lambda reason: reason, name="explode")],
        input_processors=[Fn("overrides", process_input_step=step)],
        model_settings={"temperature": 0.7},
        provider_options={"anthropic": {"x": 1}},
    )
    chunks, result = await run_stream(agent)
    req0, req1 = model.requests

    assert sorted(t["function"]["name"] for t in req0.tools) == ["extra", "get_weather"]
    assert req0.tool_choice == "required"
    assert [m for m in req0.messages if m["role"] == "system"] == [system("Step-only rules.")]
    assert req0.provider_options == {"anthropic": {"x": 1}, "openai": {"reasoningEffort": "low"}}
    assert req0.settings == {"temperature": 0.1}
    assert req0.response_format is not None
    assert req0.response_format["json_schema"]["schema"] == schema

    results = of_type(chunks, "tool-result")
    assert [(c.payload.tool_name, c.payload.result) for c in results] == [("extra", "extra:x")]

    assert sorted(t["function"]["name"] for t in req1.tools) == ["explode", "get_weather"]
    assert req1.tool_choice == "auto"
    assert [m for m in req1.messages if m["role"] == "system"] == [system(INSTRUCTIONS)]
    assert req1.provider_options == {"anthropic": {"x": 1}}
    assert req1.settings == {"temperature": 0.7}
    assert req1.response_format is None
    assert result.text == "Done."


async def test_process_input_step_overrides_chain_through_processors() -> None:
    other = ScriptedModel(["from other"], model_id="other")
    model = ScriptedModel(["from default"])
    seen: dict[str, Any] = {}

    def first(args: Any) -> Any:
        return {"model": other, "provider_options": {"p": 1}}

    def second(args: Any) -> Any:
        seen["model"] = args.model
        seen["provider_options"] = dict(args.provider_options)
        return {"tool_choice": "none"}

    def third(args: Any) -> Any:
        seen["tool_choice"] = args.tool_choice
        seen["model3"] = args.model
        return {}

    agent = make_agent(
        model,
        tools=[get_weather],
        input_processors=[
            Fn("a", process_input_step=first),
            Fn("b", process_input_step=second),
            Fn("c", process_input_step=third),
        ],
    )
    result = await agent.generate("hi")
    assert seen == {"model": other, "provider_options": {"p": 1}, "tool_choice": "none", "model3": other}
    assert model.requests == []
    assert other.requests[0].tool_choice == "none"
    assert other.requests[0].provider_options == {"p": 1}
    assert result.text == "from other"


async def test_process_input_step_system_edits_reset_every_step() -> None:
    seen: list[list[dict[str, Any]]] = []

    def step(args: Any) -> Any:
        seen.append(list(args.system_messages))
        args.message_list.add_system(f"note for step {args.step_number}")
        return args.message_list

    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(model, tools=[get_weather], input_processors=[Fn("notes", process_input_step=step)])
    await agent.generate("hi")
    assert seen == [[system(INSTRUCTIONS)], [system(INSTRUCTIONS)]]
    assert [m for m in model.requests[0].messages if m["role"] == "system"] == [
        system(INSTRUCTIONS),
        system("note for step 0"),
    ]
    assert [m for m in model.requests[1].messages if m["role"] == "system"] == [
        system(INSTRUCTIONS),
        system("note for step 1"),
    ]


# ---------------------------------------------------------------------------------------------- process_llm_request
async def test_llm_request_prompt_is_for_this_call_only() -> None:
    def rewrite(args: Any) -> Any:
        if args.step_number == 0:
            return {"prompt": [*args.prompt, {"role": "user", "content": "EPHEMERAL"}]}
        return None

    memory = InMemoryMemory()
    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(
        model, tools=[get_weather], memory=memory, input_processors=[Fn("rewrite", process_llm_request=rewrite)]
    )
    result = await agent.generate("hi", thread_id="t")
    assert model.requests[0].messages == [system(INSTRUCTIONS), user("hi"), user("EPHEMERAL")]
    assert all("EPHEMERAL" not in str(m.get("content")) for m in model.requests[1].messages)
    assert all("EPHEMERAL" not in m.text for m in memory.threads["t"])
    assert all("EPHEMERAL" not in m.text for m in result.messages)


async def test_llm_request_prompts_chain() -> None:
    seen: list[Any] = []

    def first(args: Any) -> Any:
        return {"prompt": [m for m in args.prompt if m["role"] != "system"]}

    def second(args: Any) -> Any:
        seen.append([dict(m) for m in args.prompt])

    model = ScriptedModel(["ok"])
    agent = make_agent(
        model, input_processors=[Fn("a", process_llm_request=first), Fn("b", process_llm_request=second)]
    )
    await agent.generate("hi")
    assert seen == [[user("hi")]]
    assert model.requests[0].messages == [user("hi")]


async def test_llm_request_response_replays_without_calling_the_model() -> None:
    responses: list[dict[str, Any]] = []
    stream_seen: list[str] = []
    cached = {
        "chunks": [
            {"type": "text-delta", "payload": {"id": "x", "text": "Cached "}},
            {"type": "text-delta", "payload": {"id": "x", "text": "answer"}},
        ]
    }

    def on_request(args: Any) -> Any:
        return {"response": cached}

    def on_response(args: Any) -> Any:
        responses.append(
            {
                "from_cache": args.from_cache,
                "texts": [
                    c["payload"].text if hasattr(c["payload"], "text") else c["payload"]["text"]
                    for c in args.chunks
                    if c["type"] == "text-delta"
                ],
            }
        )

    def watch(args: Any) -> Any:
        if args.part.type == "text-delta":
            stream_seen.append(args.part.payload.text)
        return args.part

    model = ScriptedModel([])
    agent = make_agent(
        model,
        input_processors=[Fn("cache", process_llm_request=on_request, process_llm_response=on_response)],
        output_processors=[Fn("watch", process_output_stream=watch)],
    )
    chunks, result = await run_stream(agent)
    assert model.requests == []
    assert streamed_text(chunks) == "Cached answer"
    assert stream_seen == ["Cached ", "answer"]
    assert result.text == "Cached answer"
    assert responses == [{"from_cache": True, "texts": ["Cached ", "answer"]}]
    assert kinds(chunks)[-1] == "finish"


class ResponseCache(Processor):
    """Caches a response per prompt: the reference's processLLMRequest/processLLMResponse pairing."""

    id = "response-cache"

    def __init__(self) -> None:
        self.store: dict[str, list[dict[str, Any]]] = {}
        self.from_cache: list[bool] = []

    def process_llm_request(self, args: Any) -> Any:
        key = repr(args.prompt)
        args.state["key"] = key
        if key in self.store:
            return {"response": {"chunks": self.store[key]}}
        return None

    def process_llm_response(self, args: Any) -> Any:
        self.from_cache.append(args.from_cache)
        if not args.from_cache:
            self.store[args.state["key"]] = list(args.chunks)


async def test_response_cache_round_trip_replays_a_recorded_step() -> None:
    cache = ResponseCache()
    model = ScriptedModel(["Fresh answer here"])
    agent = make_agent(model, input_processors=[cache])
    first = await agent.generate("question")
    chunks, second = await run_stream(agent, "question")
    assert len(model.requests) == 1
    assert cache.from_cache == [False, True]
    assert first.text == second.text == "Fresh answer here"
    assert streamed_text(chunks) == "Fresh answer here"
    assert second.steps[0].from_cache is True
    assert second.finish_reason == first.finish_reason == "stop"


# ---------------------------------------------------------------------------------------------- process_output_stream
async def test_output_stream_replaces_drops_and_chains_chunks() -> None:
    second_saw: list[str] = []

    def upper(args: Any) -> Any:
        if args.part.type == "text-delta":
            if args.part.payload.text.strip() == "drop":
                return None
            return args.part.with_payload(text=args.part.payload.text.upper())
        return args.part

    def record(args: Any) -> Any:
        if args.part.type == "text-delta":
            second_saw.append(args.part.payload.text)
        return args.part

    model = ScriptedModel([Turn(text=["keep ", "drop ", "this"])])
    agent = make_agent(
        model, output_processors=[Fn("upper", process_output_stream=upper), Fn("record", process_output_stream=record)]
    )
    chunks, result = await run_stream(agent)
    assert [c.payload.text for c in of_type(chunks, "text-delta")] == ["KEEP ", "THIS"]
    assert second_saw == ["KEEP ", "THIS"]
    assert result.text == "KEEP THIS"
    assert kinds(chunks)[-1] == "finish"


async def test_output_stream_implicit_none_drops_every_chunk_but_the_stream_goes_on() -> None:
    async def swallow_text(args: Any) -> Any:
        if args.part.type != "text-delta":
            return args.part
        return None

    model = ScriptedModel(["one two three"])
    agent = make_agent(model, output_processors=[Fn("swallow", process_output_stream=swallow_text)])
    chunks, result = await run_stream(agent)
    assert of_type(chunks, "text-delta") == []
    assert kinds(chunks)[-1] == "finish"
    assert result.finish_reason == "stop"


# ---------------------------------------------------------------------------------------------- process_output_step
async def test_output_step_array_result_edits_the_response() -> None:
    def redact(args: Any) -> Any:
        return [m.with_text(m.text.replace("secret", "[x]")) if m.role == "assistant" else m for m in args.messages]

    memory = InMemoryMemory()
    model = ScriptedModel(["the secret is out"])
    agent = make_agent(model, memory=memory, output_processors=[Fn("redact", process_output_step=redact)])
    result = await agent.generate("hi", thread_id="t")
    assert [m.text for m in result.messages] == ["the [x] is out"]
    assert [m.text for m in memory.threads["t"]] == ["hi", "the [x] is out"]


async def test_output_step_edit_reaches_the_next_prompt() -> None:
    def redact(args: Any) -> Any:
        for m in args.messages:
            if m.role == "assistant":
                for part in m.content.parts:
                    if getattr(part, "type", "") == "text":
                        part.text = part.text.replace("Checking", "Looking")
        return args.message_list

    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("p", process_output_step=redact)])
    await agent.generate("hi")
    assistant_msgs = [m for m in model.requests[1].messages if m["role"] == "assistant"]
    assert assistant_msgs[0]["content"] == "Looking."


async def test_output_step_empty_list_means_no_change() -> None:
    memory = InMemoryMemory()
    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(
        model, tools=[get_weather], memory=memory, output_processors=[Fn("empty", process_output_step=lambda a: [])]
    )
    result = await agent.generate("hi", thread_id="t")
    assert result.text == "Checking.Done."
    assert model.requests[1].messages[:2] == [system(INSTRUCTIONS), user("hi")]
    assert model.requests[1].messages[2]["content"] == "Checking."
    assert [m.role for m in memory.threads["t"]] == ["user", "assistant"]


async def test_output_step_returning_another_message_list_is_a_clear_error() -> None:
    model = ScriptedModel(["text"])
    agent = make_agent(model, output_processors=[Fn("foreign-out", process_output_step=lambda a: MessageList())])
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-1] == "error"
    assert result.finish_reason == "error"
    assert "foreign-out" in result.error


# ---------------------------------------------------------------------------------------------- process_output_result
async def test_output_result_array_changes_the_final_text() -> None:
    memory = InMemoryMemory()
    model = ScriptedModel(["hello world"])
    agent = make_agent(
        model, memory=memory, output_processors=[Fn("upper", process_output_result=lambda a: _upper(a.messages))]
    )
    result = await agent.generate("hi", thread_id="t")
    assert result.text == "HELLO WORLD"
    assert [m.text for m in result.messages] == ["HELLO WORLD"]
    assert [m.text for m in memory.threads["t"]] == ["hi", "HELLO WORLD"]


async def test_output_result_same_message_list_and_none() -> None:
    def add(args: Any) -> Any:
        args.message_list.add(Message.assistant("extra note"), "response")
        return args.message_list

    model = ScriptedModel(["answer"])
    agent = make_agent(
        model,
        output_processors=[Fn("add", process_output_result=add), Fn("none", process_output_result=lambda a: None)],
    )
    result = await agent.generate("hi")
    texts = [p.text for m in result.messages for p in m.content.parts if getattr(p, "type", "") == "text"]
    assert texts == ["answer", "extra note"]


async def test_hooks_see_history_order_in_prompt() -> None:
    memory = InMemoryMemory()
    model = ScriptedModel(["first answer", "second answer"])
    agent = make_agent(model, memory=memory)
    await agent.generate("q1", thread_id="t")
    await agent.generate("q2", thread_id="t")
    assert model.requests[1].messages == [system(INSTRUCTIONS), user("q1"), assistant("first answer"), user("q2")]


async def test_stream_consumption_by_collect_helper_works() -> None:
    model = ScriptedModel(["a b"])
    agent = make_agent(model)
    stream = agent.stream("hi")
    chunks = await collect(stream)
    assert streamed_text(chunks) == "a b"


@pytest.mark.parametrize(
    "hook",
    ["process_input", "process_input_step", "process_output_step", "process_tool_result", "process_output_result"],
)
async def test_every_message_hook_refuses_a_foreign_message_list(hook: str) -> None:
    lane = "input_processors" if hook in ("process_input", "process_input_step") else "output_processors"
    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(model, tools=[get_weather], **{lane: [Fn("foreign", **{hook: lambda a: MessageList()})]})
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-1] == "error"
    assert result.finish_reason == "error"
    assert "foreign" in result.error
    assert hook in result.error


async def test_process_tool_result_array_result_is_applied() -> None:
    def edit(args: Any) -> Any:
        return [
            m.with_text(m.text.replace("Checking", "Looking")) if m.role == "assistant" else m for m in args.messages
        ]

    model = ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(model, tools=[get_weather], output_processors=[Fn("edit", process_tool_result=edit)])
    result = await agent.generate("hi")
    assert next(m for m in model.requests[1].messages if m["role"] == "assistant")["content"] == "Looking."
    assert result.messages[0].text.startswith("Looking.")
