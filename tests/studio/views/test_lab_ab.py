"""A/B of two designs picked in the Lab window (a version an earlier run ran with, a saved design, the current
one), run one after the other over the chosen corpora on the real studio and store, then compared."""

from __future__ import annotations

import json
from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from lab.metrics import compare
from studio.controllers.lab_records import results_of
from studio.design.agent_design import AgentDesign, ModelConfig, save_design
from studio.lab.design import design_fingerprint
from studio.views.lab_view import AB_TAB, LabView
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

    assert not lab.ab_panel.export_button.isEnabled()  # nothing compared yet
    bar = lab.tabs.tabBar()  # the choices are read again when the user opens the tab
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(AB_TAB).center())
    run(qloop, lab.controller.wait_idle())
    keys = [lab.ab_panel.design_a.itemData(row) for row in range(lab.ab_panel.design_a.count())]
    assert keys == ["current", f"version:{before}"]  # the saved design is the current one: listed once
    (first_run,) = run(qloop, workspace.store.lab_runs.list_lab_runs())
    # named as the lab runs list names the run it ran in, so the user finds it there
    when = f"{first_run.created_at.astimezone():%m-%d %H:%M}"
    assert lab.ab_panel.design_a.itemText(1).endswith(f"(as in lab run {when})")
    assert lab.ab_panel.design_a.currentData() == f"version:{before}"  # A: the other design, B: the current
    assert lab.ab_panel.design_b.currentData() == "current"

    (comparison,) = until_signal(
        qloop,
        lab.controller.compared,
        lambda: qtbot.mouseClick(lab.ab_panel.run_button, Qt.MouseButton.LeftButton),
        failed=lab.controller.failed,
    )
    run(qloop, lab.controller.wait_idle())

    records = {record.id: record for record in run(qloop, workspace.store.lab_runs.list_lab_runs())}
    assert len(records) == 3 and {comparison.a.id, comparison.b.id} <= set(records)
    a, a_rows = run(qloop, workspace.store.lab_runs.load_lab_run(comparison.a.id))
    b, b_rows = run(qloop, workspace.store.lab_runs.load_lab_run(comparison.b.id))
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
    assert lab.ab_label.text().startswith(f"A: {a.name[3:]}<br>B: {b.name[3:]}<br>")  # never "A: A: …"
    assert lab.ab_panel.run_button.isEnabled() and lab.run_button.isEnabled()

    # Export A/B… writes the comparison as `processor-studio lab diff --json` does, with the designs that ran
    lab.ab_panel.export_button.click()
    dialog = lab.findChild(QFileDialog, "lab_export_dialog")
    assert dialog is not None and dialog.isVisible()
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.selectFile(str(tmp_path / "ab.json"))
    dialog.accept()
    run(qloop, lab.controller.wait_idle())
    exported = json.loads((tmp_path / "ab.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in exported["changed"]] == [c.id for c in changed]
    assert exported["changed"][0]["before"] == "blocked" and exported["only_before"] == exported["only_after"] == []
    assert (exported["a"]["design"]["fingerprint"], exported["b"]["design"]["fingerprint"]) == (before, now)
    assert (exported["a"]["lab_run"], exported["b"]["lab_run"]) == (comparison.a.id, comparison.b.id)
    assert exported["before"] == comparison.before.to_dict() and exported["after"] == comparison.after.to_dict()
    assert lab.message.text() == "Wrote ab.json"


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
    lab.ab_panel.pick("current", "current")
    lab.ab_panel.run_button.click()
    assert lab.message.text().startswith("A and B are the same design: pick another for one of them")
    assert not lab.controller.is_running
    assert run(qloop, workspace.store.lab_runs.list_lab_runs()) == []


def _file_dialog(lab: LabView, letter: str) -> QFileDialog:
    """Press "From file…" for ``letter``: the dialog is open (``open()``, not ``exec()``: this returns at once)."""
    lab.ab_panel.file_buttons[letter].click()
    dialog = lab.findChild(QFileDialog, "lab_design_file_dialog")
    assert dialog is not None and dialog.isVisible() and dialog.fileMode() == QFileDialog.FileMode.ExistingFile
    return dialog


def _choose_file(qloop: qasync.QEventLoop, lab: LabView, letter: str, path: Path) -> None:
    """The user picks ``path`` in the dialog and presses Open."""
    dialog = _file_dialog(lab, letter)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.selectFile(str(path))
    dialog.accept()
    assert not dialog.isVisible()
    run(qloop, lab.controller.wait_idle())


def _pickers(lab: LabView) -> tuple[list[str], str, str]:
    combo = lab.ab_panel.design_a
    keys = [str(combo.itemData(row)) for row in range(combo.count())]
    return keys, str(lab.ab_panel.design_a.currentData()), str(lab.ab_panel.design_b.currentData())


def test_a_design_file_from_disk_is_picked_for_b_and_run_against_the_current_design(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _, lab = open_lab(qtbot, qloop, tmp_path)
    lab.tabs.setCurrentIndex(AB_TAB)
    colleague = AgentDesign.from_json(workspace.document.snapshot().to_json())
    colleague.name = "Colleague's <i>agent</i>"  # a name is data: shown as written, never rendered
    colleague.input = [entry for entry in colleague.input if entry.type != "PromptInjectionDetector"]
    exported = tmp_path / "downloads" / "colleague.json"
    exported.parent.mkdir()
    save_design(colleague, exported)
    designs_before = run(qloop, workspace.store.list_designs())

    _choose_file(qloop, lab, "B", exported)
    keys, a, b = _pickers(lab)
    assert b == f"file:{exported.resolve()}" and keys[-1] == b and a == "current"
    assert lab.ab_panel.design_b.currentText() == "Colleague's <i>agent</i> (file colleague.json)"
    assert lab.message.text() == "Design Colleague's <i>agent</i> read from colleague.json"
    assert lab.message.textFormat() == Qt.TextFormat.PlainText  # the name as written, not as markup
    assert run(qloop, workspace.store.list_designs()) == designs_before  # offered for A/B, not saved, not opened
    assert workspace.document.design().name != colleague.name

    # the file is still offered when the choices are read again (the user opens the tab once more)
    bar = lab.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(AB_TAB).center())
    run(qloop, lab.controller.wait_idle())
    assert _pickers(lab) == (keys, a, b)

    choose(lab, "direct-injection.jsonl")
    (comparison,) = until_signal(
        qloop,
        lab.controller.compared,
        lambda: qtbot.mouseClick(lab.ab_panel.run_button, Qt.MouseButton.LeftButton),
        failed=lab.controller.failed,
    )
    run(qloop, lab.controller.wait_idle())
    _, a_rows = run(qloop, workspace.store.lab_runs.load_lab_run(comparison.a.id))
    b, b_rows = run(qloop, workspace.store.lab_runs.load_lab_run(comparison.b.id))
    assert comparison.b.design_fingerprint == design_fingerprint(colleague)  # the file's design ran as B
    assert AgentDesign.from_json(b.design_json).name == "Colleague's <i>agent</i>"
    assert comparison.a.design_fingerprint == design_fingerprint(workspace.document.snapshot())
    assert [row.case_id for row in a_rows] == [row.case_id for row in b_rows]
    changed = compare(results_of(a_rows), results_of(b_rows))
    assert changed and [c.id for c in comparison.changes] == [c.id for c in changed]
    assert all(c.before == "blocked" and c.after != "blocked" for c in changed)  # B lacks the injection guard
    assert b.name == "B: Colleague's <i>agent</i> · direct-injection.jsonl"
    assert "<br>B: Colleague&#x27;s &lt;i&gt;agent&lt;/i&gt; · direct-injection.jsonl<br>" in lab.ab_label.text()


def test_a_malformed_or_newer_design_file_is_refused_as_open_design_refuses_it_and_nothing_changes(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _, lab = open_lab(qtbot, qloop, tmp_path)
    lab.tabs.setCurrentIndex(AB_TAB)
    run(qloop, lab.controller.load_design_choices())
    before = _pickers(lab)
    said: list[str] = []
    workspace.designs.status_message.connect(said.append)
    for name, content in (
        ("broken.json", '{"version": 1, "name": '),
        ("list.json", "[]"),
        ("newer.json", json.dumps({"version": 99, "name": "From the future"})),
    ):
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        assert not workspace.open_design_file(path)  # File → Open design says why in the status bar
        _choose_file(qloop, lab, "A", path)
        assert lab.message.text() == said[-1] and lab.message.text().startswith(f"{name}: ")
        assert _pickers(lab) == before
    gone = tmp_path / "gone.json"  # chosen, then deleted before it is read
    gone.write_text("{}", encoding="utf-8")
    dialog = _file_dialog(lab, "A")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.selectFile(str(gone))
    gone.unlink()
    dialog.fileSelected.emit(str(gone))
    dialog.reject()
    run(qloop, lab.controller.wait_idle())
    assert lab.message.text().startswith("gone.json: cannot read the file")
    assert _pickers(lab) == before and not lab.controller.is_running


def test_a_design_file_holding_a_credential_is_refused_when_chosen_and_nothing_runs(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _, lab = open_lab(qtbot, qloop, tmp_path)
    lab.tabs.setCurrentIndex(AB_TAB)
    hostile = AgentDesign.from_json(workspace.document.snapshot().to_json())
    hostile.name = "Shared bot"
    hostile.model = ModelConfig(
        model="openai/gpt-4o-mini",
        api_base="http://127.0.0.1:9/v1",
        extra={"extra_headers": {"Authorization": "Bearer sk-someone-elses"}},
    )
    path = tmp_path / "shared.json"
    path.write_text(hostile.to_json(), encoding="utf-8")  # save_design refuses it: written as someone else did
    before = lab.ab_panel.design_b.currentData()
    _choose_file(qloop, lab, "B", path)  # refused as File → Open design refuses it
    assert "model.extra.extra_headers.Authorization: credentials" in lab.message.text()
    assert lab.ab_panel.design_b.currentData() == before != f"file:{path.resolve()}"
    choose(lab, "obfuscation.jsonl")
    assert not lab.controller.is_running
    stored = run(qloop, workspace.store.lab_runs.list_lab_runs())
    assert stored == []  # A did not run either, and no design with the header was kept


def test_two_lab_runs_over_different_corpora_say_which_cases_were_not_compared(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, _, lab = open_lab(qtbot, qloop, tmp_path)
    choose(lab, "obfuscation.jsonl")
    finish(qloop, lab, lab.run_button.click)
    choose(lab, "pii-exfiltration.jsonl")  # the second run has one more corpus
    finish(qloop, lab, lab.run_button.click)
    lab.runs_view.selectAll()
    (comparison,) = until_signal(qloop, lab.controller.compared, lab.compare_button.click, failed=lab.controller.failed)
    added = {source.name: source for source in lab.controller.corpora.sources()}["pii-exfiltration.jsonl"]
    assert comparison.only_a == [] and comparison.only_b == [case.id for case in added.cases]
    assert comparison.changes == []  # the same design on the cases both ran
    assert (
        f"Not compared: 0 cases only in A, {len(added.cases)} cases only in B (the two runs' corpora differ)"
        in lab.ab_label.text()
    )
    assert "0 cases changed verdict" in lab.ab_label.text()
