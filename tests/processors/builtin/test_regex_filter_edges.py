"""RegexFilter at its edges: JavaScript replacement references, flags, overlapping rules, reports and messages.

Each test here pins a behaviour mutation testing found unchecked (issue 16); see tests/README.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, Message, Violation
from processors.builtin.base import InvalidOptionsError
from processors.builtin.regex_filter import RegexFilter
from processors.models import ScriptedModel


class Recording(RegexFilter):
    """A RegexFilter that keeps what it reported to on_violation."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.violations: list[Violation] = []

    def on_violation(self, violation: Violation) -> None:
        self.violations.append(violation)


def redact(pattern: str, replacement: str, text: str, flags: str = "") -> str:
    rule = {"name": "r", "pattern": pattern, "replacement": replacement, "flags": flags}
    return RegexFilter(rules=[rule], strategy="redact").redact_text(text)


# ------------------------------------------------------------------------------------------------ replacements
@pytest.mark.parametrize(
    ("replacement", "expected"),
    [
        ("$2 at $1", "<example at jo>"),
        ("[$&]", "<[jo@example]>"),
        ("$$1", "<$1>"),  # an escaped dollar, then a plain "1"
        ("$0", "<$0>"),  # no group 0 in JavaScript: kept as written
        ("$3", "<$3>"),  # a group the pattern does not have: kept as written
        ("$12", "<jo2>"),  # two groups only: "$1" then "2"
        ("$21", "<example1>"),
        ("$31", "<$31>"),  # neither 31 nor 3 is a group
        ("$<user>", "<jo>"),
        ("$<nobody>", "<$<nobody>>"),  # an unknown name: kept as written
    ],
)
def test_javascript_references_in_a_replacement(replacement: str, expected: str) -> None:
    assert redact(r"(?P<user>\w+)@(\w+)", replacement, "<jo@example>") == expected


def test_a_group_that_did_not_take_part_in_the_match_is_empty() -> None:
    assert redact(r"(a)?b", "[$1]", "xbx") == "x[]x"
    assert redact(r"(?P<a>a)?b", "[$<a>]", "xbx") == "x[]x"


def test_a_replacement_with_references_is_expanded_when_another_rule_overlaps_the_match() -> None:
    """A ticket rule's ``$1`` stays its group's value when a shorter rule also matches inside the ticket (it was
    written out as a literal ``$1``)."""
    guard = RegexFilter(
        rules=[
            {"name": "ticket", "pattern": r"INC-(\d{6})", "replacement": "INC-[$1]"},
            {"name": "digits", "pattern": r"\d{3}", "replacement": "###"},
        ],
        strategy="redact",
    )
    assert guard.redact_text("see INC-123456 now") == "see INC-[123456] now"


def test_a_merged_region_takes_the_longest_matchs_replacement_expanded() -> None:
    guard = RegexFilter(
        rules=[
            {"name": "short", "pattern": r"abc", "replacement": "[short]"},
            {"name": "long", "pattern": r"b(cd)ef", "replacement": "[long $1]"},
        ],
        strategy="redact",
    )
    assert guard.redact_text("xabcdefx") == "x[long cd]x"


# ------------------------------------------------------------------------------------------------ flags
@pytest.mark.parametrize(
    ("pattern", "flags", "text", "expected"),
    [
        (r"^x", "m", "a\nx", "a\n#"),
        (r"^x", "", "a\nx", "a\nx"),
        (r"a.b", "s", "a\nb", "#"),
        (r"a.b", "", "a\nb", "a\nb"),
        (r"a b  # a comment", "x", "ab", "#"),
        (r"ab", "gimsuy", "AB", "#"),
    ],
)
def test_flags(pattern: str, flags: str, text: str, expected: str) -> None:
    assert redact(pattern, "#", text, flags) == expected


def test_a_pattern_the_verbose_flag_breaks_is_refused_naming_the_rule() -> None:
    """``( #)`` is a group holding `` #`` ... unless ``x`` makes ``#)`` a comment and leaves ``(`` unclosed."""
    with pytest.raises(InvalidOptionsError) as caught:
        RegexFilter(rules=[{"name": "ok", "pattern": "ok"}, {"name": "bad", "pattern": "( #)", "flags": "x"}])
    message = caught.value.errors["rules.1.pattern"]
    assert message.startswith("invalid regular expression '( #)' with flags 'x': ")


# ------------------------------------------------------------------------------------------------ regions
async def test_overlapping_matches_are_reported_once_naming_every_rule() -> None:
    guard = Recording(
        rules=[
            {"name": "first", "pattern": "abc", "replacement": "[1]"},
            {"name": "second", "pattern": "bcdy", "replacement": "[2]"},
            {"name": "third", "pattern": "cd"},
        ],
        strategy="redact",
        phase="input",
        include_redacted_values=True,
    )
    model = ScriptedModel(["ok"])
    await Agent(id="a", model=model, input_processors=[guard]).generate("xxabcdyy and abc")
    assert model.requests[0].messages[-1]["content"] == "xx[2]y and [1]"
    assert guard.violations[0].detail["redactions"] == [
        {
            "rule": "second",
            "index": 2,
            "length": 5,
            "replacement": "[2]",
            "overlappingRules": ["first", "second", "third"],
            "value": "abcdy",
        },
        {"rule": "first", "index": 13, "length": 3, "replacement": "[1]", "value": "abc"},
    ]


def test_of_two_overlapping_matches_of_one_length_the_earlier_owns_the_region() -> None:
    guard = RegexFilter(
        rules=[
            {"name": "a", "pattern": "abc", "replacement": "[a]"},
            {"name": "b", "pattern": "bcd", "replacement": "[b]"},
        ],
        strategy="redact",
    )
    assert guard.redact_text("abcd") == "[a]"
    assert guard.find_matches("abcd") == [
        {"rule": "a", "match": "abc", "index": 0},
        {"rule": "b", "match": "bcd", "index": 1},
    ]


def test_an_empty_match_is_no_match() -> None:
    guard = RegexFilter(rules=[{"name": "maybe", "pattern": "x*"}], strategy="redact")
    assert guard.find_matches("abc") == []
    assert guard.redact_text("abxc") == "ab[REDACTED]c"


# ------------------------------------------------------------------------------------------------ messages
async def test_a_message_with_text_parts_and_flattened_content_is_redacted_in_both() -> None:
    message = Message.user("mail jo@example.com")
    guard = RegexFilter(presets=["pii"], strategy="redact", phase="input")
    model = ScriptedModel(["ok"])
    await Agent(id="a", model=model, input_processors=[guard]).generate([message])
    assert model.requests[0].messages[-1]["content"] == "mail [EMAIL]"


async def test_warn_reports_the_matched_values_only_when_asked() -> None:
    guard = Recording(presets=["pii"], strategy="warn", phase="input", include_redacted_values=True)
    await Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[guard]).generate("call 415-555-2671")
    assert guard.violations[0].message == "Regex filter: matched patterns: phone"
    assert guard.violations[0].detail == {
        "strategy": "warn",
        "phase": "processInput",
        "matches": [{"rule": "phone", "match": "415-555-2671", "index": 5}],
    }


async def test_presets_named_twice_count_once() -> None:
    guard = Recording(presets=["pii", "pii"], strategy="redact", phase="input")
    assert guard.options.presets == ["pii"]
    model = ScriptedModel(["ok"])
    await Agent(id="a", model=model, input_processors=[guard]).generate("jo@example.com")
    assert model.requests[0].messages[-1]["content"] == "[EMAIL]"
    assert [r["rule"] for r in guard.violations[0].detail["redactions"]] == ["email"]
