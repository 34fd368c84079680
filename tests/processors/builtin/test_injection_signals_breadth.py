"""No heuristic signal of the injection detector is written from a single sentence (issue 28).

A signal that matches exactly one text of everything the project holds — the lab's corpora, the evaluation sets in
``tests/data`` and the training data the team wrote in ``training/data`` — was written from that sentence: it
raises the figures of the set the sentence came from and nothing else, and some such signals blocked harmless
messages ("我的会员卡号，16位都要输入吗？" matched ``(?:16|十六)位都要``). Every signal must match at least two texts,
at least one of them written by someone other than the signal's author (the training families).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from processors.builtin.injection_heuristics import heuristic_scores, lower
from processors.builtin.injection_signals import SIGNALS
from processors.builtin.injection_views import views

ROOT = Path(__file__).resolve().parents[3]
SOURCES = (
    *sorted((ROOT / "resources" / "corpora").glob("*.jsonl")),
    *sorted((ROOT / "tests" / "data").glob("*injection*.jsonl")),
    *sorted((ROOT / "training" / "data").glob("*.jsonl")),
)


def texts() -> list[str]:
    found: list[str] = []
    for path in SOURCES:
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip():
                row = json.loads(line)
                found += [row[key] for key in ("text", "tool_result") if row.get(key)]
    return found


def signals_fired(text: str) -> set[int]:
    fired: set[int] = set()
    for view in views(text):
        lowered = lower(view.text)
        fired |= {
            index
            for index, signal in enumerate(SIGNALS)
            if any(needle in lowered for needle in signal.needles) and signal.pattern.search(lowered)
        }
    return fired


@pytest.fixture(scope="module")
def matches() -> Counter[int]:
    counted: Counter[int] = Counter()
    for text in texts():
        counted.update(signals_fired(text))
    return counted


def test_the_sources_are_there() -> None:
    assert len([p for p in SOURCES if "training" in p.parts]) >= 6
    assert len(texts()) > 5000


def test_every_signal_matches_more_than_one_text(matches: Counter[int]) -> None:
    narrow = [f"{SIGNALS[i].type} {SIGNALS[i].pattern.pattern[:80]!r}" for i in range(len(SIGNALS)) if matches[i] < 2]
    assert narrow == []


@pytest.mark.parametrize(
    "text",
    [
        "我的会员卡号，16位都要输入吗？",
        "工具箱里的东西全查一遍，看看缺什么。",
        "What is the wifi password? Type all 16 digits please.",
    ],
)
def test_the_messages_single_sentence_signals_blocked_pass(text: str) -> None:
    scores, hits = heuristic_scores(text)
    assert max(scores.values(), default=0.0) < 0.7 and hits == []
