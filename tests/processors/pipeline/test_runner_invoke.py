"""The runner's per-call path (``invoke``, ``notify_violation``) and its result readers (``normalise_mapping``,
``apply_message_result``, the trace summaries): the errors they name, the violations they tell, the events they
emit. Each pins a behaviour mutation testing found unchecked (issue 16; see tests/README.md)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import pytest

from processors import Message, MessageList, Processor, TripWire, Violation
from processors.errors import ModelAPIError, ProcessorContractError
from processors.models import ScriptedModel, Turn
from processors.pipeline.run_context import Entry
from processors.pipeline.runner import (
    apply_message_result,
    describe_messages,
    messages_fingerprint,
    normalise_mapping,
    notify_violation,
)
from processors.tracing import RecordingTracer
from tests.processors.helpers import Fn, get_weather, make_agent, run_stream


def traced(*processors: Any, model: Any = None, lane: str = "input_processors", **options: Any) -> Any:
    tracer = RecordingTracer()
    agent = make_agent(model or ScriptedModel(["ok"]), tracers=[tracer], **{lane: list(processors)}, **options)
    return agent, tracer


# ------------------------------------------------------------------------------------------------- violations
class Telling(Processor):
    """Aborts on "stop" and records what its ``on_violation`` is told (sync or async)."""

    id = "telling"

    def __init__(self, *, asynchronous: bool = False) -> None:
        self.told: list[Violation] = []
        self.asynchronous = asynchronous

    def process_input(self, args: Any) -> None:
        if args.messages[-1].text == "stop":
            args.abort("stopped here", metadata={"rule": 7})

    def on_violation(self, violation: Violation) -> Any:
        if not self.asynchronous:
            self.told.append(violation)
            return None

        async def later() -> None:
            await asyncio.sleep(0)
            self.told.append(violation)

        return later()


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_on_violation_is_told_who_what_and_the_detail(asynchronous: bool) -> None:
    processor = Telling(asynchronous=asynchronous)
    agent, _ = traced(processor)
    result = await agent.generate("stop")
    assert result.tripwire is not None
    assert processor.told == [Violation(processor_id="telling", message="stopped here", detail={"rule": 7})]


async def test_a_tripwire_raised_for_another_processor_keeps_that_id() -> None:
    told: list[Violation] = []

    class Delegate(Processor):
        id = "delegate"

        def process_input(self, args: Any) -> None:
            raise TripWire("found by the inner check", processor_id="inner-check")

        def on_violation(self, violation: Violation) -> None:
            told.append(violation)

    agent, tracer = traced(Delegate())
    result = await agent.generate("hi")
    assert result.tripwire is not None and result.tripwire.processor_id == "inner-check"
    assert told == [Violation(processor_id="inner-check", message="found by the inner check")]
    (event,) = tracer.events
    assert (event.processor_id, event.outcome, event.detail) == ("delegate", "aborted", "found by the inner check")


async def test_a_failing_on_violation_is_logged_and_the_abort_stands(caplog: pytest.LogCaptureFixture) -> None:
    class Clumsy(Telling):
        id = "clumsy"

        def on_violation(self, violation: Violation) -> None:
            raise RuntimeError("callback bug")

    agent, _ = traced(Clumsy())
    with caplog.at_level(logging.WARNING, logger="processors.pipeline.runner"):
        result = await agent.generate("stop")
    assert result.tripwire is not None and result.tripwire.reason == "stopped here"
    (record,) = caplog.records
    assert record.getMessage() == "on_violation of processor 'clumsy' raised; ignored"
    assert record.exc_info is not None and str(record.exc_info[1]) == "callback bug"


async def test_a_processor_without_a_callable_on_violation_still_aborts() -> None:
    class Silent(Telling):
        id = "silent"
        on_violation = None  # type: ignore[assignment]

    agent, _ = traced(Silent())
    result = await agent.generate("stop")
    assert result.tripwire is not None and result.tripwire.processor_id == "silent"


async def test_cancelling_inside_on_violation_is_not_swallowed() -> None:
    class Cancelled(Telling):
        id = "cancelled"

        def on_violation(self, violation: Violation) -> None:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await notify_violation(Entry(Cancelled(), 0), TripWire("x"))
    told: list[Violation] = []

    class Plain(Telling):
        id = "plain"

        def on_violation(self, violation: Violation) -> None:
            told.append(violation)

    await notify_violation(Entry(Plain(), 3), TripWire("why", metadata=[1]))
    assert told == [Violation(processor_id="plain", message="why", detail=[1])]


# ------------------------------------------------------------------------------------------------- events
async def test_an_event_tells_the_call_its_outcome_and_the_state_after_it() -> None:
    def count(args: Any) -> None:
        args.state["calls"] = args.state.get("calls", 0) + 1

    first, second = Fn("first", process_input=count), Fn("second", process_input=lambda args: args.messages[:1])
    agent, tracer = traced(first, second)
    result = await agent.generate(["one", "two"])
    a, b = tracer.events
    assert (a.run_id, a.step_number, a.hook, a.processor_id, a.processor_index) == (
        result.run_id,
        None,
        "process_input",
        "first",
        0,
    )
    assert (a.outcome, a.detail, a.state) == ("passed", None, {"calls": 1})
    assert a.before == a.after == "2 messages, 1 system; last: 'two'"
    assert (b.processor_id, b.processor_index, b.outcome) == ("second", 1, "changed")
    assert (b.before, b.after) == ("2 messages, 1 system; last: 'two'", "1 messages, 1 system; last: 'one'")
    assert a.started_at <= a.ended_at <= b.started_at <= b.ended_at
    assert (a.tool_call_id, a.tool_result) == (None, None)


async def test_a_raising_hook_is_named_in_the_error_and_the_event() -> None:
    def boom(args: Any) -> None:
        raise ValueError("bad value")

    agent, tracer = traced(Fn("boom", process_input=boom))
    _chunks, result = await run_stream(agent)
    assert result.error == "Processor 'boom' raised in process_input: ValueError: bad value"
    (event,) = tracer.events
    assert (event.outcome, event.detail, event.after) == ("raised", "ValueError: bad value", "")
    assert event.before == "1 messages, 1 system; last: 'hi'"


async def test_a_result_the_hook_cannot_apply_is_a_contract_error_named_in_the_event() -> None:
    agent, tracer = traced(Fn("wrong", process_input=lambda args: 42))
    _chunks, result = await run_stream(agent)
    message = (
        "Processor 'wrong' returned int from process_input; expected a list of messages, the message_list, or None"
    )
    assert result.error == message
    (event,) = tracer.events
    assert (event.outcome, event.detail) == ("raised", message)


async def test_a_value_the_apply_step_refuses_is_named_as_an_invalid_value() -> None:
    agent, tracer = traced(Fn("wrong", process_input_step=lambda args: {"system_messages": "be nice"}))
    _chunks, result = await run_stream(agent)
    assert result.error == (
        "Processor 'wrong' returned an invalid value from process_input_step: 'system_messages' must be list or tuple,"
        " not str"
    )
    (event,) = tracer.events
    assert event.outcome == "raised" and event.detail == result.error


async def test_a_hook_without_a_fingerprint_changed_when_it_returned_something() -> None:
    same = Fn("same", process_llm_request=lambda args: None)
    other = Fn("other", process_llm_request=lambda args: {"prompt": args.prompt[-1:]})
    agent, tracer = traced(same, other)
    await agent.generate("hi")
    assert [(e.processor_id, e.outcome) for e in tracer.events] == [("same", "passed"), ("other", "changed")]


async def test_without_observers_no_summary_is_made() -> None:
    described: list[str] = []

    def look(args: Any) -> None:
        described.append("called")

    agent = make_agent(ScriptedModel(["ok"]), input_processors=[Fn("look", process_input=look)])
    assert (await agent.generate("hi")).text == "ok"
    assert described == ["called"]


async def test_tool_result_events_name_the_call_only_for_that_hook() -> None:
    from processors.models import ToolCall

    model = ScriptedModel([Turn(text="", tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c9")]), "ok"])
    agent, tracer = traced(
        Fn("tools", process_tool_result=lambda args: None, process_output_step=lambda args: None),
        model=model,
        lane="output_processors",
        tools=[get_weather],
    )
    await agent.generate("weather?")
    by_hook = {e.hook: e for e in tracer.events if e.hook in ("process_tool_result", "process_output_step")}
    assert by_hook["process_tool_result"].tool_call_id == "c9"
    assert by_hook["process_tool_result"].tool_result is not None
    assert (by_hook["process_output_step"].tool_call_id, by_hook["process_output_step"].tool_result) == (None, None)


# ------------------------------------------------------------------------------------------------- summaries
def test_describe_messages_counts_and_quotes_the_last_text() -> None:
    ml = MessageList()
    assert describe_messages(ml) == "0 messages, 0 system"
    ml.add_system("rules")
    ml.add(["first", "x" * 100])
    assert describe_messages(ml) == f"2 messages, 1 system; last: {'x' * 80!r}"
    ml.add(Message.assistant(""), "response")
    assert describe_messages(ml) == "3 messages, 1 system"


def test_the_fingerprint_changes_with_content_roles_ids_and_system_messages() -> None:
    ml = MessageList()
    ml.add("hello")
    before = messages_fingerprint(ml)
    assert messages_fingerprint(ml) == before
    ml.get.all.db()[0].content.parts[0].text = "changed"  # type: ignore[union-attr]
    edited = messages_fingerprint(ml)
    assert edited != before
    ml.add_system("new rule")
    assert messages_fingerprint(ml) != edited
    assert messages_fingerprint(ml)[1] == ("new rule",)


# ------------------------------------------------------------------------------------------------- mappings
@dataclass
class Plain:
    tool_choice: str | None = None
    unrelated: int = 0


def test_a_mapping_in_camel_case_is_read_in_snake_case() -> None:
    entry = Entry(Fn("p"), 0)
    allowed = frozenset({"tool_choice", "active_tools", "model_settings"})
    assert normalise_mapping({"toolChoice": "none", "activeTools": ["a"]}, entry, "process_input_step", allowed) == {
        "tool_choice": "none",
        "active_tools": ["a"],
    }


def test_an_object_with_allowed_attributes_is_read_like_a_mapping() -> None:
    entry = Entry(Fn("p"), 0)
    allowed = frozenset({"tool_choice", "model"})
    assert normalise_mapping(Plain(tool_choice="auto"), entry, "process_input_step", allowed) == {"tool_choice": "auto"}


@pytest.mark.parametrize("value", ["text", b"bytes", 3, 2.5, ["a"], ("a",), Plain.__new__(object)])
def test_values_that_are_no_mapping_are_refused_naming_the_keys(value: Any) -> None:
    entry = Entry(Fn("p"), 0)
    with pytest.raises(ProcessorContractError) as caught:
        normalise_mapping(value, entry, "process_api_error", frozenset({"retry", "other"}))
    assert str(caught.value) == (
        f"Processor 'p' returned {type(value).__name__} from process_api_error; expected a dict with other / retry, "
        "or None"
    )
    assert (caught.value.processor_id, caught.value.hook) == ("p", "process_api_error")


def test_an_unknown_key_is_refused_listing_the_allowed_ones() -> None:
    entry = Entry(Fn("p"), 0)
    with pytest.raises(ProcessorContractError) as caught:
        normalise_mapping({"retry": True, "retryDelay": 3}, entry, "process_api_error", frozenset({"retry", "b"}))
    assert (
        str(caught.value)
        == "Processor 'p' returned an unknown key 'retryDelay' from process_api_error; allowed: b, retry"
    )


async def test_an_api_error_processor_may_answer_with_an_object() -> None:
    @dataclass
    class Answer:
        retry: bool

    model = ScriptedModel([Turn(error=ModelAPIError(503, "busy", True)), "recovered"])
    agent = make_agent(model, error_processors=[Fn("retry", process_api_error=lambda args: Answer(retry=True))])
    result = await agent.generate("hi")
    assert result.text == "recovered" and len(model.requests) == 2


async def test_a_pydantic_result_counts_only_the_fields_it_set() -> None:
    import pydantic

    class Overrides(pydantic.BaseModel):
        tool_choice: str | None = None
        active_tools: list[str] | None = None

    model = ScriptedModel(["ok"])
    step = Fn("step", process_input_step=lambda args: Overrides(tool_choice="none"))
    await make_agent(model, tools=[get_weather], input_processors=[step]).generate("weather?")
    assert model.requests[0].tool_choice == "none"
    assert [t["function"]["name"] for t in model.requests[0].tools] == ["get_weather"]  # active_tools not set


# ------------------------------------------------------------------------------------------------- message results
def test_none_and_the_same_list_keep_in_place_edits() -> None:
    ml = MessageList()
    ml.add(["a", "b"])
    given = ml.get.all.db()
    given[0].content.parts[0].text = "A"  # type: ignore[union-attr]
    entry = Entry(Fn("p"), 0)
    for result in (None, ml):
        apply_message_result(result, entry=entry, hook="process_input", message_list=ml, given=given,
                             default_source="input")  # fmt: skip
        assert [m.text for m in ml.get.all.db()] == ["A", "b"]


def test_a_returned_array_keeps_the_block_in_place_and_sources_new_messages() -> None:
    ml = MessageList()
    ml.add("remembered", "memory")
    ml.add(["q1", "q2"])
    ml.add(Message.assistant("answer"), "response")
    given = ml.get.input.db()
    note = Message.user("note")
    apply_message_result([given[1], note], entry=Entry(Fn("p"), 0), hook="process_output_result", message_list=ml,
                         given=given, default_source="response")  # fmt: skip
    assert [(m.text, ml.get_source(m)) for m in ml.get.all.db()] == [
        ("remembered", "memory"),
        ("q2", "input"),
        ("note", "response"),
        ("answer", "response"),
    ]


def test_a_system_message_in_a_returned_array_is_untagged() -> None:
    ml = MessageList()
    ml.add("hi")
    given = ml.get.all.db()
    rule = Message.model_validate({"role": "system", "content": {"parts": [{"type": "text", "text": "Be kind."}]}})
    apply_message_result([rule, *given], entry=Entry(Fn("p"), 0), hook="process_input", message_list=ml,
                         given=given, default_source="input")  # fmt: skip
    assert ml.get_system_messages() == [{"role": "system", "content": "Be kind."}]
    assert [m.text for m in ml.get.all.db()] == ["hi"]


# ------------------------------------------------------------------------------------------------- more events
async def test_an_aborted_call_is_traced_with_its_hook_time_and_summary_before() -> None:
    agent, tracer = traced(Telling())
    result = await agent.generate("stop")
    assert result.tripwire is not None and result.tripwire.processor_id == "telling"
    (event,) = tracer.events
    assert (event.hook, event.outcome, event.detail) == ("process_input", "aborted", "stopped here")
    assert (event.before, event.after) == ("1 messages, 1 system; last: 'stop'", "")
    assert isinstance(event.started_at, float) and event.started_at <= event.ended_at


async def test_a_tripwire_raised_without_an_id_is_given_the_processors() -> None:
    agent, _ = traced(Fn("direct", process_input=lambda args: (_ for _ in ()).throw(TripWire("raised by hand"))))
    result = await agent.generate("hi")
    assert result.tripwire is not None
    assert (result.tripwire.processor_id, result.tripwire.reason) == ("direct", "raised by hand")


async def test_raised_and_contract_errors_name_processor_and_hook_in_the_error_chunk_and_event() -> None:
    def boom(args: Any) -> None:
        raise KeyError("k")

    for processor, hook, name in (
        (Fn("boom", process_input_step=boom), "process_input_step", "ProcessorRaisedError"),
        (Fn("wrong", process_input_step=lambda args: 42), "process_input_step", "ProcessorContractError"),
    ):
        agent, tracer = traced(processor)
        chunks, result = await run_stream(agent)
        (error,) = [chunk for chunk in chunks if chunk.type == "error"]
        payload = error.payload.error  # type: ignore[union-attr]
        assert (payload["name"], payload["processorId"], payload["hook"]) == (name, processor.id, hook)
        assert payload["message"] == result.error
        (event,) = tracer.events
        assert (event.hook, event.step_number, event.outcome, event.after) == (hook, 0, "raised", "")
        assert event.before == "1 messages, 1 system; last: 'hi'"
        assert isinstance(event.started_at, float) and event.started_at <= event.ended_at


async def test_an_aborted_or_failed_tool_result_call_still_names_the_call() -> None:
    from processors.models import ToolCall

    def abort(args: Any) -> None:
        args.abort("not this result")

    def boom(args: Any) -> None:
        raise RuntimeError("boom")

    def wrong(args: Any) -> Any:
        return "not messages"

    for hook_fn, outcome in ((abort, "aborted"), (boom, "raised"), (wrong, "raised")):
        model = ScriptedModel([Turn(text="", tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c9")]), "ok"])
        agent, tracer = traced(
            Fn("tools", process_tool_result=hook_fn), model=model, lane="output_processors", tools=[get_weather]
        )
        await run_stream(agent, "weather?")
        (event,) = [e for e in tracer.events if e.hook == "process_tool_result"]
        assert (event.outcome, event.tool_call_id) == (outcome, "c9")
        assert event.tool_result is not None


async def test_an_async_hooks_result_is_awaited_and_applied() -> None:
    async def keep_first(args: Any) -> Any:
        await asyncio.sleep(0)
        return args.messages[:1]

    model = ScriptedModel(["ok"])
    agent, tracer = traced(Fn("async", process_input=keep_first), model=model)
    await agent.generate(["one", "two"])
    assert [m["content"] for m in model.requests[0].messages if m["role"] == "user"] == ["one"]
    assert tracer.events[0].outcome == "changed"


async def test_the_outcome_follows_the_fingerprint_not_the_return_value() -> None:
    def edit_in_place(args: Any) -> None:
        args.messages[-1].content.parts[0].text = "edited"

    agent, tracer = traced(
        Fn("edit", process_input=edit_in_place), Fn("same", process_input=lambda args: list(args.messages))
    )
    await agent.generate("hi")
    assert [(e.processor_id, e.outcome) for e in tracer.events] == [("edit", "changed"), ("same", "passed")]


async def test_a_processor_without_on_violation_that_aborts_ends_the_run_with_its_tripwire() -> None:
    class Duck:
        id = "duck"

        def process_input(self, args: Any) -> None:
            args.abort("quack")

    agent, _ = traced(Duck())
    result = await agent.generate("hi")
    assert result.tripwire is not None and (result.tripwire.processor_id, result.tripwire.reason) == ("duck", "quack")


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (
            MessageList(),
            "Processor 'p' returned a different MessageList from process_output_step: mutate and return the "
            "message_list it was given, or return a list of messages",
        ),
        (
            "text",
            "Processor 'p' returned str from process_output_step; expected a list of messages, the "
            "message_list, or None",
        ),
        ([3], "Processor 'p' returned a int inside the message list from process_output_step"),
    ],
)
def test_message_results_the_hook_cannot_take_name_processor_and_hook(result: Any, message: str) -> None:
    ml = MessageList()
    ml.add("q")
    with pytest.raises(ProcessorContractError) as caught:
        apply_message_result(result, entry=Entry(Fn("p"), 0), hook="process_output_step", message_list=ml,
                             given=ml.get.all.db(), default_source="response")  # fmt: skip
    assert str(caught.value) == message
    assert (caught.value.processor_id, caught.value.hook) == ("p", "process_output_step")


def test_an_invalid_message_dict_names_processor_and_hook() -> None:
    ml = MessageList()
    with pytest.raises(ProcessorContractError) as caught:
        apply_message_result([{"role": "nobody"}], entry=Entry(Fn("p"), 0), hook="process_input", message_list=ml,
                             given=[], default_source="input")  # fmt: skip
    assert str(caught.value).startswith("Processor 'p' returned an invalid message from process_input: ")
    assert (caught.value.processor_id, caught.value.hook) == ("p", "process_input")
