"""``processor-studio lab --threshold-for-fpr`` and ``--side-by-side`` / ``--guard`` (issue 30 items 3 and 4): a real
subprocess on the sample design and a bundled corpus."""

from __future__ import annotations

import json
from pathlib import Path

from lab.metrics import threshold_for_fpr
from lab.reports import read_json_report
from tests.studio.lab.test_cli import CORPORA, lab

DETECTOR = "prompt-injection-detector"


def test_threshold_for_fpr_prints_each_scoring_guards_threshold_and_the_json_carries_the_curves(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.json"
    done = lab("sample", "--corpus", CORPORA["direct-injection"], "--threshold-for-fpr", "0.01", "--json", report)
    assert done.returncode == 0, done.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    _, results = read_json_report(report)
    assert all(DETECTOR in case["scores"] for case in data["cases"])  # passing cases too
    attacks = [r.scores[DETECTOR] for r in results if r.label == "attack"]
    benign = [r.scores[DETECTOR] for r in results if r.label == "benign"]
    point = threshold_for_fpr(attacks, benign, 0.01)
    assert point is not None
    assert done.stdout.splitlines() == [
        f"{DETECTOR}: threshold {point.threshold:g} keeps the false-positive rate at {point.fpr:.1%} (budget 1.0%); "
        f"recall {point.recall:.1%}"
    ]
    curves = data["curves"][DETECTOR]
    assert curves["attacks"] == len(attacks) and curves["benign"] == len(benign)
    assert 0.5 < curves["roc_auc"] <= 1.0 and curves["roc"][0] == [0.0, 0.0] and curves["roc"][-1] == [1.0, 1.0]
    assert sum(curves["histogram"]["attacks"]) == len(attacks)
    assert any(row["threshold"] == point.threshold and row["recall"] == point.recall for row in curves["thresholds"])


def test_two_guards_side_by_side_each_alone_on_the_same_cases(tmp_path: Path) -> None:
    report = tmp_path / "side.json"
    done = lab(
        "sample",
        "--corpus",
        CORPORA["direct-injection"],
        "--guard",
        DETECTOR,
        "--guard",
        "pii-detector",
        "--threshold-for-fpr",
        "0.05",
        "--json",
        report,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == [
        "guard",
        "recall",
        "FPR",
        "ROC",
        "AUC",
        "PR",
        "AUC",
        "ms/case",
        "tokens/case",
        "USD/case",
    ]
    assert [line.split()[0] for line in lines[1:3]] == [DETECTOR, "pii-detector"]
    assert lines[3].startswith(f"{DETECTOR}: threshold ")  # only the guard that gives scores has a threshold
    data = json.loads(report.read_text(encoding="utf-8"))
    rows = {row["guard"]: row for row in data["side_by_side"]}
    assert list(rows) == [DETECTOR, "pii-detector"]
    assert rows[DETECTOR]["recall"] > 0.9 and rows[DETECTOR]["roc_auc"] > 0.5
    assert rows["pii-detector"]["recall"] == 0.0 and rows["pii-detector"]["roc_auc"] is None
    assert rows[DETECTOR]["cases"] == rows["pii-detector"]["cases"] == len(data["guards"][DETECTOR]["cases"])
    # each alone: the PII detector's run has no detector in it, so nothing is blocked there
    alone = data["guards"]["pii-detector"]["cases"]
    assert all(case["outcome"] != "blocked" and DETECTOR not in case["tripped"] for case in alone)
    assert all(case["scores"] == {} for case in alone)
    assert all(DETECTOR in case["scores"] for case in data["guards"][DETECTOR]["cases"])


def test_side_by_side_runs_every_input_and_tool_guard_of_the_design(tmp_path: Path) -> None:
    done = lab("sample", "--corpus", CORPORA["direct-injection"], "--side-by-side", "--shard", "1/8")
    assert done.returncode == 0, done.stderr
    guards = [line.split()[0] for line in done.stdout.splitlines()[1:]]
    # the input lane's three, and the output lane's detector of tool results (not the PII detector of the answer)
    assert guards == ["unicode-normalizer", DETECTOR, "pii-detector", "prompt-injection-detector-2"]


def test_an_unknown_guard_exits_2_naming_the_designs_processors() -> None:
    done = lab("sample", "--corpus", CORPORA["direct-injection"], "--guard", "nope")
    assert done.returncode == 2
    assert "--guard: the design has no processor nope (it has: unicode-normalizer, prompt-injection-detector" in (
        done.stderr
    )


def test_a_classifier_guard_and_the_detector_side_by_side_each_with_its_curves(tmp_path: Path) -> None:
    """Two scoring guards of one design, each alone: ClassifierGuard (a tiny ONNX model the test builds, through
    real onnxruntime) and the built-in detector; every case has each one's score in its own run."""
    from studio.design.agent_design import ChainEntry, save_design
    from studio.design.sample import sample_design
    from tests.support.tiny_classifier import write_tiny_classifier

    model = write_tiny_classifier(tmp_path / "model")
    design = sample_design()
    design.input.append(ChainEntry(type="ClassifierGuard", options={"model_folder": str(model), "threshold": 0.9}))
    path = tmp_path / "design.json"
    save_design(design, path)
    report = tmp_path / "side.json"
    done = lab(path, "--corpus", CORPORA["direct-injection"], "--guard", "classifier-guard", "--guard", DETECTOR,
               "--threshold-for-fpr", "0.1", "--json", report)  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert [row["guard"] for row in data["side_by_side"]] == ["classifier-guard", DETECTOR]
    for guard in ("classifier-guard", DETECTOR):
        cases = data["guards"][guard]["cases"]
        assert all(list(case["scores"]) == [guard] for case in cases)  # each alone: only its own score
        assert data["guards"][guard]["curves"][guard]["attacks"] + data["guards"][guard]["curves"][guard][
            "benign"
        ] == len(cases)
    thresholds = [line for line in done.stdout.splitlines() if ": threshold " in line or "no threshold" in line]
    assert [line.split(":")[0] for line in thresholds] == ["classifier-guard", DETECTOR]
