"""Tracing (item 15): one event per hook call of each processor; stream calls summarised per step."""

from __future__ import annotations

from typing import Any

from processors import Processor, TraceEvent
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, ToolCall, Turn
from processors.pipeline.stream_chain import REPROCESS_KEY
from processors.tracing import RecordingTracer
from tests.processors.helpers import Fn, get_weather, make_agent, run_stream

TOOL_TURN = Turn(text=["Check", "ing."], tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")])


class Everything(Processor):
    """Implements every input and output hook; passes everything through unchanged."""

    id = "everything"

    def process_input(self, args: Any) -> Any:
        args.state["n"] = 1
        return args.messages

    def process_input_step(self, args: Any) -> Any:
        return None

    def process_llm_request(self, args: Any) -> Any:
        return None

    def process_llm_response(self, args: Any) -> Any:
        return None

    def process_output_stream(self, args: Any) -> Any:
        return args.part

    def process_output_step(self, args: Any) -> Any:
        return args.message_list

    def process_tool_result(self, args: Any) -> Any:
        return None

    def process_output_result(self, args: Any) -> Any:
        args.state["n"] = 2
        return None


def key(event: TraceEvent) -> tuple[Any, str, str]:
    return (event.step_number, event.hook, event.processor_id)


async def test_every_hook_call_emits_an_event_in_order() -> None:
    tracer = RecordingTracer()
    processor = Everything()
    model = ScriptedModel([TOOL_TURN, "Sunny."])
    agent = make_agent(model, tools=[get_weather], input_processors=[processor], output_processors=[processor])
    agent.subscribe(tracer)
    _, result = await run_stream(agent)
    hooks = [(e.step_number, e.hook) for e in tracer.events]
    non_stream = [h for h in hooks if h[1] != "process_output_stream"]
    assert [h[1] for h in non_stream] == [
        "process_input",
        "process_input_step",
        "process_llm_request",
        "process_llm_response",
        "process_output_step",
        "process_tool_result",
        "process_input_step",
        "process_llm_request",
        "process_llm_response",
        "process_output_step",
        "process_output_result",
    ]
    assert [h[0] for h in non_stream][1:10] == [0, 0, 0, 0, 0, 1, 1, 1, 1]
    for event in tracer.events:
        assert event.run_id == result.run_id
        assert event.processor_id == "everything"
        assert event.processor_index == 0
        assert event.started_at <= event.ended_at
        assert event.outcome == "passed"
        assert isinstance(event.before, str)
        assert isinstance(event.after, str)


async def test_stream_events_are_summarised_per_step_with_chunk_stats() -> None:
    tracer = RecordingTracer()
    seen: dict[int, int] = {}
    step_holder: dict[str, int] = {"step": 0}

    def count(args: Any) -> Any:
        if args.part.type == "step-start":
            step_holder["step"] += 1
        seen[step_holder["step"]] = seen.get(step_holder["step"], 0) + 1
        return args.part

    model = ScriptedModel([TOOL_TURN, "Sunny."])
    agent = make_agent(
        model, tools=[get_weather], output_processors=[Fn("counter", process_output_stream=count)], tracers=[tracer]
    )
    await agent.generate("hi")
    stream_events = [e for e in tracer.events if e.hook == "process_output_stream"]
    assert [e.step_number for e in stream_events][:2] == [0, 1]
    assert all(e.chunk_stats is not None for e in stream_events)
    assert all(e.outcome == "passed" for e in stream_events)
    assert sum(e.chunk_stats["count"] for e in stream_events) == sum(seen.values())
    assert stream_events[0].chunk_stats["count"] >= 7  # step-start, metadata, text x2, tool call chunks...
    assert stream_events[0].chunk_stats["changed"] == 0
    assert stream_events[0].chunk_stats["dropped"] == 0
    assert stream_events[0].chunk_stats["changes"] == []


async def test_outcomes_passed_changed_dropped_aborted_raised() -> None:
    tracer = RecordingTracer()

    def upper(args: Any) -> Any:
        return [m.with_text(m.text.upper()) for m in args.messages]

    def drop_second(args: Any) -> Any:
        if args.part.type == "text-delta" and args.part.payload.text == "b":
            return None
        if args.part.type == "text-delta" and args.part.payload.text == "c":
            return args.part.with_payload(text="C")
        return args.part

    def raises(args: Any) -> Any:
        raise RuntimeError("nope")

    agent = make_agent(
        ScriptedModel([Turn(text=["a", "b", "c"])]),
        tracers=[tracer],
        input_processors=[Fn("same", process_input=lambda a: a.messages), Fn("upper", process_input=upper)],
        output_processors=[
            Fn("dropper", process_output_stream=drop_second),
            Fn("raiser", process_output_result=raises),
        ],
    )
    await agent.generate("hi")
    by = {(e.hook, e.processor_id): e for e in tracer.events}
    assert by[("process_input", "same")].outcome == "passed"
    assert by[("process_input", "upper")].outcome == "changed"
    dropper = by[("process_output_stream", "dropper")]
    assert dropper.outcome == "dropped"
    assert dropper.chunk_stats["dropped"] == 1
    assert dropper.chunk_stats["changed"] == 1
    changes = dropper.chunk_stats["changes"]
    assert [c["outcome"] for c in changes] == ["dropped", "changed"]
    assert changes[0]["before"]["payload"]["text"] == "b"
    assert changes[0]["after"] is None
    assert changes[1]["after"]["payload"]["text"] == "C"
    raiser = by[("process_output_result", "raiser")]
    assert raiser.outcome == "raised"
    assert "nope" in raiser.detail

    tracer2 = RecordingTracer()
    agent2 = make_agent(
        ScriptedModel(["x"]),
        tracers=[tracer2],
        input_processors=[Fn("blocker", process_input=lambda a: a.abort("blocked here"))],
    )
    await agent2.generate("hi")
    (event,) = tracer2.events
    assert (event.hook, event.processor_id, event.outcome, event.detail) == (
        "process_input",
        "blocker",
        "aborted",
        "blocked here",
    )


async def test_buffered_chunks_are_held_not_dropped() -> None:
    """A guard that buffers deltas and lets them out later holds them; a chunk it never lets out is dropped."""
    tracer = RecordingTracer()

    def buffer_until_end(args: Any) -> Any:  # holds every delta, flushes them as one at text-end
        part = args.part
        if part.type == "text-delta":
            args.state.setdefault("text", []).append(part.payload.text)
            args.state.setdefault("template", [part])
            return None
        if part.type == "text-end" and args.state.get("text"):
            args.state[REPROCESS_KEY] = part
            return args.state.pop("template")[0].with_payload(text="".join(args.state.pop("text")))
        return part

    agent = make_agent(
        ScriptedModel([Turn(text=["a", "b", "c"])]),
        tracers=[tracer],
        output_processors=[Fn("buffer", process_output_stream=buffer_until_end)],
    )
    chunks, _ = await run_stream(agent)
    assert "".join(c.payload.text for c in chunks if c.type == "text-delta") == "abc"
    by = {e.processor_id: e for e in tracer.events if e.hook == "process_output_stream"}
    buffered = by["buffer"].chunk_stats
    # "abc", let out in place of the text-end, is the text it was given: held, not changed (issue 26 §7)
    assert (buffered["held"], buffered["dropped"], buffered["changed"]) == (3, 0, 0)
    assert [c["outcome"] for c in buffered["changes"]] == ["held", "held", "held"]
    assert by["buffer"].outcome == "held"
    assert "3 held, 0 dropped" in by["buffer"].after
    assert "pending" not in buffered and "first" not in buffered and "flow" not in buffered


async def test_a_late_chunk_let_out_unchanged_counts_as_held_and_passed() -> None:
    tracer = RecordingTracer()

    def hold_one(args: Any) -> Any:  # each delta goes out one chunk late, as it came in
        part, held = args.part, args.state.pop("held", None)
        if part.type == "text-delta":
            args.state["held"] = part
            return held
        if held is not None:
            args.state[REPROCESS_KEY] = part
            return held
        return part

    agent = make_agent(
        ScriptedModel([Turn(text=["a", "b", "c"])]),
        tracers=[tracer],
        output_processors=[Fn("late", process_output_stream=hold_one)],
    )
    chunks, _ = await run_stream(agent)
    assert "".join(c.payload.text for c in chunks if c.type == "text-delta") == "abc"
    (event,) = [e for e in tracer.events if e.hook == "process_output_stream"]
    stats = event.chunk_stats
    assert (stats["held"], stats["dropped"], stats["changed"]) == (3, 0, 0)
    assert event.outcome == "held"  # held back and let out unchanged: neither "changed" nor nothing at all


async def test_in_place_edits_count_as_changed() -> None:
    tracer = RecordingTracer()

    def edit_in_place(args: Any) -> Any:
        args.messages[0].content.parts[0].text = "edited"

    def redact(args: Any) -> Any:
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

    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]), "ok"])
    agent = make_agent(
        model,
        tools=[get_weather],
        tracers=[tracer],
        input_processors=[Fn("inplace", process_input=edit_in_place)],
        output_processors=[Fn("redact", process_tool_result=redact)],
    )
    await agent.generate("original")
    assert model.requests[0].messages[-1] == {"role": "user", "content": "edited"}
    by = {(e.hook, e.processor_id): e for e in tracer.events}
    assert by[("process_input", "inplace")].outcome == "changed"
    assert by[("process_tool_result", "redact")].outcome == "changed"


async def test_state_after_each_call_is_a_snapshot() -> None:
    tracer = RecordingTracer()
    processor = Everything()
    agent = make_agent(
        ScriptedModel(["ok"]), input_processors=[processor], output_processors=[processor], tracers=[tracer]
    )
    await agent.generate("hi")
    by = {e.hook: e for e in tracer.events}
    assert by["process_input"].state == {"n": 1}
    assert by["process_output_result"].state == {"n": 2}


async def test_before_and_after_summaries_describe_messages() -> None:
    tracer = RecordingTracer()
    agent = make_agent(
        ScriptedModel(["ok"]),
        tracers=[tracer],
        input_processors=[Fn("keep-the-first", process_input=lambda a: a.messages[:1])],
    )
    await agent.generate(["one", "two", "three"])
    (event,) = tracer.events
    assert event.outcome == "changed"
    # The count, the system messages and the last message's text, before and after the call.
    assert event.before == "3 messages, 1 system; last: 'three'"
    assert event.after == "1 messages, 1 system; last: 'one'"


async def test_api_error_events_and_processor_indexes() -> None:
    tracer = RecordingTracer()
    model = ScriptedModel([Turn(error=ModelAPIError(500, "x")), "ok"])
    agent = make_agent(
        model,
        tracers=[tracer],
        error_processors=[
            Fn("first", process_api_error=lambda a: None),
            Fn("second", process_api_error=lambda a: {"retry": True}),
        ],
    )
    await agent.generate("hi")
    events = [(e.hook, e.processor_id, e.processor_index, e.step_number) for e in tracer.events]
    assert events == [("process_api_error", "first", 0, 0), ("process_api_error", "second", 1, 0)]
    assert tracer.events[0].outcome == "passed"
    assert tracer.events[1].outcome == "changed"


async def test_subscribe_unsubscribe_and_per_call_tracers() -> None:
    agent_tracer, call_tracer = RecordingTracer(), RecordingTracer()
    processor = Fn("p", process_input=lambda a: None)
    agent = make_agent(ScriptedModel(["1", "2", "3"]), input_processors=[processor])
    unsubscribe = agent.subscribe(agent_tracer)
    await agent.generate("a")
    await agent.generate("b", tracers=[call_tracer])
    unsubscribe()
    await agent.generate("c")
    assert len(agent_tracer.events) == 2
    assert len(call_tracer.events) == 1


async def test_a_failing_observer_never_breaks_the_run() -> None:
    class Broken:
        def on_trace_event(self, event: TraceEvent) -> None:
            raise RuntimeError("observer down")

    recorder = RecordingTracer()
    agent = make_agent(
        ScriptedModel(["fine"]), input_processors=[Fn("p", process_input=lambda a: None)], tracers=[Broken(), recorder]
    )
    result = await agent.generate("hi")
    assert result.text == "fine"
    assert len(recorder.events) == 1


async def test_trace_event_to_dict_is_camel_case() -> None:
    tracer = RecordingTracer()
    agent = make_agent(ScriptedModel(["x"]), input_processors=[Fn("p", process_input=lambda a: None)], tracers=[tracer])
    await agent.generate("hi")
    data = tracer.events[0].to_dict()
    assert set(data) == {
        "runId",
        "stepNumber",
        "hook",
        "processorId",
        "processorIndex",
        "startedAt",
        "endedAt",
        "outcome",
        "before",
        "after",
        "state",
        "detail",
        "chunkStats",
    }
    assert data["processorId"] == "p"
    assert data["outcome"] == "passed"


async def test_override_and_prompt_results_are_traced_as_changed() -> None:
    tracer = RecordingTracer()

    def rewrite(args: Any) -> Any:
        return {"prompt": [m for m in args.prompt if m["role"] != "system"]}

    agent = make_agent(
        ScriptedModel(["ok"]),
        tools=[get_weather],
        tracers=[tracer],
        input_processors=[
            Fn("overrides", process_input_step=lambda a: {"tool_choice": "none"}),
            Fn("quiet", process_input_step=lambda a: None),
            Fn("prompt", process_llm_request=rewrite),
            Fn("plain", process_llm_request=lambda a: None),
        ],
    )
    await agent.generate("hi")
    by = {(e.hook, e.processor_id): e.outcome for e in tracer.events}
    assert by == {
        ("process_input_step", "overrides"): "changed",
        ("process_input_step", "quiet"): "passed",
        ("process_llm_request", "prompt"): "changed",
        ("process_llm_request", "plain"): "passed",
    }


async def test_tool_result_events_tell_what_the_tool_returned_and_what_the_model_got() -> None:
    tracer = RecordingTracer()

    def redact(args: Any) -> Any:
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

    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]), "ok"])
    agent = make_agent(
        model,
        tools=[get_weather],
        tracers=[tracer],
        output_processors=[Fn("redact", process_tool_result=redact), Fn("look", process_tool_result=lambda a: None)],
    )
    chunks, _ = await run_stream(agent)
    events = [e for e in tracer.events if e.hook == "process_tool_result"]
    assert [e.processor_id for e in events] == ["redact", "look"]
    for event in events:
        assert event.tool_call_id == "c1"
        assert event.tool_result != "[REDACTED]" and "Paris" in str(event.tool_result)  # what the tool returned
        assert "toolCallId" in event.to_dict() and "Paris" not in str(event.to_dict()["after"])
        assert "toolResult" not in event.to_dict()  # a store keeps only what the processors let through
    assert "Paris" in events[0].before and events[0].after.endswith("[REDACTED]")  # after shows the change
    (result_chunk,) = [c for c in chunks if c.type == "tool-result"]
    assert result_chunk.payload.result == "[REDACTED]"  # what the model was given
