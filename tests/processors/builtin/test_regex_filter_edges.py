"""RegexFilter at its edges: JavaScript replacement references, flags, overlapping rules, reports and messages.

Each test here pins a behaviour mutation testing found unchecked (issue 16); see tests/README.md.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from processors import Agent, Message, Violation
from processors.builtin.base import InvalidOptionsError
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.regex_rules import RegexMatcher
from processors.models import ScriptedModel, Turn
from processors.tracing import RecordingTracer
from tests.processors.builtin.test_regex_filter import Recording
from tests.processors.helpers import Abort, Fn, deltas, run_stream, streamed_text


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


async def test_a_message_with_only_its_flattened_content_is_redacted() -> None:
    message = Message.model_validate(
        {"id": "m1", "role": "user", "content": {"format": 2, "parts": [], "content": "mail jo@example.com"}}
    )
    seen: list[tuple[int, str | None]] = []

    def look(args: Any) -> None:
        seen.extend((len(m.content.parts), m.content.content) for m in args.messages)

    guard = Recording(presets=["pii"], strategy="redact", phase="input")
    await Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[guard, Fn("look", process_input=look)]).generate(
        [message]
    )
    assert seen == [(0, "mail [EMAIL]")]
    assert "partIndex" not in guard.violations[0].detail and guard.violations[0].detail["messageId"] == "m1"


async def test_redacting_a_text_part_rewrites_the_flattened_content_too() -> None:
    seen: list[tuple[str, str | None]] = []

    def look(args: Any) -> None:
        seen.extend((m.text, m.content.content) for m in args.messages)

    guard = RegexFilter(presets=["pii"], strategy="redact", phase="input")
    await Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[guard, Fn("look", process_input=look)]).generate(
        "mail jo@example.com"
    )
    assert seen == [("mail [EMAIL]", "mail [EMAIL]")]


# ------------------------------------------------------------------------------------------------ block
async def test_a_block_names_every_rule_once_and_asks_for_no_retry() -> None:
    model = ScriptedModel(["never"])
    guard = RegexFilter(presets=["pii"], phase="input")
    result = await Agent(id="a", model=model, input_processors=[guard]).generate(
        "jo@example.com, ann@example.com, 415-555-2671"
    )
    assert result.tripwire is not None
    assert result.tripwire.reason == "Regex filter: blocked content matching patterns: email, phone"
    assert result.tripwire.retry is False
    assert [m["index"] for m in result.tripwire.metadata["matches"]] == [0, 16, 33]


async def test_a_stream_block_is_not_retried() -> None:
    model = ScriptedModel([Turn(text=["Mail jo@", "example.com please."]), "retried"])
    guard = RegexFilter(presets=["pii"], phase="output")
    result = await Agent(id="a", model=model, output_processors=[guard], max_processor_retries=2).generate("hi")
    assert result.tripwire is not None and result.tripwire.retry is False
    assert len(model.requests) == 1


# ------------------------------------------------------------------------------------------------ warn on the stream
async def test_the_stream_warns_once_per_match_with_indexes_in_the_whole_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    filler = "Some words of the answer. " * 12  # longer than the window the presets need
    deltas = [filler[:150], filler[150:], "call 415-", "555-2671 ", "then INC-123456 or ", "jo@example.com.", " Bye."]
    guard = Recording(
        presets=["pii"],
        rules=[{"name": "ticket", "pattern": r"INC-\d{6}"}],
        strategy="warn",
        phase="output",
        include_redacted_values=True,
    )
    with caplog.at_level(logging.WARNING, logger="processors.builtin.regex_filter"):
        result = await Agent(id="a", model=ScriptedModel([Turn(text=deltas)]), output_processors=[guard]).generate("hi")
    text = "".join(deltas)
    assert result.text == text
    stream_reports = [v.detail["matches"] for v in guard.violations if v.detail["phase"] == "processOutputStream"]
    found = [match for matches in stream_reports for match in matches]
    assert found == [
        {"rule": "phone", "match": "415-555-2671", "index": text.index("415")},
        {"rule": "ticket", "match": "INC-123456", "index": text.index("INC")},
        {"rule": "email", "match": "jo@example.com", "index": text.index("jo@")},
    ]
    assert "RegexFilter matched patterns: phone (processOutputStream)" in caplog.messages


async def test_two_matches_in_one_delta_are_reported_in_text_order() -> None:
    guard = Recording(
        presets=["pii"], rules=[{"name": "ticket", "pattern": r"INC-\d{6}"}], strategy="warn", phase="output"
    )
    text = "See INC-123456 and jo@example.com."
    await Agent(id="a", model=ScriptedModel([Turn(text=[text])]), output_processors=[guard]).generate("hi")
    (stream_report,) = [v for v in guard.violations if v.detail["phase"] == "processOutputStream"]
    assert stream_report.message == "Regex filter: matched patterns: ticket, email"
    assert stream_report.detail["matches"] == [{"rule": "ticket", "index": 4}, {"rule": "email", "index": 19}]


async def test_an_async_report_from_the_warned_stream_is_awaited_before_the_result() -> None:
    seen: list[str] = []

    async def alert(violation: Violation) -> None:
        seen.append(violation.detail["phase"])

    guard = RegexFilter(presets=["pii"], strategy="warn", phase="output")
    guard.on_violation = alert  # type: ignore[method-assign]
    model = ScriptedModel([Turn(text=["mail jo@example.com", " now"])])
    await Agent(id="a", model=model, output_processors=[guard]).generate("hi")
    assert seen == ["processOutputStream", "processOutputResult"]


# ------------------------------------------------------------------------------------------------ redact on the stream
async def test_text_held_back_from_a_retried_step_is_not_carried_into_the_next() -> None:
    """Another processor rejects the step (retry) while RegexFilter holds its first words back: the retried step's
    text starts afresh, with nothing of the rejected one."""
    model = ScriptedModel([Turn(text=["Hello, mail jo@exa", "BOOM", "mple.com"]), Turn(text=["Fine, jo@example.com."])])
    guard = RegexFilter(presets=["pii"], strategy="redact", phase="output")

    def boom(args: Any) -> bool:
        return args.part.type == "text-delta" and args.part.payload.text == "BOOM"

    abort = Abort("no-boom", "process_output_stream", retry=True, when=boom)
    chunks, result = await run_stream(
        Agent(id="a", model=model, output_processors=[abort, guard], max_processor_retries=1)
    )
    assert result.text == "Fine, [EMAIL]."
    assert streamed_text(chunks).endswith("Fine, [EMAIL].")
    assert "Hello" not in result.text


async def test_a_stream_block_gives_the_matchs_index_in_the_whole_text() -> None:
    """The index of a blocked match counts every character streamed before it, not just the few the filter keeps
    as left context for look-behinds."""
    preamble = "Here is the configuration you asked for, with every value explained in turn. " * 6
    deltas = [preamble[:200], preamble[200:], "The key is sk-proj-", "abcdefghijklmnopqrstuvwxyz123456", " ok"]
    guard = RegexFilter(presets=["secrets"], phase="output")
    model = ScriptedModel([Turn(text=deltas)])
    chunks, result = await run_stream(Agent(id="a", model=model, output_processors=[guard]))
    assert result.tripwire is not None
    assert result.tripwire.metadata["matches"] == [
        {"rule": "openai-key", "match": "[REDACTED_MATCH]", "index": "".join(deltas).index("sk-")}
    ]
    assert "sk-" not in streamed_text(chunks)


async def test_a_look_behind_sees_the_text_already_streamed() -> None:
    rule = {"name": "after-key", "pattern": r"(?<=key: )\w{8}", "replacement": "[K]"}
    guard = RegexFilter(rules=[rule], strategy="redact", phase="output", stream_carryover_size=8)
    deltas = ["Some words first, then the ", "key: ", "abcd", "efgh and more words after it."]
    chunks, _ = await run_stream(Agent(id="a", model=ScriptedModel([Turn(text=deltas)]), output_processors=[guard]))
    assert (
        streamed_text(chunks)
        == guard.redact_text("".join(deltas))
        == ("Some words first, then the key: [K] and more words after it.")
    )


# ------------------------------------------------------------------------------------------------ more messages
async def test_every_text_part_of_a_message_is_redacted_and_reported_with_its_message() -> None:
    message = Message.model_validate(
        {
            "id": "m7",
            "role": "user",
            "content": {
                "format": 2,
                "parts": [{"type": "text", "text": "hello"}, {"type": "text", "text": "mail jo@example.com"}],
            },
        }
    )
    guard = Recording(presets=["pii"], strategy="redact", phase="input")
    model = ScriptedModel(["ok"])
    await Agent(id="a", model=model, input_processors=[guard]).generate([message])
    assert "jo@example.com" not in str(model.requests[0].messages)
    (violation,) = guard.violations
    assert violation.detail["messageId"] == "m7" and violation.detail["partIndex"] == 1


async def test_a_redaction_that_finds_nothing_leaves_the_messages_unchanged() -> None:
    tracer = RecordingTracer()
    guard = RegexFilter(presets=["pii"], strategy="redact", phase="input")
    await Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[guard], tracers=[tracer]).generate("hello")
    assert [(e.hook, e.outcome) for e in tracer.events] == [("process_input", "passed")]


def test_an_invalid_rule_names_the_processor() -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        RegexFilter(rules=[{"name": "bad", "pattern": "( #)", "flags": "x"}])
    assert caught.value.processor_type == "RegexFilter"
    assert str(caught.value).startswith("Invalid options for RegexFilter: rules.0.pattern: ")


async def test_a_warning_never_joins_a_rejected_steps_text_to_the_retry() -> None:
    """The rejected step ends in "call 415-" and the retry begins "555-2671": no phone number was ever said."""
    model = ScriptedModel([Turn(text=["Please call 415-", "BOOM"]), Turn(text=["555-2671 is my lucky number."])])
    guard = Recording(presets=["pii"], strategy="warn", phase="output")

    def boom(args: Any) -> bool:
        return args.part.type == "text-delta" and args.part.payload.text == "BOOM"

    abort = Abort("no-boom", "process_output_stream", retry=True, when=boom)
    agent = Agent(id="a", model=model, output_processors=[guard, abort], max_processor_retries=1)
    result = await agent.generate("hi")
    assert result.text == "555-2671 is my lucky number."
    assert [v for v in guard.violations if v.detail["phase"] == "processOutputStream"] == []


# ---------------------------------------------------------------------------------------- matching (regex_rules)
def test_references_to_groups_a_pattern_does_not_have_are_kept_as_written() -> None:
    assert redact(r"ab", "[$1|$12|$&]", "xabx") == "x[$1|$12|ab]x"
    assert redact(r"(a)?b", "[$12]", "xbx") == "x[2]x"  # group 1 took no part: empty, then "2"


def test_adjacent_matches_stay_two_regions() -> None:
    guard = RegexFilter(
        rules=[
            {"name": "one", "pattern": "ab", "replacement": "[1]"},
            {"name": "two", "pattern": "cd", "replacement": "[2]"},
        ],
        strategy="redact",
    )
    assert guard.redact_text("abcd") == "[1][2]"


async def test_a_region_names_its_longest_match_first_and_orders_equal_spans_as_the_rules_are() -> None:
    guard = Recording(
        rules=[
            {"name": "short", "pattern": "abc", "replacement": "[s]"},
            {"name": "long", "pattern": "abcdef", "replacement": "[l]"},
        ],
        strategy="redact",
        phase="input",
    )
    model = ScriptedModel(["ok"])
    await Agent(id="a", model=model, input_processors=[guard]).generate("abcdef!")
    assert model.requests[0].messages[-1]["content"] == "[l]!"
    assert guard.violations[0].detail["redactions"][0]["overlappingRules"] == ["long", "short"]
    same = RegexFilter(rules=[{"name": "zeta", "pattern": "abc"}, {"name": "alpha", "pattern": "abc"}])
    assert [m["rule"] for m in same.find_matches("abc")] == ["zeta", "alpha"]


def test_only_the_presets_asked_for_are_matched() -> None:
    guard = RegexFilter(presets=["urls"], strategy="redact")
    assert guard.redact_text("mail jo@example.com") == "mail jo@example.com"
    assert guard.redact_text("see https://example.com/a") == "see [URL]"


async def test_preset_kinds_overlapping_in_one_text_are_merged_into_one_region() -> None:
    guard = Recording(presets=["pii", "urls"], strategy="redact", phase="input")
    model = ScriptedModel(["ok"])
    await Agent(id="a", model=model, input_processors=[guard]).generate("see https://example.com/?to=jo@example.com ok")
    assert model.requests[0].messages[-1]["content"] == "see [URL] ok"
    (record,) = guard.violations[0].detail["redactions"]
    assert record["rule"] == "url" and record["overlappingRules"] == ["url", "email"]


def test_the_matcher_reports_no_values_unless_asked() -> None:
    matcher = RegexMatcher(kinds=("email",))
    text = "mail jo@example.com"
    (record,) = matcher.redact(text, matcher.regions(matcher.hits(text)))[1]
    assert record == {"rule": "email", "index": 5, "length": 14, "replacement": "[EMAIL]"}


async def test_text_with_no_match_goes_out_as_the_chunks_it_came_in() -> None:
    """With a chunk boundary inside the window, the hold-back delays text but does not re-cut it: each delta leaves
    whole, in order (the text-end flushes the last ones)."""
    carry = 64
    words = [
        "The ",
        "quick brown ",
        "fox",
        " jumps over the lazy dog ",
        "and ",
        "runs",
        " far away, ",
        "then ",
        "rests.",
    ]
    guard = RegexFilter(rules=[{"name": "n", "pattern": "never-said"}], strategy="redact", phase="output",
                        stream_carryover_size=carry)  # fmt: skip
    chunks, result = await run_stream(Agent(id="a", model=ScriptedModel([Turn(text=words)]), output_processors=[guard]))
    assert result.text == "".join(words)
    out = deltas(chunks)
    assert "".join(out) == "".join(words)
    # Every delta but the flushed tail is one of the model's, unchanged.
    assert out[: len(out) - 1] == words[: len(out) - 1]
