"""Train the learned injection model: load the source families, fit, calibrate, choose the threshold, export.

scikit-learn is used here only (a development dependency); the result is an
:class:`~processors.builtin.injection_model.InjectionModel`, which the run time reads with no scikit-learn. Every step
is deterministic: families and texts are read in sorted order, folds are drawn with a fixed seed, and liblinear is
given a fixed ``random_state``.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from processors.builtin.injection_model import (
    ALL_KINDS,
    FORMAT,
    STRIDE,
    WINDOW,
    InjectionModel,
    Reading,
    window_starts,
)
from processors.builtin.injection_views import normalise
from training.features import FeatureCache

DATA = Path(__file__).resolve().parent / "data"
SEED = 20261206
#: The highest false-positive rate on the training folds' benign texts that the chosen threshold allows.
TARGET_FPR = 0.05
FOLDS = 4


@dataclass(frozen=True)
class Variant:
    """One way to train: which feature kinds, how much regularisation (``C``: larger fits the data more closely),
    and the least number of texts a feature must appear in to be kept."""

    name: str
    kinds: tuple[str, ...] = ALL_KINDS
    c: float = 4.0
    min_df: int = 2
    #: The window long texts are read in at run time (and, with ``pieces``, cut into for training).
    window: int = WINDOW
    stride: int = STRIDE
    #: Train on the pieces the run time reads: a long benign text gives each of its windows as a benign example, a
    #: long attack its most suspicious window (chosen by a first fit on whole texts: the attack is somewhere in it,
    #: the rest of it is usually harmless text), instead of one example diluted by everything around the attack.
    pieces: bool = False
    #: Scale each feature by its log-count ratio before the fit (NB-SVM, Wang & Manning 2012): a feature seen
    #: mostly on one side starts with that lean, so rare but telling n-grams count for more than the fit alone
    #: would give them. The ratio is folded into the exported weights: the run time is unchanged.
    nb: bool = False
    #: Calibrate on the number of windows a text is read in as well as on its highest window's decision (the
    #: model's ``platt_windows``): the highest of many windows is a multiple comparison, so a long benign text would
    #: otherwise be flagged more often the longer it is.
    length_aware: bool = True
    #: Read passages too (:func:`~processors.builtin.injection_model.passage_spans`) in texts of at least this many
    #: windows, their highest calibrated by a Platt fit of its own on the out-of-fold passage decisions; 0: never.
    passages: int = 0
    #: With ``passages`` 1: one Platt fit of window and passage inputs together (the model's ``passage_joint``).
    passage_joint: bool = False


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("chars3-5+words C=4", ALL_KINDS, 4.0),
        Variant("chars3-5+words C=1", ALL_KINDS, 1.0),
        Variant("chars4+words C=4", ("chars4", "words"), 4.0),
        Variant("chars3-5 C=4", ("chars3", "chars4", "chars5"), 4.0),
        Variant("words C=4", ("words",), 4.0),
        Variant("chars4+words C=4 pieces 200", ("chars4", "words"), 4.0, window=200, stride=100, pieces=True),
        Variant("chars4+words C=4 nb", ("chars4", "words"), 4.0, nb=True),
        Variant("chars4+words C=4 one-input calibration", ("chars4", "words"), 4.0, length_aware=False),
        Variant("chars4+words C=4 passages", ("chars4", "words"), 4.0, passages=1),
        Variant("chars4+words C=4 passages in long texts", ("chars4", "words"), 4.0, passages=2),
        Variant("chars4+words C=4 passages joint", ("chars4", "words"), 4.0, passages=1, passage_joint=True),
    )
}
DEFAULT_VARIANT = "chars4+words C=4 passages joint"


def load_rows(data: Path = DATA, families: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Every text of every family file (``data/*.jsonl``; the family is the file's stem), sorted: the same files
    give the same list, whatever order the file system lists them in."""
    wanted = set(families) if families is not None else None
    rows: list[dict[str, Any]] = []
    for path in sorted(data.glob("*.jsonl")):
        if wanted is not None and path.stem not in wanted:
            continue
        with path.open(encoding="utf-8") as handle:
            for line in handle.read().split("\n"):
                if line.strip():
                    row = json.loads(line)
                    row["family"] = path.stem
                    rows.append(row)
    rows.sort(key=lambda r: (r["family"], r["text"], r["label"], r.get("where", ""), r.get("lang", "")))
    return rows


def is_attack(row: dict[str, Any]) -> int:
    return 1 if row["label"] in ("attack", True) else 0


def _fit_linear(texts: Sequence[str], labels: Sequence[int], variant: Variant, cache: FeatureCache) -> InjectionModel:
    """The vocabulary, idf, weights and intercept of one fit (calibration left neutral: ``platt`` = (-1, 0))."""
    import numpy as np
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.linear_model import LogisticRegression

    # CountVectorizer's matrix and sorted vocabulary, from the features counted once per run (training/features.py).
    counts, features = cache.counts(texts, variant.min_df)
    idf = TfidfTransformer().fit(counts).idf_
    # What the run time computes: count * idf, divided by the square root of the padded text's length.
    lengths = np.sqrt([len(cache.normalised(t)) + 2.0 for t in texts])
    matrix = sparse.diags(1.0 / lengths) @ counts @ sparse.diags(idf)
    ratio = np.ones(matrix.shape[1])
    if variant.nb:
        present = (counts > 0).astype(np.float64)
        label_array = np.asarray(labels)
        attack_counts = np.asarray(present[label_array == 1].sum(axis=0)).ravel() + 1.0
        benign_counts = np.asarray(present[label_array == 0].sum(axis=0)).ravel() + 1.0
        ratio = np.log((attack_counts / attack_counts.sum()) / (benign_counts / benign_counts.sum()))
        ratio = np.abs(ratio)
        matrix = matrix @ sparse.diags(ratio)
    classifier = LogisticRegression(
        C=variant.c, solver="liblinear", class_weight="balanced", random_state=SEED, max_iter=1000
    )
    classifier.fit(matrix, list(labels))
    return InjectionModel(
        idf=dict(zip(features, idf.tolist(), strict=True)),
        weights=dict(zip(features, (classifier.coef_[0] * ratio).tolist(), strict=True)),
        intercept=float(classifier.intercept_[0]),
        platt_a=-1.0,
        platt_b=0.0,
        threshold=0.5,
        kinds=variant.kinds,
        meta={"variant": variant.name},
        window=variant.window,
        stride=variant.stride,
    )


def _windows(normalised: str, variant: Variant) -> list[str]:
    """A normalised text (:func:`model_text`) cut where the run time cuts it (one piece for a text no longer than the
    window)."""
    return [
        normalised[start : start + variant.window]
        for start in window_starts(len(normalised), variant.window, variant.stride)
    ]


def _fit(texts: Sequence[str], labels: Sequence[int], variant: Variant, cache: FeatureCache) -> InjectionModel:
    """One fit: on the texts whole, or (``variant.pieces``) on the pieces the run time reads."""
    first = _fit_linear(texts, labels, variant, cache)
    if not variant.pieces:
        return first
    pieces: list[str] = []
    piece_labels: list[int] = []
    for text, label in zip(texts, labels, strict=True):
        windows = _windows(cache.normalised(text), variant)
        if len(windows) == 1:
            pieces.append(text)
            piece_labels.append(label)
        elif label:
            pieces.append(max(windows, key=first.decision))
            piece_labels.append(1)
        else:
            pieces += windows
            piece_labels += [0] * len(windows)
    return _fit_linear(pieces, piece_labels, variant, cache)


def _folds(labels: Sequence[int], folds: int, seed: int) -> list[int]:
    """A fold number per text, stratified by label, drawn with ``seed``."""
    assignment = [0] * len(labels)
    rng = random.Random(seed)
    for label in (0, 1):
        indices = [i for i, y in enumerate(labels) if y == label]
        rng.shuffle(indices)
        for position, index in enumerate(indices):
            assignment[index] = position % folds
    return assignment


def _platt(
    decisions: Sequence[float], labels: Sequence[int], windows: Sequence[int] | None = None
) -> tuple[float, float, float]:
    """Platt's sigmoid fitted to out-of-fold decisions: ``p = 1 / (1 + exp(a * d + b + c * ln(windows)))``; ``c``
    is 0 when no ``windows`` are given or every text was read in one window."""
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=1e6, solver="lbfgs", max_iter=1000)
    if windows is None or max(windows, default=1) <= 1:
        fitted.fit([[d] for d in decisions], list(labels))
        return -float(fitted.coef_[0][0]), -float(fitted.intercept_[0]), 0.0
    fitted.fit([[d, math.log(n)] for d, n in zip(decisions, windows, strict=True)], list(labels))
    return -float(fitted.coef_[0][0]), -float(fitted.intercept_[0]), -float(fitted.coef_[0][1])


@dataclass
class OutOfFold:
    """What the folds of one :func:`train` measured, each text scored by a fold model that never saw it: per text,
    its label, its highest window's decision and windows, its highest passage's decision and passages (0: not read),
    and the calibrated score the threshold was chosen on."""

    labels: list[int]
    readings: list[Reading]
    scores: list[float] = dataclasses.field(default_factory=list)


def calibrate_passages(
    model: InjectionModel, out_of_fold: OutOfFold, min_windows: int, joint: bool = False
) -> tuple[InjectionModel, list[float]]:
    """``model`` (window calibration set) with a passage calibration fitted on the out-of-fold readings of the texts
    of at least ``min_windows`` windows, and every text's out-of-fold score under it (the higher of its window and
    passage probabilities). ``min_windows`` 0: no passages (the model as it is). ``joint``: one Platt fit of the
    four inputs instead (window and passage calibration refitted together; every text's passages read)."""
    readings, labels = out_of_fold.readings, out_of_fold.labels
    if min_windows <= 0:
        return model, [model.probability(r.decision, r.windows) for r in readings]
    if joint:
        from sklearn.linear_model import LogisticRegression

        both = LogisticRegression(C=1e6, solver="lbfgs", max_iter=1000)
        both.fit(
            [[r.decision, math.log(r.windows), r.passage_decision, math.log(max(1, r.passages))] for r in readings],
            labels,
        )
        a, c, a2, c2 = (-float(v) for v in both.coef_[0])
        joint_model = dataclasses.replace(
            model,
            platt_a=a,
            platt_b=-float(both.intercept_[0]),
            platt_windows=c,
            passage_platt=(a2, 0.0, c2),
            passage_min_windows=1,
            passage_joint=True,
        )
        return joint_model, [joint_model.probability_of(r) for r in readings]
    kept = [i for i, r in enumerate(readings) if r.passages and r.windows >= min_windows]
    if len({labels[i] for i in kept}) < 2:
        return model, [model.probability(r.decision, r.windows) for r in readings]
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=1e6, solver="lbfgs", max_iter=1000)
    fitted.fit(
        [[readings[i].passage_decision, math.log(readings[i].passages)] for i in kept], [labels[i] for i in kept]
    )
    a, c = (-float(v) for v in fitted.coef_[0])
    passage_model = dataclasses.replace(
        model, passage_platt=(a, -float(fitted.intercept_[0]), c), passage_min_windows=min_windows
    )
    at_least = [r if r.windows >= min_windows else Reading(r.decision, r.windows) for r in readings]
    return passage_model, [passage_model.probability_of(r) for r in at_least]


def threshold_for_fpr(scores: Sequence[float], labels: Sequence[int], target: float = TARGET_FPR) -> float:
    """The lowest threshold whose false-positive rate on the benign texts is at most ``target`` (flag: score >=
    threshold)."""
    benign = sorted((s for s, y in zip(scores, labels, strict=True) if y == 0), reverse=True)
    if not benign:
        return 0.5
    allowed = math.floor(target * len(benign))  # benign texts that may score at or above the threshold
    # Just above the (allowed+1)-th highest benign score: that one and every lower one stay below.
    cutoff = benign[allowed] if allowed < len(benign) else -math.inf
    return float(min(1.0, math.nextafter(cutoff, math.inf))) if cutoff > -math.inf else 0.0


def train(
    rows: Sequence[dict[str, Any]],
    variant: Variant,
    cache: FeatureCache | None = None,
    out_of_fold: list[float] | None = None,
    readings: OutOfFold | None = None,
) -> InjectionModel:
    """A calibrated model trained on ``rows``: Platt's sigmoid and the threshold come from out-of-fold scores (each
    text scored by a model that never saw it), the weights from a fit on all of ``rows``. ``out_of_fold``, when
    given, receives those calibrated scores (in the order of ``rows``); ``readings`` the out-of-fold readings
    (windows and passages, whatever the variant), to calibrate other ways without fitting again
    (:func:`calibrate_passages`).

    With ``variant.passages``, the passages are calibrated too and the threshold is chosen on the higher of the two
    probabilities; the window-only threshold stays in ``meta["window_threshold"]``."""
    cache = cache or FeatureCache(variant.kinds)
    texts = [r["text"] for r in rows]
    cache.add(texts)  # the whole vocabulary before the first fit: its sorted order is made once
    labels = [is_attack(r) for r in rows]
    fold_of = _folds(labels, FOLDS, SEED)
    read_passages = bool(variant.passages) or readings is not None
    held_readings = [Reading(0.0, 1)] * len(texts)
    for fold in range(FOLDS):
        train_idx = [i for i, f in enumerate(fold_of) if f != fold]
        held = [i for i, f in enumerate(fold_of) if f == fold]
        model = _fit([texts[i] for i in train_idx], [labels[i] for i in train_idx], variant, cache)
        for i in held:
            if read_passages:
                # The passages need the line breaks, which the cache's collapsed text no longer has.
                held_readings[i] = model._reading(normalise(texts[i]), passages=True)
            else:
                # decision_and_windows(text), from the normalised text the cache keeps (not normalised once more).
                held_readings[i] = Reading(*model._decision_and_windows(cache.normalised(texts[i])))
    decisions = [r.decision for r in held_readings]
    windows = [r.windows for r in held_readings]
    platt_a, platt_b, platt_windows = _platt(decisions, labels, windows if variant.length_aware else None)
    calibrating = dataclasses.replace(model, platt_a=platt_a, platt_b=platt_b, platt_windows=platt_windows)
    window_threshold = threshold_for_fpr(
        [calibrating.probability(d, n) for d, n in zip(decisions, windows, strict=True)], labels
    )
    measured = OutOfFold(labels, held_readings)
    calibrating, calibrated = calibrate_passages(calibrating, measured, variant.passages, variant.passage_joint)
    threshold = threshold_for_fpr(calibrated, labels)
    measured.scores = calibrated
    if out_of_fold is not None:
        out_of_fold[:] = calibrated
    if readings is not None:
        readings.labels, readings.readings, readings.scores = measured.labels, measured.readings, measured.scores
    final = _fit(texts, labels, variant, cache)
    families = sorted({r.get("family", "") for r in rows})
    return InjectionModel(
        idf=final.idf,
        weights=final.weights,
        intercept=final.intercept,
        # The calibration the threshold was chosen on (a joint fit refits the window terms too).
        platt_a=calibrating.platt_a,
        platt_b=calibrating.platt_b,
        platt_windows=calibrating.platt_windows,
        passage_platt=calibrating.passage_platt,
        passage_min_windows=calibrating.passage_min_windows,
        passage_joint=calibrating.passage_joint,
        threshold=threshold,
        kinds=variant.kinds,
        meta={
            "variant": variant.name,
            "families": families,
            "texts": len(rows),
            "target_fpr": TARGET_FPR,
            **({"window_threshold": round(window_threshold, 6)} if calibrating.passage_platt else {}),
        },
        window=variant.window,
        stride=variant.stride,
    )


def export(model: InjectionModel, path: Path) -> None:
    """Write ``model`` as gzipped JSON, byte for byte the same for the same model (sorted features, rounded floats,
    no time stamp in the gzip header)."""
    features = sorted(model.idf)
    data = {
        "format": FORMAT,
        "kinds": list(model.kinds),
        "features": features,
        "idf": [round(model.idf[f], 4) for f in features],
        "weights": [round(model.weights.get(f, 0.0), 5) for f in features],
        "intercept": round(model.intercept, 6),
        "platt": [round(model.platt_a, 6), round(model.platt_b, 6)],
        "platt_windows": round(model.platt_windows, 6),
        **(
            {
                "passage_platt": [round(v, 6) for v in model.passage_platt],
                "passage_min_windows": model.passage_min_windows,
                "passage_joint": model.passage_joint,
            }
            if model.passage_platt is not None
            else {}
        ),
        "threshold": round(model.threshold, 6),
        "window": model.window,
        "stride": model.stride,
        "meta": model.meta,
    }
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0, filename="") as out:
        out.write(payload)
