"""Leave a GROUP of source families out, train on the rest, and score the group: the window-only model beside the
same model reading passages too (issue 28: one short passage for the AI inside a long text).

Run: ``python -m training.group_out [--group NAME ...] [--variant NAME]`` from the repository root (dev extras
installed; ``TRAIN_PROCESSES`` workers, one group each, default one per CPU).

Each group is one :func:`~training.fit.train` on every other family (four folds and the final fit). Its
out-of-fold readings (:class:`~training.fit.OutOfFold`) calibrate four models that share the same weights:

* ``windows``: the model as shipped before passages (window calibration, threshold at FPR <= 0.05 out of fold);
* ``passages``: passages read in every text, their own Platt fit, threshold on the higher of the two probabilities;
* ``passages 2+``: passages read only in texts of two windows or more (short texts scored exactly as ``windows``);
* ``joint``: one Platt fit of the window and the passage inputs together, one probability.

Each is scored on the group's texts at its own fitted threshold on the raw text, and as
``PromptInjectionDetector()`` flags (every view, its default threshold 0.7); recall / false-positive rate with
counts, over all and for the group's texts of one window and of more. Nothing is tuned on the group left out.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from processors.builtin.injection_model import InjectionModel, model_text
from training.evaluate import Rates, detector_threshold, views_flag
from training.features import FeatureCache
from training.fit import (
    DEFAULT_VARIANT,
    VARIANTS,
    OutOfFold,
    Variant,
    calibrate_passages,
    is_attack,
    load_rows,
    threshold_for_fpr,
    train,
)

#: The groups left out, each a set of source families (``training/data/<family>.jsonl``): three of long texts, one
#: of short ones (to show short texts did not get worse).
GROUPS: dict[str, tuple[str, ...]] = {
    "threads": ("team-w-threads", "team-w-threads2", "team-w-threads3", "team-w-transcripts"),
    "manuals": ("team-w-manuals", "team-w-manuals2", "team-w-manuals3"),
    "hidden": (
        "team-w-hidden",
        "team-w-hidden2",
        "team-w-hidden3",
        "team-w-hidden4",
        "team-w-longdocs",
        "team-w-longen",
        "team-w-longmix",
        "team-w-longzh",
        "team-w-longzh2",
    ),
    "short": ("team-w-en", "team-w-zhcn", "team-w-hant"),
}
#: The readings compared: name and the least number of windows a text needs for its passages to count (0: never).
SETTINGS: tuple[tuple[str, int, bool], ...] = (
    ("windows", 0, False),
    ("passages", 1, False),
    ("passages 2+", 2, False),
    ("joint", 1, True),
)


@dataclasses.dataclass
class GroupResult:
    """One group's figures: per setting, its fitted threshold, the out-of-fold FPR on the training rows, and the
    group's rates (``fitted:<slice>`` and ``detector:<slice>``; slices ``all``, ``1 window``, ``2+ windows``)."""

    group: str
    training: int
    seconds: float
    thresholds: dict[str, float]
    training_fpr: dict[str, Rates]
    rates: dict[str, dict[str, Rates]]


def calibrated_models(model: InjectionModel, measured: OutOfFold) -> dict[str, tuple[InjectionModel, list[float]]]:
    """Per setting (:data:`SETTINGS`): ``model``'s weights and window calibration with that passage calibration and
    its own threshold (FPR <= 0.05 on the out-of-fold scores), and those scores."""
    plain = dataclasses.replace(model, passage_platt=None, passage_min_windows=1)
    models = {}
    for name, min_windows, joint in SETTINGS:
        calibrated, scores = calibrate_passages(plain, measured, min_windows, joint)
        models[name] = (dataclasses.replace(calibrated, threshold=threshold_for_fpr(scores, measured.labels)), scores)
    return models


def _fitted_flag(model: InjectionModel) -> Callable[[dict[str, Any]], bool]:
    """``model``'s verdict on a row's raw text at its fitted threshold."""
    return lambda row: model.score(row["text"]) >= model.threshold


def _slices(row: dict[str, Any], model: InjectionModel) -> tuple[str, ...]:
    windows = model._decision_and_windows(model_text(row["text"]))[1]
    return ("all", "1 window" if windows == 1 else "2+ windows")


def _rates(
    rows: Sequence[dict[str, Any]], flagged: Callable[[dict[str, Any]], bool], model: InjectionModel, prefix: str
) -> dict[str, Rates]:
    table: dict[str, Rates] = {}
    for row in rows:
        hit = flagged(row)
        for name in _slices(row, model):
            table.setdefault(f"{prefix}:{name}", Rates()).add(bool(is_attack(row)), hit, row["text"])
    return table


_SHARED: dict[str, Any] = {}


def _share(rows: list[dict[str, Any]], variant: Variant, cache: FeatureCache) -> None:
    _SHARED.update(rows=rows, variant=variant, cache=cache)


def group_out(group: str) -> GroupResult:
    """Train without ``group``'s families and score them under every setting."""
    started = time.perf_counter()
    rows, variant = _SHARED["rows"], _SHARED["variant"]
    families = set(GROUPS[group])
    training = [r for r in rows if r["family"] not in families and r.get("derived_from") not in families]
    held = [r for r in rows if r["family"] in families]
    measured = OutOfFold([], [])
    model = train(training, variant, _SHARED["cache"], readings=measured)
    default = detector_threshold()
    thresholds, training_fpr, rates = {}, {}, {}
    for name, (calibrated, scores) in calibrated_models(model, measured).items():
        thresholds[name] = calibrated.threshold
        fpr = Rates()
        for score, label in zip(scores, measured.labels, strict=True):
            fpr.add(bool(label), score >= calibrated.threshold, "")
        training_fpr[name] = fpr
        table = _rates(held, _fitted_flag(calibrated), calibrated, "fitted")
        table |= _rates(held, views_flag(calibrated, default), calibrated, "detector")
        rates[name] = table
    return GroupResult(group, len(training), time.perf_counter() - started, thresholds, training_fpr, rates)


def run(groups: Sequence[str], variant: Variant, log: Callable[[str], None]) -> list[GroupResult]:
    """Every group's :func:`group_out`, in ``TRAIN_PROCESSES`` spawned workers (one group each); each group's
    table rows logged as soon as it is done."""
    rows = load_rows()
    cache = FeatureCache(variant.kinds)
    cache.add([row["text"] for row in rows])
    processes = min(int(os.environ.get("TRAIN_PROCESSES", os.cpu_count() or 1)), len(groups))
    log(f"{len(rows)} texts; groups {', '.join(groups)}; {processes} process(es)")
    results = []
    if processes <= 1:
        _share(rows, variant, cache)
        for group in groups:
            results.append(group_out(group))
            log("\n".join(lines(results[-1:])[2:]))
        return results
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes, initializer=_share, initargs=(rows, variant, cache)) as pool:
        for result in pool.imap(group_out, groups, chunksize=1):
            results.append(result)
            log("\n".join(lines([result])[2:]))
    return results


def lines(results: Sequence[GroupResult]) -> list[str]:
    """Markdown: per group and setting, recall / FPR (with counts) at the fitted threshold and as the detector
    flags, over all the group's texts and over those of one window and of more."""
    default = detector_threshold()
    out = [
        f"| group left out | setting | threshold (out-of-fold FPR) | fitted: all | fitted: 1 window | "
        f"fitted: 2+ windows | detector {default:g}: all | detector: 1 window | detector: 2+ windows |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for result in results:
        for name, *_ in SETTINGS:
            table = result.rates[name]
            fpr = result.training_fpr[name]
            cells = [
                table[f"{how}:{part}"].cell() if f"{how}:{part}" in table else "n/a"
                for how in ("fitted", "detector")
                for part in ("all", "1 window", "2+ windows")
            ]
            out.append(
                f"| {result.group} | {name} | {result.thresholds[name]:.3f} ({fpr.fp / max(1, fpr.fp + fpr.tn):.3f}) "
                f"| {' | '.join(cells)} |"
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="group_out", description=__doc__.split("\n\n")[0])
    parser.add_argument("--group", nargs="*", default=list(GROUPS), choices=sorted(GROUPS))
    parser.add_argument("--variant", default=DEFAULT_VARIANT, choices=sorted(VARIANTS))
    args = parser.parse_args(argv)
    started = time.perf_counter()

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    results = run(args.group, VARIANTS[args.variant], log)
    for result in results:
        log(f"  {result.group}: trained on {result.training} texts in {result.seconds:.0f} s")
    print("\n".join(lines(results)))
    log(f"done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
