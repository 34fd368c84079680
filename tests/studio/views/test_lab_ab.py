"""A/B of two designs picked in the Lab window (a version an earlier run ran with, a saved design, the current
one), run one after the other over the chosen corpora on the real studio and store, then compared."""

from __future__ import annotations

import json
from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from lab.metrics import compare
from studio.controllers.lab_records import results_of
from studio.design import AgentDesign
from studio.lab_design import design_fingerprint
from studio.views.lab_view import AB_TAB
from tests.studio.conftest import run
from tests.studio.views.lab_support import choose, finish, open_lab, until_signal


def test_two_versions_of_the_design_run_over_one_corpus_and_the_changed_verdicts_show(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _, lab = open_lab(qtbot, qloop, tmp_path)
    choose(lab, "direct-injection.jsonl")
    finish(qloop, lab, lab.run_button.click)  # a lab run keeps the design as it was: a version to pick later
    before = design_fingerprint(workspace.document.snapshot())
    document = workspace.document
    entry = next(e for e in document.design().input if e.type == "PromptInjectionDetector")
    document.set_enabled(entry.uid, False)  # the designer switches the injection guard off
    run(qloop, workspace.designs.flush())  # saved now (the autosave would run after the test)
    now = design_fingerprint(workspace.document.snapshot())
    assert now != before

    bar = lab.tabs.tabBar()  # the choices are read again when the user opens the tab
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(AB_TAB).center())
    run(qloop, lab.controller.wait_idle())
    keys = [lab.ab_panel.design_a.itemData(row) for row in range(lab.ab_panel.design_a.count())]
    assert keys == ["current", f"version:{before}"]  # the saved design is the current one: listed once
    assert lab.ab_panel.design_a.currentData() == f"version:{before}"  # A: the other design, B: the current
    assert lab.ab_panel.design_b.currentData() == "current"

    (comparison,) = until_signal(
        qloop,
        lab.controller.compared,
        lambda: qtbot.mouseClick(lab.ab_panel.run_button, Qt.MouseButton.LeftButton),
        failed=lab.controller.failed,
    )
    run(qloop, lab.controller.wait_idle())

    records = {record.id: record for record in run(qloop, workspace.store.list_lab_runs())}
    assert len(records) == 3 and {comparison.a.id, comparison.b.id} <= set(records)
    a, a_rows = run(qloop, workspace.store.load_lab_run(comparison.a.id))
    b, b_rows = run(qloop, workspace.store.load_lab_run(comparison.b.id))
    assert (a.design_fingerprint, b.design_fingerprint) == (before, now)
    assert a.name.startswith("A: ") and b.name.startswith("B: ") and a.status == b.status == "finished"
    assert [row.case_id for row in a_rows] == [row.case_id for row in b_rows]  # one corpus, both designs
    assert a.created_at <= b.created_at
    changed = compare(results_of(a_rows), results_of(b_rows))
    assert changed and [c.id for c in comparison.changes] == [c.id for c in changed]
    assert all(c.before == "blocked" for c in changed)  # without the guard, attacks it caught got through
    assert lab.tabs.currentIndex() == AB_TAB
    assert [row[0] for row in lab.tables["ab"].table().rows] == [c.id for c in changed]
    assert f"{len(changed)} cases changed verdict" in lab.ab_label.text()
    assert lab.ab_panel.run_button.isEnabled() and lab.run_button.isEnabled()


def test_a_saved_design_is_offered_and_a_b_refuses_what_it_cannot_run(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _, lab = open_lab(qtbot, qloop, tmp_path)
    other = AgentDesign.from_json(workspace.document.snapshot().to_json())
    other.name = "Stricter agent"
    other.id = "design_stricter"
    other.instructions = "Answer in one sentence."
    run(qloop, workspace.store.save_design(other.id, other.name, other.to_json()))
    run(qloop, lab.controller.load_design_choices())
    combo = lab.ab_panel.design_a
    labels = {combo.itemData(r): combo.itemText(r) for r in range(combo.count())}
    assert list(labels) == ["current", "saved:design_stricter"]  # the saved sample is the current design
    assert "Stricter agent (saved" in labels["saved:design_stricter"]
    assert json.loads(next(c.design_json for c in lab.controller.design_choices() if c.key.endswith("stricter")))[
        "name"
    ] == ("Stricter agent")

    lab.ab_panel.pick("saved:design_stricter", "current")
    lab.ab_panel.run_button.click()  # no corpus ticked
    assert lab.message.text() == "Choose at least one corpus to run."
    choose(lab, "obfuscation.jsonl")
    lab.ab_panel.design_b.setCurrentIndex(-1)
    lab.ab_panel.run_button.click()
    assert lab.message.text() == "Choose a design for A and for B."
    assert not lab.controller.is_running
    assert run(qloop, workspace.store.list_lab_runs()) == []
