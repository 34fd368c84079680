"""Cost of the learned injection model's run-time scorer (issue 28): per chat message and per 1,000 characters.

Run: ``.venv/bin/python tests/bench/bench_injection_model.py [LONG_DOCUMENT ...]``. Prints, with the load average:

1. the time to read the shipped model file (once per process; the studio warms it up off the UI thread);
2. CPU time per chat message over the lab's starter corpora's texts, 5 rounds: median and p95 (goal: median
   <= 2 ms);
3. CPU time per 1,000 characters of long documents (the README, the benign Chinese cases joined, any file named on
   the command line) at several lengths, best of 5 (goal: <= 1 ms per 1,000 characters, linear in length): the
   model's score, then ``injection_score`` (the model on every decoded view, what the detector calls) and how much
   of it is making the views (``views``: normalising, finding and decoding payloads), and the old heuristics' on
   the same text in the same minute (a yardstick for how loaded the machine is: their figure on
   an idle machine is in tests/bench/README.md).

``--passages``: the model's own figures (1. to 3., ``model.score``) also with passages read (issue 28: the shipped
model with a stand-in passage calibration if it has none: what reading the passages costs does not depend on it).

``--repeat N [--code CHECKOUT]``: instead, only ``injection_score`` (what the detector calls) N times over every
starter message and over the README and the Chinese document at 1,000 and 5,000 characters and whole, with the
code of CHECKOUT (default: this one) on this checkout's texts and model file; prints its CPU time. Run it for two
checkouts in turn, whole process, for an A/B ratio on a shared machine (tests/bench/README.md).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(
    0, sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else str(Path(__file__).resolve().parents[2])
)

from processors.builtin import injection_model
from processors.builtin.injection_heuristics import heuristic_scores
from processors.builtin.injection_views import views

ROOT = Path(__file__).resolve().parents[2]
#: Each long-document figure is the best of this many runs (on a shared machine, the least disturbed).
BEST_OF = 5


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"


def texts() -> list[dict[str, str]]:
    rows = []
    for path in sorted((ROOT / "resources" / "corpora").glob("*.jsonl")):
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows


def documents() -> list[tuple[str, str]]:
    """The README and the starter corpora's benign Chinese texts joined (~20,000 characters)."""
    rows = texts()
    chinese = "\n".join(row["text"] for row in rows if row["lang"] != "en" and row["label"] == "benign")
    return [
        ("README.md", (ROOT / "README.md").read_text(encoding="utf-8")),
        ("benign Chinese cases, joined", chinese * max(1, 20_000 // len(chinese))),
    ]


def repeat(times: int) -> None:
    """``injection_score`` ``times`` times over every message and the documents at three lengths; its CPU time."""
    injection_model.shipped_model()
    messages = [row["text"] for row in texts()]
    pieces = [document[:size] for _, document in documents() for size in (1_000, 5_000, len(document))]
    started = time.process_time()
    for _ in range(times):
        for text in [*messages, *pieces]:
            injection_model.injection_score(text)
    characters = times * sum(map(len, [*messages, *pieces]))
    print(f"injection_score: {time.process_time() - started:.2f} s CPU for {characters:,} characters; {load()}")


def per_message(messages: list[str], model: injection_model.InjectionModel, label: str) -> None:
    timings = []
    for text in messages:
        started = time.process_time()
        model.score(text)
        timings.append(time.process_time() - started)
    timings.sort()
    print(
        f" per chat message{', ' + label if label else ''} ({len(messages)} scored, median "
        f"{sorted(map(len, messages))[len(messages) // 2]} characters): median {timings[len(timings) // 2] * 1e3:.3f} "
        f"ms, p95 {timings[int(len(timings) * 0.95)] * 1e3:.3f} ms (goal: median <= 2 ms)"
    )


def main() -> None:
    if "--repeat" in sys.argv:
        repeat(int(sys.argv[sys.argv.index("--repeat") + 1]))
        return
    print(f"learned injection model, {load()}")
    started = time.process_time()
    model = injection_model.shipped_model()
    print(f" read the model file: {(time.process_time() - started) * 1e3:.0f} ms CPU ({len(model.idf):,} features)")
    messages = [row["text"] for row in texts()] * 5
    if "--passages" in sys.argv:
        passages = model if model.passage_platt else dataclasses.replace(model, passage_platt=(-1.0, 0.0, 0.0))
        windows = dataclasses.replace(passages, passage_platt=None)
        windows.score("warm up"), passages.score("warm up")  # each copy builds its lookup tables once
        for label, scorer in (("windows only", windows), ("with passages", passages)) * 2:
            per_message(messages, scorer, label)
            for name, document in documents():
                best = float("inf")
                for _ in range(BEST_OF):
                    started = time.process_time()
                    scorer.score(document)
                    best = min(best, time.process_time() - started)
                print(
                    f"   {label}, {name} ({len(document):,} characters): {best * 1e6 / len(document):.3f} ms per 1,000"
                )
        print(f" ({load()} at the end)")
        return
    per_message(messages, model, "")
    named = [(Path(name).name, Path(name).read_text(encoding="utf-8")) for name in sys.argv[1:]]
    for label, document in [*documents(), *named]:
        print(f" {label}:")
        for size in sorted({1_000, 5_000, 20_000, len(document)}):
            if size > len(document):
                continue
            text = document[:size]
            best = float("inf")
            for _ in range(BEST_OF):
                started = time.process_time()
                model.score(text)
                best = min(best, time.process_time() - started)
            detector = float("inf")
            for _ in range(BEST_OF):
                started = time.process_time()
                injection_model.injection_score(text)
                detector = min(detector, time.process_time() - started)
            decoding = float("inf")
            for _ in range(BEST_OF):
                started = time.process_time()
                views(text)
                decoding = min(decoding, time.process_time() - started)
            heuristics = float("inf")
            for _ in range(BEST_OF):
                started = time.process_time()
                heuristic_scores(text)
                heuristics = min(heuristics, time.process_time() - started)
            print(
                f"   {len(text):6d} characters: {best * 1e3:7.2f} ms ({best * 1e6 / len(text):.3f} ms per 1,000 "
                f"characters; goal <= 1); with the decoded views (injection_score, what the detector calls): "
                f"{detector * 1e6 / len(text):.3f}, of which making the views {decoding * 1e6 / len(text):.3f}; "
                "the old heuristics, same text, same minute: "
                f"{heuristics * 1e6 / len(text):.3f} ms per 1,000"
            )
    print(f" ({load()} at the end)")


if __name__ == "__main__":
    main()
