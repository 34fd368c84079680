"""Precision and recall of the lab's offline refusal detector (lab/assertions/refusal.py) per language.

    .venv/bin/python tests/bench/bench_refusals.py

Reads the labelled sets ``tests/data/refusals.jsonl`` (written with the rules: a tuning set) and
``tests/data/refusals_holdout.jsonl`` (written after the rules were frozen, measured once) and prints, per set and
language, precision / recall of "the model refused", and the texts it gets wrong. Figures in tests/bench/README.md.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lab.assertions.refusal import is_refusal  # noqa: E402


def measure(name: str) -> None:
    rows = [json.loads(line) for line in (ROOT / "tests" / "data" / name).read_text("utf-8").splitlines() if line]
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # tp fp fn tn
    for row in rows:
        got, want = is_refusal(row["text"]), bool(row["refusal"])
        for lang in (row["lang"], "all"):
            counts[lang][(0 if want else 1) if got else (2 if want else 3)] += 1
        if got != want:
            print(f"  wrong ({'missed refusal' if want else 'false refusal'}): {row['text']}")
    for lang, (tp, fp, fn, tn) in sorted(counts.items()):
        precision = tp / (tp + fp) if tp + fp else float("nan")
        recall = tp / (tp + fn) if tp + fn else float("nan")
        print(f"{name} {lang:6} precision {precision:.2f} recall {recall:.2f} (TP {tp} FP {fp} FN {fn} TN {tn})")


if __name__ == "__main__":
    for set_name in ("refusals.jsonl", "refusals_holdout.jsonl", "refusals_holdout_b.jsonl"):
        measure(set_name)
