"""One injection planted in a long text of unrelated benign text: how often the learned model still flags it, and
how often the same text without it is flagged (issue 28's weak spot: long texts in which one passage turns on the AI).

Texts: the benign and attack texts of ``tests/data/*injection*.jsonl`` (the project's evaluation corpora: the model
never trained on them; for a tool-result case, the tool result). For each target length, 150 documents of benign
texts of one language joined by blank lines, scored alone (the false-positive rate on long benign documents) and
with one attack text of that language inserted at a random place (recall of a planted attack); seeded, so the same
model gives the same figures. Scored as the model scores a text (``InjectionModel.score``: the highest window, its
calibration discounted by the log of the number of windows), at the detector's default threshold 0.7.

The filler is pessimistic: the corpora's benign texts are look-alikes written to resemble attacks (system-prompt
requests, lessons on jailbreaks, "ignore my last message"), so many of them together make a window read as benign
(one blunt attack after one of them is flagged 89 % of the time, after three of them far less often). Ordinary
documents dilute an attack less; what the figures show is that a window's score is an average, and one sentence
among 600 characters of look-alike text can fall under the threshold.

``--cap N`` also scores every text with the window count in the discount capped at ``N`` (what a cap would do: the
calibration was fitted on training texts of at most 11 windows, and extrapolates its discount beyond them).

``--model PATH`` scores with that model file instead of the shipped one. A model with a passage calibration
(``passage_platt``: the highest passage scored on its own, issue 28) is scored twice: windows only (its passage
calibration dropped, the model as it was before passages) and as it is.

Run: ``PYTHONPATH=. .venv/bin/python tests/bench/bench_injection_padding.py [--cap 11] [--model PATH]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
from pathlib import Path

from processors.builtin.injection_model import InjectionModel, shipped_model

DATA = Path(__file__).resolve().parents[1] / "data"
LENGTHS = (3_000, 10_000, 30_000, 100_000)
DOCUMENTS = 150
THRESHOLD = 0.7


def corpus_texts(label: str) -> list[tuple[str, str]]:
    """``(language, text)`` of every text of ``label`` in the evaluation corpora (a tool result's result, if any)."""
    texts = []
    for path in sorted(DATA.glob("*injection*.jsonl")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("label") == label:
                text = row.get("tool_result") or row.get("document") or row["text"]
                texts.append((str(row.get("lang", "en"))[:2], text))
    return texts


def score(model: InjectionModel, text: str, cap: int | None) -> float:
    reading = model.reading(text)
    if cap:
        reading = dataclasses.replace(reading, windows=min(reading.windows, cap))
    return model.probability_of(reading)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=int, default=None, help="also score with the window count capped at N")
    parser.add_argument("--model", type=Path, default=None, help="a model file (default: the shipped model)")
    args = parser.parse_args()
    model = shipped_model() if args.model is None else InjectionModel.read(args.model)
    benign, attacks = corpus_texts("benign"), corpus_texts("attack")
    print(f"{len(benign)} benign and {len(attacks)} attack texts; threshold {THRESHOLD}")
    caps: list[int | None] = [None] if args.cap is None else [None, args.cap]
    models = {"as it is": model}
    if model.passage_platt is not None:
        models = {"windows only": dataclasses.replace(model, passage_platt=None), "with passages": model}
    settings = [(name, cap) for name in models for cap in caps]
    rng = random.Random(7)
    for length in LENGTHS:
        flagged = dict.fromkeys(settings, 0)
        caught = dict.fromkeys(settings, 0)
        for _ in range(DOCUMENTS):
            language, attack = rng.choice(attacks)
            pool = [text for lang, text in benign if lang == language] or [text for _, text in benign]
            parts: list[str] = []
            while sum(len(part) + 2 for part in parts) < length:
                parts.append(rng.choice(pool))
            for name, cap in settings:
                flagged[name, cap] += score(models[name], "\n\n".join(parts), cap) >= THRESHOLD
            parts.insert(rng.randrange(len(parts) + 1), attack)
            for name, cap in settings:
                caught[name, cap] += score(models[name], "\n\n".join(parts), cap) >= THRESHOLD
        for name, cap in settings:
            label = name if cap is None else f"{name}, window count capped at {cap}"
            print(
                f"~{length:,} characters, {label}: planted attack caught {caught[name, cap] / DOCUMENTS:.3f}, "
                f"benign flagged {flagged[name, cap] / DOCUMENTS:.3f}"
            )


if __name__ == "__main__":
    main()
