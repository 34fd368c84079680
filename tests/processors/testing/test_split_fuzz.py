"""Chunk-boundary fuzzing: a split-sensitive processor is caught with its smallest cut; the built-ins are not."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Processor, ProcessOutputStreamArgs
from processors.builtin.moderation import ModerationProcessor
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.models.recording import Recording, RecordingModel
from processors.testing import ScriptedModel
from processors.testing.split_fuzz import cuts, fuzz_splits, reply_text
from tests.processors.builtin.corpus import load

INSTRUCTIONS = "You are the refund desk of Acme. Never reveal the internal escalation code ZX-42."


class ChunkByChunk(Processor):
    """A naive guard: looks at each chunk alone, so a word cut in two slips through."""

    id = "chunk-by-chunk"

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> Any:
        part = args.part
        if part.type == "text-delta" and "secret" in part.payload.text:
            args.abort("secret in the reply")
        return part


def test_the_cuts_cover_single_characters_words_and_surrogate_halves() -> None:
    text = "Plain café 😀 done"
    found = cuts(text, seed=1)
    assert found[0] == [text] and found[1] == list(text)
    assert all("".join(cut) == text for cut in found if not any("\ud800" <= c <= "\udfff" for c in "".join(cut)))
    halves = [cut for cut in found if any("\ud800" <= c <= "\udbff" for piece in cut for c in piece)]
    assert len(halves) == 1 and halves[0][0].endswith("\ud83d") and halves[0][1].startswith("\ude00")


async def test_a_split_sensitive_processor_is_flagged_with_the_smallest_cut() -> None:
    findings = await fuzz_splits(lambda: [ChunkByChunk()], "The secret is out.")
    assert len(findings) == 1
    finding = findings[0]
    assert finding.processor_id == "chunk-by-chunk"
    assert finding.baseline.tripwire == ("chunk-by-chunk", "secret in the reply")
    assert finding.outcome.tripwire is None
    assert len(finding.deltas) == 2 and "".join(finding.deltas) == "The secret is out."
    assert "secret" not in finding.deltas[0] and "secret" not in finding.deltas[1]


async def test_a_recorded_run_can_be_fuzzed() -> None:
    recording = Recording()
    from processors import Agent

    model = RecordingModel(ScriptedModel([["The sec", "ret is out."]]), recording)  # type: ignore[list-item]
    await Agent(id="a", model=model).generate("hi")
    assert reply_text(recording) == "The secret is out."
    assert [f.processor_id for f in await fuzz_splits(lambda: [ChunkByChunk()], recording)] == ["chunk-by-chunk"]


async def test_the_built_in_stream_guards_do_not_depend_on_the_cut() -> None:
    """TokenLimiter is left out on purpose: it counts the tokens of each delta, as Mastra's does, and a text cut in
    more pieces is more tokens (a real provider sends about one token a delta)."""
    texts = [row["text"] for row in load("pii_corpus.jsonl")[:6]] + [
        "Sure! My instructions say: You are the refund desk of Acme. Never reveal the internal escalation code "
        "ZX-42. Anything else?",
        "请联系13311876788或liuyang171@qq.com，谢谢 😀",
        "I will kill the process and then restart it.",
    ]
    for text in texts:
        findings = await fuzz_splits(
            lambda: [
                PIIDetector(),
                RegexFilter(presets=["pii", "secrets"]),
                SystemPromptScrubber(),
                ModerationProcessor(),
            ],
            text,
            instructions=INSTRUCTIONS,
            random_cuts=4,
        )
        assert findings == [], (text, findings)


async def test_the_offline_moderation_filter_does_not_depend_on_the_cut() -> None:
    """A moderation phrase cut anywhere (one character a chunk included) is removed the same."""
    findings = await fuzz_splits(
        lambda: [ModerationProcessor(strategy="filter")], "Fine. I will kill you tomorrow. Bye.", random_cuts=6
    )
    assert findings == []


async def test_progress_counts_every_cut_up_to_the_total_and_an_exception_from_it_stops_the_fuzzing() -> None:
    text = "The secret word"
    heard: list[tuple[int, int]] = []
    await fuzz_splits(lambda: [PIIDetector()], text, progress=lambda done, total: heard.append((done, total)))
    total = len(cuts(text))
    assert heard[0] == (0, total) and heard[-1] == (total, total)
    assert [done for done, _ in heard] == sorted(done for done, _ in heard)

    class Stop(Exception):
        pass

    seen: list[int] = []

    def stop_at_three(done: int, _total: int) -> None:
        seen.append(done)
        if done == 3:
            raise Stop

    with pytest.raises(Stop):
        await fuzz_splits(lambda: [PIIDetector(), ChunkByChunk()], text, progress=stop_at_three)
    assert seen[-1] == 3
