"""Users' regular expressions cannot hang a run: shapes known to backtrack catastrophically are refused when the
options are read (a design opened), and any other pattern that runs past its time limit ends the run with an error
naming the rule, in every hook, the stream's included (the text it was checking is not let through)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from processors import Agent
from processors.builtin.base import InvalidOptionsError
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.stream_error_retry import StreamErrorRetry
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.errors import PatternTimeoutError
from processors.models.scripted import ScriptedModel, Turn
from processors.pattern_risk import backtracking_risk
from processors.user_patterns import UserPattern, check_user_pattern

#: Catastrophic in ``re`` (9 s on 27 characters) and refused by shape.
ISSUE_PATTERN = r"(\w+\s?)+$"
#: Two alternatives matching the same two characters (the second through an empty back-reference): exponential in
#: ``regex`` too, and a shape the check cannot tell (it claims nothing about a back-reference).
SLOW = r"(x?)(?:ab|a(?:b)\1)+$"
SLOW_TEXT = "ab" * 30 + "x"

CATASTROPHIC = [
    ISSUE_PATTERN,
    r"(a|aa)+$",
    r"(a+)+$",
    r"(x+x+)+y",
    r"^(\w+\s?)*$",
    r"(.*,)+$",
    r"(\s|.)*$",
    r"(.*a){20}",
    r"(?:/[\w./-]*)*$",
    r"(?:ab|a(?:b))+$",
    r"(ab|abab)+$",
    r"(a|ab|b)+c",
    r"((ab)*)*c",
]
FINE = [
    r"INC-(\d{6})",
    r"(\d+\.)+\d+",
    r"(\d{1,3}\.){3}\d{1,3}",
    r"(?:\w+\.)*\w+@example\.com",
    r"(foo|bar)+",
    r"(ab|ac)+",
    r"(?>a+)+b",
    r"(a++)+b",
    r"sk-[A-Za-z0-9]{20,}",
    r"\b(?:password|secret)\s*[:=]\s*\S+",
    r"ZEBRA-\d+",
    r"(?:ab|ba)+",
    r"(?:foo|foobar)+x",
]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_shapes_known_to_backtrack_catastrophically_are_told(pattern: str) -> None:
    assert backtracking_risk(pattern) == "a repeated part can match the same text in more than one way"
    with pytest.raises(ValueError, match="can backtrack catastrophically"):
        check_user_pattern(pattern)


@pytest.mark.parametrize("pattern", FINE)
def test_ordinary_patterns_pass_the_check(pattern: str) -> None:
    assert backtracking_risk(pattern) is None
    check_user_pattern(pattern)


def test_the_issue_pattern_is_refused_in_every_option_that_takes_a_users_pattern() -> None:
    with pytest.raises(InvalidOptionsError) as regex_filter:
        RegexFilter(rules=[{"name": "words", "pattern": ISSUE_PATTERN}])
    assert regex_filter.value.errors["rules.0.pattern"] == (
        f"the regular expression {ISSUE_PATTERN!r} can backtrack catastrophically: "
        "a repeated part can match the same text in more than one way"
    )
    with pytest.raises(InvalidOptionsError) as scrubber:
        SystemPromptScrubber(custom_patterns=["ok", ISSUE_PATTERN])
    assert scrubber.value.errors["custom_patterns"].startswith("pattern 1: the regular expression")
    with pytest.raises(InvalidOptionsError) as retry:
        StreamErrorRetry(matchers=[ISSUE_PATTERN])
    assert "matcher 0: the regular expression" in retry.value.errors["matchers"]


def test_the_verbose_flag_is_checked_as_the_pattern_will_run() -> None:
    """Spaces do not count under ``x``: ``( a + ) +`` is ``(a+)+``."""
    RegexFilter(rules=[{"name": "spaced", "pattern": "( a + ) +", "replacement": "#"}])  # literal spaces: fine
    with pytest.raises(InvalidOptionsError) as caught:
        RegexFilter(rules=[{"name": "spaced", "pattern": "( a + ) +", "flags": "x"}])
    assert "can backtrack catastrophically" in caught.value.errors["rules.0.pattern"]


def test_a_search_past_the_limit_raises_naming_the_rule() -> None:
    pattern = UserPattern("slow-ab", SLOW, timeout=0.2)
    with pytest.raises(PatternTimeoutError) as caught:
        pattern.finditer(SLOW_TEXT)
    error = caught.value
    assert (error.code, error.params) == ("pattern_timeout", {"rule": "slow-ab", "seconds": 0.2, "length": 61})
    assert str(error) == (
        "The pattern of rule 'slow-ab' took longer than 0.2 s on a text of 61 characters (it backtracks "
        "catastrophically); the run was stopped"
    )
    assert [m.group() for m in UserPattern("ok", r"a(b)").finditer("ab ab")] == ["ab", "ab"]


async def stream(agent: Agent, prompt: str) -> tuple[list[Any], Any]:
    """The run's chunks and result; a run that would never end fails the test after 60 s."""

    async def go() -> tuple[list[Any], Any]:
        output = agent.stream(prompt)
        chunks = [chunk async for chunk in output]
        return chunks, await output.result()

    return await asyncio.wait_for(go(), 60)


def timeout_error(chunks: list[Any], hook: str, processor_id: str, rule: str = "slow-ab") -> dict[str, Any]:
    last = chunks[-1]
    assert last.type == "error"
    error: dict[str, Any] = last.payload.error
    assert error["name"] == "PatternTimeoutError" and error["code"] == "pattern_timeout"
    assert error["params"]["rule"] == rule
    assert (error["processorId"], error["hook"]) == (processor_id, hook)
    return error


async def test_a_slow_rule_on_the_input_ends_the_run_with_an_error_naming_it() -> None:
    model = ScriptedModel(["never asked"])
    guard = RegexFilter(rules=[{"name": "slow-ab", "pattern": SLOW}], strategy="block", phase="input")
    chunks, result = await stream(Agent(id="a", model=model, input_processors=[guard]), SLOW_TEXT)
    timeout_error(chunks, "process_input", "regex-filter")
    assert result.finish_reason == "error" and "rule 'slow-ab'" in (result.error or "")
    assert model.requests == [], "the model never saw the unchecked input"


@pytest.mark.parametrize("strategy", ["redact", "block", "warn"])
async def test_a_slow_rule_on_the_stream_ends_the_run_and_lets_nothing_unchecked_out(strategy: str) -> None:
    guard = RegexFilter(rules=[{"name": "slow-ab", "pattern": SLOW}], strategy=strategy, phase="output")
    model = ScriptedModel([Turn(text=["Hello ", "ab" * 20, "ab" * 10 + "x", " bye"])])
    chunks, result = await stream(Agent(id="a", model=model, output_processors=[guard]), "hi")
    timeout_error(chunks, "process_output_stream", "regex-filter")
    assert result.finish_reason == "error"
    streamed = "".join(c.payload.text for c in chunks if c.type == "text-delta")
    assert "x" not in streamed and "bye" not in streamed, "the text under check never reached the reader"


async def test_a_slow_custom_pattern_of_the_scrubber_ends_the_run_naming_it() -> None:
    scrubber = SystemPromptScrubber(custom_patterns=[SLOW], strategy="redact")
    model = ScriptedModel([Turn(text=["ab" * 20, "ab" * 10 + "x"])])
    chunks, result = await stream(Agent(id="a", model=model, output_processors=[scrubber]), "hi")
    timeout_error(chunks, "process_output_stream", "system-prompt-scrubber", rule=SLOW)
    assert result.finish_reason == "error"


async def test_rules_that_match_in_time_still_redact_on_every_hook() -> None:
    rule = {"name": "ticket", "pattern": r"INC-(\d{6})", "replacement": "INC-[$1]"}
    guard = RegexFilter(rules=[rule], strategy="redact")
    model = ScriptedModel([Turn(text=["See INC-12", "3456 now"])])
    agent = Agent(id="a", model=model, input_processors=[guard], output_processors=[guard])
    _chunks, result = await stream(agent, "about INC-654321")
    assert result.text == "See INC-[123456] now"
    assert model.requests[0].messages[-1]["content"] == "about INC-[654321]"
