"""Score a sealed set (``training/sealed/*.jsonl``) with the shipped learned model and the old heuristics.

Run: ``python -m training.sealed_score training/sealed/sealed.jsonl`` from the repository root. It prints a markdown
table — per language and per ``where``, recall on the attacks and false-positive rate on the benign texts, the model
beside the heuristics — and the attack categories the model missed most. A sealed set is scored ONCE, when the model
it judges is final, and the figure is reported whatever it shows (issue 28): nothing here may feed training or
tuning, and a set once scored is no longer sealed (the model card says so, and a new set is written for the next
model).

``--as-detector`` scores the set as ``PromptInjectionDetector()`` flags a text by default instead: the model on the
text and its decoded views (:func:`~processors.builtin.injection_model.injection_score`) against the option's default
threshold, not the model alone at its fitted one — what a user of the detector gets.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from processors.builtin.injection_model import injection_score, shipped_model
from processors.builtin.prompt_injection_detector import PromptInjectionDetector
from training.evaluate import heuristics_flag, model_flag, rates_by
from training.fit import is_attack


def read_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def detector_threshold() -> float:
    """The threshold ``PromptInjectionDetector()`` flags at by default: its option's, not the model's fitted one."""
    return float(PromptInjectionDetector().options.threshold)


def detector_flag() -> Callable[[dict[str, Any]], bool]:
    """The learned verdict as the detector gives it with its defaults: decoded views, the option's threshold."""
    threshold = detector_threshold()
    return lambda row: injection_score(row["text"]) >= threshold


def header(model: Any, *, as_detector: bool = False) -> str:
    """The first line: the model, and the threshold the table's verdicts were taken at (``--as-detector``: the
    detector's default, which is not the model's fitted threshold)."""
    named = f"model: {model.meta.get('variant')}, {model.meta.get('texts')} texts"
    if as_detector:
        return (
            f"{named}, threshold {detector_threshold():.3f} (the detector's default, on the text and its decoded "
            f"views; the model's fitted {model.threshold:.3f} not used)"
        )
    return f"{named}, threshold {model.threshold:.3f}"


def table(rows: list[dict[str, Any]], *, as_detector: bool = False) -> list[str]:
    """Markdown rows: the model and the heuristics per language and per where, and over all."""
    ours = detector_flag() if as_detector else model_flag(shipped_model())
    theirs = heuristics_flag()
    column = "learned model"
    if as_detector:
        column = f"the detector's default (views, threshold {detector_threshold():g})"
    lines = [f"| slice | {column}: recall / FPR | old heuristics: recall / FPR |", "|---|---|---|"]
    for name, key in (("language", lambda r: r["lang"]), ("where", lambda r: r["where"])):
        model_rates = rates_by(rows, ours, key)
        heuristic_rates = rates_by(rows, theirs, key)
        for value in sorted(model_rates, key=lambda v: (v != "all", v)):
            if value == "all" and name == "where":
                continue
            label = "all" if value == "all" else f"{name} {value}"
            lines.append(f"| {label} | {model_rates[value].cell()} | {heuristic_rates[value].cell()} |")
    missed = Counter(str(r["category"]) for r in rows if is_attack(r) and not ours(r))
    attacks = Counter(str(r["category"]) for r in rows if is_attack(r))
    flagged = Counter(str(r["category"]) for r in rows if not is_attack(r) and ours(r))
    benign = Counter(str(r["category"]) for r in rows if not is_attack(r))
    lines.append("")
    lines.append(
        "Missed attacks by category: "
        + ", ".join(f"{c} {missed[c]}/{attacks[c]}" for c in sorted(attacks, key=lambda c: (-missed[c], c)))
    )
    lines.append(
        "Benign texts flagged by category: "
        + ", ".join(f"{c} {flagged[c]}/{benign[c]}" for c in sorted(benign, key=lambda c: (-flagged[c], c)))
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.sealed_score", description=__doc__.split("\n")[0])
    parser.add_argument("sealed", type=Path, nargs="+", help="the sealed set(s) to score")
    parser.add_argument(
        "--as-detector",
        action="store_true",
        help="the model as PromptInjectionDetector() flags by default (decoded views, the option's threshold)",
    )
    args = parser.parse_args(argv)
    model = shipped_model()
    print(header(model, as_detector=args.as_detector))
    for path in args.sealed:
        rows = read_rows(path)
        print(f"\n{path} ({len(rows)} texts)\n")
        print("\n".join(table(rows, as_detector=args.as_detector)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
