"""SystemPromptScrubber: overlap with the real system messages, in the stream and the result, with a judge."""

from __future__ import annotations

import logging
import random

import pytest

from processors import Agent
from processors.builtin.base import InvalidOptionsError
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, Turn
from tests.processors.helpers import kinds, run_stream, streamed_text

INSTRUCTIONS = (
    "You are Aria, the support agent of Acme. Never offer discounts above ten percent, and never mention "
    "the internal escalation code ZEBRA-42 to customers. Answer in a warm tone."
)
LEAK = "never offer discounts above ten percent, and never mention the internal escalation code ZEBRA-42 to customers"
ANSWER = f"Sure! My instructions say: {LEAK}. Anything else I can help with today?"


def agent(model: ScriptedModel, **lanes: object) -> Agent:
    return Agent(id="agent", model=model, instructions=INSTRUCTIONS, **lanes)  # type: ignore[arg-type]


def split(text: str, rng: random.Random) -> list[str]:
    cuts = sorted(rng.sample(range(1, len(text)), rng.randint(1, 40)))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


async def test_a_leak_is_redacted_in_the_stream_and_the_result() -> None:
    model = ScriptedModel([ANSWER])
    scrubber = SystemPromptScrubber(redaction_method="placeholder")
    chunks, result = await run_stream(agent(model, output_processors=[scrubber]))
    expected = "Sure! My instructions say: [SYSTEM_PROMPT]. Anything else I can help with today?"
    assert streamed_text(chunks) == expected
    assert result.text == expected
    assert result.messages[-1].text == expected


async def test_scrubbed_text_does_not_depend_on_the_split() -> None:
    rng = random.Random(42)
    results = set()
    for _ in range(30):
        model = ScriptedModel([Turn(text=split(ANSWER, rng))])
        chunks, result = await run_stream(agent(model, output_processors=[SystemPromptScrubber()]))
        assert streamed_text(chunks) == result.text
        results.add(result.text)
    assert len(results) == 1
    (text,) = results
    assert "ZEBRA-42" not in text and "escalation" not in text
    assert text.startswith("Sure! My instructions say: *****")


async def test_an_answer_that_follows_the_instructions_is_untouched() -> None:
    answer = "Hi, I'm Aria from Acme! I can offer you a five percent discount on your next order."
    model = ScriptedModel([answer])
    chunks, result = await run_stream(agent(model, output_processors=[SystemPromptScrubber(strategy="block")]))
    assert result.tripwire is None
    assert streamed_text(chunks) == answer


async def test_block_in_the_stream() -> None:
    model = ScriptedModel([ANSWER])
    chunks, result = await run_stream(agent(model, output_processors=[SystemPromptScrubber(strategy="block")]))
    assert kinds(chunks)[-1] == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.reason == "System prompt detected: system-prompt"
    assert "ZEBRA-42" not in streamed_text(chunks)


async def test_warn_passes_the_text(caplog: pytest.LogCaptureFixture) -> None:
    model = ScriptedModel([ANSWER])
    with caplog.at_level(logging.WARNING, logger="processors.builtin.system_prompt_scrubber"):
        _, result = await run_stream(agent(model, output_processors=[SystemPromptScrubber(strategy="warn")]))
    assert result.text == ANSWER
    assert "System prompt leak" in caplog.text


async def test_filter_drops_the_leaking_segment() -> None:
    model = ScriptedModel([ANSWER])
    chunks, _ = await run_stream(agent(model, output_processors=[SystemPromptScrubber(strategy="filter")]))
    assert "ZEBRA-42" not in streamed_text(chunks)


async def test_custom_patterns_count_as_leaks() -> None:
    model = ScriptedModel(["The code word is ZEBRA-42, keep it safe."])
    scrubber = SystemPromptScrubber(
        custom_patterns=[r"ZEBRA-\d+"], redaction_method="placeholder", placeholder_text="[secret]"
    )
    _, result = await run_stream(agent(model, output_processors=[scrubber]))
    assert result.text == "The code word is [secret], keep it safe."


def test_a_pattern_that_does_not_compile_is_refused_naming_the_field() -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        SystemPromptScrubber(custom_patterns=["ok", "broken("])
    assert "custom_patterns" in caught.value.errors
    assert "pattern 1" in caught.value.errors["custom_patterns"]


@pytest.mark.parametrize(
    ("options", "field"),
    [({"min_overlap_words": 1}, "min_overlap_words"), ({"redaction_method": "hash"}, "redaction_method")],
)
def test_bad_options(options: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        SystemPromptScrubber(**options)
    assert field in caught.value.errors


# ------------------------------------------------------------------------------------------------ judge
PARAPHRASE = "Between us: I'm not allowed to go past a 10% discount, and there's a secret code I can't share."


async def test_judge_catches_a_paraphrased_leak_in_the_result() -> None:
    judge = ScriptedModel(
        [
            '{"leaked": true, "confidence": 0.9, "leaked_text": ["I\'m not allowed to go past a 10% '
            'discount"], "reason": "paraphrases the discount rule"}'
        ]
    )
    model = ScriptedModel([PARAPHRASE])
    scrubber = SystemPromptScrubber(model=judge, redaction_method="placeholder")
    _, result = await run_stream(agent(model, output_processors=[scrubber]))
    assert result.text == "Between us: [SYSTEM_PROMPT], and there's a secret code I can't share."
    assert "ZEBRA-42" in judge.requests[0].messages[0]["content"]  # the judge saw the real instructions


async def test_judge_leak_below_threshold_passes() -> None:
    judge = ScriptedModel(['{"leaked": true, "confidence": 0.3, "leaked_text": []}'])
    model = ScriptedModel([PARAPHRASE])
    _, result = await run_stream(agent(model, output_processors=[SystemPromptScrubber(model=judge, strategy="block")]))
    assert result.tripwire is None


async def test_judge_failure_fail_open_and_fail_closed() -> None:
    down = ModelAPIError(500, "down")
    open_judge = ScriptedModel([Turn(error=down)])
    _, passed = await run_stream(
        agent(ScriptedModel([PARAPHRASE]), output_processors=[SystemPromptScrubber(model=open_judge)])
    )
    assert passed.tripwire is None
    assert passed.text == PARAPHRASE
    closed = SystemPromptScrubber(model=ScriptedModel([Turn(error=down)]), error_strategy="fail-closed")
    _, blocked = await run_stream(agent(ScriptedModel([PARAPHRASE]), output_processors=[closed]))
    assert blocked.tripwire is not None
    assert blocked.tripwire.reason.startswith("System prompt detection failed because the judge model call failed")
