"""Recording a model at its boundary and replaying it through a chain: same chunks, no network, divergence noticed."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from processors import Agent, Processor, ProcessOutputStepArgs, tool
from processors.builtin.pii_detector import PIIDetector
from processors.errors import ModelAPIError
from processors.models import LiteLLMModel
from processors.models.recording import Recording, ReplayDiverged, request_fingerprint, shape_fingerprint
from processors.pipeline.processor import ProcessInputArgs
from processors.testing import RecordingModel, ReplayModel, ScriptedModel, ToolCall, Turn, record_tools, replay_tools
from processors.usage import Usage
from tests.processors.helpers import run_stream
from tests.support.openai_server import OpenAIServer

#: Keys whose values differ between any two runs (ids, clocks): not what the model or the chain said.
VOLATILE = re.compile(r"^(runId|id|messageId|toolCallId|createdAt|timestamp|startedAt|endedAt|response|request)$")

CALLS: list[str] = []


@tool
def lookup(customer_id: int) -> dict[str, object]:
    """Look up a customer."""
    CALLS.append(f"lookup {customer_id}")
    return {"id": customer_id, "email": f"c{customer_id}@example.com"}


class RetryOnWord(Processor):
    """Rejects a step once when it says "forbidden", so runs include retries."""

    id = "retry-on-word"

    def process_output_step(self, args: ProcessOutputStepArgs) -> Any:
        if "forbidden" in args.text and not args.state.get("retried"):
            args.state["retried"] = True
            args.abort("no forbidden words", retry=True)
        return []


def stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: stable(item) for key, item in value.items() if not VOLATILE.match(key)}
    if isinstance(value, list):
        return [stable(item) for item in value]
    return value


def wire(chunks: list[Any]) -> list[Any]:
    return [stable(chunk.to_wire()) for chunk in chunks]


def scripted_run(rng: random.Random) -> list[Any]:
    """A random script: text, maybe a tool call, maybe a step the chain retries."""
    words = ["alpha", "beta", "gamma", "delta", "é", "你好", "😀", "ok"]
    turns: list[Any] = []
    if rng.random() < 0.4:
        call = ToolCall("lookup", {"customer_id": rng.randint(1, 99)})
        turns.append(Turn(text=["Let me check. "], tool_calls=[call]))
    if rng.random() < 0.3:
        turns.append(Turn(text=["this is ", "forbidden"]))
    text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 30)))
    cuts = sorted(rng.sample(range(1, len(text)), min(5, len(text) - 1))) if len(text) > 1 else []
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    usage = Usage(input_tokens=10, output_tokens=len(pieces), total_tokens=10 + len(pieces))
    turns.append(Turn(text=pieces, usage=usage))
    return turns


def agent(model: Any, tools: Any, **lanes: Any) -> Agent:
    return Agent(id="a", model=model, instructions="Be brief.", tools=tools, max_processor_retries=2, **lanes)


async def test_record_then_replay_gives_identical_chunks_for_an_unchanged_chain_over_100_runs() -> None:
    rng = random.Random(20261201)
    for index in range(100):
        recording = Recording()
        recorded = RecordingModel(ScriptedModel(scripted_run(rng)), recording)
        chain = {"output_processors": [RetryOnWord()]}
        first, first_result = await run_stream(agent(recorded, record_tools([lookup], recording), **chain), "hi")
        calls_before = len(CALLS)
        stored = Recording.from_bytes(recording.to_bytes())
        replay = ReplayModel(stored, on_divergence="raise")
        again, again_result = await run_stream(
            agent(replay, replay_tools([lookup], stored), **{"output_processors": [RetryOnWord()]}), "hi"
        )
        assert wire(again) == wire(first), index
        assert again_result.text == first_result.text
        assert len(CALLS) == calls_before  # no tool ran during the replay
        assert replay.divergences == [] and stored.changed_tool_calls == []


async def test_replaying_through_a_changed_chain_changes_only_what_the_chain_does() -> None:
    recording = Recording()
    model = RecordingModel(ScriptedModel(["Write to jo@example.com or call +1 415 555 0132."]), recording)
    plain = await agent(model, []).generate("contact?")
    assert "jo@example.com" in plain.text
    replayed = await agent(ReplayModel(recording), [], output_processors=[PIIDetector()]).generate("contact?")
    assert "jo@example.com" not in replayed.text and "***" in replayed.text


async def test_a_changed_prompt_is_a_divergence_at_that_step() -> None:
    class Rewrite(Processor):
        id = "rewrite"

        def process_input(self, args: ProcessInputArgs) -> Any:
            return [args.messages[-1].with_text("something else")]

    recording = Recording()
    await agent(RecordingModel(ScriptedModel(["answer"]), recording), []).generate("hi")
    lenient = ReplayModel(recording)
    result = await agent(lenient, [], input_processors=[Rewrite()]).generate("hi")
    assert result.text == "answer" and [d.step for d in lenient.divergences] == [0]
    assert lenient.divergences[0].action == "continue"

    strict = ReplayModel(recording, on_divergence="raise")
    failed = await agent(strict, [], input_processors=[Rewrite()]).generate("hi")
    assert failed.finish_reason == "error" and "diverged" in str(failed.error)

    live = ScriptedModel(["from the live model"])
    switched = ReplayModel(recording, on_divergence="live", fallback=live)
    continued = await agent(switched, [], input_processors=[Rewrite()]).generate("hi")
    assert continued.text == "from the live model"
    assert live.requests[0].messages[-1]["content"] == "something else"


async def test_a_recording_without_enough_steps_says_so() -> None:
    replay = ReplayModel(Recording(), on_divergence="raise")
    result = await agent(replay, []).generate("hi")
    assert result.finish_reason == "error" and "has no step" in str(result.error)
    with pytest.raises(ValueError, match="needs a fallback"):
        ReplayModel(Recording(), on_divergence="live")


async def test_provider_errors_are_recorded_and_replayed() -> None:
    recording = Recording()
    error = ModelAPIError(429, "slow down", True, retry_after=2.0, provider="openai")
    model = RecordingModel(ScriptedModel([Turn(text=["par", "tial"], error=error, error_after=2)]), recording)
    first = await agent(model, []).generate("hi")
    assert recording.steps[0].error == {
        "status_code": 429,
        "message": "slow down",
        "retryable": True,
        "retry_after": 2.0,
        "provider": "openai",
    }
    again = await agent(ReplayModel(Recording.from_bytes(recording.to_bytes())), []).generate("hi")
    assert (again.finish_reason, str(again.error)) == (first.finish_reason, str(first.error))


async def test_a_tool_call_with_changed_arguments_is_answered_and_marked() -> None:
    recording = Recording()
    script = [Turn(tool_calls=[ToolCall("lookup", {"customer_id": 7})]), "done"]
    await agent(RecordingModel(ScriptedModel(script), recording), record_tools([lookup], recording)).generate("hi")
    assert recording.tool_calls[0].result == {"id": 7, "email": "c7@example.com"}
    recording.steps[0].events = [
        event if event[0] != "cc" else ["cc", event[1], "lookup", '{"customer_id": 8}']
        for event in recording.steps[0].events
        if event[0] != "cd"
    ]
    calls_before = len(CALLS)
    result = await agent(ReplayModel(recording), replay_tools([lookup], recording)).generate("hi")
    assert len(CALLS) == calls_before and result.text == "done"
    assert recording.changed_tool_calls == [("lookup", {"customer_id": 7}, {"customer_id": 8})]


def test_a_10000_chunk_run_stays_small() -> None:
    recording = Recording()
    from processors.models.recording import RecordedStep

    step = RecordedStep("x")
    step.events = [["t", f"word{i % 50} "] for i in range(10_000)]
    recording.steps.append(step)
    data = recording.to_bytes()
    assert len(data) <= 200_000, len(data)
    assert Recording.from_bytes(data).chunk_count == 10_000


async def test_a_recording_over_real_http_holds_no_key(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("Hel", "lo")
    key = "sk-live-DO-NOT-LEAK-1234567890"
    recording = Recording()
    model = RecordingModel(LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key=key), recording)
    result = await agent(model, []).generate("hi")
    assert result.text == "Hello"
    data = recording.to_bytes()
    assert key.encode() not in data and key.encode() not in repr(recording).encode()
    assert [event[0] for event in Recording.from_bytes(data).steps[0].events][-1] == "f"


def test_unreadable_or_future_recordings_are_refused() -> None:
    with pytest.raises(ValueError, match="not a readable recording"):
        Recording.from_bytes(b"not zlib")
    with pytest.raises(ValueError, match="format 99"):
        Recording.from_json({"version": 99, "steps": []})


def test_the_fingerprint_ignores_settings_but_not_the_prompt() -> None:
    from processors.models.base import ModelRequest

    one = ModelRequest(messages=[{"role": "user", "content": "hi"}], settings={"temperature": 0})
    two = ModelRequest(messages=[{"role": "user", "content": "hi"}], settings={"temperature": 1, "api_key": "x"})
    three = ModelRequest(messages=[{"role": "user", "content": "hey"}])
    assert request_fingerprint(one) == request_fingerprint(two) != request_fingerprint(three)


async def test_a_divergence_carries_what_the_step_is_asked_now_and_the_error_carries_the_divergence() -> None:
    """Issue 26: "the recording was asked something else" said nothing of what differed; the divergence now holds
    the request as data (the recording keeps only fingerprints, so what it was asked is what the replay of the
    original chain asks — the same fingerprint)."""

    class Rewrite(Processor):
        id = "rewrite"

        def process_input(self, args: ProcessInputArgs) -> Any:
            return [args.messages[-1].with_text("something else")]

    recording = Recording()
    await agent(RecordingModel(ScriptedModel(["answer"]), recording), []).generate("hi")
    original = ReplayModel(recording)
    await agent(original, []).generate("hi")
    strict = ReplayModel(recording, on_divergence="raise")
    failed = await agent(strict, [], input_processors=[Rewrite()]).generate("hi")

    [divergence] = strict.divergences
    assert divergence.request["messages"][-1] == {"role": "user", "content": "something else"}
    assert divergence.recorded_request is None  # a recording keeps no request text
    assert original.asked[0]["messages"][-1] == {"role": "user", "content": "hi"}
    assert shape_fingerprint(original.asked[0]) == divergence.recorded == recording.steps[0].fingerprint
    assert failed.finish_reason == "error"

    from processors.models.base import ModelRequest

    direct = ReplayModel(recording, on_divergence="raise")
    with pytest.raises(ReplayDiverged) as raised:
        async for _event in direct.stream(ModelRequest(messages=[{"role": "user", "content": "other"}])):
            pass
    assert raised.value.divergence is direct.divergences[0]
    assert raised.value.divergence.request["messages"] == [{"role": "user", "content": "other"}]
