"""Measure the learned injection model honestly and write the model card's figures.

* leave-one-source-family-out: for every family of ``training/data/``, a model trained (and calibrated, and its
  threshold chosen at a false-positive rate <= 0.05 on its own out-of-fold scores) on all the other families, scored
  on the one left out: recall on its attacks and false-positive rate on its benign texts, per language and per
  ``where``. Nothing is tuned on the family left out.
* the project's own injection sets (``tests/data/*injection*``, the lab's bundled ``resources/corpora``): never
  trained on; the old heuristics were tuned on some of them, which each row says.
* the old heuristics (``PromptInjectionDetector``'s offline defaults: highest type score >= its threshold, quotes
  discounted in user turns only, as the detector does) beside every figure, on the same texts.
* the detector as shipped: each left-out family also scored as ``PromptInjectionDetector()`` scores a text (the
  highest score over the text's views, :func:`~processors.builtin.injection_views.views`) at its default threshold,
  not the model's fitted one; pooled over all the leave-outs, both settings against the goal (:data:`GOAL`).
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from processors.builtin.injection_heuristics import heuristic_scores
from processors.builtin.injection_model import InjectionModel
from processors.builtin.prompt_injection_detector import PromptInjectionDetector, PromptInjectionDetectorOptions
from training.fit import FeatureCache, Variant, is_attack, train

ROOT = Path(__file__).resolve().parents[1]
#: The project's sets, and what the heuristics did with them (said beside every figure from them).
PROJECT_SETS: tuple[tuple[str, str], ...] = (
    ("resources/corpora/*.jsonl", "the lab's bundled corpora: the heuristics' TUNING set"),
    ("tests/data/injection_corpus.jsonl", "the heuristics' TUNING set (English)"),
    ("tests/data/injection_holdout.jsonl", "held out from the heuristics (English; misses seen since)"),
    ("tests/data/injection_multilingual_holdout.jsonl", "held out from the heuristics (misses seen since)"),
    ("tests/data/indirect_injection_holdout.jsonl", "held out from the heuristics (misses seen since)"),
    ("tests/data/indirect_injection_holdout_b.jsonl", "held out; the heuristics were tuned on its misses"),
    ("tests/data/indirect_injection_holdout_c.jsonl", "held out from the heuristics, measured once: fair to both"),
)
#: Issue #28's goal on the families left out: recall at least the first, false-positive rate at most the second.
GOAL = (0.85, 0.05)


def detector_threshold() -> float:
    """The threshold ``PromptInjectionDetector()`` flags at: its option's default, read from the options model so
    the card follows the detector when the default changes."""
    default = PromptInjectionDetectorOptions.model_fields["threshold"].default
    return float(default)


@dataclass
class Rates:
    """Recall on attacks and false-positive rate on benign texts, with the texts behind each error."""

    tp: int = 0
    fn: int = 0
    fp: int = 0
    tn: int = 0
    misses: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)

    def add(self, attack: bool, hit: bool, text: str) -> None:
        if attack:
            self.tp += hit
            self.fn += not hit
            if not hit:
                self.misses.append(text)
        else:
            self.fp += hit
            self.tn += not hit
            if hit:
                self.false_alarms.append(text)

    def cell(self) -> str:
        """``recall / FPR`` as a table cell, with the counts."""
        recall = f"{self.tp / (self.tp + self.fn):.2f} ({self.tp}/{self.tp + self.fn})" if self.tp + self.fn else "n/a"
        fpr = f"{self.fp / (self.fp + self.tn):.2f} ({self.fp}/{self.fp + self.tn})" if self.fp + self.tn else "n/a"
        return f"{recall} / {fpr}"

    def pool(self, other: Rates) -> None:
        """Add ``other``'s counts and texts to these (the leave-outs' sums)."""
        self.tp += other.tp
        self.fn += other.fn
        self.fp += other.fp
        self.tn += other.tn
        self.misses += other.misses
        self.false_alarms += other.false_alarms

    def meets(self, goal: tuple[float, float] = GOAL) -> str:
        """Whether recall reaches ``goal[0]`` and the FPR stays within ``goal[1]``: ``yes``, or what misses it."""
        failed = []
        if self.tp + self.fn and self.tp / (self.tp + self.fn) < goal[0]:
            failed.append(f"recall < {goal[0]:.2f}")
        if self.fp + self.tn and self.fp / (self.fp + self.tn) > goal[1]:
            failed.append(f"FPR > {goal[1]:.2f}")
        return "no: " + ", ".join(failed) if failed else "yes"


def project_rows(pattern: str) -> list[dict[str, Any]]:
    """A project set as rows of the training format: a case with a ``tool_result`` is the tool result's text."""
    rows: list[dict[str, Any]] = []
    for path in sorted(ROOT.glob(pattern)):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            case = json.loads(line)
            tool_result = case.get("tool_result")
            rows.append(
                {
                    "text": tool_result or case["text"],
                    "label": "attack" if case["label"] in ("attack", True) else "benign",
                    "lang": case.get("lang", "en"),
                    "where": "tool_result" if tool_result else "user",
                }
            )
    return rows


def heuristics_flag() -> Callable[[dict[str, Any]], bool]:
    """The old heuristics' verdict on a row, as ``PromptInjectionDetector`` gives it with its offline defaults."""
    threshold = PromptInjectionDetector().options.threshold

    def flagged(row: dict[str, Any]) -> bool:
        scores, _ = heuristic_scores(row["text"], discount_quotes=row.get("where", "user") == "user")
        return max(scores.values(), default=0.0) >= threshold

    return flagged


def model_flag(model: InjectionModel) -> Callable[[dict[str, Any]], bool]:
    return lambda row: model.score(row["text"]) >= model.threshold


def rates_by(
    rows: Sequence[dict[str, Any]], flagged: Callable[[dict[str, Any]], bool], key: Callable[[dict[str, Any]], str]
) -> dict[str, Rates]:
    """Rates per value of ``key`` and over all (``"all"``)."""
    table: dict[str, Rates] = {}
    for row in rows:
        hit = flagged(row)
        attack = bool(is_attack(row))
        for name in (key(row), "all"):
            table.setdefault(name, Rates()).add(attack, hit, row["text"])
    return table


def counts_table(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Markdown: texts per family x language x label x where."""
    counts = Counter((r["family"], r["lang"], r["label"], r["where"]) for r in rows)
    lines = ["| family | language | label | user | tool_result | document |", "|---|---|---|---|---|---|"]
    for family, lang, label in sorted({k[:3] for k in counts}):
        cells = [str(counts.get((family, lang, label, where), 0)) for where in ("user", "tool_result", "document")]
        lines.append(f"| {family} | {lang} | {label} | {' | '.join(cells)} |")
    totals = [str(sum(v for k, v in counts.items() if k[3] == where)) for where in ("user", "tool_result", "document")]
    lines.append(f"| **all** | | | {' | '.join(totals)} |")
    return lines


@dataclass
class HeldOut:
    """One leave-one-family-out result: the held-out model on the raw text at its fitted ``threshold`` (``model``),
    the old heuristics, and the held-out model as the detector runs it (``detector``: every view, at
    ``detector_threshold``)."""

    family: str
    threshold: float
    model: dict[str, Rates]
    heuristics: dict[str, Rates]
    detector: dict[str, Rates]
    detector_threshold: float


#: What the leave-out fits share: the rows, the variant, the feature cache and the heuristics' verdict (set once per
#: process: by :func:`_share` in each worker, and in this process when the fits run here).
_SHARED: dict[str, Any] = {}


def _share(rows: list[dict[str, Any]], variant: Variant, cache: FeatureCache) -> None:
    _SHARED.update(rows=rows, variant=variant, cache=cache, heuristic=heuristics_flag())


def _fit_and_score(part: tuple[str, list[int], list[int]]) -> HeldOut:
    """One leave-out fit: train on the rows at the first indices, score those at the second."""
    name, training_at, held_at = part
    rows, variant = _SHARED["rows"], _SHARED["variant"]
    held = [rows[i] for i in held_at]
    model = train([rows[i] for i in training_at], variant, _SHARED["cache"])
    default = detector_threshold()
    return HeldOut(
        name,
        model.threshold,
        _grouped(held, model_flag(model)),
        _grouped(held, _SHARED["heuristic"]),
        _grouped(held, views_flag(model, default)),
        default,
    )


def _held_out_in_parallel(
    rows: Sequence[dict[str, Any]], variant: Variant, parts: list[tuple[str, list[int], list[int]]]
) -> list[HeldOut]:
    """Every part's leave-out fit, in order. The fits are independent and deterministic, so they run in worker
    processes (``TRAIN_PROCESSES``, default one per CPU) and give the same figures as one after the other, in a
    fraction of the time on a machine with cores to spare. The workers are spawned, not forked: a fork copies the
    locks other threads of the caller hold (a test run's, a studio's), which can hang the child."""
    return _map_in_workers(rows, variant, _fit_and_score, parts)


def _map_in_workers(
    rows: Sequence[dict[str, Any]], variant: Variant, fit: Callable[[Any], Any], parts: list[Any]
) -> list[Any]:
    """``fit`` over ``parts`` in order, in ``TRAIN_PROCESSES`` spawned workers that share ``rows``, ``variant`` and
    every text's features (extracted once here and sent to each worker as arrays); in this process for one."""
    processes = int(os.environ.get("TRAIN_PROCESSES", os.cpu_count() or 1))
    cache = FeatureCache(variant.kinds)
    cache.add([row["text"] for row in rows])
    if processes <= 1 or len(parts) <= 1:
        _share(list(rows), variant, cache)
        return [fit(part) for part in parts]
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(processes, len(parts)), initializer=_share, initargs=(list(rows), variant, cache)) as pool:
        return pool.map(fit, parts, chunksize=1)


def leave_one_family_out(rows: Sequence[dict[str, Any]], variant: Variant, log: Callable[[str], None]) -> list[HeldOut]:
    """Train on every family but one, score the one left out, for every family (needs two families or more).

    The families are the source families: a row derived by a converter (``training/augment.py``) is never held out,
    and is left out of the training with the family it was derived from (else that family would leak back in,
    converted)."""
    parts = family_parts(rows)
    for family, training, held in parts:
        log(f"  {variant.name}: leaving out {family} ({len(training)} training texts, {len(held)} held out)")
    return _held_out_in_parallel(rows, variant, parts)


def family_parts(rows: Sequence[dict[str, Any]]) -> list[tuple[str, list[int], list[int]]]:
    """Per source family: its name, the indices of the rows trained on without it (neither its rows nor the rows
    derived from them), the indices of its rows."""
    families = sorted({r["family"] for r in rows if not r.get("derived_from")})
    return [
        (
            family,
            [i for i, r in enumerate(rows) if family not in (r["family"], r.get("derived_from"))],
            [i for i, r in enumerate(rows) if r["family"] == family],
        )
        for family in families
    ]


def leave_one_category_out(
    rows: Sequence[dict[str, Any]], variant: Variant, log: Callable[[str], None]
) -> list[HeldOut]:
    """Within the families: train without one attack category and one benign category, score those two.

    With families that each hold one language, leaving a family out measures a move to another language; this
    measures a move to another *kind* of attack and of look-alike within the languages the model has seen. The
    attack categories are paired with the benign ones in sorted order (the ninth attack category with the first
    benign one again)."""
    attack = sorted({str(r["category"]) for r in rows if is_attack(r)})
    benign = sorted({str(r["category"]) for r in rows if not is_attack(r)})
    parts = []
    for index, category in enumerate(attack):
        left_out = {category, benign[index % len(benign)]}
        training = [i for i, r in enumerate(rows) if r["category"] not in left_out]
        held = [i for i, r in enumerate(rows) if r["category"] in left_out and not r.get("derived_from")]
        log(f"  {variant.name}: leaving out {' + '.join(sorted(left_out))} ({len(held)} texts)")
        parts.append((f"{category} + {benign[index % len(benign)]}", training, held))
    return _held_out_in_parallel(rows, variant, parts)


def summary_lines(results: Sequence[HeldOut], slices: Sequence[str]) -> list[str]:
    """Markdown: one row per left-out part, the model's and the heuristics' recall / FPR over all and per slice."""
    lines = [
        "| left out | "
        + " | ".join(f"model {s}" for s in slices)
        + " | "
        + " | ".join(f"heuristics {s}" for s in slices)
        + " |",
        "|---" * (1 + 2 * len(slices)) + "|",
    ]
    for result in results:
        ours = [result.model[s].cell() if s in result.model else "n/a" for s in slices]
        theirs = [result.heuristics[s].cell() if s in result.heuristics else "n/a" for s in slices]
        lines.append(f"| {result.family} | " + " | ".join(ours + theirs) + " |")
    return lines


def out_of_fold_lines(rows: Sequence[dict[str, Any]], scores: Sequence[float], threshold: float) -> list[str]:
    """Markdown: the shipped model's out-of-fold verdicts (each text scored by a fold model that never saw it) per
    family, language and where; the same writers on both sides, so an optimistic figure."""
    table: dict[str, Rates] = {}
    for row, score in zip(rows, scores, strict=True):
        hit = score >= threshold
        for name in ("all", f"{row['family']} {row['lang']}", f"where:{row['where']}"):
            table.setdefault(name, Rates()).add(bool(is_attack(row)), hit, row["text"])
    lines = ["| slice | recall / FPR |", "|---|---|"]
    lines += [f"| {name} | {table[name].cell()} |" for name in sorted(table, key=lambda n: (n != "all", n))]
    return lines


def _grouped(rows: Sequence[dict[str, Any]], flagged: Callable[[dict[str, Any]], bool]) -> dict[str, Rates]:
    """Rates over all, per language (``lang:…``) and per where (``where:…``) from one pass of ``flagged``."""
    verdicts = [(row, flagged(row)) for row in rows]
    table: dict[str, Rates] = {}
    for row, hit in verdicts:
        for name in ("all", f"lang:{row['lang']}", f"where:{row['where']}"):
            table.setdefault(name, Rates()).add(bool(is_attack(row)), hit, row["text"])
    return table


def _detector_header(results: Sequence[HeldOut]) -> str:
    """The detector column's name, with the threshold its figures were taken at (the detector's default)."""
    thresholds = sorted({f"{r.detector_threshold:.2f}" for r in results}) or [f"{detector_threshold():.2f}"]
    return f"detector default: views, {', '.join(thresholds)}"


def held_out_lines(results: Sequence[HeldOut]) -> list[str]:
    """Markdown: per left-out family, per language and per where, the model's recall / FPR beside the heuristics',
    then the same model as the detector runs it (every view, the detector's default threshold)."""
    lines = [
        "| left out | slice | learned model: recall / FPR | old heuristics: recall / FPR "
        f"| {_detector_header(results)}: recall / FPR |",
        "|---|---|---|---|---|",
    ]
    for result in results:
        for name in sorted(result.model, key=lambda n: (n != "all", n)):
            lines.append(
                f"| {result.family} (threshold {result.threshold:.3f}) | {name} | {result.model[name].cell()} | "
                f"{result.heuristics[name].cell()} | {result.detector[name].cell()} |"
            )
    return lines


def pooled(results: Sequence[HeldOut]) -> tuple[dict[str, Rates], dict[str, Rates]]:
    """Over all the leave-outs, per slice: the sums of the model's counts at its fitted thresholds, and of the
    detector's at its default. Each text is held out once, so the sums count every source text once."""
    fitted: dict[str, Rates] = {}
    shipped: dict[str, Rates] = {}
    for result in results:
        for pool, table in ((fitted, result.model), (shipped, result.detector)):
            for name, rates in table.items():
                pool.setdefault(name, Rates()).pool(rates)
    return fitted, shipped


def pooled_lines(results: Sequence[HeldOut]) -> list[str]:
    """Markdown: the pooled leave-outs per slice, at the fitted thresholds and as the detector runs by default, each
    cell recall / FPR with the counts, and whether the goal (recall >= 0.85, FPR <= 0.05) is met."""
    fitted, shipped = pooled(results)
    thresholds = sorted({r.threshold for r in results})
    span = f"{thresholds[0]:.3f}-{thresholds[-1]:.3f}" if thresholds else "n/a"
    lines = [
        f"| slice | fitted threshold ({span}), raw text: recall / FPR | goal met | {_detector_header(results)}: "
        "recall / FPR | goal met |",
        "|---|---|---|---|---|",
    ]
    for name in sorted(fitted, key=lambda n: (n != "all", n)):
        ours, theirs = fitted[name], shipped.get(name, Rates())
        lines.append(f"| {name} | {ours.cell()} | {ours.meets()} | {theirs.cell()} | {theirs.meets()} |")
    return lines


def project_lines(model: InjectionModel) -> tuple[list[str], dict[str, Rates]]:
    """Markdown: the shipped model and the heuristics on each project set, per language; and the model's rates."""
    heuristic = heuristics_flag()
    lines = [
        "| set | what it was to the heuristics | language | learned model: recall / FPR "
        "| old heuristics: recall / FPR |",
        "|---|---|---|---|---|",
    ]
    errors: dict[str, Rates] = {}
    for pattern, note in PROJECT_SETS:
        rows = project_rows(pattern)
        ours = rates_by(rows, model_flag(model), lambda r: r["lang"])
        theirs = rates_by(rows, heuristic, lambda r: r["lang"])
        errors[pattern] = ours["all"]
        for lang in sorted(ours, key=lambda n: (n != "all", n)):
            lines.append(f"| `{pattern}` | {note} | {lang} | {ours[lang].cell()} | {theirs[lang].cell()} |")
    return lines, errors


# --- The converters as augmentation, judged by leaving a converter family out (training/augment.py) ---------------

#: The project's evaluation sets the converters are applied to (attacks and look-alikes; never trained on).
CONVERTED_SETS: tuple[str, ...] = (
    "resources/corpora/direct-injection.jsonl",
    "resources/corpora/indirect-injection.jsonl",
)
#: Ordinary requests written for scoring only (never trained on): a false-positive rate with no look-alikes in it.
ORDINARY_SET = "training/sealed/ordinary.jsonl"


def views_flag(model: InjectionModel, threshold: float | None = None) -> Callable[[dict[str, Any]], bool]:
    """``model``'s verdict as the detector gives it: the highest score of the text's views (decoded payloads,
    :func:`~processors.builtin.injection_views.views`), and of each turn when a converter split the text, against
    ``threshold`` (default: the model's fitted one)."""
    from processors.builtin.injection_views import views

    limit = model.threshold if threshold is None else threshold

    def flagged(row: dict[str, Any]) -> bool:
        turns = row.get("turns") or (row["text"],)
        return any(model.score(view.text) >= limit for turn in turns for view in views(turn))

    return flagged


def converted_rows(rows: Sequence[dict[str, Any]], family: str, seed: int) -> list[dict[str, Any]]:
    """Every row through every converter of converter ``family`` that applies to it (look-alikes only through
    those that add no intent), seeded per row and converter; a split text keeps its turns."""
    from lab.converters.base import Turns
    from lab.converters.chain import variant_rng
    from training.augment import CONVERTER_FAMILIES, applicable, builtin_converters

    converters = builtin_converters()
    out: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        for name in CONVERTER_FAMILIES[family]:
            if name not in converters or not applicable(name, row):
                continue
            result = converters[name].convert(row["text"], variant_rng(seed, f"eval-{index}", name))
            turns = result.turns if isinstance(result, Turns) else (result,)
            out.append({**row, "text": "\n".join(turns), "turns": turns, "converter": name})
    return out


def evaluation_sets(seed: int) -> dict[str, list[dict[str, Any]]]:
    """The sets each converter-family model is scored on: the evaluation corpora plain, through each converter
    family, and the ordinary requests."""
    from training.augment import CONVERTER_FAMILIES

    plain = [row for pattern in CONVERTED_SETS for row in project_rows(pattern)]
    sets = {"plain": plain, "ordinary": project_rows(ORDINARY_SET)}
    sets.update({family: converted_rows(plain, family, seed) for family in CONVERTER_FAMILIES})
    return sets


@dataclass
class ConverterFamilyResult:
    """One model of the converter-family comparison: what it was trained without, its threshold, its rates on
    every evaluation set (:func:`evaluation_sets`)."""

    name: str
    threshold: float
    rates: dict[str, Rates]
    by_converter: dict[str, Rates]


def _fit_and_score_sets(part: tuple[str, list[int], int]) -> ConverterFamilyResult:
    """One converter-family fit: train on the rows at the indices, score every evaluation set as the detector does."""
    name, training_at, seed = part
    rows, variant = _SHARED["rows"], _SHARED["variant"]
    model = train([rows[i] for i in training_at], variant, _SHARED["cache"])
    flagged = views_flag(model)
    rates: dict[str, Rates] = {}
    by_converter: dict[str, Rates] = {}
    for set_name, set_rows in evaluation_sets(seed).items():
        rates[set_name] = Rates()
        for row in set_rows:
            hit = flagged(row)
            rates[set_name].add(bool(is_attack(row)), hit, row["text"])
            if "converter" in row:
                by_converter.setdefault(row["converter"], Rates()).add(bool(is_attack(row)), hit, row["text"])
    return ConverterFamilyResult(name, model.threshold, rates, by_converter)


def leave_one_converter_family_out(
    rows: Sequence[dict[str, Any]], variant: Variant, log: Callable[[str], None], seed: int = 7
) -> list[ConverterFamilyResult]:
    """Models trained with no derived rows (``none``), with all of them (``all``), and without each converter
    family's (``without <family>``), each scored on the evaluation corpora plain and through every converter
    family, and on the ordinary requests. ``without C`` on C's converted set is the honest figure for C: the
    converters' fixed templates (an HTML snippet, a JSON tool result) are learnt with C's rows, so ``all`` on C
    measures partly that memory."""
    from training.augment import CONVERTER_FAMILIES, is_derived

    parts = [("none", [i for i, r in enumerate(rows) if not is_derived(r)], seed)]
    parts.append(("all", list(range(len(rows))), seed))
    for family in CONVERTER_FAMILIES:
        name = f"without {family}"
        parts.append((name, [i for i, r in enumerate(rows) if r.get("family") != f"augment:{family}"], seed))
    for name, training_at, _ in parts:
        log(f"  converter families: {name} ({len(training_at)} training texts)")
    return _map_in_workers(rows, variant, _fit_and_score_sets, parts)


def converter_family_lines(results: Sequence[ConverterFamilyResult]) -> list[str]:
    """Markdown: per converter family, recall / FPR on the converted evaluation corpora of the model with no
    augmentation, the model without that family's rows, and the model with all of them; then the plain corpora and
    the ordinary requests for the models with none and all."""
    from training.augment import CONVERTER_FAMILIES

    by_name = {r.name: r for r in results}
    none, full = by_name["none"], by_name["all"]
    lines = [
        "| converter family (converters) | no augmentation | without this family's rows (honest) "
        "| with all augmentation |",
        "|---|---|---|---|",
    ]
    for family, names in CONVERTER_FAMILIES.items():
        held = by_name.get(f"without {family}")
        lines.append(
            f"| {family} ({', '.join(names)}) | {none.rates[family].cell()} | "
            f"{held.rates[family].cell() if held else 'n/a'} | {full.rates[family].cell()} |"
        )
    for set_name, label in (("plain", "the corpora, unconverted"), ("ordinary", "`training/sealed/ordinary.jsonl`")):
        lines.append(f"| {label} | {none.rates[set_name].cell()} | | {full.rates[set_name].cell()} |")
    lines += ["", "| converter | no augmentation | with all augmentation |", "|---|---|---|"]
    for converter in sorted(full.by_converter):
        before = none.by_converter.get(converter, Rates())
        lines.append(f"| {converter} | {before.cell()} | {full.by_converter[converter].cell()} |")
    return lines
