"""ModerationProcessor: judge scores over the 11 categories, thresholds, strategies, stream, word-list mode."""

from __future__ import annotations

import json
import logging

import pytest

from processors import Agent
from processors.builtin.base import InvalidOptionsError
from processors.builtin.moderation import CATEGORIES, ModerationProcessor
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, Turn
from tests.processors.helpers import kinds, run_stream, streamed_text


def agent(model: ScriptedModel, **lanes: object) -> Agent:
    return Agent(id="agent", model=model, instructions="Be brief.", **lanes)  # type: ignore[arg-type]


def scores(reason: str | None = None, **values: float) -> str:
    categories = {c.replace("_", "/"): v for c, v in values.items()}
    return json.dumps({"categories": categories, "reason": reason})


def test_the_eleven_standard_categories() -> None:
    assert len(CATEGORIES) == 11
    assert ModerationProcessor().options.categories == list(CATEGORIES)


async def test_judge_block_on_input() -> None:
    judge = ScriptedModel([scores("a threat", violence=0.91, harassment=0.2)])
    model = ScriptedModel(["never"])
    result = await agent(model, input_processors=[ModerationProcessor(model=judge)]).generate("something nasty")
    assert result.tripwire is not None
    assert result.tripwire.reason == "Content flagged for moderation. Categories: violence. Reason: a threat"
    assert result.tripwire.metadata == {"categories": ["violence"]}
    assert model.requests == []
    prompt = judge.requests[0].messages[0]["content"]
    assert all(category in prompt for category in CATEGORIES)


async def test_include_scores_in_the_reason() -> None:
    judge = ScriptedModel([scores(violence=0.9)])
    processor = ModerationProcessor(model=judge, include_scores=True)
    result = await agent(ScriptedModel(["x"]), input_processors=[processor]).generate("text")
    assert result.tripwire is not None
    assert result.tripwire.reason.endswith("Scores: violence: 0.90")
    assert result.tripwire.metadata["scores"]["violence"] == 0.9


async def test_scores_below_the_threshold_pass() -> None:
    judge = ScriptedModel([scores(violence=0.49)])
    model = ScriptedModel(["ok"])
    result = await agent(model, input_processors=[ModerationProcessor(model=judge, threshold=0.5)]).generate("x")
    assert result.tripwire is None
    assert len(model.requests) == 1


async def test_only_configured_categories_count() -> None:
    judge = ScriptedModel([scores(sexual=0.99)])
    processor = ModerationProcessor(model=judge, categories=["violence", "hate"])
    result = await agent(ScriptedModel(["ok"]), input_processors=[processor]).generate("x")
    assert result.tripwire is None


async def test_filter_drops_the_flagged_message() -> None:
    judge = ScriptedModel([scores(), scores(harassment=0.8)])
    model = ScriptedModel(["ok"])
    messages = [{"role": "user", "content": "hello"}, {"role": "user", "content": "you are awful"}]
    await agent(model, input_processors=[ModerationProcessor(model=judge, strategy="filter")]).generate(messages)
    assert [m["content"] for m in model.requests[0].messages if m["role"] == "user"] == ["hello"]


async def test_warn_keeps_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    judge = ScriptedModel([scores(hate=0.7)])
    model = ScriptedModel(["ok"])
    with caplog.at_level(logging.WARNING, logger="processors.builtin.moderation"):
        result = await agent(model, input_processors=[ModerationProcessor(model=judge, strategy="warn")]).generate("x")
    assert result.tripwire is None
    assert "Content flagged for moderation: hate" in caplog.text


async def test_output_result_is_moderated() -> None:
    judge = ScriptedModel([scores(violence=0.95)], repeat=True)
    model = ScriptedModel(["a violent answer"])
    processor = ModerationProcessor(model=judge, strategy="block", chunk_window=0)
    chunks, result = await run_stream(agent(model, output_processors=[processor]))
    assert result.tripwire is not None
    assert kinds(chunks)[-1] == "tripwire"


async def test_stream_filter_drops_flagged_chunks_with_a_window() -> None:
    judge = ScriptedModel(
        [lambda request: scores(violence=0.9) if "hurt" in request.messages[1]["content"] else scores()],
        repeat=True,
    )
    model = ScriptedModel([Turn(text=["It is ", "fine. ", "I will hurt", " them. ", "Bye."])])
    processor = ModerationProcessor(model=judge, strategy="filter", chunk_window=1)
    chunks, _ = await run_stream(agent(model, output_processors=[processor]))
    # "I will hurt" and the chunk after it (whose window still holds it) are dropped
    assert streamed_text(chunks) == "It is fine. Bye."
    windows = [r.messages[1]["content"] for r in judge.requests[:5]]
    assert windows == ["It is ", "It is fine. ", "fine. I will hurt", "I will hurt them. ", " them. Bye."]


async def test_judge_failure_fail_open_passes_and_fail_closed_aborts() -> None:
    down = ModelAPIError(503, "overloaded")
    model = ScriptedModel(["ok"])
    passed = await agent(
        model, input_processors=[ModerationProcessor(model=ScriptedModel([Turn(error=down)]))]
    ).generate("x")
    assert passed.tripwire is None
    closed = ModerationProcessor(model=ScriptedModel([Turn(error=down)]), error_strategy="fail-closed")
    blocked = await agent(ScriptedModel(["ok"]), input_processors=[closed]).generate("x")
    assert blocked.tripwire is not None
    assert blocked.tripwire.reason.startswith("Moderation failed because the judge model call failed")


# ------------------------------------------------------------------------------------------------ word lists
async def test_word_list_mode_blocks_offline() -> None:
    model = ScriptedModel(["never"])
    result = await agent(model, input_processors=[ModerationProcessor()]).generate("I will kill you tomorrow.")
    assert result.tripwire is not None
    assert result.tripwire.reason == "Content flagged for moderation. Categories: violence"


@pytest.mark.parametrize(
    "text",
    ["This killer app will kill the competition.", "The skill tree is deep.", "Self-harmony is a word I just made up."],
)
def test_word_lists_match_whole_phrases_only(text: str) -> None:
    assert ModerationProcessor().word_scores(text) == {}


def test_custom_word_lists_and_disabling_the_defaults() -> None:
    processor = ModerationProcessor(word_lists={"harassment": ["useless clown"]}, use_default_word_lists=False)
    assert processor.word_scores("You useless clown!") == {"harassment": 1.0}
    assert processor.word_scores("I will kill you") == {}


async def test_word_list_stream_filter() -> None:
    model = ScriptedModel([Turn(text=["Hello. ", "I will kill you", " now. ", "Bye."])])
    chunks, _ = await run_stream(agent(model, output_processors=[ModerationProcessor(strategy="filter")]))
    assert streamed_text(chunks) == "Hello.  now. Bye."


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"threshold": -0.5}, "threshold"),
        ({"categories": ["spam"]}, "categories.0"),
        ({"categories": []}, "categories"),
        ({"word_lists": {"spam": ["x"]}}, "word_lists"),
        ({"chunk_window": -1}, "chunk_window"),
        ({"strategy": "redact"}, "strategy"),
    ],
)
def test_bad_options_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        ModerationProcessor(**options)
    assert field in caught.value.errors
