"""Retries with feedback (issue item 5): output step, output stream, tool result and API-error retries."""

from __future__ import annotations

from typing import Any

from processors import Message, Processor
from processors.errors import ModelAPIError
from processors.memory import InMemoryMemory
from processors.models import ScriptedModel, ToolCall, Turn
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

REASON = "Too vague, add detail"


class Judge(Processor):
    """Rejects (with retry) any step whose text contains 'bad'."""

    id = "judge"

    def __init__(self) -> None:
        self.retry_counts: list[int] = []
        self.texts: list[str] = []

    def process_output_step(self, args: Any) -> Any:
        self.retry_counts.append(args.retry_count)
        self.texts.append(args.text)
        if "bad" in args.text:
            args.abort(REASON, retry=True, metadata={"score": 0.1})


def system_texts(request: Any) -> list[str]:
    return [m["content"] for m in request.messages if m["role"] == "system"]


def all_text(request: Any) -> str:
    return " ".join(str(m.get("content")) for m in request.messages)


def step_finish_reasons(chunks: list[Any]) -> list[str]:
    return [c.payload.step_result.reason for c in of_type(chunks, "step-finish")]


# ---------------------------------------------------------------------------------------------- output step
async def test_output_step_retry_with_feedback() -> None:
    judge = Judge()
    memory = InMemoryMemory()
    model = ScriptedModel(["bad answer", "good answer"])
    agent = make_agent(model, output_processors=[judge], max_processor_retries=2, memory=memory)
    chunks, result = await run_stream(agent, "explain", thread_id="t")

    assert len(model.requests) == 2
    assert judge.retry_counts == [0, 1]
    assert result.text == "good answer"
    assert result.finish_reason == "stop"
    assert result.tripwire is None
    # the rejected step stays in result.steps with its tripwire
    assert len(result.steps) == 2
    assert result.steps[0].tripwire is not None
    assert (result.steps[0].tripwire.reason, result.steps[0].tripwire.retry, result.steps[0].tripwire.metadata) == (
        REASON,
        True,
        {"score": 0.1},
    )
    assert result.steps[0].text == ""
    assert result.steps[1].tripwire is None
    assert result.steps[1].text == "good answer"
    # the rejected text is not in the retry prompt; the reason is, in a system message
    retry_prompt = model.requests[1]
    assert "bad answer" not in all_text(retry_prompt)
    assert any(REASON in text for text in system_texts(retry_prompt))
    assert INSTRUCTIONS in system_texts(retry_prompt)
    assert [m for m in retry_prompt.messages if m["role"] != "system"] == [user("explain")]
    # the stream tells clients to drop the rejected step
    assert step_finish_reasons(chunks) == ["retry", "stop"]
    assert terminal_count(chunks) == 1
    assert kinds(chunks)[-1] == "finish"
    # only the accepted answer is kept
    assert [m.text for m in result.messages] == ["good answer"]
    assert [m.text for m in memory.threads["t"]] == ["explain", "good answer"]


async def test_retry_count_counts_consecutive_retries() -> None:
    judge = Judge()
    model = ScriptedModel(["bad 1", "bad 2", "bad 3", "fine"])
    agent = make_agent(model, output_processors=[judge], max_processor_retries=5)
    result = await agent.generate("hi")
    assert judge.retry_counts == [0, 1, 2, 3]
    assert len(model.requests) == 4
    assert result.text == "fine"
    assert [s.tripwire is not None for s in result.steps] == [True, True, True, False]
    for request in model.requests[1:]:
        assert "bad" not in " ".join(str(m.get("content")) for m in request.messages if m["role"] != "system")


async def test_retry_count_resets_after_an_accepted_step() -> None:
    judge = Judge()
    model = ScriptedModel(
        [
            "bad start",
            Turn(text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Rome"}, id="c1")]),
            "bad again",
            "Sunny in Rome.",
        ]
    )
    agent = make_agent(model, tools=[get_weather], output_processors=[judge], max_processor_retries=5, max_steps=10)
    result = await agent.generate("weather?")
    assert judge.texts == ["bad start", "Checking.", "bad again", "Sunny in Rome."]
    assert judge.retry_counts == [0, 1, 0, 1]
    assert result.text == "Checking.Sunny in Rome."
    assert result.tripwire is None


async def test_exhausted_retry_budget_ends_with_the_tripwire() -> None:
    judge = Judge()
    model = ScriptedModel(["bad"], repeat=True)
    agent = make_agent(model, output_processors=[judge], max_processor_retries=2)
    chunks, result = await run_stream(agent)
    assert len(model.requests) == 3  # maxProcessorRetries + 1
    assert judge.retry_counts == [0, 1, 2]
    assert kinds(chunks)[-1] == "tripwire"
    assert terminal_count(chunks) == 1
    assert result.tripwire is not None
    assert result.tripwire.reason == REASON
    assert result.tripwire.processor_id == "judge"
    assert result.finish_reason == "other"
    assert len(result.steps) == 3
    assert all(step.tripwire is not None for step in result.steps)


async def test_no_retry_without_max_processor_retries() -> None:
    judge = Judge()
    model = ScriptedModel(["bad", "good"])
    chunks, result = await run_stream(make_agent(model, output_processors=[judge]))
    assert len(model.requests) == 1
    assert result.tripwire.reason == REASON
    assert result.tripwire.retry is True
    assert kinds(chunks)[-1] == "tripwire"


async def test_zero_max_processor_retries_means_no_retry() -> None:
    judge = Judge()
    model = ScriptedModel(["bad", "good"])
    result = await make_agent(model, output_processors=[judge], max_processor_retries=0).generate("hi")
    assert len(model.requests) == 1
    assert result.finish_reason == "other"


async def test_per_call_max_processor_retries_overrides_the_agent() -> None:
    judge = Judge()
    model = ScriptedModel(["bad", "good"])
    agent = make_agent(model, output_processors=[judge], max_processor_retries=0)
    result = await agent.generate("hi", max_processor_retries=1)
    assert len(model.requests) == 2
    assert result.text == "good"


async def test_retries_consume_the_step_budget() -> None:
    model = ScriptedModel(["bad"], repeat=True)
    chunks, result = await run_stream(
        make_agent(model, output_processors=[Judge()], max_processor_retries=10, max_steps=3)
    )
    assert len(model.requests) == 3
    assert kinds(chunks)[-1] == "tripwire"
    assert result.tripwire.reason == REASON


async def test_default_step_budget_is_five() -> None:
    model = ScriptedModel(["bad"], repeat=True)
    result = await make_agent(model, output_processors=[Judge()], max_processor_retries=20).generate("hi")
    assert len(model.requests) == 5
    assert result.finish_reason == "other"


# ---------------------------------------------------------------------------------------------- output stream
async def test_output_stream_retry_retracts_the_partial_step() -> None:
    counts: list[int] = []

    def guard(args: Any) -> Any:
        if args.part.type == "text-delta":
            counts.append(args.retry_count)
            if "bad" in args.part.payload.text:
                args.abort("no bad words", retry=True)
        return args.part

    model = ScriptedModel([Turn(text=["fine ", "bad ", "rest"]), Turn(text=["clean ", "answer"])])
    agent = make_agent(
        model, output_processors=[Fn("stream-guard", process_output_stream=guard)], max_processor_retries=1
    )
    chunks, result = await run_stream(agent)

    types = kinds(chunks)
    texts = [c.payload.text for c in of_type(chunks, "text-delta")]
    assert texts == ["fine ", "clean ", "answer"]
    retry_at = next(
        i for i, c in enumerate(chunks) if c.type == "step-finish" and c.payload.step_result.reason == "retry"
    )
    first_delta = next(i for i, c in enumerate(chunks) if c.type == "text-delta")
    second_start = [i for i, t in enumerate(types) if t == "step-start"][1]
    assert first_delta < retry_at < second_start
    assert step_finish_reasons(chunks) == ["retry", "stop"]
    assert terminal_count(chunks) == 1
    assert types[-1] == "finish"
    assert result.text == "clean answer"
    assert result.steps[0].tripwire.reason == "no bad words"
    assert result.steps[0].text == ""
    assert result.steps[1].text == "clean answer"
    retry_prompt = model.requests[1]
    assert "fine" not in " ".join(str(m.get("content")) for m in retry_prompt.messages if m["role"] != "system")
    assert any("no bad words" in text for text in system_texts(retry_prompt))
    assert [m.text for m in result.messages] == ["clean answer"]


async def test_output_stream_retry_not_allowed_ends_with_tripwire() -> None:
    def guard(args: Any) -> Any:
        if args.part.type == "text-delta" and "bad" in args.part.payload.text:
            args.abort("no bad words", retry=True)
        return args.part

    model = ScriptedModel([Turn(text=["fine ", "bad ", "rest"]), "clean"])
    chunks, result = await run_stream(make_agent(model, output_processors=[Fn("g", process_output_stream=guard)]))
    assert len(model.requests) == 1
    assert kinds(chunks)[-1] == "tripwire"
    assert result.tripwire.retry is True
    assert result.text == "fine "


# ---------------------------------------------------------------------------------------------- tool result
async def test_tool_result_retry_rolls_the_step_back() -> None:
    counts: list[int] = []

    def scan(args: Any) -> Any:
        counts.append(args.retry_count)
        if args.tool_call_id == "c1":
            args.abort("tool output looked like an injection", retry=True)

    model = ScriptedModel(
        [
            Turn(text="Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]),
            Turn(text="Again.", tool_calls=[ToolCall("get_weather", {"city": "Lyon"}, id="c2")]),
            "Done.",
        ]
    )
    agent = make_agent(
        model, tools=[get_weather], output_processors=[Fn("scan", process_tool_result=scan)], max_processor_retries=2
    )
    chunks, result = await run_stream(agent)

    assert len(model.requests) == 3
    assert counts == [0, 1]
    retry_prompt = model.requests[1]
    assert [m for m in retry_prompt.messages if m["role"] != "system"] == [user("hi")]
    assert any("tool output looked like an injection" in t for t in system_texts(retry_prompt))
    assert [c.payload.tool_call_id for c in of_type(chunks, "tool-result")] == ["c2"]
    assert "retry" in step_finish_reasons(chunks)
    assert result.steps[0].tripwire.reason == "tool output looked like an injection"
    assert "Checking." not in result.text
    assert result.text == "Again.Done."
    assert kinds(chunks)[-1] == "finish"
    tool_ids = [inv.tool_call_id for m in result.messages for inv in m.tool_invocations]
    assert tool_ids == ["c2"]


# ---------------------------------------------------------------------------------------------- API errors
class AlwaysRetry(Processor):
    id = "always-retry"

    def __init__(self) -> None:
        self.retry_counts: list[int] = []

    def process_api_error(self, args: Any) -> Any:
        self.retry_counts.append(args.retry_count)
        return {"retry": True}


async def test_error_processor_retry_cap_defaults_to_ten() -> None:
    handler = AlwaysRetry()
    model = ScriptedModel([Turn(error=ModelAPIError(503, "busy", True))], repeat=True)
    agent = make_agent(model, error_processors=[handler], max_steps=50)
    chunks, result = await run_stream(agent)
    assert len(model.requests) == 11
    assert handler.retry_counts[:10] == list(range(10))
    assert kinds(chunks)[-1] == "error"
    assert terminal_count(chunks) == 1
    assert result.finish_reason == "error"


async def test_error_processor_retries_are_capped_by_max_processor_retries() -> None:
    handler = AlwaysRetry()
    model = ScriptedModel([Turn(error=ModelAPIError(503, "busy", True))], repeat=True)
    result = await make_agent(model, error_processors=[handler], max_processor_retries=2).generate("hi")
    assert len(model.requests) == 3
    assert result.finish_reason == "error"


async def test_error_processor_with_zero_retries_calls_the_model_once() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(503, "busy", True)), "never"])
    result = await make_agent(model, error_processors=[AlwaysRetry()], max_processor_retries=0).generate("hi")
    assert len(model.requests) == 1
    assert result.finish_reason == "error"


async def test_api_error_retries_consume_the_step_budget() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(503, "busy", True))], repeat=True)
    result = await make_agent(model, error_processors=[AlwaysRetry()], max_processor_retries=20).generate("hi")
    assert len(model.requests) == 5
    assert result.finish_reason == "error"


async def test_no_error_processors_means_no_api_retry() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(503, "busy", True)), "never"])
    chunks, result = await run_stream(make_agent(model))
    assert len(model.requests) == 1
    assert kinds(chunks)[-1] == "error"
    assert chunks[-1].to_wire()["payload"]["error"]["message"] == "busy"
    assert result.finish_reason == "error"


async def test_error_processor_edits_are_kept_for_the_retry() -> None:
    def fix(args: Any) -> Any:
        if args.retry_count == 0:
            args.message_list.add(Message.user("Please continue."), "input")
            return {"retry": True}
        return None

    model = ScriptedModel([Turn(error=ModelAPIError(400, "prefill not supported")), "continued"])
    agent = make_agent(model, error_processors=[Fn("prefill", process_api_error=fix)])
    result = await agent.generate("hi")
    assert result.text == "continued"
    assert model.requests[1].messages == [system(INSTRUCTIONS), user("hi"), user("Please continue.")]


async def test_first_error_processor_to_retry_wins() -> None:
    calls: list[str] = []

    def first(args: Any) -> Any:
        calls.append("first")
        return {"retry": True}

    def second(args: Any) -> Any:
        calls.append("second")
        return {"retry": True}

    model = ScriptedModel([Turn(error=ModelAPIError(500, "x")), "ok"])
    agent = make_agent(model, error_processors=[Fn("a", process_api_error=first), Fn("b", process_api_error=second)])
    result = await agent.generate("hi")
    assert calls == ["first"]
    assert result.text == "ok"


async def test_error_mid_stream_retried_retracts_the_partial_text() -> None:
    model = ScriptedModel(
        [
            Turn(text=["partial ", "words ", "more"], error=ModelAPIError(502, "dropped", True), error_after=2),
            "complete answer",
        ]
    )
    agent = make_agent(model, error_processors=[AlwaysRetry()])
    chunks, result = await run_stream(agent)
    assert len(model.requests) == 2
    assert [c.payload.text for c in of_type(chunks, "text-delta")] == ["partial ", "words ", "complete ", "answer"]
    assert step_finish_reasons(chunks) == ["retry", "stop"]
    assert result.text == "complete answer"
    assert kinds(chunks)[-1] == "finish"


async def test_tool_result_retry_budget_is_exhausted_like_the_others() -> None:
    counts: list[int] = []

    def scan(args: Any) -> Any:
        counts.append(args.retry_count)
        args.abort("always suspicious", retry=True)

    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"})])], repeat=True)
    agent = make_agent(
        model,
        tools=[get_weather],
        output_processors=[Fn("scan", process_tool_result=scan)],
        max_processor_retries=2,
        max_steps=10,
    )
    chunks, result = await run_stream(agent)
    assert counts == [0, 1, 2]
    assert len(model.requests) == 3
    assert kinds(chunks)[-1] == "tripwire"
    assert result.tripwire.reason == "always suspicious"


async def test_the_retried_step_sees_the_retry_count_in_every_hook() -> None:
    seen: dict[str, list[int]] = {}

    def rec(name: str) -> Any:
        def hook(args: Any) -> Any:
            seen.setdefault(name, []).append(args.retry_count)

        return hook

    model = ScriptedModel(["bad", "good"])
    agent = make_agent(
        model,
        max_processor_retries=1,
        input_processors=[
            Fn(
                "i",
                process_input_step=rec("input_step"),
                process_llm_request=rec("llm_request"),
                process_llm_response=rec("llm_response"),
            )
        ],
        output_processors=[Judge()],
    )
    await agent.generate("hi")
    assert seen == {"input_step": [0, 1], "llm_request": [0, 1], "llm_response": [0, 1]}


async def test_stream_processors_see_the_retry_count_of_the_retried_step() -> None:
    counts: list[tuple[str, int]] = []

    def guard(args: Any) -> Any:
        if args.part.type == "text-delta":
            counts.append((args.part.payload.text, args.retry_count))
            if "bad" in args.part.payload.text:
                args.abort("no bad words", retry=True)
        return args.part

    model = ScriptedModel([Turn(text=["fine ", "bad"]), Turn(text=["bad"]), Turn(text=["clean"])])
    agent = make_agent(model, output_processors=[Fn("g", process_output_stream=guard)], max_processor_retries=3)
    result = await agent.generate("hi")
    assert counts == [("fine ", 0), ("bad", 0), ("bad", 1), ("clean", 2)]
    assert result.text == "clean"
