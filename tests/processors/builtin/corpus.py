"""The labelled corpora in ``tests/data/`` and how detectors are scored on them (shared by tests and the bench).

PII corpora: one JSON object a line, ``{"text", "labels": [{"type", "value"}]}``; a detection counts when its
detection type and exact value match a label. Only regex-backed types are labelled (names, postal addresses and
dates of birth are found by the model judge and are not scored offline).
Secrets corpus: same shape with provider-specific types (``github-token`` ...); a secret counts as found when
any detection overlaps it, and any detection overlapping no secret is a false positive.
Injection corpora: ``{"text", "label": true|false, "category"}``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data"
#: The bundled starter corpora (the lab's case format; the injection detector's tuning set).
STARTER = Path(__file__).resolve().parents[3] / "resources" / "corpora"


def load(name: str) -> list[dict[str, Any]]:
    with (DATA / name).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def add(self, other: Score) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.errors += other.errors


#: ``text -> [(detection type, value), ...]``
PIIFinder = Callable[[str], Iterable[tuple[str, str]]]
#: ``text -> [(start, end), ...]``
SpanFinder = Callable[[str], Iterable[tuple[int, int]]]


def score_pii(rows: list[dict[str, Any]], find: PIIFinder, types: Iterable[str]) -> dict[str, Score]:
    """Per-type precision/recall of exact (type, value) detections."""
    scores = {t: Score() for t in types}
    for row in rows:
        gold = Counter((label["type"], label["value"]) for label in row["labels"])
        got = Counter(item for item in find(row["text"]) if item[0] in scores)
        for key in gold | got:
            kind = key[0]
            if kind not in scores:
                continue
            hits = min(gold[key], got[key])
            score = scores[kind]
            score.tp += hits
            if got[key] > hits:
                score.fp += got[key] - hits
                score.errors.append(f"FP {key!r} in {row['text'][:80]!r}")
            if gold[key] > hits:
                score.fn += gold[key] - hits
                score.errors.append(f"FN {key!r} in {row['text'][:80]!r}")
    return scores


def score_secrets(rows: list[dict[str, Any]], find: SpanFinder) -> tuple[Score, dict[str, Score]]:
    """Overall score (overlap matching) and recall per secret type."""
    total = Score()
    per_type: dict[str, Score] = {}
    for row in rows:
        text = row["text"]
        spans = list(find(text))
        used: set[tuple[int, int]] = set()
        for label in row["labels"]:
            start = text.index(label["value"])
            end = start + len(label["value"])
            hit = [s for s in spans if s[0] < end and s[1] > start]
            score = per_type.setdefault(label["type"], Score())
            if hit:
                total.tp += 1
                score.tp += 1
                used.update(hit)
            else:
                total.fn += 1
                score.fn += 1
                total.errors.append(f"FN {label['type']} in {text[:80]!r}")
        for span in spans:
            if span not in used:
                total.fp += 1
                total.errors.append(f"FP {text[span[0] : span[1]][:40]!r} in {text[:80]!r}")
    return total, per_type


def score_binary(rows: list[dict[str, Any]], flagged: Callable[[str], bool]) -> tuple[Score, dict[str, Score]]:
    """Overall precision/recall of a yes/no detector, and recall per attack category (FP per benign category)."""
    total = Score()
    per_category: dict[str, Score] = {}
    for row in rows:
        hit = flagged(row["text"])
        score = per_category.setdefault(row["category"], Score())
        if row["label"]:
            if hit:
                total.tp += 1
                score.tp += 1
            else:
                total.fn += 1
                score.fn += 1
                total.errors.append(f"FN [{row['category']}] {row['text'][:90]!r}")
        elif hit:
            total.fp += 1
            score.fp += 1
            total.errors.append(f"FP [{row['category']}] {row['text'][:90]!r}")
    return total, per_category


def load_cases(*paths: Path) -> list[dict[str, Any]]:
    """Lab-format cases (``{"text", "label": "attack"|"benign", "category", "lang", "tool_result"?}``)."""
    rows: list[dict[str, Any]] = []
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            rows += [json.loads(line) for line in handle if line.strip()]
    return rows


def starter_cases() -> list[dict[str, Any]]:
    return load_cases(*sorted(STARTER.glob("*.jsonl")))


@dataclass
class Rates:
    """Recall on attacks and false-positive rate on benign look-alikes."""

    tp: int = 0
    fn: int = 0
    fp: int = 0
    tn: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def fpr(self) -> float:
        return self.fp / (self.fp + self.tn) if self.fp + self.tn else 0.0


def rates_by_language(rows: list[dict[str, Any]], flagged: Callable[[str, bool], bool]) -> dict[str, Rates]:
    """Per language: recall and FPR of ``flagged(text, is_tool_result)``; a case with ``tool_result`` is judged on
    what the tool returned (indirect injection), the others on the user's text."""
    by_lang: dict[str, Rates] = {}
    for row in rows:
        tool_result = row.get("tool_result")
        text = tool_result if tool_result else row["text"]
        hit = flagged(text, bool(tool_result))
        rates = by_lang.setdefault(row["lang"], Rates())
        if row["label"] == "attack":
            rates.tp += hit
            rates.fn += not hit
            if not hit:
                rates.errors.append(f"FN [{row['category']}] {text[:90]!r}")
        else:
            rates.fp += hit
            rates.tn += not hit
            if hit:
                rates.errors.append(f"FP [{row['category']}] {text[:90]!r}")
    return by_lang
