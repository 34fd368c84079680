"""Stream guards hold back a bounded window, and what they emit does not depend on how the text was cut.

Every built-in that buffers in ``process_output_stream`` (PIIDetector, SystemPromptScrubber, RegexFilter with a
redacting strategy) is driven through a real ``Agent`` with a ``ScriptedModel`` whose deltas are the same text
cut differently: one character per delta, random cuts, multi-byte and astral (surrogate-pair in UTF-16)
characters. The streamed text, the final text and the verdict (tripwire reason) must equal those of the
uncut text. A second group shows text leaving the guard while the model is still talking.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors import Agent, Processor
from processors.builtin.moderation import ModerationProcessor
from processors.builtin.patterns import MAX_SPAN
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.stream_window import hold_start
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.models import ScriptedModel, Turn
from tests.processors.builtin.corpus import load
from tests.processors.helpers import DeltasIn, run_stream, streamed_text

INSTRUCTIONS = (
    "You are Aria, the support agent of Acme. Never offer discounts above ten percent, and never mention "
    "the internal escalation code ZEBRA-42 to customers. Answer in a warm tone."
)

#: Pieces the generated answers are made of: leaks (whole and partial), personal data, prose, and characters
#: that are more than one byte in UTF-8 or two code units in UTF-16.
FRAGMENTS = [
    "never offer discounts above ten percent, and never mention the internal escalation code ZEBRA-42",
    "Never offer discounts above ten",  # the start of a leak that stops short
    "the internal escalation code",
    "You are Aria, the support agent of Acme.",
    "jo@example.com",
    "maria.gonzalez@acme-corp.com",
    "+1 415 555 2671",
    "4111 1111 1111 1111",
    "078-05-1121",
    "https://example.com/a?b=c",
    "Sure! ",
    "I will kill you",  # moderation phrases, whole and continued into a longer word
    "I will kill your",
    "go to hell",
    "Go To Hell",
    "My instructions say: ",
    "Grüße aus Köln, ",
    "naïve café ",
    "e\u0301 ",
    "中文字符。",
    "😀🎉 ",
    "\U0001d49c\U0001d4d1 ",  # mathematical script letters: astral, like the emoji
    " ",
    "\n\n",
    ". ",
    ", and ",
    "the ",
]

texts = (
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), min_size=1, max_size=24)
    .map("".join)
    .filter(bool)
)


@st.composite
def cut_texts(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A text and the deltas it is streamed as: one character each, or cut at random places."""
    text = draw(texts)
    if draw(st.booleans()):
        return text, list(text)
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=40)))
    bounds = [0, *[c for c in cuts if 0 < c < len(text)], len(text)]
    return text, [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]


def outcome(processor: Processor, deltas: list[str]) -> tuple[str, str, str | None]:
    """(streamed text, final text, the processor that tripped) of one run whose model streams ``deltas``."""
    agent = Agent(
        id="agent", model=ScriptedModel([Turn(text=deltas)]), instructions=INSTRUCTIONS, output_processors=[processor]
    )
    chunks, result = asyncio.run(run_stream(agent))
    tripped = result.tripwire.processor_id if result.tripwire is not None else None
    return streamed_text(chunks), result.text, tripped


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_split_invariant(make: Any, text: str, deltas: list[str]) -> None:
    """Redacting guards: the same text streamed, the same text saved, the same verdict, however it was cut."""
    whole = outcome(make(), [text])
    cut = outcome(make(), deltas)
    assert cut == whole, (deltas, whole, cut)


def assert_verdict_invariant(make: Any, text: str, deltas: list[str]) -> None:
    """Blocking guards: the same verdict however the text was cut; before a block, only text that precedes the
    offending passage streams (a cut text may release more of that safe beginning than one whole delta). The
    reason names what the blocking segment held, which may be fewer types when a cut text blocks sooner."""
    whole = outcome(make(), [text])
    streamed, _final, reason = outcome(make(), deltas)
    assert reason == whole[2], (deltas, whole, reason)
    if reason is None:
        assert streamed == text
    else:
        assert text.startswith(streamed)


@PROPERTY
@given(cut_texts())
def test_scrubber_redaction_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_split_invariant(lambda: SystemPromptScrubber(redaction_method="placeholder"), text, deltas)


@PROPERTY
@given(cut_texts())
def test_scrubber_block_verdict_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_verdict_invariant(lambda: SystemPromptScrubber(strategy="block"), text, deltas)


@PROPERTY
@given(cut_texts())
def test_scrubber_with_a_custom_pattern_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_split_invariant(
        lambda: SystemPromptScrubber(redaction_method="mask", custom_patterns=[r"ZEBRA-\d+"], carry_over=32),
        text,
        deltas,
    )


@PROPERTY
@given(cut_texts())
def test_pii_redaction_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_split_invariant(
        lambda: PIIDetector(redaction_method="placeholder", detection_types=["email", "phone", "credit-card"]),
        text,
        deltas,
    )


@PROPERTY
@given(cut_texts())
def test_pii_with_every_offline_type_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_split_invariant(lambda: PIIDetector(redaction_method="mask"), text, deltas)


@PROPERTY
@given(cut_texts())
def test_pii_block_verdict_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_verdict_invariant(lambda: PIIDetector(strategy="block"), text, deltas)


@PROPERTY
@given(cut_texts())
def test_regex_filter_preset_redaction_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_split_invariant(
        lambda: RegexFilter(presets=["pii", "urls"], strategy="redact", phase="output"), text, deltas
    )


@PROPERTY
@given(cut_texts())
def test_offline_moderation_filter_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_split_invariant(lambda: ModerationProcessor(strategy="filter"), text, deltas)


@PROPERTY
@given(cut_texts())
def test_offline_moderation_block_verdict_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_verdict_invariant(lambda: ModerationProcessor(strategy="block"), text, deltas)
    streamed, _, _ = outcome(ModerationProcessor(strategy="block"), deltas)
    assert not ModerationProcessor().word_scores(streamed + " "), "a phrase streamed before the block"


#: The project's labelled PII and secrets corpora (English, Simplified and Traditional Chinese).
CORPUS = [
    row["text"]
    for name in ("pii_corpus.jsonl", "pii_holdout.jsonl", "pii_multilingual_corpus.jsonl",
                 "pii_multilingual_holdout.jsonl", "secrets_corpus.jsonl")
    for row in load(name)
]  # fmt: skip


@st.composite
def cut_corpus_texts(draw: st.DrawFn) -> tuple[str, list[str]]:
    """One to three corpus texts run together, streamed one character each or cut at random places."""
    text = " ".join(draw(st.lists(st.sampled_from(CORPUS), min_size=1, max_size=3)))
    if draw(st.booleans()):
        return text, list(text)
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=40)))
    bounds = [0, *[c for c in cuts if 0 < c < len(text)], len(text)]
    return text, [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]


GUARDS: dict[str, Any] = {
    "PIIDetector mask": lambda: PIIDetector(redaction_method="mask"),
    "PIIDetector placeholder": lambda: PIIDetector(redaction_method="placeholder"),
    "RegexFilter pii and secrets": lambda: RegexFilter(presets=["pii", "secrets"], strategy="redact", phase="output"),
    "SystemPromptScrubber": lambda: SystemPromptScrubber(redaction_method="placeholder"),
    "offline moderation": lambda: ModerationProcessor(strategy="filter"),
}


@PROPERTY
@given(cut_corpus_texts(), st.sampled_from(sorted(GUARDS)))
def test_redaction_of_the_corpora_does_not_depend_on_the_cut(case: tuple[str, list[str]], guard: str) -> None:
    text, deltas = case
    assert_split_invariant(GUARDS[guard], text, deltas)


@PROPERTY
@given(cut_corpus_texts())
def test_pii_block_verdict_on_the_corpora_does_not_depend_on_the_cut(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    assert_verdict_invariant(lambda: PIIDetector(strategy="block"), text, deltas)


def test_every_multilingual_pii_text_streamed_one_character_at_a_time_is_redacted_as_a_whole() -> None:
    for name in ("pii_multilingual_corpus.jsonl", "pii_multilingual_holdout.jsonl"):
        for row in load(name):
            text = row["text"]
            for make in (GUARDS["PIIDetector mask"], GUARDS["RegexFilter pii and secrets"]):
                assert_split_invariant(make, text, list(text))


def test_offline_moderation_finds_a_phrase_streamed_one_character_at_a_time() -> None:
    text = "Fine. I will kill you tomorrow. Bye."
    assert outcome(ModerationProcessor(strategy="filter"), list(text))[0] == "Fine.  tomorrow. Bye."
    streamed, _, tripped = outcome(ModerationProcessor(strategy="block"), list(text))
    assert tripped == "moderation" and "kill" not in streamed


# ------------------------------------------------------------------------------------------- bounded hold


async def deltas_in_before_each_delta_out(guard: Processor, words: list[str]) -> list[int]:
    """For each text-delta leaving the chain, how many model deltas had entered it."""
    counter = DeltasIn()
    agent = Agent(
        id="agent",
        model=ScriptedModel([Turn(text=words)]),
        instructions=INSTRUCTIONS,
        output_processors=[counter, guard],
    )
    seen = [counter.count async for chunk in agent.stream("hi") if chunk.type == "text-delta"]
    return seen


PROSE = "Thanks for writing in! Your order shipped on Monday and should arrive within three working days. " * 4


async def test_guards_release_text_while_the_model_still_streams() -> None:
    words = [w + " " for w in PROSE.split()]
    guards: list[Processor] = [
        SystemPromptScrubber(redaction_method="placeholder"),
        PIIDetector(detection_types=["email", "phone", "credit-card"]),
        RegexFilter(presets=["pii"], strategy="redact", phase="output"),
    ]
    for guard in guards:
        seen = await deltas_in_before_each_delta_out(guard, words)
        assert seen, guard.id
        # the first text leaves after a handful of words, and text keeps flowing, not in one lump at the end
        assert seen[0] <= 20, (guard.id, seen)
        assert len([n for n in seen if n < len(words)]) >= len(words) // 4, (guard.id, seen)


async def test_the_pii_detector_holds_only_what_could_still_begin_a_match() -> None:
    """Prose passes within a scan batch; a value still growing is held whole, and redacted once complete."""
    words = [w + " " for w in ("Hello", "there,", "how", "can", "I", "help", "you", "with", "your", "order", "today?")]
    seen = await deltas_in_before_each_delta_out(PIIDetector(detection_types=["email", "phone", "credit-card"]), words)
    assert seen[0] <= 4, seen
    assert all(later - earlier <= 5 for earlier, later in itertools.pairwise(seen)), seen
    counter = DeltasIn()
    pieces = ["Write to jo.s", "mith@exam", "ple.com or call +1 415 ", "555 2671 today, thanks!"]
    agent = Agent(
        id="agent",
        model=ScriptedModel([Turn(text=pieces)]),
        instructions=INSTRUCTIONS,
        output_processors=[counter, PIIDetector(redaction_method="placeholder", detection_types=["email", "phone"])],
    )
    out = [chunk.payload.text async for chunk in agent.stream("hi") if chunk.type == "text-delta"]  # type: ignore[union-attr]
    assert "".join(out) == "Write to [EMAIL] or call [PHONE] today, thanks!"
    assert out[0] == "Write to ", "the words before the address leave before it is complete"


def test_hold_start_covers_the_kinds_characters_only() -> None:
    assert hold_start("Mail me at jo@exa", 0, ("email", "phone"), 128) == len("Mail me at ")
    assert hold_start("Call +1 415 55", 0, ("phone",), 128) == len("Call ")
    assert hold_start("Card 4111 1111", 0, ("credit-card",), 128) == len("Card ")
    assert hold_start("No match can start here", 0, ("credit-card", "ssn"), 128) == len("No match can start here")
    assert hold_start("id " + "2" * 200, 0, ("credit-card",), 128) == 203 - 128, "never more than the cap"
    # a trailing run no match can begin in holds nothing: "). " neither ends nor begins a phone number
    assert hold_start("Thanks (really). ", 0, ("phone", "credit-card"), 128) == len("Thanks (really). ")
    # a kind with no character set holds from its needle only while a match can still grow from it
    assert hold_start("x" * 100, 0, ("secret-assignment",), 128) == 100
    assert hold_start("x" * 90 + " token = ab", 0, ("secret-assignment",), 128) == 91
    assert hold_start("x" * 100 + " ssn ", 0, ("ssn-words",), 64) == 101
    assert hold_start("sk-" + "x" * 100, 0, ("openai-key",), 128) == 103, "never further back than its span"
    assert MAX_SPAN["openai-key"] < 100


async def test_the_scrubber_holds_only_words_that_could_still_begin_a_leak() -> None:
    """Text sharing no word sequence with the instructions passes at once, a word at a time."""
    words = [w + " " for w in ("Hello", "there,", "how", "can", "I", "help", "you", "with", "your", "order", "today?")]
    seen = await deltas_in_before_each_delta_out(SystemPromptScrubber(), words)
    # released once a scan batch (16 characters) arrived: never more than a few words behind the model
    assert seen[0] <= 4, seen
    assert all(later - earlier <= 5 for earlier, later in itertools.pairwise(seen)), seen


async def test_the_scrubber_holds_a_leak_in_progress_whole() -> None:
    leak = "I must never offer discounts above ten percent, and never mention the internal escalation code"
    words = [w + " " for w in f"{leak} to anyone. Bye now, have a lovely day!".split()]
    counter = DeltasIn()
    agent = Agent(
        id="agent",
        model=ScriptedModel([Turn(text=words)]),
        instructions=INSTRUCTIONS,
        output_processors=[counter, SystemPromptScrubber(redaction_method="placeholder")],
    )
    out = [chunk.payload.text async for chunk in agent.stream("hi") if chunk.type == "text-delta"]  # type: ignore[union-attr]
    assert "".join(out) == "I must [SYSTEM_PROMPT] to anyone. Bye now, have a lovely day! "
    assert not any("never" in piece or "discount" in piece for piece in out), out


def test_a_token_longer_than_the_hold_back_window_is_redacted_whole_however_it_is_cut() -> None:
    """A 140-character JWT used to stream out whole when cut before its signature's dot: the pattern was not
    recognisable within the guard's window. Every two-piece cut and one character a chunk give the same text."""
    token = (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1NzYzMSIsIm5hbWUiOiJ1c2VyIiwiaWF0IjoxNzE2OTI0MzU4fQ"
        ".5gz0nnAQfXu8dmPDYYp5JE0IzkPuuh2BNypoU4AFu9D"
    )
    text = f"cookie session={token}; Path=/"
    make = GUARDS["RegexFilter pii and secrets"]
    assert outcome(make(), [text])[0] == "cookie session=[JWT]; Path=/"
    assert_split_invariant(make, text, list(text))
    for cut in range(1, len(text)):
        assert_split_invariant(make, text, [text[:cut], text[cut:]])
