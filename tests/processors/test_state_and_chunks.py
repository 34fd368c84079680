"""Processor state (item 6) and custom data chunks (item 7): writer.custom, process_data_parts, transient."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import ValidationError

from processors import ModelAPIError, Processor, RequestContext, StreamWriter, tool
from processors.chunks import DataChunk
from processors.errors import InvalidChunkError
from processors.memory import InMemoryMemory
from processors.messages import DataPart, TextPart
from processors.models import ModelRequest, ScriptedModel, ToolCall, Turn
from tests.processors.helpers import (
    Abort,
    Fn,
    get_weather,
    kinds,
    make_agent,
    of_type,
    run_stream,
    terminal_count,
)


# ---------------------------------------------------------------------------------------------- state
class Stateful(Processor):
    """Uses its state from every hook of both lanes and records the state object each hook got."""

    id = "stateful"

    def __init__(self) -> None:
        self.state_ids: dict[str, set[int]] = {}
        self.final: list[dict[str, Any]] = []

    def _seen(self, hook: str, args: Any) -> None:
        self.state_ids.setdefault(hook, set()).add(id(args.state))
        args.state.setdefault("hooks", []).append(hook)

    def process_input(self, args: Any) -> Any:
        assert args.state == {}
        self._seen("process_input", args)

    def process_input_step(self, args: Any) -> Any:
        self._seen("process_input_step", args)

    def process_llm_request(self, args: Any) -> Any:
        self._seen("process_llm_request", args)
        args.state["cache_key"] = f"key-{args.step_number}"

    def process_llm_response(self, args: Any) -> Any:
        self._seen("process_llm_response", args)
        args.state.setdefault("keys_seen_in_response", []).append(args.state["cache_key"])

    def process_output_stream(self, args: Any) -> Any:
        self.state_ids.setdefault("process_output_stream", set()).add(id(args.state))
        if args.part.type == "text-delta":
            args.state["deltas"] = args.state.get("deltas", 0) + 1
        return args.part

    def process_output_step(self, args: Any) -> Any:
        self._seen("process_output_step", args)

    def process_tool_result(self, args: Any) -> Any:
        self._seen("process_tool_result", args)

    def process_output_result(self, args: Any) -> Any:
        self._seen("process_output_result", args)
        self.final.append(dict(args.state))


async def test_one_state_dict_per_processor_id_shared_by_all_its_hooks() -> None:
    processor = Stateful()
    model = ScriptedModel(
        [Turn(text=["a ", "b"], tool_calls=[ToolCall("get_weather", {"city": "X"}, id="c1")]), Turn(text=["c"])]
    )
    agent = make_agent(model, tools=[get_weather], input_processors=[processor], output_processors=[processor])
    await agent.generate("hi")
    all_ids = set().union(*processor.state_ids.values())
    assert len(all_ids) == 1
    assert set(processor.state_ids) == {
        "process_input",
        "process_input_step",
        "process_llm_request",
        "process_llm_response",
        "process_output_stream",
        "process_output_step",
        "process_tool_result",
        "process_output_result",
    }
    final = processor.final[0]
    assert final["deltas"] == 3
    assert final["keys_seen_in_response"] == ["key-0", "key-1"]
    assert final["hooks"][0] == "process_input"
    assert final["hooks"][-1] == "process_output_result"


async def test_state_is_shared_with_the_error_hook() -> None:
    ids: list[int] = []

    class Both(Processor):
        id = "both"

        def process_llm_request(self, args: Any) -> Any:
            ids.append(id(args.state))
            args.state["attempt"] = args.state.get("attempt", 0) + 1

        def process_api_error(self, args: Any) -> Any:
            ids.append(id(args.state))
            return {"retry": args.state["attempt"] == 1}

    processor = Both()
    model = ScriptedModel([Turn(error=ModelAPIError(500, "x")), "ok"])
    agent = make_agent(model, input_processors=[processor], error_processors=[processor])
    result = await agent.generate("hi")
    assert result.text == "ok"
    assert len(set(ids)) == 1


async def test_different_ids_get_different_state_and_same_ids_share_it() -> None:
    seen: dict[str, list[Any]] = {}

    def make(pid: str, name: str) -> Fn:
        def hook(args: Any) -> Any:
            args.state.setdefault("writers", []).append(name)
            seen.setdefault(name, []).append(args.state)

        return Fn(pid, process_input=hook)

    agent = make_agent(
        ScriptedModel(["ok"]), input_processors=[make("alpha", "a1"), make("alpha", "a2"), make("beta", "b")]
    )
    await agent.generate("hi")
    assert seen["a1"][0] is seen["a2"][0]  # keyed by id, as in Mastra
    assert seen["a1"][0]["writers"] == ["a1", "a2"]
    assert seen["b"][0] is not seen["a1"][0]
    assert seen["b"][0] == {"writers": ["b"]}


async def test_state_is_fresh_for_every_call() -> None:
    starts: list[dict[str, Any]] = []

    def hook(args: Any) -> Any:
        starts.append(dict(args.state))
        args.state["calls"] = args.state.get("calls", 0) + 1

    agent = make_agent(ScriptedModel(["one", "two"]), input_processors=[Fn("p", process_input=hook)])
    await agent.generate("first")
    await agent.generate("second")
    assert starts == [{}, {}]


async def test_concurrent_runs_never_share_state() -> None:
    class Counter(Processor):
        id = "counter"

        def __init__(self) -> None:
            self.results: dict[str, int] = {}

        def process_output_stream(self, args: Any) -> Any:
            if args.part.type == "text-delta":
                args.state["n"] = args.state.get("n", 0) + 1
            return args.part

        def process_output_result(self, args: Any) -> Any:
            self.results[args.request_context.get("who")] = args.state["n"]

    def reply(request: ModelRequest) -> Turn:
        asked = request.messages[-1]["content"]
        words = ["w "] * (3 if asked == "a" else 7)
        return Turn(text=words, delay=0.002)

    counter = Counter()
    agent = make_agent(ScriptedModel([reply, reply]), output_processors=[counter])
    ctx_a, ctx_b = RequestContext(), RequestContext()
    ctx_a.set("who", "a")
    ctx_b.set("who", "b")
    result_a, result_b = await asyncio.wait_for(
        asyncio.gather(agent.generate("a", request_context=ctx_a), agent.generate("b", request_context=ctx_b)), 5
    )
    assert counter.results == {"a": 3, "b": 7}
    assert result_a.text == "w w w "
    assert result_b.text == "w " * 7


# ---------------------------------------------------------------------------------------------- writer.custom
async def test_processor_writer_custom_is_emitted_before_the_returned_part() -> None:
    async def tag(args: Any) -> Any:
        if args.part.type == "text-delta":
            await args.writer.custom({"type": "data-seen", "data": {"text": args.part.payload.text}})
        return args.part

    agent = make_agent(
        ScriptedModel([Turn(text=["x", "y"])]), output_processors=[Fn("tagger", process_output_stream=tag)]
    )
    chunks, _ = await run_stream(agent)
    interesting = [
        (c.type, c.to_wire().get("data") or c.payload.text) for c in chunks if c.type in ("text-delta", "data-seen")
    ]
    assert interesting == [
        ("data-seen", {"text": "x"}),
        ("text-delta", "x"),
        ("data-seen", {"text": "y"}),
        ("text-delta", "y"),
    ]
    data = of_type(chunks, "data-seen")[0]
    assert data.to_wire() == {"type": "data-seen", "data": {"text": "x"}}


async def test_writer_custom_from_non_stream_hooks_reaches_the_stream() -> None:
    def on_input(args: Any) -> Any:
        args.writer.custom({"type": "data-input", "data": 1})

    def on_step(args: Any) -> Any:
        args.writer.custom({"type": "data-step", "data": args.step_number})

    def on_result(args: Any) -> Any:
        args.writer.custom({"type": "data-result", "data": args.result.text})

    agent = make_agent(
        ScriptedModel(["done"]),
        input_processors=[Fn("i", process_input=on_input)],
        output_processors=[Fn("o", process_output_step=on_step, process_output_result=on_result)],
    )
    chunks, _ = await run_stream(agent)
    types = kinds(chunks)
    assert types.index("data-input") < types.index("step-start")
    assert types.index("data-step") > types.index("text-delta")
    assert types.index("data-result") < types.index("finish")
    assert of_type(chunks, "data-result")[0].data == "done"


@tool
async def slow_lookup(city: str, writer: StreamWriter) -> str:
    """Look something up, reporting progress."""
    await writer.custom({"type": "data-progress", "data": {"city": city, "pct": 50}, "transient": True})
    await writer.custom({"type": "data-source", "data": {"url": f"https://example.test/{city}"}})
    return f"found {city}"


async def test_tool_writer_custom_chunks_reach_the_stream_before_the_result() -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("slow_lookup", {"city": "Oslo"}, id="c1")]), "ok"])
    agent = make_agent(model, tools=[slow_lookup])
    chunks, _ = await run_stream(agent)
    types = kinds(chunks)
    assert types.index("data-progress") < types.index("data-source") < types.index("tool-result")
    assert of_type(chunks, "data-progress")[0].to_wire() == {
        "type": "data-progress",
        "data": {"city": "Oslo", "pct": 50},
        "transient": True,
    }


async def test_data_parts_reach_only_processors_that_ask_for_them() -> None:
    plain_seen: list[str] = []
    data_seen: list[str] = []

    def plain(args: Any) -> Any:
        plain_seen.append(args.part.type)
        return args.part

    def wants(args: Any) -> Any:
        data_seen.append(args.part.type)
        return args.part

    wants_data = Fn("wants-data", process_output_stream=wants)
    wants_data.process_data_parts = True
    model = ScriptedModel([Turn(tool_calls=[ToolCall("slow_lookup", {"city": "Oslo"}, id="c1")]), "ok"])
    agent = make_agent(
        model, tools=[slow_lookup], output_processors=[Fn("plain", process_output_stream=plain), wants_data]
    )
    _chunks, _ = await run_stream(agent)
    assert not any(t.startswith("data-") for t in plain_seen)
    assert [t for t in data_seen if t.startswith("data-")] == ["data-progress", "data-source"]
    assert [t for t in plain_seen if t == "tool-result"] == ["tool-result"]


async def test_data_parts_processor_can_drop_and_edit_data_chunks() -> None:
    memory = InMemoryMemory()

    def filter_data(args: Any) -> Any:
        if args.part.type == "data-source":
            return None
        if args.part.type == "data-progress":
            return args.part.model_copy(update={"data": {"pct": 99}})
        return args.part

    collector = Fn("collector", process_output_stream=filter_data)
    collector.process_data_parts = True
    model = ScriptedModel([Turn(tool_calls=[ToolCall("slow_lookup", {"city": "Oslo"}, id="c1")]), "ok"])
    agent = make_agent(model, tools=[slow_lookup], output_processors=[collector], memory=memory)
    chunks, _ = await run_stream(agent, thread_id="t")
    assert of_type(chunks, "data-source") == []
    assert [c.data for c in of_type(chunks, "data-progress")] == [{"pct": 99}]
    saved_types = [p.type for m in memory.threads["t"] for p in m.content.parts]
    assert "data-source" not in saved_types


async def test_transient_data_chunks_are_streamed_but_not_saved() -> None:
    memory = InMemoryMemory()

    def emit(args: Any) -> Any:
        if args.part.type == "text-delta":
            args.writer.custom({"type": "data-keep", "data": {"k": 1}})
            args.writer.custom({"type": "data-temp", "data": {"t": 2}, "transient": True})
        return args.part

    agent = make_agent(
        ScriptedModel(["answer"]), memory=memory, output_processors=[Fn("emit", process_output_stream=emit)]
    )
    chunks, _result = await run_stream(agent, thread_id="t1")
    assert [c.to_wire() for c in chunks if c.type.startswith("data-")] == [
        {"type": "data-keep", "data": {"k": 1}},
        {"type": "data-temp", "data": {"t": 2}, "transient": True},
    ]
    saved = memory.threads["t1"]
    assert [m.role for m in saved] == ["user", "assistant"]
    data_parts = [p for p in saved[1].content.parts if isinstance(p, DataPart)]
    assert [(p.type, p.data) for p in data_parts] == [("data-keep", {"k": 1})]
    assert [p.text for p in saved[1].content.parts if isinstance(p, TextPart)] == ["answer"]
    assert saved[1].text == "answer"


async def test_data_chunks_from_output_result_are_saved_with_the_assistant_message() -> None:
    memory = InMemoryMemory()

    def on_result(args: Any) -> Any:
        args.writer.custom({"type": "data-summary", "data": {"words": 2}})
        args.writer.custom({"type": "data-debug", "data": "x", "transient": True})

    agent = make_agent(
        ScriptedModel(["two words"]), memory=memory, output_processors=[Fn("summary", process_output_result=on_result)]
    )
    chunks, _ = await run_stream(agent, thread_id="t1")
    assert [c.type for c in chunks if c.type.startswith("data-")] == ["data-summary", "data-debug"]
    saved = memory.threads["t1"]
    assert [m.role for m in saved] == ["user", "assistant"]
    assert [(p.type, p.data) for p in saved[1].content.parts if isinstance(p, DataPart)] == [
        ("data-summary", {"words": 2})
    ]


async def test_transient_tool_chunks_are_not_saved_but_others_are() -> None:
    memory = InMemoryMemory()
    model = ScriptedModel([Turn(tool_calls=[ToolCall("slow_lookup", {"city": "Oslo"}, id="c1")]), "ok"])
    agent = make_agent(model, tools=[slow_lookup], memory=memory)
    await agent.generate("hi", thread_id="t")
    saved_types = [p.type for m in memory.threads["t"] for p in m.content.parts]
    assert "data-progress" not in saved_types
    assert "data-source" in saved_types


async def test_abort_on_a_data_chunk_ends_with_a_tripwire() -> None:
    guard = Abort("data-guard", "process_output_stream", "bad data", when=lambda a: a.part.type == "data-source")
    guard.process_data_parts = True
    model = ScriptedModel([Turn(tool_calls=[ToolCall("slow_lookup", {"city": "Oslo"}, id="c1")]), "ok"])
    agent = make_agent(model, tools=[slow_lookup], output_processors=[guard])
    chunks, result = await run_stream(agent)
    assert kinds(chunks)[-1] == "tripwire"
    assert terminal_count(chunks) == 1
    assert result.tripwire.reason == "bad data"


# ---------------------------------------------------------------------------------------------- invalid types
def test_writer_custom_refuses_a_type_without_data_prefix() -> None:
    received: list[Any] = []
    writer = StreamWriter(received.append)
    with pytest.raises(InvalidChunkError, match="data-"):
        writer.custom({"type": "progress", "data": 1})
    with pytest.raises(InvalidChunkError):
        writer.custom({"data": 1})
    assert received == []
    writer.custom({"type": "data-ok", "data": 1})
    assert received == [DataChunk(type="data-ok", data=1)]


def test_data_chunk_refuses_a_type_without_data_prefix() -> None:
    with pytest.raises(ValidationError, match="data-"):
        DataChunk(type="moderation", data=1)


async def test_invalid_custom_chunk_from_a_processor_is_a_clear_error() -> None:
    def bad(args: Any) -> Any:
        args.writer.custom({"type": "moderation", "data": 1})

    model = ScriptedModel(["never"])
    chunks, result = await run_stream(make_agent(model, input_processors=[Fn("bad-writer", process_input=bad)]))
    assert kinds(chunks)[-1] == "error"
    assert result.finish_reason == "error"
    assert "bad-writer" in result.error
    assert "data-" in result.error
    assert model.requests == []


async def test_invalid_custom_chunk_from_a_tool_becomes_a_tool_error() -> None:
    @tool
    async def noisy(writer: StreamWriter) -> str:
        """Writes a bad chunk."""
        await writer.custom({"type": "progress", "data": 1})
        return "never"

    model = ScriptedModel([Turn(tool_calls=[ToolCall("noisy", {}, id="c1")]), "ok"])
    chunks, result = await run_stream(make_agent(model, tools=[noisy]))
    errors = of_type(chunks, "tool-error")
    assert len(errors) == 1
    assert "data-" in str(errors[0].payload.error)
    assert result.text == "ok"


@pytest.mark.parametrize(
    "hook",
    ["process_input_step", "process_llm_request", "process_llm_response", "process_api_error", "process_tool_result"],
)
async def test_writer_is_available_in_every_hook(hook: str) -> None:
    def write(args: Any) -> Any:
        args.writer.custom({"type": f"data-{hook.replace('_', '-')}", "data": 1})
        return {"retry": True} if hook == "process_api_error" else None

    lane = {"process_api_error": "error_processors", "process_tool_result": "output_processors"}.get(
        hook, "input_processors"
    )
    model = ScriptedModel(
        [Turn(error=ModelAPIError(500, "x")), "ok"]
        if hook == "process_api_error"
        else [Turn(tool_calls=[ToolCall("get_weather", {"city": "X"}, id="c1")]), "ok"]
    )
    agent = make_agent(model, tools=[get_weather], **{lane: [Fn("w", **{hook: write})]})
    chunks, result = await run_stream(agent)
    expected = f"data-{hook.replace('_', '-')}"
    assert expected in kinds(chunks)
    assert kinds(chunks)[-1] == "finish"
    assert result.finish_reason == "stop"


async def test_data_chunk_written_on_the_finish_chunk_is_saved() -> None:
    memory = InMemoryMemory()

    def count_words(args: Any) -> Any:
        if args.part.type == "text-delta":
            args.state["words"] = args.state.get("words", 0) + len(args.part.payload.text.split())
        if args.part.type == "finish":
            args.writer.custom({"type": "data-word-count", "data": {"words": args.state["words"]}})
        return args.part

    agent = make_agent(
        ScriptedModel(["three little words"]),
        memory=memory,
        output_processors=[Fn("word-counter", process_output_stream=count_words)],
    )
    chunks, _ = await run_stream(agent, thread_id="t")
    assert [c.to_wire() for c in of_type(chunks, "data-word-count")] == [
        {"type": "data-word-count", "data": {"words": 3}}
    ]
    assert kinds(chunks)[-1] == "finish"
    saved = memory.threads["t"]
    assert [m.role for m in saved] == ["user", "assistant"]
    assert [(p.type, p.data) for p in saved[1].content.parts if isinstance(p, DataPart)] == [
        ("data-word-count", {"words": 3})
    ]
