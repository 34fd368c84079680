"""RegexFilter: block / redact / warn on input, stream and result, presets and custom rules, split matches."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from processors import Agent, Violation
from processors.builtin.base import InvalidOptionsError
from processors.builtin.regex_filter import RegexFilter
from processors.models import ScriptedModel, Turn
from tests.processors.helpers import collect, kinds, of_type, streamed_text

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz123456"


class Recording(RegexFilter):
    """A RegexFilter that keeps what it reported to on_violation."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.violations: list[Violation] = []

    def on_violation(self, violation: Violation) -> None:
        self.violations.append(violation)


# ------------------------------------------------------------------------------------------------ input
async def test_input_block_never_calls_the_model_and_keeps_the_value_out_of_the_tripwire() -> None:
    model = ScriptedModel(["never"])
    guard = Recording(presets=["pii"], phase="input")
    result = await Agent(id="a", model=model, input_processors=[guard]).generate("mail me: jo@example.com")
    assert len(model.requests) == 0
    assert result.finish_reason == "other"
    assert result.tripwire is not None
    assert result.tripwire.reason == "Regex filter: blocked content matching patterns: email"
    assert result.tripwire.processor_id == "regex-filter"
    assert result.tripwire.metadata == {
        "processorId": "regex-filter",
        "matches": [{"rule": "email", "match": "[REDACTED_MATCH]", "index": 9}],
        "strategy": "block",
    }
    assert "jo@example.com" not in str(result.tripwire.metadata)
    assert [v.message for v in guard.violations] == [result.tripwire.reason]  # the runner reports the block


async def test_input_redact_sends_the_redacted_text_and_reports_each_part() -> None:
    model = ScriptedModel(["ok"])
    guard = Recording(presets=["pii", "secrets"], strategy="redact", phase="input")
    await Agent(id="a", model=model, input_processors=[guard]).generate(f"I am jo@example.com, key {SECRET}")
    assert model.requests[0].messages[-1]["content"] == "I am [EMAIL], key [OPENAI_KEY]"
    (violation,) = guard.violations
    assert violation.message == "Regex filter: redacted content matching patterns: email, openai-key"
    detail = violation.detail
    assert detail["strategy"] == "redact" and detail["phase"] == "processInput" and detail["partIndex"] == 0
    assert detail["redactions"] == [
        {"rule": "email", "index": 5, "length": 14, "replacement": "[EMAIL]"},
        {"rule": "openai-key", "index": 25, "length": len(SECRET), "replacement": "[OPENAI_KEY]"},
    ]


async def test_redacted_values_are_reported_only_when_asked() -> None:
    guard = Recording(presets=["pii"], strategy="redact", phase="input", include_redacted_values=True)
    await Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[guard]).generate("jo@example.com")
    assert guard.violations[0].detail["redactions"][0]["value"] == "jo@example.com"


async def test_warn_lets_the_text_through_logs_and_reports(caplog: pytest.LogCaptureFixture) -> None:
    model = ScriptedModel(["ok"])
    guard = Recording(presets=["pii"], strategy="warn", phase="input")
    with caplog.at_level(logging.WARNING):
        result = await Agent(id="a", model=model, input_processors=[guard]).generate("call 415-555-2671")
    assert result.text == "ok" and result.tripwire is None
    assert model.requests[0].messages[-1]["content"] == "call 415-555-2671"
    assert guard.violations[0].detail["strategy"] == "warn"
    assert guard.violations[0].detail["matches"] == [{"rule": "phone", "index": 5}]
    assert "matched patterns: phone" in caplog.text


async def test_custom_rules_with_groups_flags_and_overlaps() -> None:
    model = ScriptedModel(["ok"])
    guard = Recording(
        rules=[
            {
                "name": "ticket",
                "pattern": r"inc-(\d{3})(?P<rest>\d{3})",
                "replacement": "INC-[$1/$<rest>] $$",
                "flags": "gi",
            },
            {"name": "word", "pattern": "secret"},
            {"name": "long", "pattern": "top secret plan"},
        ],
        strategy="redact",
        phase="input",
    )
    await Agent(id="a", model=model, input_processors=[guard]).generate("see INC-123456 and the top secret plan")
    assert model.requests[0].messages[-1]["content"] == "see INC-[123/456] $ and the [REDACTED]"
    redactions = guard.violations[0].detail["redactions"]
    assert redactions[1]["rule"] == "long" and redactions[1]["overlappingRules"] == ["long", "word"]


async def test_phases_choose_what_is_filtered() -> None:
    model = ScriptedModel(["your card is 4111 1111 1111 1111"])
    input_only = RegexFilter(presets=["pii"], strategy="redact", phase="input")
    agent = Agent(id="a", model=model, input_processors=[input_only], output_processors=[input_only])
    result = await agent.generate("my card is 4111 1111 1111 1111")
    assert model.requests[0].messages[-1]["content"] == "my card is [CREDIT_CARD]"
    assert result.text == "your card is 4111 1111 1111 1111"

    model = ScriptedModel(["your card is 4111 1111 1111 1111"])
    output_only = RegexFilter(presets=["pii"], strategy="redact", phase="output")
    agent = Agent(id="a", model=model, input_processors=[output_only], output_processors=[output_only])
    result = await agent.generate("my card is 4111 1111 1111 1111")
    assert model.requests[0].messages[-1]["content"] == "my card is 4111 1111 1111 1111"
    assert result.text == "your card is [CREDIT_CARD]"


# ------------------------------------------------------------------------------------------------ stream
async def test_stream_redaction_catches_matches_split_across_chunks() -> None:
    deltas = ["Contact jo@exa", "mple.com now, key sk-proj-", "abcdefghijklmnopqrstuvwxyz123456", " ok"]
    model = ScriptedModel([Turn(text=deltas)])
    guard = Recording(presets=["pii", "secrets"], strategy="redact", phase="output", stream_carryover_size=8)
    stream = Agent(id="a", model=model, output_processors=[guard]).stream("hi")
    chunks = await collect(stream)
    result = await stream.result()
    expected = "Contact [EMAIL] now, key [OPENAI_KEY] ok"
    assert streamed_text(chunks) == expected
    assert "jo@" not in streamed_text(chunks) and "sk-" not in streamed_text(chunks)
    assert result.text == expected and result.messages[-1].text == expected
    # the held-back text is flushed before the text-end that closed the run, then the rest follows in order
    order = kinds(chunks)
    assert order.index("text-end") > max(i for i, kind in enumerate(order) if kind == "text-delta")
    assert order[-3:] == ["text-end", "step-finish", "finish"]
    assert {r["rule"] for v in guard.violations for r in v.detail["redactions"]} == {"email", "openai-key"}


@pytest.mark.parametrize("carry", [64, 128, 500])  # at least the longest match, as the option asks
@pytest.mark.parametrize("seed", range(6))
async def test_stream_redaction_equals_redacting_the_whole_text(seed: int, carry: int) -> None:
    text = (
        "Hi! Mail jo@example.com or ann.lee@corp.example.org, call +1 415 555 2671, card 4111 1111 1111 1111, "
        f"iban DE89 3704 0044 0532 0130 00, key {SECRET}, see https://example.com/x?y=1. Bye."
    )
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(text)), rng.choice([5, 25, 80])))
    deltas = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    guard = RegexFilter(
        presets=["pii", "secrets", "urls"], strategy="redact", phase="output", stream_carryover_size=carry
    )
    stream = Agent(id="a", model=ScriptedModel([Turn(text=deltas)]), output_processors=[guard]).stream("hi")
    chunks = await collect(stream)
    assert streamed_text(chunks) == guard.redact_text(text)
    assert "[EMAIL]" in streamed_text(chunks) and "[OPENAI_KEY]" in streamed_text(chunks)


async def test_stream_block_aborts_when_a_split_secret_completes() -> None:
    model = ScriptedModel([Turn(text=["Here: sk-pro", "j-abcdefghijk", "lmnopqrstuvwxyz123456", " more text"])])
    guard = RegexFilter(presets=["secrets"], strategy="block", phase="output")
    stream = Agent(id="a", model=model, output_processors=[guard]).stream("hi")
    chunks = await collect(stream)
    result = await stream.result()
    (tripwire,) = of_type(chunks, "tripwire")
    assert tripwire.payload.reason == "Regex filter: blocked streaming content matching patterns: openai-key"  # type: ignore[union-attr]
    assert tripwire.payload.metadata["matches"] == [  # type: ignore[union-attr]
        {"rule": "openai-key", "match": "[REDACTED_MATCH]", "index": 6}
    ]
    assert "lmnopqrstuvwxyz123456" not in streamed_text(chunks)
    assert result.tripwire is not None and result.finish_reason == "other"


async def test_stream_warn_reports_each_match_once() -> None:
    model = ScriptedModel([Turn(text=["call 415-", "555-2671", " and again", " 415-555-2671", " bye"])])
    guard = Recording(presets=["pii"], strategy="warn", phase="output")
    result = await Agent(id="a", model=model, output_processors=[guard]).generate("hi")
    assert result.text == "call 415-555-2671 and again 415-555-2671 bye"
    stream_reports = [v for v in guard.violations if v.detail["phase"] == "processOutputStream"]
    assert [m["index"] for v in stream_reports for m in v.detail["matches"]] == [5, 28]
    assert any(v.detail["phase"] == "processOutputResult" for v in guard.violations)


async def test_async_on_violation_is_awaited() -> None:
    seen: list[str] = []

    async def alert(violation: Violation) -> None:
        seen.append(violation.message)

    guard = RegexFilter(presets=["pii"], strategy="redact")
    guard.on_violation = alert  # type: ignore[method-assign]
    result = await Agent(
        id="a", model=ScriptedModel(["mail x@example.com"]), input_processors=[guard], output_processors=[guard]
    ).generate("mail y@example.com")
    assert result.text == "mail [EMAIL]"
    assert len(seen) == 2  # the input redaction and the streamed one


async def test_a_broken_on_violation_does_not_break_the_guardrail() -> None:
    guard = RegexFilter(presets=["pii"], strategy="redact")
    guard.on_violation = lambda violation: 1 / 0  # type: ignore[method-assign]
    result = await Agent(id="a", model=ScriptedModel(["mail x@example.com"]), output_processors=[guard]).generate("hi")
    assert result.text == "mail [EMAIL]"


# ------------------------------------------------------------------------------------------------ options
@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"rules": [{"name": "bad", "pattern": "(unclosed"}]}, "rules.0.pattern"),
        ({"rules": [{"name": "", "pattern": "x"}]}, "rules.0.name"),
        ({"rules": [{"name": "x", "pattern": "x", "flags": "q"}]}, "rules.0.flags"),
        ({}, "presets"),
        ({"presets": ["nope"]}, "presets.0"),
        ({"presets": ["pii"], "stream_carryover_size": 0}, "stream_carryover_size"),
        ({"presets": ["pii"], "stream_carryover_size": -5}, "stream_carryover_size"),
        ({"presets": ["pii"], "strategy": "explode"}, "strategy"),
    ],
)
def test_bad_options_are_refused_naming_the_field(options: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        RegexFilter(**options)
    assert field in caught.value.errors
    assert field in str(caught.value)


def test_the_uncompilable_regex_message_says_why() -> None:
    with pytest.raises(InvalidOptionsError, match=r"rules\.0\.pattern: invalid regular expression '\(unclosed'"):
        RegexFilter.from_options({"rules": [{"name": "bad", "pattern": "(unclosed"}]})


def test_find_and_redact_helpers() -> None:
    guard = RegexFilter(presets=["pii"])
    assert guard.find_matches("a jo@example.com b") == [{"rule": "email", "match": "jo@example.com", "index": 2}]
    assert guard.redact_text("a jo@example.com b") == "a [EMAIL] b"
    assert guard.id == "regex-filter" and guard.name == "Regex Filter"
