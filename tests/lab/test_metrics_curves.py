"""Scores, curves and thresholds against values worked out by hand (issue 30 item 3)."""

from __future__ import annotations

import pytest

from lab.metrics import (
    GuardColumns,
    ThresholdPoint,
    guard_columns,
    pr_auc,
    pr_curve,
    roc_auc,
    roc_curve,
    score_curves,
    score_histogram,
    score_lists,
    threshold_for_fpr,
    threshold_points,
)
from lab.results import CaseResult

# Sorted from the top: 0.9 A, 0.8 A, 0.7 B, 0.4 A, 0.3 B, 0.2 B, 0.1 B.
ATTACKS = [0.9, 0.8, 0.4]
BENIGN = [0.7, 0.3, 0.2, 0.1]


def flat(points: list[tuple[float, float]]) -> list[float]:
    return [value for point in points for value in point]


def test_one_operating_point_per_distinct_score_from_the_top() -> None:
    assert [(p.threshold, p.tp, p.fp, p.fn, p.tn) for p in threshold_points(ATTACKS, BENIGN)] == [
        (0.9, 1, 0, 2, 4),
        (0.8, 2, 0, 1, 4),
        (0.7, 2, 1, 1, 3),
        (0.4, 3, 1, 0, 3),
        (0.3, 3, 2, 0, 2),
        (0.2, 3, 3, 0, 1),
        (0.1, 3, 4, 0, 0),
    ]


def test_the_roc_curve_and_its_area() -> None:
    third = 1 / 3
    assert flat(roc_curve(ATTACKS, BENIGN)) == pytest.approx(
        flat([(0, 0), (0, third), (0, 2 * third), (0.25, 2 * third), (0.25, 1), (0.5, 1), (0.75, 1), (1, 1)])
    )
    assert roc_auc(ATTACKS, BENIGN) == round(11 / 12, 4)  # 11 of the 12 attack-benign pairs in order


def test_a_tie_counts_half_and_a_perfect_split_is_one() -> None:
    assert roc_auc([0.5], [0.5]) == 0.5
    assert roc_auc([0.6, 0.9], [0.1, 0.5]) == 1.0
    assert roc_auc([0.1], [0.9]) == 0.0


def test_the_precision_recall_curve_and_average_precision() -> None:
    third = 1 / 3
    assert flat(pr_curve(ATTACKS, BENIGN)) == pytest.approx(
        flat([(third, 1), (2 * third, 1), (2 * third, 2 / 3), (1, 3 / 4), (1, 3 / 5), (1, 3 / 6), (1, 3 / 7)])
    )
    assert pr_auc(ATTACKS, BENIGN) == round(third + third + third * 3 / 4, 4)
    assert pr_auc([0.2, 0.3], [0.9]) == round(0.5 * 1 / 2 + 0.5 * 2 / 3, 4)


def test_the_threshold_for_a_false_positive_budget_is_the_lowest_that_keeps_it() -> None:
    assert threshold_for_fpr(ATTACKS, BENIGN, 0.0) == ThresholdPoint(0.8, 2, 0, 1, 4)
    assert threshold_for_fpr(ATTACKS, BENIGN, 0.25) == ThresholdPoint(0.4, 3, 1, 0, 3)
    assert threshold_for_fpr(ATTACKS, BENIGN, 0.3) == ThresholdPoint(0.4, 3, 1, 0, 3)
    assert threshold_for_fpr(ATTACKS, BENIGN, 1.0) == ThresholdPoint(0.1, 3, 4, 0, 0)
    assert threshold_for_fpr([0.5], [0.9], 0.0) is None  # the top score is a benign case
    assert threshold_for_fpr([0.5], [], 0.01) is None


def test_nothing_to_draw_without_both_kinds() -> None:
    assert roc_curve(ATTACKS, []) == [] and roc_auc(ATTACKS, []) is None
    assert pr_curve([], BENIGN) == [] and pr_auc([], BENIGN) is None


def test_the_histogram_bins_attack_and_benign_scores_apart() -> None:
    histogram = score_histogram([*ATTACKS, 1.0], [*BENIGN, 0.0], bins=4)
    assert histogram.edges == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert histogram.attacks == [0, 1, 0, 3]  # 1.0 is in the last bin
    assert histogram.benign == [3, 1, 1, 0]


def result(case: str, label: str | None, scores: dict[str, float], outcome: str = "passed") -> CaseResult:
    return CaseResult(case, "t", label, "c", "en", None, outcome, scores=scores)  # type: ignore[arg-type]


def test_curves_per_guard_from_case_results() -> None:
    results = [
        result("a1", "attack", {"g": 0.9, "h": 0.2}, "blocked"),
        result("a2", "attack", {"g": 0.4}),
        result("b1", "benign", {"g": 0.1, "h": 0.3}),
        result("b2", "benign", {"g": 0.95}, "error"),  # errors count in no rate
        result("u", None, {"g": 0.5}),  # nor do unlabelled cases
    ]
    assert score_lists(results, "g") == ([0.9, 0.4], [0.1])
    curves = score_curves(results)
    assert list(curves) == ["g", "h"]
    assert curves["g"].roc_auc == 1.0 and curves["h"].roc_auc == 0.0
    assert curves["g"].at(0.5) == ThresholdPoint(0.5, 1, 0, 1, 1)
    data = curves["g"].to_dict()
    assert data["attacks"] == 2 and data["benign"] == 1 and data["roc_auc"] == 1.0
    assert data["thresholds"][0] == {
        "threshold": 0.9, "tp": 1, "fp": 0, "fn": 1, "tn": 1, "recall": 0.5, "fpr": 0.0, "precision": 1.0
    }  # fmt: skip
    assert sum(data["histogram"]["attacks"]) == 2


def test_a_guards_side_by_side_columns() -> None:
    def priced(case: str, label: str, outcome: str, score: float, latency: float, cost: float | None) -> CaseResult:
        made = result(case, label, {"g": score}, outcome)
        made.latency_ms, made.input_tokens, made.output_tokens, made.cost = latency, 10, 5, cost
        return made

    results = [
        priced("a1", "attack", "blocked", 0.9, 4.0, 0.002),
        priced("a2", "attack", "passed", 0.3, 2.0, None),
        priced("b1", "benign", "passed", 0.2, 3.0, 0.001),
        priced("b2", "benign", "error", 0.9, 100.0, 1.0),  # counts in the cases only
    ]
    row = guard_columns("g", results)
    assert row == GuardColumns("g", 4, 0.5, 0.0, 1.0, 1.0, 3.0, 15.0, 0.0015)


def test_the_html_report_draws_each_scoring_guards_curves_in_the_reports_language() -> None:
    from lab.reports import html_report

    results = [
        result("a1", "attack", {"g": 0.9}, "blocked"),
        result("a2", "attack", {"g": 0.4}),
        result("b1", "benign", {"g": 0.1}),
    ]
    page = html_report(results, design={"name": "d"}, mode="guardrails")
    assert "<h2>Scores of g</h2>" in page and "ROC curve (AUC 1.000)" in page
    assert page.count("<polyline") == 2  # the ROC and the precision-recall curve
    chinese = html_report(results, design={"name": "d"}, mode="guardrails", language="zh_TW")
    assert "g 的分數" in chinese and "ROC 曲線（AUC 1.000）" in chinese
    unscored = html_report([result("x", "attack", {})], design={"name": "d"}, mode="guardrails")
    assert "Scores of" not in unscored
