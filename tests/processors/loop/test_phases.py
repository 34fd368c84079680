"""The phases before and around the model call (``processors.loop.phases``), through whole agent runs:
``process_input``, ``process_input_step`` (the step's overrides, chained), ``process_llm_request`` and
``process_api_error``. What each hook is given, what its results change, and how a broken result or a tripwire
ends the run."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from processors import Agent, Message, ModelAPIError
from processors.memory import SqlMemory
from processors.models import ScriptedModel
from processors.models.scripted import Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import Abort, Fn, get_weather, make_agent, run_stream, system, terminal_count, user


def error_of(chunks: list[Any]) -> dict[str, Any]:
    assert terminal_count(chunks) == 1
    assert chunks[-1].type == "error"
    return chunks[-1].payload.error  # type: ignore[no-any-return]


def events_of(tracer: RecordingTracer, hook: str) -> list[Any]:
    return [event for event in tracer.events if event.hook == hook]


# ----------------------------------------------------------------------------------------- process_input
async def test_process_input_may_replace_the_system_messages_and_the_input() -> None:
    model = ScriptedModel(["ok"])
    rewrite = Fn(
        "rewrite",
        process_input=lambda args: {"messages": [Message.user("rewritten")], "system_messages": [system("New rules.")]},
    )
    agent = make_agent(model, input_processors=[rewrite])
    await run_stream(agent, "original")
    assert [(m["role"], m["content"]) for m in model.requests[0].messages] == [
        ("system", "New rules."),
        ("user", "rewritten"),
    ]


async def test_process_input_system_messages_of_the_wrong_type_end_the_run_naming_the_processor() -> None:
    model = ScriptedModel(["never"])
    bad = Fn("bad", process_input=lambda args: {"system_messages": "Be nice."})
    chunks, result = await run_stream(make_agent(model, input_processors=[bad]), "hi")
    error = error_of(chunks)
    assert "'system_messages' must be list or tuple, not str" in error["message"]
    assert error["processorId"] == "bad"
    assert model.requests == []
    assert result.finish_reason == "error"


async def test_a_blocked_input_is_not_saved(tmp_path: Path) -> None:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(
        id="a", model=ScriptedModel(["never"]), memory=memory, input_processors=[Abort("guard", "process_input")]
    )
    chunks, result = await run_stream(agent, "my secret", thread_id="t1")
    assert chunks[-1].type == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.processor_id == "guard"
    assert result.finish_reason == "other"
    assert await memory.all_messages("t1") == []
    await memory.close()


async def test_process_input_writes_reach_the_stream_before_the_first_step() -> None:
    def note(args: Any) -> Any:
        args.writer.custom({"type": "data-note", "data": {"seen": args.messages[-1].text}})
        return args.messages

    writers = [Fn("n", process_input=note), Fn("m", process_input=note)]
    chunks, _result = await run_stream(make_agent(ScriptedModel(["ok"]), input_processors=writers))
    types = [chunk.type for chunk in chunks]
    assert types.index("data-note") < types.index("step-start")
    notes = [chunk for chunk in chunks if chunk.type == "data-note"]
    assert [data.data for data in notes] == [{"seen": "hi"}, {"seen": "hi"}]  # type: ignore[union-attr]


# ----------------------------------------------------------------------------------------- process_input_step
async def test_process_input_step_sees_the_step_and_each_processor_the_overrides_before_it() -> None:
    seen: list[dict[str, Any]] = []

    def first(args: Any) -> Any:
        seen.append({"who": "first", "tool_choice": args.tool_choice, "step": args.step_number})
        return {"tool_choice": "required", "model_settings": {"temperature": 0}}

    def second(args: Any) -> Any:
        seen.append(
            {
                "who": "second",
                "tool_choice": args.tool_choice,
                "settings": args.model_settings,
                "tools": sorted(args.tools),
                "steps": len(args.steps),
                "model": args.model.model_id,
                "active": args.active_tools,
                "message_id": args.message_id,
            }
        )
        return None

    model = ScriptedModel(["ok"], model_id="scripted/x")
    agent = make_agent(
        model,
        tools=[get_weather],
        input_processors=[Fn("first", process_input_step=first), Fn("second", process_input_step=second)],
    )
    await run_stream(agent, "hi", active_tools=["get_weather"])
    assert seen == [
        {"who": "first", "tool_choice": None, "step": 0},
        {
            "who": "second",
            "tool_choice": "required",
            "settings": {"temperature": 0},
            "tools": ["get_weather"],
            "steps": 0,
            "model": "scripted/x",
            "active": ["get_weather"],
            "message_id": None,
        },
    ]
    [request] = model.requests
    assert request.tool_choice == "required"
    assert request.settings == {"temperature": 0}


async def test_llm_request_stage_tells_a_processor_that_also_shapes_the_request() -> None:
    stages: dict[str, bool] = {}

    def record(name: str) -> Any:
        def hook(args: Any) -> None:
            stages[name] = args.llm_request_stage

        return hook

    both = Fn("both", process_input_step=record("both"), process_llm_request=lambda args: None)
    only = Fn("only", process_input_step=record("only"))
    await run_stream(make_agent(ScriptedModel(["ok"]), input_processors=[both, only]))
    assert stages == {"both": True, "only": False}


async def test_a_model_override_answers_the_step_and_none_keeps_the_agents() -> None:
    agent_model, other = ScriptedModel(["agent's"]), ScriptedModel(["other's"])
    switch = Fn("switch", process_input_step=lambda args: {"model": other})
    _chunks, result = await run_stream(make_agent(agent_model, input_processors=[switch]))
    assert result.text == "other's"
    assert agent_model.requests == []

    keep = Fn("keep", process_input_step=lambda args: {"model": None})
    _chunks, result = await run_stream(make_agent(agent_model, input_processors=[keep]))
    assert result.text == "agent's"


async def test_a_bad_model_override_ends_the_run_naming_the_processor() -> None:
    bad = Fn("bad-model", process_input_step=lambda args: {"model": 42})
    chunks, _result = await run_stream(make_agent(ScriptedModel(["never"]), input_processors=[bad]))
    error = error_of(chunks)
    assert error["processorId"] == "bad-model"
    assert error["hook"] == "process_input_step"
    assert "model must be a model id string or a LanguageModel, got int" in error["message"]


async def test_a_tools_override_is_what_the_model_is_offered() -> None:
    model = ScriptedModel(["ok"])
    only_weather = Fn("tools", process_input_step=lambda args: {"tools": [get_weather]})
    await run_stream(make_agent(model, input_processors=[only_weather]))
    assert [tool["function"]["name"] for tool in model.requests[0].tools] == ["get_weather"]
    assert model.requests[0].tool_choice == "auto"


async def test_process_input_step_may_replace_the_system_messages_for_the_step() -> None:
    model = ScriptedModel(["ok"])
    rules = Fn("rules", process_input_step=lambda args: {"system_messages": [system("Step rules.")]})
    await run_stream(make_agent(model, input_processors=[rules]))
    assert [m["content"] for m in model.requests[0].messages if m["role"] == "system"] == ["Step rules."]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"active_tools": ["get_weather", 3]}, "'active_tools' must be a list of tool names"),
        ({"tool_choice": 3}, "'tool_choice' must be str or dict or None, not int"),
        ({"model_settings": []}, "'model_settings' must be dict, not list"),
    ],
)
async def test_an_override_of_the_wrong_type_ends_the_run(values: dict[str, Any], expected: str) -> None:
    bad = Fn("bad", process_input_step=lambda args: values)
    chunks, _result = await run_stream(make_agent(ScriptedModel(["never"]), input_processors=[bad]))
    error = error_of(chunks)
    assert expected in error["message"]
    assert (error["processorId"], error["hook"]) == ("bad", "process_input_step")


async def test_returning_both_messages_and_a_message_list_is_refused() -> None:
    def both(args: Any) -> Any:
        return {"messages": args.messages, "message_list": args.message_list}

    chunks, _result = await run_stream(
        make_agent(ScriptedModel(["never"]), input_processors=[Fn("both", process_input_step=both)])
    )
    error = error_of(chunks)
    assert error["message"] == (
        "Processor 'both' returned both 'messages' and 'message_list' from process_input_step; return one of them"
    )
    assert (error["name"], error["processorId"], error["hook"]) == (
        "ProcessorContractError",
        "both",
        "process_input_step",
    )


async def test_a_message_list_result_is_taken_as_the_steps_messages() -> None:
    model = ScriptedModel(["ok"])

    def add(args: Any) -> Any:
        args.message_list.add(user("added"), "input")
        return {"message_list": args.message_list}

    await run_stream(make_agent(model, input_processors=[Fn("add", process_input_step=add)]), "hi")
    assert [m["content"] for m in model.requests[0].messages if m["role"] == "user"] == ["hi", "added"]


async def test_a_tripwire_in_process_input_step_ends_the_run_before_the_model() -> None:
    model = ScriptedModel(["never"])
    chunks, result = await run_stream(make_agent(model, input_processors=[Abort("step-guard", "process_input_step")]))
    assert chunks[-1].type == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.processor_id == "step-guard"
    assert model.requests == []


async def test_the_trace_of_process_input_step_describes_the_messages_and_notices_an_override() -> None:
    tracer = RecordingTracer()
    override = Fn("override", process_input_step=lambda args: {"tool_choice": "none"})
    same = Fn("same", process_input_step=lambda args: None)
    await run_stream(make_agent(ScriptedModel(["ok"]), input_processors=[override, same]), tracers=[tracer])
    first, second = events_of(tracer, "process_input_step")
    assert (first.processor_id, first.outcome) == ("override", "changed")
    assert (second.processor_id, second.outcome) == ("same", "passed")
    assert first.before
    assert first.before == first.after


# ----------------------------------------------------------------------------------------- process_llm_request
async def test_the_first_cached_answer_wins_and_later_processors_still_run() -> None:
    model = ScriptedModel(["never"])
    calls: list[str] = []

    def answer(text: str) -> Any:
        def hook(args: Any) -> Any:
            calls.append(text)
            return {"response": {"chunks": [{"type": "text-delta", "payload": {"id": "t", "text": text}}]}}

        return hook

    agent = make_agent(
        model,
        input_processors=[Fn("one", process_llm_request=answer("one")), Fn("two", process_llm_request=answer("two"))],
    )
    _chunks, result = await run_stream(agent)
    assert calls == ["one", "two"]
    assert result.text == "one"
    assert model.requests == []


async def test_a_rewritten_prompt_is_what_the_model_gets_for_that_call_only() -> None:
    model = ScriptedModel(["ok"])
    seen: list[tuple[int, int, str, str]] = []

    def shorten(args: Any) -> Any:
        seen.append((args.step_number, len(args.steps), args.model.model_id, args.prompt[-1]["content"]))
        return {"prompt": [user("short")]}

    agent = make_agent(model, input_processors=[Fn("short", process_llm_request=shorten)])
    _chunks, result = await run_stream(agent, "a long question")
    assert model.requests[0].messages == [user("short")]
    assert seen == [(0, 0, "scripted", "a long question")]
    assert [m.text for m in result.messages] == ["ok"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"prompt": "text"}, "returned a prompt that is not a list of messages"),
        ({"prompt": [{"content": "no role"}]}, "returned a prompt that is not a list of messages"),
        ({"response": {"chunks": [{"no": "type"}]}}, "returned a response without a 'chunks' list"),
        ({"response": {"text": "no chunks"}}, "returned a response without a 'chunks' list"),
        ({"prompt": ["not a message"]}, "returned a prompt that is not a list of messages"),
        ({"response": {"chunks": ["not a chunk"]}}, "returned a response without a 'chunks' list"),
        ({"response": {"chunks": "text"}}, "returned a response without a 'chunks' list"),
    ],
)
async def test_a_broken_llm_request_result_ends_the_run_naming_the_processor(value: Any, expected: str) -> None:
    model = ScriptedModel(["never"])
    agent = make_agent(model, input_processors=[Fn("req", process_llm_request=lambda args: value)])
    chunks, _result = await run_stream(agent)
    error = error_of(chunks)
    assert error["message"].startswith(f"Processor 'req' {expected}")
    assert (error["processorId"], error["hook"]) == ("req", "process_llm_request")
    assert model.requests == []


async def test_a_tripwire_in_process_llm_request_ends_the_run() -> None:
    model = ScriptedModel(["never"])
    chunks, result = await run_stream(make_agent(model, input_processors=[Abort("req-guard", "process_llm_request")]))
    assert chunks[-1].type == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.processor_id == "req-guard"
    assert model.requests == []


async def test_the_trace_of_process_llm_request_counts_the_prompt() -> None:
    tracer = RecordingTracer()
    agent = make_agent(ScriptedModel(["ok"]), input_processors=[Fn("look", process_llm_request=lambda args: None)])
    await run_stream(agent, "hi", tracers=[tracer])
    [event] = events_of(tracer, "process_llm_request")
    assert event.before == "2 prompt messages"  # the instructions and the question


# ----------------------------------------------------------------------------------------- process_api_error
def failing(*turns: Any) -> ScriptedModel:
    return ScriptedModel([Turn(error=ModelAPIError(503, "overloaded", True)), *turns])


async def test_an_error_processor_that_fails_is_logged_and_the_next_one_is_asked(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(args: Any) -> Any:
        raise RuntimeError("cannot decide")

    retry = Fn("retry", process_api_error=lambda args: {"retry": True})
    agent = make_agent(failing("recovered"), error_processors=[Fn("broken", process_api_error=broken), retry])
    with caplog.at_level(logging.WARNING, logger="processors.loop.phases"):
        _chunks, result = await run_stream(agent)
    message = "Processor 'broken' raised in process_api_error: RuntimeError: cannot decide"
    assert [record.getMessage() for record in caplog.records] == [f"{message}; asking the next error processor"]
    assert result.text == "recovered"
    assert result.finish_reason == "stop"
    assert result.warnings == [message]


async def test_an_error_processor_that_returns_nothing_or_no_retry_lets_the_next_decide() -> None:
    asked: list[str] = []

    def ask(name: str, answer: Any) -> Any:
        def hook(args: Any) -> Any:
            asked.append(name)
            return answer

        return hook

    agent = make_agent(
        failing("recovered"),
        error_processors=[
            Fn("silent", process_api_error=ask("silent", None)),
            Fn("no", process_api_error=ask("no", {"retry": False})),
            Fn("yes", process_api_error=ask("yes", {"retry": True})),
        ],
    )
    _chunks, result = await run_stream(agent)
    assert asked == ["silent", "no", "yes"]
    assert result.text == "recovered"


async def test_the_error_processor_sees_the_error_and_the_retry_count() -> None:
    seen: list[tuple[int | None, str, int, int]] = []

    def record(args: Any) -> Any:
        seen.append((args.error.status_code, args.error.message, args.retry_count, args.step_number))
        assert [m.text for m in args.messages if m.role == "user"] == ["hi"]
        assert len(args.steps) == args.step_number
        return {"retry": True}

    model = ScriptedModel(
        [Turn(error=ModelAPIError(503, "overloaded", True)), Turn(error=ModelAPIError(503, "again", True)), "ok"]
    )
    agent = make_agent(model, error_processors=[Fn("r", process_api_error=record)], max_processor_retries=5)
    _chunks, result = await run_stream(agent)
    assert seen == [(503, "overloaded", 0, 0), (503, "again", 1, 1)]
    assert result.text == "ok"


async def test_the_api_retry_cap_stops_asking_the_error_processors() -> None:
    calls: list[int] = []

    def always(args: Any) -> Any:
        calls.append(args.retry_count)
        return {"retry": True}

    model = ScriptedModel([Turn(error=ModelAPIError(503, "down", True))], repeat=True)
    agent = make_agent(model, error_processors=[Fn("always", process_api_error=always)], max_processor_retries=2)
    chunks, result = await run_stream(agent)
    assert calls == [0, 1]
    assert len(model.requests) == 3
    assert result.finish_reason == "error"
    assert error_of(chunks)["message"] == "down"


async def test_a_tripwire_in_process_api_error_ends_the_run() -> None:
    agent = make_agent(failing("never"), error_processors=[Abort("err-guard", "process_api_error")])
    chunks, result = await run_stream(agent)
    assert chunks[-1].type == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.processor_id == "err-guard"


async def test_the_trace_of_process_api_error_describes_the_error() -> None:
    tracer = RecordingTracer()
    agent = make_agent(failing("ok"), error_processors=[Fn("r", process_api_error=lambda args: {"retry": True})])
    await run_stream(agent, tracers=[tracer])
    [event] = events_of(tracer, "process_api_error")
    assert event.before == "503: overloaded"


@dataclass
class CachedResponse:
    chunks: list[dict[str, Any]]


async def test_a_cached_response_may_be_an_object_with_chunks() -> None:
    model = ScriptedModel(["never"])
    cached = CachedResponse([{"type": "text-delta", "payload": {"id": "t", "text": "from an object"}}])
    agent = make_agent(model, input_processors=[Fn("obj", process_llm_request=lambda args: {"response": cached})])
    _chunks, result = await run_stream(agent)
    assert result.text == "from an object"
    assert model.requests == []


async def test_without_error_processors_a_failed_call_is_not_retried() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(503, "overloaded", True)), "never"])
    chunks, result = await run_stream(make_agent(model), max_processor_retries=3)
    assert len(model.requests) == 1
    assert result.error == "Model call failed: overloaded"
    assert error_of(chunks)["message"] == "overloaded"


class ChoiceOverride(BaseModel):
    """A step override given as a pydantic object rather than a dict."""

    tool_choice: str | None = None


async def test_a_pydantic_object_is_read_as_the_steps_overrides() -> None:
    model = ScriptedModel(["ok"])
    override = Fn("obj", process_input_step=lambda args: ChoiceOverride(tool_choice="none"))
    _chunks, result = await run_stream(make_agent(model, tools=[get_weather], input_processors=[override]))
    assert result.finish_reason == "stop"
    assert model.requests[0].tool_choice == "none"


async def test_a_single_message_from_process_input_step_is_refused_as_a_message_not_read_as_overrides() -> None:
    single = Fn("single", process_input_step=lambda args: Message.user("one"))
    chunks, _result = await run_stream(make_agent(ScriptedModel(["never"]), input_processors=[single]))
    assert error_of(chunks)["message"] == (
        "Processor 'single' returned Message from process_input_step; expected a list of messages, the message_list, "
        "or None"
    )


async def test_a_wrong_active_tools_override_is_refused_with_the_whole_reason() -> None:
    bad = Fn("bad", process_input_step=lambda args: {"active_tools": ["get_weather", 3]})
    chunks, _result = await run_stream(make_agent(ScriptedModel(["never"]), input_processors=[bad]))
    assert error_of(chunks)["message"] == (
        "Processor 'bad' returned an invalid value from process_input_step: 'active_tools' must be a list of tool names"
    )


async def test_the_step_hooks_reach_a_processor_after_one_without_them() -> None:
    seen: list[str] = []
    agent = make_agent(
        ScriptedModel(["ok"]),
        input_processors=[
            Fn("first", process_input=lambda args: None),
            Fn("step", process_input_step=lambda args: seen.append("step")),
            Fn("none", process_llm_request=lambda args: None),
            Fn("request", process_llm_request=lambda args: seen.append("request")),
        ],
    )
    await run_stream(agent)
    assert seen == ["step", "request"]


async def test_later_step_processors_see_the_structured_output_and_the_chosen_message_id() -> None:
    seen: list[Any] = []
    schema = {"schema": {"type": "object"}}
    agent = make_agent(
        ScriptedModel(['{"a": 1}']),
        input_processors=[
            Fn("choose", process_input_step=lambda args: {"message_id": "msg-x"}),
            Fn("look", process_input_step=lambda args: seen.append((args.structured_output, args.message_id))),
        ],
    )
    await run_stream(agent, structured_output=schema)
    assert seen == [(schema, "msg-x")]


async def test_process_llm_request_is_given_the_runs_message_list() -> None:
    seen: list[list[str]] = []
    look = Fn("look", process_llm_request=lambda args: seen.append([m.text for m in args.message_list.get.input.db()]))
    await run_stream(make_agent(ScriptedModel(["ok"]), input_processors=[look]), "question")
    assert seen == [["question"]]


async def test_broken_llm_request_results_are_refused_with_the_whole_reason() -> None:
    for value, reason in [
        (
            {"prompt": "text"},
            "returned a prompt that is not a list of messages (dicts with a 'role') from process_llm_request",
        ),
        (
            {"response": object()},
            "returned a response without a 'chunks' list (dicts with a 'type') from process_llm_request",
        ),
    ]:
        agent = make_agent(
            ScriptedModel(["never"]), input_processors=[Fn("req", process_llm_request=lambda a, v=value: v)]
        )
        chunks, _result = await run_stream(agent)
        assert error_of(chunks)["message"] == f"Processor 'req' {reason}"
