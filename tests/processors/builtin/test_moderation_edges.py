"""ModerationProcessor at its edges: roles per lane, the offline stream's strategies, the messages it writes.

Each test here pins a behaviour mutation testing found unchecked (issue 16); see tests/README.md.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from processors import Agent, Message
from processors.builtin.moderation import DEFAULT_WORD_LISTS, ModerationProcessor
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import Fn, run_stream, streamed_text

LOGGER = "processors.builtin.moderation"


def agent(model: ScriptedModel, **lanes: object) -> Agent:
    return Agent(id="agent", model=model, instructions="Be brief.", **lanes)  # type: ignore[arg-type]


def scores(reason: str | None = None, **values: float) -> str:
    return json.dumps({"categories": {c.replace("_", "/"): v for c, v in values.items()}, "reason": reason})


# ------------------------------------------------------------------------------------------------ roles
async def test_the_input_guard_checks_assistant_turns_of_the_history_too() -> None:
    model = ScriptedModel(["never"])
    history = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "I will kill you."},
        {"role": "user", "content": "what?"},
    ]
    result = await agent(model, input_processors=[ModerationProcessor()]).generate(history)
    assert result.tripwire is not None
    assert result.tripwire.reason == "Content flagged for moderation. Categories: violence"
    assert model.requests == []


async def test_the_final_result_guard_checks_the_assistant_text_and_not_the_users() -> None:
    """The user's "go to hell" is the input guard's business; the final-result guard judges what the assistant
    says, including text another output processor added after the stream (which the stream guard never saw)."""

    def add_threat(args: Any) -> Any:
        return [*args.messages, Message.assistant("I will kill you.")]

    moderation = ModerationProcessor()
    lanes = [Fn("threat", process_output_result=add_threat), moderation]
    result = await agent(ScriptedModel(["Sure."]), output_processors=lanes).generate("go to hell")
    assert result.tripwire is not None
    assert result.tripwire.reason == "Content flagged for moderation. Categories: violence"


async def test_the_final_result_guard_passes_a_clean_reply_whatever_the_user_said() -> None:
    result = await agent(ScriptedModel(["Sure."]), output_processors=[ModerationProcessor()]).generate("go to hell")
    assert result.tripwire is None
    assert result.text == "Sure."


async def test_last_message_only_skips_the_earlier_messages() -> None:
    history = [{"role": "user", "content": "I will kill you."}, {"role": "user", "content": "hello"}]
    model = ScriptedModel(["ok"], repeat=True)
    only_last = await agent(model, input_processors=[ModerationProcessor(last_message_only=True)]).generate(history)
    assert only_last.tripwire is None
    assert [m["content"] for m in model.requests[0].messages if m["role"] == "user"] == ["I will kill you.", "hello"]
    every = await agent(model, input_processors=[ModerationProcessor()]).generate(history)
    assert every.tripwire is not None


# ------------------------------------------------------------------------------------------------ judge
async def test_a_score_equal_to_the_threshold_is_flagged() -> None:
    judge = ScriptedModel([scores(violence=0.5)])
    result = await agent(ScriptedModel(["x"]), input_processors=[ModerationProcessor(model=judge)]).generate("t")
    assert result.tripwire is not None
    assert result.tripwire.metadata == {"categories": ["violence"]}


async def test_the_judge_prompt_lists_the_configured_categories() -> None:
    judge = ScriptedModel([scores()])
    processor = ModerationProcessor(model=judge, categories=["hate", "violence"])
    await agent(ScriptedModel(["ok"]), input_processors=[processor]).generate("text")
    prompt = judge.requests[0].messages[0]["content"]
    assert "category: hate, violence. Answer with JSON only" in prompt


async def test_several_categories_are_named_with_their_scores() -> None:
    judge = ScriptedModel([scores("two things", harassment=0.8, violence=0.9, hate=0.1)])
    processor = ModerationProcessor(model=judge, include_scores=True)
    result = await agent(ScriptedModel(["x"]), input_processors=[processor]).generate("text")
    assert result.tripwire is not None
    assert result.tripwire.reason == (
        "Content flagged for moderation. Categories: harassment, violence. Reason: two things. "
        "Scores: harassment: 0.80, violence: 0.90"
    )
    assert result.tripwire.metadata == {
        "categories": ["harassment", "violence"],
        "scores": {"harassment": 0.8, "violence": 0.9, "hate": 0.1},
    }


async def test_warn_passes_the_message_on_and_logs_every_category(caplog: pytest.LogCaptureFixture) -> None:
    judge = ScriptedModel([scores(hate=0.7, violence=0.6)])
    model = ScriptedModel(["ok"])
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        result = await agent(model, input_processors=[ModerationProcessor(model=judge, strategy="warn")]).generate(
            "the text"
        )
    assert result.tripwire is None
    assert model.requests[0].messages[-1]["content"] == "the text"
    assert [r.getMessage() for r in caplog.records if r.name == LOGGER] == [
        "Content flagged for moderation: hate, violence"
    ]


async def test_the_state_counts_every_flagged_message() -> None:
    judge = ScriptedModel([scores(harassment=0.8), scores(), scores(violence=0.9)])
    tracer = RecordingTracer()
    messages = [{"role": "user", "content": text} for text in ("one", "two", "three")]
    model = ScriptedModel(["ok"])
    processor = ModerationProcessor(model=judge, strategy="filter")
    await Agent(
        id="agent", model=model, instructions="Be brief.", input_processors=[processor], tracers=[tracer]
    ).generate(messages)
    assert [m["content"] for m in model.requests[0].messages if m["role"] == "user"] == ["two"]
    assert tracer.events[-1].state["flagged"] == 2


async def test_the_judged_stream_blocks_with_the_judges_reason() -> None:
    judge = ScriptedModel(
        [lambda request: scores("a threat", violence=0.9) if "hurt" in request.messages[1]["content"] else scores()],
        repeat=True,
    )
    model = ScriptedModel([Turn(text=["Fine. ", "I will hurt them."])])
    chunks, result = await run_stream(agent(model, output_processors=[ModerationProcessor(model=judge)]))
    assert streamed_text(chunks) == "Fine. "
    assert result.tripwire is not None
    assert result.tripwire.reason == "Content flagged for moderation. Categories: violence. Reason: a threat"


async def test_a_failing_judge_on_the_stream_is_recorded_in_the_state() -> None:
    down = ModelAPIError(503, "overloaded")
    tracer = RecordingTracer()
    processor = ModerationProcessor(model=ScriptedModel([Turn(error=down)], repeat=True))
    lanes: dict[str, Any] = {"output_processors": [processor], "tracers": [tracer]}
    chunks, result = await run_stream(
        Agent(id="a", model=ScriptedModel([Turn(text=["Hello ", "there."])]), instructions="Be brief.", **lanes)
    )
    assert streamed_text(chunks) == "Hello there."  # fail-open: the text passes
    assert result.tripwire is None
    # One failure per delta, then one for the final result, each recorded by the hook that met it.
    assert {e.hook: e.outcome for e in tracer.events} == {
        "process_output_stream": "passed",
        "process_output_result": "passed",
    }
    failures = tracer.events[-1].state["judge_failures"]
    assert [f["strategy"] for f in failures] == ["fail-open"] * 3


# ------------------------------------------------------------------------------------------------ offline stream
async def test_the_offline_stream_blocks_before_the_phrase_streams() -> None:
    model = ScriptedModel([Turn(text=["Hello. ", "I will ki", "ll you", " now."])])
    chunks, result = await run_stream(agent(model, output_processors=[ModerationProcessor(include_scores=True)]))
    assert "ki" not in streamed_text(chunks)
    assert result.tripwire is not None
    assert result.tripwire.reason == "Content flagged for moderation. Categories: violence. Scores: violence: 1.00"


async def test_the_offline_stream_warns_and_keeps_the_text(caplog: pytest.LogCaptureFixture) -> None:
    model = ScriptedModel([Turn(text=["Hello. ", "I will kill you", " now."])])
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        chunks, result = await run_stream(agent(model, output_processors=[ModerationProcessor(strategy="warn")]))
    assert streamed_text(chunks) == "Hello. I will kill you now."
    assert result.tripwire is None
    assert "Content flagged for moderation: violence" in caplog.text


async def test_the_offline_stream_filter_removes_phrases_of_several_categories_in_text_order() -> None:
    model = ScriptedModel([Turn(text=["I will kill you, go to hell."])])
    chunks, _ = await run_stream(agent(model, output_processors=[ModerationProcessor(strategy="filter")]))
    assert streamed_text(chunks) == ", ."


@pytest.mark.parametrize("phrases", [["stupid", "stupid idiot"], ["stupid", "Stupid idiot"]])
async def test_the_longest_phrase_is_removed_whole_whatever_its_case_in_the_list(phrases: list[str]) -> None:
    model = ScriptedModel([Turn(text=["You stupid idiot!"])])
    processor = ModerationProcessor(strategy="filter", word_lists={"harassment": phrases}, use_default_word_lists=False)
    chunks, _ = await run_stream(agent(model, output_processors=[processor]))
    assert streamed_text(chunks) == "You !"


def _longest_phrase() -> str:
    return max((phrase for phrases in DEFAULT_WORD_LISTS.values() for phrase in phrases), key=len)


async def test_the_longest_default_phrase_is_caught_however_the_stream_cuts_it() -> None:
    phrase = _longest_phrase()
    text = f"Note: {phrase}."
    for cut in range(1, len(text)):
        model = ScriptedModel([Turn(text=[text[:cut], text[cut:]])])
        chunks, result = await run_stream(agent(model, output_processors=[ModerationProcessor(strategy="filter")]))
        assert streamed_text(chunks) == "Note: .", cut
        assert result.tripwire is None
