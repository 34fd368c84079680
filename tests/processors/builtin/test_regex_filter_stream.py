"""RegexFilter on the stream: what text reaches the user, and when, for given chunk splits (issue 16).

The redacting (and blocking) stream holds back a window so a match split across chunks is caught whole. These
tests pin *when* each piece of text leaves the guard, by putting a recorder on both sides of it: for every model
delta that enters, the text that came out before the next one entered (and, last, what the end of the text run
flushed). They also pin the warn strategy's stream reports (each match once, wherever the cuts fall) and the
state a step start or a flush leaves behind (a retried step, reasoning interleaved with the text).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from processors import Agent, Message, Violation
from processors.builtin.regex_filter import RegexFilter
from processors.models import ScriptedModel, Turn
from processors.models.base import Finish, ModelEvent, ModelRequest, ReasoningDelta, ResponseMetadata, TextDelta
from processors.models.scripted import ToolCall, split_words
from tests.processors.helpers import Abort, Fn, Timeline, deltas, get_weather, guard_timeline, run_stream


class Recording(RegexFilter):
    """A RegexFilter that keeps what it reported to on_violation."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.violations: list[Violation] = []

    def on_violation(self, violation: Violation) -> None:
        self.violations.append(violation)

    def stream_reports(self) -> list[dict[str, Any]]:
        return [v.detail for v in self.violations if v.detail["phase"] == "processOutputStream"]


class Interleaved:
    """A model that streams the events it is given: text and reasoning interleaved in one step, as some providers'
    thinking models do (the stream's text run is not ended by the reasoning)."""

    provider = "test"
    model_id = "interleaved"

    def __init__(self, events: list[ModelEvent]) -> None:
        self.events = events

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield ResponseMetadata("resp-1", self.model_id)
        for event in self.events:
            yield event
        yield Finish("stop")


@contextmanager
def no_hook_raises() -> Iterator[None]:
    """Fails if a stream hook raised (the runtime logs it and lets the chunk through unchanged)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler, logger = Keep(logging.WARNING), logging.getLogger("processors.pipeline.runner")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    assert [r.getMessage() for r in records] == []


async def timeline(guard: RegexFilter, words: list[str]) -> Timeline:
    """What left ``guard`` after each delta (:func:`guard_timeline`), with no hook raising on the way."""
    with no_hook_raises():
        return await guard_timeline(guard, words)


def custom(carry: int, pattern: str = "never-said", replacement: str = "#") -> RegexFilter:
    rule = {"name": "r", "pattern": pattern, "replacement": replacement}
    return RegexFilter(rules=[rule], strategy="redact", phase="output", stream_carryover_size=carry)


# ------------------------------------------------------------------------------------------------ when text leaves
@pytest.mark.parametrize(
    ("pattern", "words", "expected"),
    [
        pytest.param(
            "never-said", ["a", "bcd", "e"], [("a", []), ("bcd", []), ("e", ["a"]), (None, ["bcde"])],
            id="a one-character chunk leaves as soon as it is out of the window",
        ),
        pytest.param(
            "never-said", ["abcde"], [("abcde", ["a"]), (None, ["bcde"])],
            id="a chunk longer than the window is cut at the window",
        ),
        pytest.param(
            "never-said", ["abcd", "e"], [("abcd", []), ("e", []), (None, ["abcde"])],
            id="a chunk as long as the window waits for the next rather than be cut",
        ),
        pytest.param(
            "never-said", ["ab", "cdef"], [("ab", []), ("cdef", ["ab"]), (None, ["cdef"])],
            id="a chunk ending at the window's edge leaves whole",
        ),
        pytest.param(
            "never-said", ["ab", "cdefg"], [("ab", []), ("cdefg", ["ab"]), (None, ["cdefg"])],
            id="the last chunk boundary before the window is preferred to a cut at the window",
        ),
        pytest.param(
            "never-said", ["ab", "cd", "efghij"], [("ab", []), ("cd", []), ("efghij", ["ab"]), (None, ["cdefghij"])],
            id="of two chunks out of the window one leaves, the other waits",
        ),
        pytest.param(
            "never-said", ["a", "b", "c", "defghij"],
            [("a", []), ("b", []), ("c", []), ("defghij", ["abc"]), (None, ["defghij"])],
            id="three chunks out of the window leave together",
        ),
        pytest.param(
            "cd", ["ab", "cd", "efghij"], [("ab", []), ("cd", []), ("efghij", ["ab"]), (None, ["#efghij"])],
            id="a chunk ending where a match starts leaves alone, unchanged",
        ),
        pytest.param(
            "ab", ["ab", "cd", "efghij"], [("ab", []), ("cd", []), ("efghij", ["#"]), (None, ["cdefghij"])],
            id="a chunk ending where a match ends leaves alone, redacted",
        ),
        pytest.param(
            "cde", ["ab", "cd", "efghij"], [("ab", []), ("cd", []), ("efghij", ["ab"]), (None, ["#fghij"])],
            id="a chunk boundary inside a match is not used",
        ),
        pytest.param(
            "defg", ["a", "b", "c", "defg"], [("a", []), ("b", []), ("c", []), ("defg", ["abc"]), (None, ["#"])],
            id="the boundary where a match starts is used",
        ),
        pytest.param(
            "bc", ["a", "b", "c", "defghi"],
            [("a", []), ("b", []), ("c", []), ("defghi", ["a#"]), (None, ["defghi"])],
            id="the boundary where a match ends is used",
        ),
        pytest.param(
            "de", ["a", "b", "c", "d", "efghijkl"],
            [("a", []), ("b", []), ("c", []), ("d", []), ("efghijkl", ["abc"]), (None, ["#fghijkl"])],
            id="the latest boundary outside every match is used",
        ),
        pytest.param(
            "cd", ["abcd", "efgh"], [("abcd", []), ("efgh", ["ab#"]), (None, ["efgh"])],
            id="a match ending at the window's edge leaves redacted",
        ),
        pytest.param(
            "def", ["abcdefgh"], [("abcdefgh", ["abc"]), (None, ["#gh"])],
            id="a match crossing the window's edge is held back whole",
        ),
    ],
)  # fmt: skip
async def test_what_leaves_the_guard_after_each_chunk(pattern: str, words: list[str], expected: Timeline) -> None:
    """A window of 4 characters: what is further back than that (and not part of a match crossing into it) goes out,
    preferably as the chunks it came in, one chunk alone when exactly two are ready."""
    assert await timeline(custom(4, pattern), words) == expected


# ------------------------------------------------------------------------------------------------ a step starts afresh
def boom(args: Any) -> bool:
    return args.part.type == "text-delta" and args.part.payload.text == "BOOM"


async def retried(guard: RegexFilter, rejected: list[str], retry: list[str]) -> tuple[list[str], Any]:
    """Stream ``rejected`` then "BOOM" (another processor, before the guard, rejects the step with a retry there),
    then ``retry``: the deltas that left the guard during the retried step, and the result."""
    model = ScriptedModel([Turn(text=[*rejected, "BOOM"]), Turn(text=retry)])
    abort = Abort("no-boom", "process_output_stream", retry=True, when=boom)
    agent = Agent(id="a", model=model, output_processors=[abort, guard], max_processor_retries=1)
    with no_hook_raises():
        chunks, result = await run_stream(agent)
    starts = [i for i, chunk in enumerate(chunks) if chunk.type == "step-start"]
    assert len(starts) == 2
    return deltas(chunks[starts[-1] :]), result


async def test_a_retried_step_streams_none_of_the_text_held_back_from_the_rejected_one() -> None:
    """The rejected step's last words were still held back when it was rejected: the retry's text goes out alone,
    cut as if it were the first text (a stale held chunk would go out first; "Code 12" and "34" make a match)."""
    out, result = await retried(custom(8, r"\d{4}"), ["Code 12"], ["34 is fine, ", "and more text ", "follows."])
    assert result.text == "34 is fine, and more text follows."
    assert out == ["34 i", "s fine, ", "and more text ", "follows."]


async def test_a_look_behind_in_a_retried_step_does_not_see_the_rejected_steps_text() -> None:
    """The rejected step had let "Type pin " out; the retry's "1234" follows no "pin " of its own."""
    rule = {"name": "pin", "pattern": r"(?<=pin )\d{4}", "replacement": "[PIN]"}
    guard = RegexFilter(rules=[rule], strategy="redact", phase="output", stream_carryover_size=4)
    out, result = await retried(guard, ["Type pin ", "abcd"], ["1234 is a number, pin 5678."])
    assert result.text == "1234 is a number, pin [PIN]."
    assert "".join(out) == "1234 is a number, pin [PIN]."


async def test_a_block_in_a_retried_step_counts_its_index_from_that_steps_text() -> None:
    rule = {"name": "key", "pattern": r"key-\d{4}"}
    guard = RegexFilter(rules=[rule], strategy="block", phase="output", stream_carryover_size=8)
    out, result = await retried(guard, ["Some harmless words ", "first, "], ["Here: key-1234 now."])
    assert result.tripwire is not None
    assert result.tripwire.metadata["matches"] == [{"rule": "key", "match": "[REDACTED_MATCH]", "index": 6}]
    assert "key-" not in "".join(out)


# ------------------------------------------------------------------------------------------------ reasoning mid-text
def thinking(*pieces: str) -> Interleaved:
    """Text deltas with a reasoning delta wherever a piece is ``"~"`` (the text run goes on after it)."""
    return Interleaved([ReasoningDelta("let me think") if piece == "~" else TextDelta(piece) for piece in pieces])


async def stream_through(guard: RegexFilter, model: Interleaved) -> tuple[list[str], Any]:
    with no_hook_raises():
        chunks, result = await run_stream(Agent(id="a", model=model, output_processors=[guard]))
    return deltas(chunks), result


async def test_text_after_reasoning_is_redacted_and_nothing_before_it_comes_out_twice() -> None:
    """The reasoning chunk waits behind the held-back text, which goes on with the text after it (one window)."""
    guard = custom(8, r"\d{4}")
    out, result = await stream_through(guard, thinking("Code 1234 ", "~", "and 5678 ", "then plain words ", "end."))
    assert result.text == "Code # and # then plain words end."
    assert "".join(out) == result.text
    assert out[:2] == ["Co", "de # "]  # the text before the reasoning, redacted, out once the text after it came


async def test_a_block_after_reasoning_counts_its_index_from_the_start_of_the_text() -> None:
    guard = RegexFilter(rules=[{"name": "key", "pattern": r"key-\d{4}"}], strategy="block", phase="output",
                        stream_carryover_size=8)  # fmt: skip
    model = thinking("Some harmless words first. ", "~", "Then ", "key-1234 ", "and more.")
    out, result = await stream_through(guard, model)
    assert result.tripwire is not None
    index = len("Some harmless words first. Then ")
    assert result.tripwire.metadata["matches"] == [{"rule": "key", "match": "[REDACTED_MATCH]", "index": index}]
    assert "key-" not in "".join(out)


@pytest.mark.parametrize(
    ("pattern", "pieces", "expected"),
    [
        pytest.param(r"(?<=Your pin )\d{4}", ("Your pin ", "~", "1234 works."), "Your pin [PIN] works.",
                     id="the look-behind reaches text let out before the flush"),
        pytest.param(r"(?<!\w\w)\d{3}", ("a", "~", "123 ok"), "a[PIN] ok",
                     id="the look-behind reaches before the first text"),
    ],
)  # fmt: skip
async def test_a_look_behind_sees_the_text_before_the_reasoning(
    pattern: str, pieces: tuple[str, ...], expected: str
) -> None:
    """The text run goes on after a reasoning chunk, in the same message: a look-behind sees the text before it,
    as the final text's check does (the stream and the result agree)."""
    rule = {"name": "pin", "pattern": pattern, "replacement": "[PIN]"}
    guard = RegexFilter(rules=[rule], strategy="redact", phase="output", stream_carryover_size=4)
    out, result = await stream_through(guard, thinking(*pieces))
    assert "".join(out) == result.text == expected


# ------------------------------------------------------------------------------------------------ warn on the stream
async def warned(guard: Recording, words: list[str]) -> list[dict[str, Any]]:
    """Stream ``words`` through a warning guard: the text goes through unchanged; return the matches it reported."""
    with no_hook_raises():
        result = await Agent(id="a", model=ScriptedModel([Turn(text=words)]), output_processors=[guard]).generate("hi")
    assert result.text == "".join(words)
    return [match for detail in guard.stream_reports() for match in detail["matches"]]


def warning(*rules: tuple[str, str]) -> Recording:
    return Recording(rules=[{"name": name, "pattern": pattern} for name, pattern in rules], strategy="warn",
                     phase="output", include_redacted_values=True)  # fmt: skip


async def test_a_match_that_grows_with_the_next_chunk_is_reported_once() -> None:
    guard = Recording(presets=["pii"], strategy="warn", phase="output", include_redacted_values=True)
    found = await warned(guard, ["mail jo@example.co", "m today"])
    assert found == [{"rule": "email", "match": "jo@example.co", "index": 5}]


async def test_a_match_at_the_very_start_of_the_text_is_reported() -> None:
    found = await warned(warning(("ticket", r"INC-\d{6}")), ["INC-123456 is open"])
    assert found == [{"rule": "ticket", "match": "INC-123456", "index": 0}]


async def test_a_match_starting_where_the_last_reported_one_ended_is_reported() -> None:
    found = await warned(warning(("one", "ab"), ("two", "cd")), ["xab", "cdx"])
    assert found == [{"rule": "one", "match": "ab", "index": 1}, {"rule": "two", "match": "cd", "index": 3}]


async def test_a_match_whose_look_ahead_needs_the_next_chunk_is_reported() -> None:
    """ "1200" is an amount only once " EUR" follows, in the next chunk: the match lies wholly in the text already
    seen, and is new."""
    found = await warned(warning(("amount", r"\d+(?= EUR)")), ["Pay 1200", " EUR now"])
    assert found == [{"rule": "amount", "match": "1200", "index": 4}]


@pytest.mark.parametrize("filler", [0, 6], ids=["a short first step", "a first step longer than the window"])
async def test_a_warning_in_a_later_step_is_reported_with_its_index_in_that_steps_text(filler: int) -> None:
    """A tool call ends the first step after a reported address: the second step's address is reported too (the
    first step's reports do not hide it), indexed from its own text as the final result's report indexes it."""
    guard = Recording(presets=["pii"], strategy="warn", phase="output", include_redacted_values=True)
    first = "Contact jo@example.com for help. " + "Some words of the answer. " * filler
    model = ScriptedModel(
        [Turn(text=split_words(first), tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
         Turn(text=["Or ann@", "example.com."])]
    )  # fmt: skip
    with no_hook_raises():
        await Agent(id="a", model=model, tools=[get_weather], output_processors=[guard]).generate("hi")
    assert [detail["matches"] for detail in guard.stream_reports()] == [
        [{"rule": "email", "match": "jo@example.com", "index": 8}],
        [{"rule": "email", "match": "ann@example.com", "index": 3}],
    ]


async def test_a_warning_does_not_join_a_rejected_steps_last_words_to_the_retry() -> None:
    """The rejected step ends in "call 415-" and is rejected before the guard sees more: the retry begins
    "555-2671", and no phone number was ever said."""
    guard = Recording(presets=["pii"], strategy="warn", phase="output")
    model = ScriptedModel([Turn(text=["Please call 415-", "BOOM"]), Turn(text=["555-2671 is my lucky number."])])
    abort = Abort("no-boom", "process_output_stream", retry=True, when=boom)
    with no_hook_raises():
        result = await Agent(id="a", model=model, output_processors=[abort, guard], max_processor_retries=1).generate(
            "hi"
        )
    assert result.text == "555-2671 is my lucky number."
    assert guard.stream_reports() == []


# ------------------------------------------------------------------------------------------------ redact and block
async def test_a_block_in_text_leaving_mid_stream_shows_nothing_of_the_match() -> None:
    """The match lies in the text leaving the window (not in the last flush): the stream ends there."""
    guard = RegexFilter(rules=[{"name": "key", "pattern": r"key-\d{4}"}], strategy="block", phase="output",
                        stream_carryover_size=8)  # fmt: skip
    words = ["Here: key-1234 now, ", "and then many more words follow it."]
    chunks, result = await run_stream(Agent(id="a", model=ScriptedModel([Turn(text=words)]), output_processors=[guard]))
    assert result.tripwire is not None
    assert result.tripwire.reason == "Regex filter: blocked streaming content matching patterns: key"
    assert result.tripwire.metadata["matches"] == [{"rule": "key", "match": "[REDACTED_MATCH]", "index": 6}]
    assert "key-" not in "".join(deltas(chunks))


async def test_a_redaction_leaving_mid_stream_is_reported_from_the_stream_even_to_an_async_callback() -> None:
    seen: list[dict[str, Any]] = []

    async def alert(violation: Violation) -> None:
        seen.append(violation.detail)

    guard = custom(8, r"\d{4}")
    guard.on_violation = alert  # type: ignore[method-assign]
    words = ["Hi. ", "Code 1234 is ", "the one, and then many more words follow it."]
    with no_hook_raises():
        chunks, result = await run_stream(
            Agent(id="a", model=ScriptedModel([Turn(text=words)]), output_processors=[guard])
        )
    assert "".join(deltas(chunks)) == result.text == "Hi. Code # is the one, and then many more words follow it."
    assert deltas(chunks)[:2] == ["Hi. ", "Code # is "]  # redacted as it left the window, not at the end
    assert seen == [
        {"strategy": "redact", "phase": "processOutputStream",
         "redactions": [{"rule": "r", "index": 9, "length": 4, "replacement": "#"}]},
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        pytest.param(r"(?<=pin )\d{4}", list("Your pin 1234."),
                     id="a look-behind over text let out a character at a time"),
        pytest.param(r"(?<!\w\w)\d{3}", ["a", "123", "45"], id="a look-behind reaching before the first text let out"),
        pytest.param(r"\b\d{4}\b", ["1234 is the code, ", "and more words."], id="a word boundary at the start"),
    ],
)  # fmt: skip
async def test_the_stream_redacts_what_the_whole_texts_redaction_does(pattern: str, words: list[str]) -> None:
    guard = custom(4, pattern)
    out = await timeline(guard, words)
    assert "".join(text for _delta, texts in out for text in texts) == guard.redact_text("".join(words))
    assert "#" in guard.redact_text("".join(words))


# ------------------------------------------------------------------------------------------------ messages
async def test_redacting_one_of_several_text_parts_rewrites_the_flattened_content_as_their_join() -> None:
    message = Message.model_validate(
        {
            "id": "m1",
            "role": "user",
            "content": {
                "format": 2,
                "parts": [{"type": "text", "text": "hello, "}, {"type": "text", "text": "mail jo@example.com"}],
                "content": "hello, mail jo@example.com",
            },
        }
    )
    seen: list[tuple[list[str], str | None]] = []

    def look(args: Any) -> None:
        seen.extend(([p.text for p in m.content.parts], m.content.content) for m in args.messages)

    guard = RegexFilter(presets=["pii"], strategy="redact", phase="input")
    agent = Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[guard, Fn("look", process_input=look)])
    await agent.generate([message])
    assert seen == [(["hello, ", "mail [EMAIL]"], "hello, mail [EMAIL]")]


# ------------------------------------------------------------------------------------------------ more windows
async def test_with_presets_only_the_window_is_what_those_presets_need() -> None:
    """The ``urls`` preset needs 16 characters to recognise a link (``patterns.max_span``): text further back goes
    out, though the carry-over allows 128 (and other presets would need more)."""
    guard = RegexFilter(presets=["urls"], strategy="redact", phase="output")
    assert guard.options.stream_carryover_size == 128
    words = ["Hello there, ", "this is a plain answer ", "with no link."]
    assert await timeline(guard, words) == [
        ("Hello there, ", []),
        ("this is a plain answer ", ["Hello there, "]),
        ("with no link.", ["this is a plain answ"]),
        (None, ["er with no link."]),
    ]


async def test_a_warning_sees_a_match_split_by_reasoning() -> None:
    """The text run goes on after a reasoning chunk: a phone number cut by it is still one number."""
    guard = Recording(presets=["pii"], strategy="warn", phase="output", include_redacted_values=True)
    with no_hook_raises():
        result = await Agent(
            id="a", model=thinking("call 415-", "~", "555-2671 now"), output_processors=[guard]
        ).generate("hi")
    assert result.text == "call 415-555-2671 now"
    assert [match for detail in guard.stream_reports() for match in detail["matches"]] == [
        {"rule": "phone", "match": "415-555-2671", "index": 5}
    ]
