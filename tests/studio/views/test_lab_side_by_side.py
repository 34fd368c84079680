"""The Lab window runs each guard of the design alone on the same cases and shows them side by side (issue 30
item 4): one row per guard, its figures those of :func:`lab.metrics.guard_columns` over its own run."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from lab.metrics import guard_columns
from studio.models.lab_tables import pct
from tests.studio.conftest import run
from tests.studio.views.lab_support import choose, open_lab, until_signal

DETECTOR = "prompt-injection-detector"


def test_each_guard_alone_becomes_a_row_and_the_detectors_curves_come_from_its_own_run(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _window, lab = open_lab(qtbot, qloop, tmp_path)
    choose(lab, "direct-injection.jsonl", "indirect-injection.jsonl")
    cases = len(lab.controller.chosen_cases())
    panel = lab.side_by_side_panel
    rows, results = until_signal(
        qloop,
        lab.controller.side_by_side_ready,
        lambda: qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton),
        failed=lab.controller.failed,
    )
    run(qloop, lab.controller.wait_idle())
    guards = ["unicode-normalizer", DETECTOR, "pii-detector", "prompt-injection-detector-2"]
    assert [row.guard for row in rows] == guards
    assert len(results) == cases * len(guards)  # every guard ran every case
    table = panel.table.table()
    assert [line[0] for line in table.rows] == guards
    detector_results = results[cases : 2 * cases]
    expected = guard_columns(DETECTOR, detector_results)
    assert rows[1] == expected and table.rows[1][1:4] == [
        pct(expected.recall),
        pct(expected.fpr),
        f"{expected.roc_auc:.3f}",
    ]
    assert expected.recall is not None and expected.recall > 0.3  # the input detector never reads tool results
    assert rows[0].recall == 0.0 and rows[0].roc_auc is None  # the normalizer alone blocks nothing, scores nothing
    # alone, nothing but the guard ran: no case of the PII detector's run was blocked by the detector
    assert all(DETECTOR not in result.tripped for result in results[2 * cases : 3 * cases])
    assert lab.tabs.currentWidget() is lab.scores_tab
    second = "prompt-injection-detector-2"  # the output lane's detector of tool results: alone it is no "-2"
    assert [lab.curves_panel.guard.itemData(i) for i in range(lab.curves_panel.guard.count())] == [DETECTOR, second]
    tool_guard = results[3 * cases :]
    assert any(second in result.tripped for result in tool_guard)
    assert all(DETECTOR not in result.tripped and DETECTOR not in result.scores for result in tool_guard)
    lab.curves_panel.guard.setCurrentIndex(lab.curves_panel.guard.findData(DETECTOR))
    assert lab.curves_panel.current_curves().roc_auc == expected.roc_auc  # type: ignore[union-attr]
    stored = run(qloop, workspace.store.lab_runs.list_lab_runs())
    assert sum(1 for record in stored if record.settings.get("side_by_side")) == len(guards)  # each kept as a run
    kept = next(record for record in stored if record.settings.get("side_by_side") == second)
    _record, rows = run(qloop, workspace.store.lab_runs.load_lab_run(kept.id))
    assert any(second in (row.result or {}).get("tripped", []) for row in rows)  # stored under its id in the design
    assert not any(DETECTOR in (row.result or {}).get("scores", {}) for row in rows)
