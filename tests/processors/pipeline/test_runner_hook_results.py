"""What a hook may return, checked for every hook: a value it does not allow ends the run with an ``error`` chunk
naming the processor and the hook (a ``ProcessorContractError``), and the turn is still saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from processors import Agent, Processor
from processors.errors import ModelAPIError
from processors.memory import SqlMemory
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.helpers import Fn, get_weather, kinds, make_agent, run_stream, terminal_count

TOOL_TURN = Turn(text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")])

#: hook → (lane, the model's script): each script makes the hook run once with something to return.
HOOK_SETUPS: dict[str, tuple[str, Any]] = {
    "process_input": ("input_processors", lambda: ["ok"]),
    "process_input_step": ("input_processors", lambda: ["ok"]),
    "process_llm_request": ("input_processors", lambda: ["ok"]),
    "process_llm_response": ("input_processors", lambda: ["ok"]),
    "process_api_error": ("error_processors", lambda: [Turn(error=ModelAPIError(503, "busy", True)), "ok"]),
    "process_output_stream": ("output_processors", lambda: ["ok"]),
    "process_output_step": ("output_processors", lambda: ["ok"]),
    "process_tool_result": ("output_processors", lambda: [TOOL_TURN, "ok"]),
    "process_output_result": ("output_processors", lambda: ["ok"]),
}

#: Values no hook accepts. A dict is allowed where the hook returns a mapping, but not with an unknown key.
WRONG_VALUES: list[Any] = [{"not_a_key": 1}, "some text", 42]

#: Hooks that take a mapping (an unknown key is named in the error instead of the type).
MAPPING_HOOKS = {"process_input", "process_input_step", "process_llm_request", "process_api_error"}

#: Hooks whose result must be None (``process_llm_response`` returns nothing in the reference).
VOID_HOOKS = {"process_llm_response"}


def _cases() -> list[Any]:
    cases = []
    for hook in HOOK_SETUPS:
        for value in WRONG_VALUES:
            cases.append(pytest.param(hook, value, id=f"{hook}-{type(value).__name__}"))
    return cases


def _agent(hook: str, value: Any) -> Agent:
    lane, script = HOOK_SETUPS[hook]
    return make_agent(ScriptedModel(script()), tools=[get_weather], **{lane: [Fn("bad", **{hook: lambda a: value})]})


def _dropping_text(args: Any) -> Any:
    return None if args.part.type == "text-delta" else args.part


@pytest.mark.parametrize(("hook", "value"), _cases())
async def test_a_value_the_hook_does_not_allow_is_a_contract_error_naming_processor_and_hook(
    hook: str, value: Any
) -> None:
    chunks, result = await run_stream(_agent(hook, value))

    assert terminal_count(chunks) == 1, kinds(chunks)
    error = chunks[-1]
    assert error.type == "error", kinds(chunks)
    payload = error.payload.error  # type: ignore[union-attr]
    assert payload["name"] == "ProcessorContractError"
    assert payload["processorId"] == "bad"
    assert payload["hook"] == hook
    assert "'bad'" in payload["message"] and hook in payload["message"]
    named = "'not_a_key'" if isinstance(value, dict) and hook in MAPPING_HOOKS else type(value).__name__
    assert named in payload["message"]
    assert result.finish_reason == "error"
    assert result.error == payload["message"]


@pytest.mark.parametrize("hook", sorted(set(HOOK_SETUPS) - VOID_HOOKS - {"process_api_error"}))
async def test_none_is_allowed_from_every_hook_that_returns_something(hook: str) -> None:
    agent = _agent(hook, None)
    if hook == "process_output_stream":  # None drops the chunk: drop the text only, so the run still finishes
        lane, script = HOOK_SETUPS[hook]
        agent = make_agent(ScriptedModel(script()), **{lane: [Fn("bad", process_output_stream=_dropping_text)]})
    chunks, result = await run_stream(agent)
    assert chunks[-1].type == "finish", kinds(chunks)
    assert result.finish_reason == "stop"


async def test_none_from_process_llm_response_is_fine() -> None:
    _chunks, result = await run_stream(_agent("process_llm_response", None))
    assert (result.finish_reason, result.text) == ("stop", "ok")


class ReturnsWrongChunk(Processor):
    """A stream processor that returns the wire form of the chunk (a dict) from the second delta on."""

    id = "wire-dicts"

    def __init__(self, value: Any) -> None:
        self.value = value
        self.seen = 0

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type != "text-delta":
            return args.part
        self.seen += 1
        return args.part if self.seen == 1 else self.value


@pytest.mark.parametrize("value", [{"type": "text-delta", "payload": {"text": "x"}}, "plain text"])
@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
async def test_a_stream_processor_returning_a_dict_or_str_ends_with_an_error_and_the_turn_is_saved(
    tmp_path: Path, value: Any, is_async: bool
) -> None:
    processor = ReturnsWrongChunk(value)
    if is_async:
        sync_hook = processor.process_output_stream

        async def async_hook(args: Any) -> Any:
            return sync_hook(args)

        processor.process_output_stream = async_hook  # type: ignore[method-assign]
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    agent = Agent(id="a", model=ScriptedModel(["one two three"]), output_processors=[processor], memory=memory)

    chunks, result = await run_stream(agent, "count", thread_id="t1")

    assert terminal_count(chunks) == 1 and chunks[-1].type == "error", kinds(chunks)
    payload = chunks[-1].payload.error  # type: ignore[union-attr]
    assert payload["name"] == "ProcessorContractError"
    assert (payload["processorId"], payload["hook"]) == ("wire-dicts", "process_output_stream")
    assert f"returned {type(value).__name__}" in payload["message"]
    assert result.finish_reason == "error"
    assert result.text == "one "  # what the user saw before the broken chunk
    saved = await memory.all_messages("t1")
    assert [(m.role, m.text) for m in saved] == [("user", "count"), ("assistant", "one ")]
    assert [p.type for p in saved[-1].content.parts][-1] == "error"
    await memory.close()


#: A mapping with a known key but a value of the wrong type: refused where the processor can be named, instead of
#: crashing the model call (or, for a ``str`` of system messages, being taken letter by letter).
NESTED_CASES: list[Any] = [
    ("process_input", {"system_messages": "You are terse."}, "'system_messages' must be list or tuple, not str"),
    ("process_input_step", {"system_messages": "You are terse."}, "'system_messages' must be list or tuple"),
    ("process_input_step", {"model_settings": "hot"}, "'model_settings' must be dict, not str"),
    ("process_input_step", {"provider_options": 1}, "'provider_options' must be dict, not int"),
    ("process_input_step", {"active_tools": "get_weather"}, "'active_tools' must be list or tuple or None"),
    ("process_input_step", {"active_tools": [1]}, "'active_tools' must be a list of tool names"),
    ("process_input_step", {"tool_choice": 3}, "'tool_choice' must be str or dict or None, not int"),
    ("process_input_step", {"message_id": 7}, "'message_id' must be str or None, not int"),
    ("process_llm_request", {"prompt": [42]}, "a prompt that is not a list of messages"),
    ("process_llm_request", {"response": {"chunks": ["text"]}}, "a response without a 'chunks' list"),
    ("process_api_error", {"retry": "yes"}, "retry='yes' from process_api_error; expected True or False"),
]


@pytest.mark.parametrize(
    ("hook", "value", "message"), NESTED_CASES, ids=[f"{c[0]}-{next(iter(c[1]))}" for c in NESTED_CASES]
)
async def test_a_known_key_with_a_value_of_the_wrong_type_is_a_contract_error(
    hook: str, value: Any, message: str
) -> None:
    agent = _agent(hook, value)

    chunks, result = await run_stream(agent)

    assert terminal_count(chunks) == 1 and chunks[-1].type == "error", kinds(chunks)
    payload = chunks[-1].payload.error  # type: ignore[union-attr]
    assert (payload["name"], payload["processorId"], payload["hook"]) == ("ProcessorContractError", "bad", hook)
    assert message in payload["message"]
    assert result.finish_reason == "error"


async def test_a_stream_processor_cannot_swallow_the_finish_chunk() -> None:
    agent = make_agent(
        ScriptedModel(["Hello there."]), output_processors=[Fn("drop-all", process_output_stream=lambda a: None)]
    )

    chunks, result = await run_stream(agent)

    assert kinds(chunks) == ["start", "finish"]  # everything else was dropped, but the stream still ends
    assert (result.finish_reason, result.text) == ("stop", "")  # what the user saw


async def test_the_trace_shows_the_stream_processor_that_broke_the_contract() -> None:
    from processors.tracing import RecordingTracer

    tracer = RecordingTracer()
    agent = make_agent(ScriptedModel(["one two three"]), output_processors=[ReturnsWrongChunk("plain text")])
    agent.subscribe(tracer)

    chunks, _result = await run_stream(agent)

    assert chunks[-1].type == "error"
    (event,) = [e for e in tracer.events if e.hook == "process_output_stream"]
    assert (event.processor_id, event.outcome) == ("wire-dicts", "raised")
    assert event.chunk_stats is not None
    (change,) = [c for c in event.chunk_stats["changes"] if c["outcome"] == "raised"]
    assert "returned str from process_output_stream" in change["detail"]


async def test_a_cached_response_that_cannot_be_replayed_names_the_processor_not_the_model() -> None:
    bad_chunks = [{"type": "text-delta", "payload": {"id": "t", "text": {"not": "text"}}}]
    cache = Fn("cache", process_llm_request=lambda a: {"response": {"chunks": bad_chunks}})
    model = ScriptedModel(["never asked"])

    chunks, result = await run_stream(make_agent(model, input_processors=[cache]))

    assert terminal_count(chunks) == 1 and chunks[-1].type == "error", kinds(chunks)
    payload = chunks[-1].payload.error  # type: ignore[union-attr]
    assert (payload["name"], payload["processorId"], payload["hook"]) == (
        "ProcessorContractError",
        "cache",
        "process_llm_request",
    )
    assert "whose chunks cannot be replayed: ValidationError" in payload["message"]
    assert result.finish_reason == "error"
    assert model.requests == []
