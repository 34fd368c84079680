"""SystemPromptScrubber at its edges: what leaves the stream and when, which system messages count, the strategies'
exact output and reports, the judge's verdicts (issue 16).

Each test here pins a behaviour mutation testing found unchecked; see tests/README.md.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from processors import Agent, Message
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import Fn, Timeline, get_weather, guard_timeline, run_stream, streamed_text

LOGGER = "processors.builtin.system_prompt_scrubber"
INSTRUCTIONS = (
    "You are Aria, the support agent of Acme. Never offer discounts above ten percent, and never mention "
    "the internal escalation code ZEBRA-42 to customers. Answer in a warm tone."
)
LEAK = "never offer discounts above ten percent, and never mention the internal escalation code ZEBRA-42"
MASKED = "***** ***** ********* ***** *** ******** *** ***** ******* *** ******** ********** **** ********"  # LEAK


def agent(model: ScriptedModel, instructions: str = INSTRUCTIONS, **lanes: Any) -> Agent:
    return Agent(id="agent", model=model, instructions=instructions, **lanes)


async def timeline(guard: SystemPromptScrubber, deltas: list[str]) -> Timeline:
    return await guard_timeline(guard, deltas, instructions=INSTRUCTIONS)


# ------------------------------------------------------------------------------------------------ when text leaves
@pytest.mark.parametrize(
    ("deltas", "expected"),
    [
        pytest.param(
            ["Hello there my friend, ", "how are you doing today? "],
            [
                ("Hello there my friend, ", ["Hello there my friend, "]),
                ("how are you doing today? ", ["how are you doing today? "]),
                (None, []),
            ],
            id="words that begin no leak leave with their delta, the space after them too",
        ),
        pytest.param(
            ["Hello there my friend, ", "!!! ... ??? --- !!! "],
            [
                ("Hello there my friend, ", ["Hello there my friend, "]),
                ("!!! ... ??? --- !!! ", ["!!! ... ??? --- !!! "]),
                (None, []),
            ],
            id="a delta without a word leaves whole",
        ),
        pytest.param(
            ["Hello there my friend, ", "fine, thanks so much"],
            [
                ("Hello there my friend, ", ["Hello there my friend, "]),
                ("fine, thanks so much", ["fine, thanks so "]),
                (None, ["much"]),
            ],
            id="only the word still growing at the end waits",
        ),
        pytest.param(
            ["Hello there my friend, ", "never offer discounts ", "to anyone at all, sorry."],
            [
                ("Hello there my friend, ", ["Hello there my friend, "]),
                ("never offer discounts ", []),
                ("to anyone at all, sorry.", ["never offer discounts to anyone at all, sorry."]),
                (None, []),
            ],
            id="the beginning of a leak waits until it can no longer become one",
        ),
        pytest.param(
            [f"Okay: {LEAK}, so answer ", "me again please, and goodbye."],
            [
                (f"Okay: {LEAK}, so answer ", [f"Okay: {MASKED}, so "]),
                ("me again please, and goodbye.", ["answer me again please, and goodbye."]),
                (None, []),
            ],
            id="a leak followed by a free word leaves redacted; the beginning of another after it waits",
        ),
        pytest.param(
            [f"Okay: {LEAK} answer ", "me again please, and goodbye."],
            [
                (f"Okay: {LEAK} answer ", ["Okay: "]),
                ("me again please, and goodbye.", [f"{MASKED} answer me again please, and goodbye."]),
                (None, []),
            ],
            id="a leak right before a waiting word waits with it",
        ),
    ],
)
async def test_what_leaves_the_guard_after_each_delta(deltas: list[str], expected: Timeline) -> None:
    assert await timeline(SystemPromptScrubber(), deltas) == expected


async def test_with_custom_patterns_the_last_carry_over_characters_wait() -> None:
    """A custom pattern may need up to ``carry_over`` characters before it matches: that much of the tail waits,
    whatever the words are (and the window moves on once 16 more characters came)."""
    filler = "Here is some plain prose about the weather and nothing else at all. " * 2  # 136 characters
    guard = SystemPromptScrubber(custom_patterns=[r"PELICAN-\d+"], carry_over=64, redaction_method="placeholder")
    log = await timeline(guard, [filler, "The code is PELICAN-", "77, keep it safe."])
    assert (
        log
        == [
            (filler, [filler[:72]]),
            ("The code is PELICAN-", [filler[72:92]]),  # as many characters as the delta brought
            ("77, keep it safe.", [filler[92:109]]),
            (None, [filler[109:] + "The code is [SYSTEM_PROMPT], keep it safe."]),
        ]
    )


async def test_a_custom_pattern_split_across_deltas_is_caught_in_the_stream() -> None:
    guard = SystemPromptScrubber(custom_patterns=[r"ZEBRA-\d+"], redaction_method="placeholder")
    chunks, result = await run_stream(
        agent(
            ScriptedModel([Turn(text=["The code word is ZEB", "RA-", "42, keep it safe."])]), output_processors=[guard]
        )
    )
    assert streamed_text(chunks) == "The code word is [SYSTEM_PROMPT], keep it safe."
    assert result.text == "The code word is [SYSTEM_PROMPT], keep it safe."


async def test_a_long_reply_with_a_custom_pattern_split_after_the_first_carry_over() -> None:
    filler = "Here is some plain prose about the weather and nothing else at all. " * 5  # 345 characters
    guard = SystemPromptScrubber(custom_patterns=[r"ZEBRA-\d+"], redaction_method="placeholder")
    deltas = [filler + "The code word is ZEBRA-", "42, keep it safe and sound, my friend."]
    chunks, result = await run_stream(agent(ScriptedModel([Turn(text=deltas)]), output_processors=[guard]))
    expected = filler + "The code word is [SYSTEM_PROMPT], keep it safe and sound, my friend."
    assert streamed_text(chunks) == expected
    assert result.text == expected


# ------------------------------------------------------------------------------------------------ what a leak is
@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        pytest.param(
            "Never offer discounts above ten percent, and never mention the internal escalation code. Bye!",
            "***** ***** ********* ***** *** ******** *** ***** ******* *** ******** ********** ****. Bye!",
            id="a leak at the very beginning",
        ),
        pytest.param(
            "Okay: never offer discounts above ten percent, and never mention the internal escalation code. Bye!",
            "Okay: ***** ***** ********* ***** *** ******** *** ***** ******* *** ******** ********** ****. Bye!",
            id="a leak after one free word",
        ),
        pytest.param(
            "I was told: never offer discounts above ten percent, and never mention the internal escalation code",
            "I was told: ***** ***** ********* ***** *** ******** *** ***** ******* *** ******** ********** ****",
            id="a leak that ends the reply",
        ),
        pytest.param(
            "Rule: the code ZEBRA-42 to customers. Answer in a warm tone, it said.",
            "Rule: the **** ******** ** ********** ****** ** * **** ****, it said.",  # "the code" is not theirs
            id="the last words of the instructions",
        ),
        pytest.param(
            "I will never offer discounts above ten percent to you.",
            "I will never offer discounts above ten percent to you.",
            id="seven shared words are not a leak",
        ),
    ],
)
async def test_which_words_are_a_leak(answer: str, expected: str) -> None:
    chunks, result = await run_stream(agent(ScriptedModel([answer]), output_processors=[SystemPromptScrubber()]))
    assert result.text == expected
    assert streamed_text(chunks) == expected


def add_system(text: str, tag: str) -> Fn:
    """An input processor that adds a tagged system message (as a memory or a context processor does)."""

    def process_input(args: Any) -> Any:
        args.message_list.add_system(text, tag)
        return args.messages

    return Fn(f"add-{tag}", process_input=process_input)


async def test_tagged_system_messages_count_and_short_ones_count_whole() -> None:
    """A system message shorter than ``min_overlap_words`` is a leak when quoted whole (from three words on); one of
    two words is never a leak. The instructions here are two words, before the tagged message in the list."""
    lanes: dict[str, Any] = {
        "input_processors": [add_system("Passphrase pelican harbour.", "secrets")],
        "output_processors": [SystemPromptScrubber(redaction_method="placeholder")],
    }
    answer = "Be brief, you said. The passphrase pelican harbour opens it."
    result = await agent(ScriptedModel([answer]), instructions="Be brief.", **lanes).generate("hi")
    assert result.text == "Be brief, you said. The [SYSTEM_PROMPT] opens it."


async def test_the_loops_retry_feedback_is_not_an_instruction() -> None:
    """The reason a processor gave for a retry reaches the model as a tagged system message; quoting it back is
    not a leak of the agent's instructions."""

    def once(args: Any) -> Any:
        if args.retry_count == 0:
            args.abort("please restate the answer more politely and briefly for our valued customer", retry=True)
        return args.messages

    reply = "Of course, I will restate the answer more politely and briefly for our valued customer."
    model = ScriptedModel(["Whatever.", reply])
    lanes = [Fn("critic", process_output_step=once), SystemPromptScrubber(strategy="block")]
    result = await agent(model, output_processors=lanes, max_processor_retries=1).generate("hi")
    assert "please restate the answer" in model.requests[1].messages[1]["content"]  # the feedback was sent
    assert result.tripwire is None
    assert result.text == reply


async def test_a_system_message_added_during_the_run_is_guarded_from_the_next_step_on() -> None:
    def add_secret(args: Any) -> Any:
        if args.step_number == 1:
            args.message_list.add_system("The vault password is maroon giraffe umbrella.", "vault")
        return None

    model = ScriptedModel(
        [
            Turn(text="Let me look that up for you first.", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
            "Fine. The vault password is maroon giraffe umbrella.",
        ]
    )
    guard = SystemPromptScrubber(redaction_method="placeholder", min_overlap_words=4)
    lanes: dict[str, Any] = {
        "tools": [get_weather],
        "input_processors": [Fn("vault", process_input_step=add_secret)],
        "output_processors": [guard],
    }
    chunks, result = await run_stream(agent(model, **lanes))
    assert streamed_text(chunks) == "Let me look that up for you first.Fine. [SYSTEM_PROMPT]."
    assert result.text == "Let me look that up for you first.Fine. [SYSTEM_PROMPT]."


# ------------------------------------------------------------------------------------------------ strategies
async def test_remove_takes_the_leak_out() -> None:
    model = ScriptedModel([f"Sure! {LEAK}. Anything else?"])
    chunks, result = await run_stream(agent(model, output_processors=[SystemPromptScrubber(redaction_method="remove")]))
    assert streamed_text(chunks) == "Sure! . Anything else?"
    assert result.text == "Sure! . Anything else?"


async def test_filter_drops_the_segment_holding_the_leak_and_keeps_the_rest() -> None:
    """The leak waits with the words after it that could begin another ("42" could go on "to customers"), until
    a word that cannot ("you" could: "you are Aria"); that held segment is dropped whole, the rest is kept."""
    deltas = ["Hello there my friend, ", f"{LEAK}. ", "Anything else I can do today for you?"]
    model = ScriptedModel([Turn(text=deltas)])
    chunks, result = await run_stream(agent(model, output_processors=[SystemPromptScrubber(strategy="filter")]))
    assert streamed_text(chunks) == "Hello there my friend, you?"
    assert result.text == "Hello there my friend, you?"


async def test_warn_logs_each_phase_once_with_the_count_and_keeps_the_text(caplog: pytest.LogCaptureFixture) -> None:
    answer = f"First: {LEAK}. Then: the support agent of Acme. Never offer discounts above ten percent."
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        chunks, result = await run_stream(
            agent(ScriptedModel([answer]), output_processors=[SystemPromptScrubber(strategy="warn")])
        )
    assert streamed_text(chunks) == answer
    assert result.text == answer and result.tripwire is None
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        (LOGGER, "System prompt leak in the output stream (1 passages)"),  # the first leak, with "Then: "
        (LOGGER, "System prompt leak in the output stream (1 passages)"),  # the second, held to the end
        (LOGGER, "System prompt leak in the response (2 passages)"),
    ]


async def test_the_state_counts_the_passages_found() -> None:
    """Two in the stream; the final result holds them redacted, and one more that a later processor added."""

    def add(args: Any) -> Any:
        return [*args.messages, Message.assistant(f"Also: {LEAK}.")]

    tracer = RecordingTracer()
    answer = f"First: {LEAK}. Then: the support agent of Acme. Never offer discounts above ten percent."
    guard = SystemPromptScrubber()
    lanes = [Fn("add", process_output_result=add), guard]
    await agent(ScriptedModel([answer]), output_processors=lanes, tracers=[tracer]).generate("hi")
    counts = {e.hook: e.state["detections"] for e in tracer.events if e.processor_id == guard.id}
    assert counts == {"process_output_stream": 3, "process_output_result": 3}  # the state when the run ended


async def test_block_names_every_kind_and_counts_the_passages() -> None:
    answer = f"First: {LEAK}. The password is PELICAN-7, ok?"
    guard = SystemPromptScrubber(strategy="block", custom_patterns=[r"PELICAN-\d+"])
    result = await agent(ScriptedModel([answer]), output_processors=[guard]).generate("hi")
    assert result.tripwire is not None
    assert result.tripwire.reason == "System prompt detected: system-prompt, custom-pattern"
    assert result.tripwire.metadata == {"types": ["system-prompt", "custom-pattern"], "count": 2}


async def test_include_detections_puts_the_passages_in_the_tripwire() -> None:
    answer = f"First: {LEAK}. The password is PELICAN-7, ok?"
    guard = SystemPromptScrubber(strategy="block", custom_patterns=[r"PELICAN-\d+"], include_detections=True)
    result = await agent(ScriptedModel([answer]), output_processors=[guard]).generate("hi")
    assert result.tripwire is not None
    assert result.tripwire.metadata == {
        "types": ["system-prompt", "custom-pattern"],
        "count": 2,
        "detections": [LEAK, "PELICAN-7"],
    }


async def test_a_custom_pattern_that_matches_nothing_is_no_leak() -> None:
    guard = SystemPromptScrubber(strategy="block", custom_patterns=[r"x*"])
    result = await agent(ScriptedModel(["Hello there, nothing secret."]), output_processors=[guard]).generate("hi")
    assert result.tripwire is None
    assert result.text == "Hello there, nothing secret."


# ------------------------------------------------------------------------------------------------ judge
PARAPHRASE = "Between us: I'm not allowed to go past a 10% discount, and there's a secret code I can't share."


def verdict(**fields: Any) -> str:
    return json.dumps({"leaked": True, "confidence": 0.9, "leaked_text": [], **fields})


async def judged(reply: str, answer: str, **options: Any) -> tuple[Any, ScriptedModel]:
    judge = ScriptedModel([answer])
    options.setdefault("redaction_method", "placeholder")
    guard = SystemPromptScrubber(model=judge, **options)
    result = await agent(ScriptedModel([reply]), output_processors=[guard]).generate("hi")
    return result, judge


async def test_the_judge_reads_every_instruction_and_the_answer() -> None:
    judge = ScriptedModel([verdict(leaked=False)])
    lanes: dict[str, Any] = {
        "input_processors": [add_system("Second rule: be kind.", "rules")],
        "output_processors": [SystemPromptScrubber(model=judge)],
    }
    await agent(ScriptedModel([PARAPHRASE]), **lanes).generate("hi")
    (request,) = judge.requests
    assert f"<instructions>\n{INSTRUCTIONS}\n\nSecond rule: be kind.\n</instructions>" in request.messages[0]["content"]
    assert request.messages[1] == {"role": "user", "content": PARAPHRASE}


async def test_a_judge_that_says_not_leaked_passes_whatever_its_confidence() -> None:
    result, _ = await judged(PARAPHRASE, verdict(leaked=False, confidence=0.95, leaked_text=["I'm not allowed"]))
    assert result.text == PARAPHRASE


async def test_a_confidence_equal_to_the_threshold_is_a_leak() -> None:
    result, _ = await judged(PARAPHRASE, verdict(confidence=0.6, leaked_text=["a secret code"]), threshold=0.6)
    assert (
        result.text
        == "Between us: I'm not allowed to go past a 10% discount, and there's [SYSTEM_PROMPT] I can't share."
    )


@pytest.mark.parametrize(
    "quoted",
    [
        pytest.param([], id="no passage"),
        pytest.param(["   "], id="a blank passage"),
        pytest.param([""], id="empty"),
        pytest.param(["not in the answer"], id="a passage the answer does not hold"),
    ],
)
async def test_a_leak_the_judge_cannot_quote_hides_the_whole_answer(quoted: list[str]) -> None:
    result, _ = await judged(PARAPHRASE, verdict(leaked_text=quoted))
    assert result.text == "[SYSTEM_PROMPT]"


async def test_a_passage_the_judge_quotes_is_hidden_wherever_it_occurs() -> None:
    reply = "The secret code is sealed. I repeat: the secret code is sealed."
    result, _ = await judged(reply, verdict(leaked_text=["secret code"]))
    assert result.text == "The [SYSTEM_PROMPT] is sealed. I repeat: the [SYSTEM_PROMPT] is sealed."
    thrice = "secret code, secret code and secret code."
    result, _ = await judged(thrice, verdict(leaked_text=["secret code"]))
    assert result.text == "[SYSTEM_PROMPT], [SYSTEM_PROMPT] and [SYSTEM_PROMPT]."


async def test_a_blocked_judge_verdict_names_the_kind_and_the_passages() -> None:
    result, _ = await judged(
        PARAPHRASE, verdict(leaked_text=["a secret code"]), strategy="block", include_detections=True
    )
    assert result.tripwire is not None
    assert result.tripwire.reason == "System prompt detected: system-prompt"
    assert result.tripwire.metadata == {"types": ["system-prompt"], "count": 1, "detections": ["a secret code"]}
    unquoted, _ = await judged(PARAPHRASE, verdict(), strategy="block", include_detections=True)
    assert unquoted.tripwire is not None
    assert unquoted.tripwire.metadata == {"types": ["system-prompt"], "count": 1, "detections": [PARAPHRASE]}


async def test_without_instructions_the_judge_is_not_asked() -> None:
    judge = ScriptedModel([verdict()])
    guard = SystemPromptScrubber(model=judge)
    result = await Agent(id="a", model=ScriptedModel([PARAPHRASE]), output_processors=[guard]).generate("hi")
    assert result.text == PARAPHRASE
    assert judge.requests == []


async def test_the_final_result_guard_checks_assistant_text_only() -> None:
    """Text another output processor added after the stream is checked; the user's own words are not."""

    def add(args: Any) -> Any:
        return [*args.messages, Message.assistant(f"Also: {LEAK}.")]

    lanes = [Fn("add", process_output_result=add), SystemPromptScrubber(redaction_method="placeholder")]
    result = await agent(ScriptedModel(["Sure."]), output_processors=lanes).generate(f"Did you say {LEAK}?")
    assert [(m.role, m.text) for m in result.messages] == [("assistant", "Sure.Also: [SYSTEM_PROMPT].")]
