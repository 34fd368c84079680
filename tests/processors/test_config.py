"""Agent configuration (item 8) and processors that raise (item 9, one test per row of runner.py's table)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from processors import Agent, Message, Processor, ProcessorContractError, RequestContext
from processors.errors import ModelAPIError
from processors.memory import InMemoryMemory
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import (
    INSTRUCTIONS,
    Fn,
    get_weather,
    kinds,
    make_agent,
    of_type,
    run_stream,
    system,
    terminal_count,
    user,
)

TOOL_TURN = Turn(text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")])


class Tag(Processor):
    """Appends its tag to the user message in process_input, and to the answer in process_output_result."""

    def __init__(self, tag: str) -> None:
        self.id = f"tag-{tag}"
        self.tag = tag

    def process_input(self, args: Any) -> Any:
        return [m.with_text(f"{m.text} [{self.tag}]") for m in args.messages]


class OutTag(Processor):
    def __init__(self, tag: str) -> None:
        self.id = f"out-{tag}"
        self.tag = tag

    def process_output_result(self, args: Any) -> Any:
        return [m.with_text(f"{m.text} <{self.tag}>") for m in args.messages]


# ---------------------------------------------------------------------------------------------- arrays
async def test_lists_run_in_order() -> None:
    model = ScriptedModel(["answer"])
    agent = make_agent(model, input_processors=[Tag("a"), Tag("b")], output_processors=[OutTag("x"), OutTag("y")])
    result = await agent.generate("q")
    assert model.requests[0].messages[-1] == user("q [a] [b]")
    assert result.text == "answer <x> <y>"


async def test_each_lane_may_be_a_callable_of_the_request_context() -> None:
    calls: list[Any] = []

    def inputs(request_context: RequestContext) -> list[Any]:
        calls.append(request_context)
        return [Tag(request_context.get("tag", "none"))]

    def outputs(ctx: RequestContext) -> list[Any]:  # positional form
        return [OutTag(ctx.get("tag", "none"))]

    def errors(request_context: RequestContext) -> list[Any]:
        return [Fn("retry-" + request_context.get("tag", "none"), process_api_error=lambda a: {"retry": True})]

    model = ScriptedModel([Turn(error=ModelAPIError(500, "x")), "one", "two"])
    agent = make_agent(model, input_processors=inputs, output_processors=outputs, error_processors=errors)
    ctx = RequestContext()
    ctx.set("tag", "vip")
    first = await agent.generate("q", request_context=ctx)
    second = await agent.generate("q")
    assert calls[0] is ctx
    assert model.requests[1].messages[-1] == user("q [vip]")
    assert first.text == "one <vip>"
    assert model.requests[2].messages[-1] == user("q [none]")
    assert second.text == "two <none>"


async def test_per_call_overrides_replace_the_agents_lists() -> None:
    model = ScriptedModel(["a1", "a2", "a3"])
    agent = make_agent(model, input_processors=[Tag("agent")], output_processors=[OutTag("agent")])
    replaced = await agent.generate("q", input_processors=[Tag("call")], output_processors=[OutTag("call")])
    disabled = await agent.generate("q", input_processors=[], output_processors=[])
    default = await agent.generate("q")
    assert model.requests[0].messages[-1] == user("q [call]")
    assert replaced.text == "a1 <call>"
    assert model.requests[1].messages[-1] == user("q")
    assert disabled.text == "a2"
    assert model.requests[2].messages[-1] == user("q [agent]")
    assert default.text == "a3 <agent>"


async def test_per_call_error_processors_replace_and_empty_list_disables() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(500, "x")), "never"])
    agent = make_agent(model, error_processors=[Fn("retry", process_api_error=lambda a: {"retry": True})])
    result = await agent.generate("q", error_processors=[])
    assert len(model.requests) == 1
    assert result.finish_reason == "error"


async def test_per_call_callable_override() -> None:
    model = ScriptedModel(["ok"])
    agent = make_agent(model, input_processors=[Tag("agent")])
    ctx = RequestContext()
    ctx.set("tag", "ctx")
    await agent.generate(
        "q", request_context=ctx, input_processors=lambda request_context: [Tag(request_context.get("tag"))]
    )
    assert model.requests[0].messages[-1] == user("q [ctx]")


async def test_request_context_carries_values_and_thread_ids() -> None:
    seen: dict[str, Any] = {}

    def hook(args: Any) -> Any:
        seen["user"] = args.request_context.get("user")
        seen["missing"] = args.request_context.get("missing")

    ctx = RequestContext()
    ctx.set("user", "u-1")
    assert ctx.get("user") == "u-1"
    assert ctx.get("nope") is None
    await make_agent(ScriptedModel(["ok"]), input_processors=[Fn("p", process_input=hook)]).generate(
        "q", request_context=ctx
    )
    assert seen == {"user": "u-1", "missing": None}


async def test_processor_index_is_set_at_run_time() -> None:
    seen: dict[str, Any] = {}

    class Indexed(Processor):
        def __init__(self, pid: str) -> None:
            self.id = pid

        def process_input(self, args: Any) -> Any:
            seen[self.id] = self.processor_index

    a, b, c = Indexed("a"), Indexed("b"), Indexed("c")
    agent = make_agent(ScriptedModel(["ok", "ok"]), input_processors=[a, b, c])
    await agent.generate("q")
    assert seen == {"a": 0, "b": 1, "c": 2}
    assert (a.processor_index, b.processor_index, c.processor_index) == (0, 1, 2)
    await agent.generate("q", input_processors=[c, a])
    assert (c.processor_index, a.processor_index) == (0, 1)


@pytest.mark.parametrize(
    ("lane", "processor"),
    [
        ("input_processors", Fn("stream-only", process_output_stream=lambda a: a.part)),
        ("output_processors", Fn("input-only", process_input=lambda a: None)),
        ("error_processors", Fn("step-only", process_output_step=lambda a: None)),
        ("output_processors", Fn("api-only", process_api_error=lambda a: None)),
        ("input_processors", Fn("no-hooks")),
    ],
)
def test_processor_in_a_lane_whose_hooks_it_lacks_is_refused_at_construction(lane: str, processor: Any) -> None:
    with pytest.raises(ProcessorContractError) as info:
        Agent(id="a", model=ScriptedModel([]), **{lane: [processor]})
    assert processor.id in str(info.value)


async def test_processor_in_a_wrong_lane_from_a_callable_is_refused_when_the_call_starts() -> None:
    agent = Agent(
        id="a",
        model=ScriptedModel(["x"]),
        output_processors=lambda request_context: [Fn("input-only", process_input=lambda a: None)],
    )
    with pytest.raises(ProcessorContractError, match="input-only"):
        await agent.generate("q")


def test_agent_accepts_processors_in_their_lanes() -> None:
    agent = Agent(
        id="a",
        model=ScriptedModel([]),
        input_processors=[Fn("i", process_llm_response=lambda a: None)],
        output_processors=[Fn("o", process_tool_result=lambda a: None)],
        error_processors=[Fn("e", process_api_error=lambda a: None)],
    )
    assert agent.id == "a"


# ---------------------------------------------------------------------------------------------- raising processors
def boom(args: Any) -> Any:
    raise ValueError("boom")


async def _run_raising(
    hook: str, *, model: ScriptedModel | None = None, memory: Any = None, thread_id: str | None = None
) -> tuple[list[Any], Any, ScriptedModel]:
    lane = (
        "input"
        if hook in ("process_input", "process_input_step", "process_llm_request", "process_llm_response")
        else "output"
    )
    model = model or ScriptedModel([TOOL_TURN, "Done."])
    agent = make_agent(
        model, tools=[get_weather], memory=memory, **{f"{lane}_processors": [Fn("faulty", **{hook: boom})]}
    )
    stream = agent.stream("hi", thread_id=thread_id)
    chunks = await asyncio.wait_for(_collect(stream), 5)
    result = await stream.result()
    return chunks, result, model


async def _collect(stream: Any) -> list[Any]:
    return [c async for c in stream]


def _assert_clear_error(chunks: list[Any], result: Any, hook: str) -> None:
    assert kinds(chunks)[-1] == "error"
    assert terminal_count(chunks) == 1
    assert result.finish_reason == "error"
    assert "faulty" in result.error
    assert hook in result.error
    assert "boom" in result.error
    error = chunks[-1].to_wire()["payload"]["error"]
    assert "faulty" in error["message"]
    assert hook in error["message"]


@pytest.mark.parametrize("hook", ["process_input", "process_input_step", "process_llm_request"])
async def test_raising_before_the_model_ends_with_an_error_and_no_model_call(hook: str) -> None:
    chunks, result, model = await _run_raising(hook)
    _assert_clear_error(chunks, result, hook)
    assert model.requests == []
    assert of_type(chunks, "text-delta") == []


async def test_raising_in_llm_response_ends_after_the_streamed_step() -> None:
    chunks, result, model = await _run_raising("process_llm_response")
    _assert_clear_error(chunks, result, "process_llm_response")
    assert len(model.requests) == 1
    assert [c.payload.text for c in of_type(chunks, "text-delta")] == ["Checking."]


async def test_raising_in_output_stream_passes_the_chunk_on_and_records_a_warning() -> None:
    def upper(args: Any) -> Any:
        if args.part.type == "text-delta":
            return args.part.with_payload(text=args.part.payload.text.upper())
        return args.part

    def bang(args: Any) -> Any:
        if args.part.type == "text-delta":
            return args.part.with_payload(text=args.part.payload.text + "!")
        return args.part

    def explode_on_text(args: Any) -> Any:
        if args.part.type == "text-delta":
            raise ValueError("boom")
        return args.part

    tracer = RecordingTracer()
    model = ScriptedModel([Turn(text=["ab", "cd"])])
    agent = make_agent(
        model,
        output_processors=[
            Fn("upper", process_output_stream=upper),
            Fn("faulty", process_output_stream=explode_on_text),
            Fn("bang", process_output_stream=bang),
        ],
        tracers=[tracer],
    )
    chunks, result = await run_stream(agent)
    assert [c.payload.text for c in of_type(chunks, "text-delta")] == ["AB!", "CD!"]
    assert kinds(chunks)[-1] == "finish"
    assert result.finish_reason == "stop"
    assert any("faulty" in w and "process_output_stream" in w and "boom" in w for w in result.warnings)
    faulty_events = [e for e in tracer.events if e.processor_id == "faulty"]
    assert faulty_events[0].step_number == 0
    assert faulty_events[0].outcome == "raised"
    assert faulty_events[0].chunk_stats["raised"] == 2


async def test_raising_in_output_stream_without_tracing_behaves_the_same() -> None:
    def explode_on_text(args: Any) -> Any:
        if args.part.type == "text-delta":
            raise ValueError("boom")
        return args.part

    agent = make_agent(ScriptedModel(["x y"]), output_processors=[Fn("faulty", process_output_stream=explode_on_text)])
    chunks, result = await run_stream(agent)
    assert [c.payload.text for c in of_type(chunks, "text-delta")] == ["x ", "y"]
    assert result.text == "x y"
    assert len(result.warnings) == 1
    assert "faulty" in result.warnings[0]


async def test_raising_in_output_step_keeps_the_step_text() -> None:
    chunks, result, _model = await _run_raising("process_output_step", model=ScriptedModel(["the answer"]))
    _assert_clear_error(chunks, result, "process_output_step")
    assert result.text == "the answer"


async def test_raising_in_tool_result_does_not_commit_the_result() -> None:
    chunks, result, model = await _run_raising("process_tool_result")
    _assert_clear_error(chunks, result, "process_tool_result")
    assert of_type(chunks, "tool-result") == []
    assert len(model.requests) == 1
    # the call is answered with why it has no result, never with the result the processor did not pass
    assert [inv.state for m in result.messages for inv in m.tool_invocations] == ["output-error"]


async def test_raising_in_output_result_ends_with_error_and_keeps_saved_memory() -> None:
    memory = InMemoryMemory()
    model = ScriptedModel(["first answer", "second answer"])
    good = make_agent(model, memory=memory)
    await good.generate("first question", thread_id="t")
    before = [m.text for m in memory.threads["t"]]
    agent = make_agent(model, memory=memory, output_processors=[Fn("faulty", process_output_result=boom)])
    chunks, result = await run_stream(agent, "second question", thread_id="t")
    _assert_clear_error(chunks, result, "process_output_result")
    assert [m.text for m in memory.threads["t"]][:2] == before == ["first question", "first answer"]


@pytest.mark.parametrize(
    "hook",
    [
        "process_input",
        "process_input_step",
        "process_llm_request",
        "process_llm_response",
        "process_output_step",
        "process_tool_result",
    ],
)
async def test_a_raising_processor_loses_nothing_already_saved(hook: str) -> None:
    memory = InMemoryMemory()
    memory.threads["t"] = [Message.user("old q"), Message.assistant("old a")]
    chunks, _result, _ = await _run_raising(hook, memory=memory, thread_id="t")
    assert kinds(chunks)[-1] == "error"
    assert [m.text for m in memory.threads["t"]][:2] == ["old q", "old a"]


async def test_raising_error_processor_is_skipped_and_the_next_is_asked() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(500, "x")), "recovered"])
    agent = make_agent(
        model,
        error_processors=[
            Fn("faulty", process_api_error=boom),
            Fn("retry", process_api_error=lambda a: {"retry": True}),
        ],
    )
    chunks, result = await run_stream(agent)
    assert len(model.requests) == 2
    assert result.text == "recovered"
    assert kinds(chunks)[-1] == "finish"
    assert any("faulty" in w and "process_api_error" in w for w in result.warnings)


async def test_async_raising_processor_is_reported_the_same() -> None:
    async def aboom(args: Any) -> Any:
        await asyncio.sleep(0)
        raise KeyError("missing")

    model = ScriptedModel(["x"])
    chunks, result = await run_stream(make_agent(model, input_processors=[Fn("async-faulty", process_input=aboom)]))
    assert kinds(chunks)[-1] == "error"
    assert "async-faulty" in result.error
    assert "process_input" in result.error
    assert chunks[-1].to_wire()["payload"]["error"]["processorId"] == "async-faulty"
    assert chunks[-1].to_wire()["payload"]["error"]["hook"] == "process_input"
    assert model.requests == []


async def test_system_and_user_messages_reach_the_model_in_order() -> None:
    model = ScriptedModel(["ok"])
    await make_agent(model, instructions=["one", "two"]).generate(["a", "b"])
    assert model.requests[0].messages == [system("one"), system("two"), user("a"), user("b")]
    model2 = ScriptedModel(["ok"])
    await make_agent(model2).generate("q", instructions="override")
    assert model2.requests[0].messages == [system("override"), user("q")]
    assert INSTRUCTIONS == "You are terse."


async def test_a_reused_request_context_sees_each_calls_thread() -> None:
    seen: list[Any] = []

    def hook(args: Any) -> Any:
        seen.append((args.request_context.get("thread_id"), args.request_context.get("resource_id")))

    ctx = RequestContext()
    agent = make_agent(ScriptedModel(["1", "2"]), input_processors=[Fn("p", process_input=hook)])
    await agent.generate("q", request_context=ctx, thread_id="t1", resource_id="u1")
    await agent.generate("q", request_context=ctx, thread_id="t2", resource_id="u2")
    assert seen == [("t1", "u1"), ("t2", "u2")]


async def test_per_call_none_max_processor_retries_falls_back_to_the_agent() -> None:
    def judge(args: Any) -> Any:
        if "bad" in args.text:
            args.abort("bad", retry=True)

    model = ScriptedModel(["bad", "good"])
    agent = make_agent(model, output_processors=[Fn("judge", process_output_step=judge)], max_processor_retries=2)
    result = await agent.generate("q", max_processor_retries=None)  # Mastra: options.x ?? agent.x
    assert len(model.requests) == 2
    assert result.text == "good"
