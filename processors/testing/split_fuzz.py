"""Chunk-boundary fuzzing: a stream guard must not depend on where the provider happened to cut the text.

:func:`fuzz_splits` takes the model's reply (a text, or a :class:`~processors.models.recording.Recording` of a
real run), re-cuts it many ways — one character a chunk, cuts inside words, random cuts, a UTF-16 surrogate pair
split in two as some providers send it, one big chunk — and streams each cut through every output processor **on
its own** (a fresh instance each time, so a finding names the processor responsible). It compares what comes out of
each cut with the one-big-chunk baseline: the final text and the tripwire (which processor, which reason). A
processor whose verdict or text changes with the cut is reported with the smallest cut that changes it (found by
removing cut points one at a time while the difference remains)::

    findings = await fuzz_splits(lambda: [PIIDetector(), MyGuard()], "Mail jo@example.com now")
    for finding in findings:
        print(finding.processor_id, finding.deltas, finding.baseline, finding.outcome)

An empty list means every processor gave the same answer whatever the cut.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from processors.agent import Agent
from processors.models.recording import Recording
from processors.models.scripted import ScriptedModel, Turn

#: Builds the processors to test, fresh each time (a processor's state must not carry over between cuts).
ProcessorsFactory = Callable[[], Sequence[Any]]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a stream produced: the final text, and the tripwire (processor and reason) if one fired."""

    text: str
    tripwire: tuple[str, str] | None


@dataclass(frozen=True, slots=True)
class SplitFinding:
    """A processor whose output depends on the cut: the smallest cut found, and the two outcomes."""

    processor_id: str
    deltas: tuple[str, ...]
    baseline: Outcome
    outcome: Outcome


def reply_text(recording: Recording) -> str:
    """The text of a recording's last step (the reply the user read), joined from its deltas."""
    for step in reversed(recording.steps):
        text = "".join(str(event[1]) for event in step.events if event[0] == "t")
        if text:
            return text
    return ""


def cuts(text: str, *, seed: int = 0, random_cuts: int = 12) -> list[list[str]]:
    """The ways to cut ``text`` into deltas: one chunk, one character a chunk, word-internal cuts, random cuts, and
    (when the text has characters outside the BMP) a surrogate pair split across two deltas."""
    if not text:
        return [[text]]
    found: list[list[str]] = [[text], list(text)]
    inside_words = [i for i in range(1, len(text)) if text[i - 1].isalnum() and text[i].isalnum()]
    if inside_words:
        found.append(_split_at(text, inside_words[::2]))
        found.append(_split_at(text, inside_words[1::3]))
    rng = random.Random(seed)
    for _ in range(random_cuts):
        count = rng.randint(1, max(1, min(len(text) - 1, 12)))
        found.append(_split_at(text, rng.sample(range(1, len(text)), min(count, len(text) - 1))))
    wide = [i for i, char in enumerate(text) if ord(char) > 0xFFFF]
    if wide:
        found.append(_surrogate_split(text, wide[0]))
    unique: list[list[str]] = []
    for cut in found:
        if cut not in unique:
            unique.append(cut)
    return unique


async def fuzz_splits(
    processors: ProcessorsFactory,
    reply: str | Recording,
    *,
    prompt: str = "Hello",
    instructions: str = "",
    seed: int = 0,
    random_cuts: int = 12,
    progress: Callable[[int, int], None] | None = None,
) -> list[SplitFinding]:
    """Stream ``reply`` cut many ways through each processor alone; return every processor that changed with the
    cut (with the smallest cut that shows it). ``instructions`` are the agent's (a system-prompt scrubber needs
    them). ``progress(done, total)`` hears each cut tried (a processor found split-sensitive skips its remaining
    cuts); an exception it raises stops the fuzzing (a UI's Cancel). See the module docstring."""
    text = reply_text(reply) if isinstance(reply, Recording) else reply
    findings: list[SplitFinding] = []
    samples = list(processors())
    ways = cuts(text, seed=seed, random_cuts=random_cuts)
    total, done = len(samples) * len(ways), 0
    report = progress or (lambda _done, _total: None)
    report(0, total)
    for index, sample in enumerate(samples):
        processor_id = str(getattr(sample, "id", type(sample).__name__))

        def one(index: int = index) -> list[Any]:
            return [processors()[index]]

        baseline = await _outcome(one, [text], prompt, instructions)
        done += 1
        report(done, total)
        for cut in ways[1:]:
            outcome = await _outcome(one, cut, prompt, instructions)
            done += 1
            report(done, total)
            if outcome != baseline:
                smallest, changed = await _shrink(one, cut, baseline, outcome, prompt, instructions)
                findings.append(SplitFinding(processor_id, tuple(smallest), baseline, changed))
                break
        done = (index + 1) * len(ways)
        report(done, total)
    return findings


async def _outcome(processors: ProcessorsFactory, deltas: list[str], prompt: str, instructions: str) -> Outcome:
    agent = Agent(
        id="split-fuzz", instructions=instructions, model=ScriptedModel([Turn(text=list(deltas))]),
        output_processors=list(processors()),
    )  # fmt: skip
    result = await agent.generate(prompt)
    tripwire = result.tripwire
    return Outcome(result.text, (tripwire.processor_id or "", tripwire.reason) if tripwire else None)


async def _shrink(
    processors: ProcessorsFactory,
    deltas: list[str],
    baseline: Outcome,
    outcome: Outcome,
    prompt: str,
    instructions: str,
) -> tuple[list[str], Outcome]:
    """Merge neighbouring deltas while the outcome still differs from the baseline: the fewest cut points left."""
    current, current_outcome = list(deltas), outcome
    merged = True
    while merged and len(current) > 1:
        merged = False
        for i in range(len(current) - 1):
            candidate = [*current[:i], current[i] + current[i + 1], *current[i + 2 :]]
            result = await _outcome(processors, candidate, prompt, instructions)
            if result != baseline:
                current, current_outcome, merged = candidate, result, True
                break
    return current, current_outcome


def _split_at(text: str, points: Sequence[int]) -> list[str]:
    edges = [0, *sorted(set(points)), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(edges) if b > a]


def _surrogate_split(text: str, at: int) -> list[str]:
    """Cut the character at ``at`` into its two UTF-16 halves, each ending/starting a delta (as a provider's JSON
    ``"\\ud83d"`` then ``"\\ude00"`` arrives)."""
    code = ord(text[at]) - 0x10000
    high, low = chr(0xD800 + (code >> 10)), chr(0xDC00 + (code & 0x3FF))
    return [piece for piece in (text[:at] + high, low + text[at + 1 :]) if piece]


__all__ = ["Outcome", "SplitFinding", "cuts", "fuzz_splits", "reply_text"]
