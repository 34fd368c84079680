"""The Lab window's Attack tab, run half, over the real studio (a real store file, the sample design, worker
processes): Start fills the robustness matrix as variants finish, a bypass opens as a thread, goes into the corpus
of found bypasses and out as a regression test that fails against the design; Cancel keeps what finished and Resume
runs only the rest; keys start, cancel and resume the attack from the tab."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from lab.attack.robustness import Robustness
from lab.corpus import load_corpus
from studio.controllers.lab_attack import FOUND_BYPASSES, latest_unfinished
from studio.system.paths import data_dir
from studio.views.lab_view import ATTACK_TAB
from tests.studio.conftest import run
from tests.studio.views.lab_support import choose, open_lab, until_signal

#: The sample design stops the plain "Ignore all previous instructions" and lets its base64-of-ROT13 variant through
#: (two disguises: the detector, the learned model as the heuristics before it, decodes one); base64 is the other
#: chain. (With the heuristics the accented variant got through; the model catches it.)
CHAINS = [["base64", "rot13"], ["base64"]]


def attack_tab(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> tuple[Any, Any, Any]:
    workspace, _, lab = open_lab(qtbot, qloop, tmp_path, size=(1366, 768))
    choose(lab, "direct-injection.jsonl")
    lab.tabs.setCurrentIndex(ATTACK_TAB)
    panel = lab.attack_panel
    run(qloop, lab.controller.wait_idle())  # the converters are read (off the UI thread)
    assert panel.controller.converters.rowCount() > 0
    panel.controller.chains.set_chains(CHAINS)
    panel._preview_timer.stop()  # the preview is not what these tests read
    return workspace, lab, panel


def attack_to_the_end(qloop: qasync.QEventLoop, lab: Any, start: Any) -> tuple[Any, ...]:
    attack = lab.controller.attack
    ended = until_signal(qloop, attack.attack_ended, start, failed=lab.controller.failed)
    run(qloop, lab.controller.wait_idle())
    return ended


def test_an_attack_fills_the_matrix_and_each_bypass_opens_as_a_thread_a_corpus_line_and_a_test(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, lab, panel = attack_tab(qtbot, qloop, tmp_path)
    attack = panel.controller
    batches: list[int] = []
    attack.results_added.connect(lambda found: batches.append(len(found)))
    _, status = attack_to_the_end(qloop, lab, lambda: qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton))

    assert status == "finished"
    assert attack.record is not None and attack.record.chains == ["base64|rot13", "base64"]
    assert sum(batches) == len(attack.found) > 0  # shown as they came, in batches
    figures = Robustness.of(attack.found)  # the engine's arithmetic, the same as the CLI's reports
    matrix = panel.results.matrix
    assert matrix.chains() == ["base64|rot13", "base64"]
    assert "prompt-injection-detector" in matrix.processors()
    row = matrix.chains().index("base64|rot13")
    asr = figures.by_chain["base64|rot13"].asr
    assert asr is not None and asr > 0
    assert matrix.index(row, 3).data() == f"{asr:.1%}"
    assert matrix.index(row, 1).data() == str(figures.by_chain["base64|rot13"].variants)
    assert "ASR" in panel.results.summary.text()
    assert (panel.progress.value(), panel.progress.maximum()) == (attack.run_total, attack.run_total)
    bypasses = panel.results.bypasses.bypasses()
    assert bypasses and [item.id for item in bypasses] == [item.id for item in figures.bypasses]
    assert "direct-injection-en-attack-01~base64|rot13" in {item.id for item in bypasses}

    # a click on the chain's row shows only its bypasses
    view = panel.results.matrix_view
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(matrix.index(row, 0)).center())
    shown = panel.results.bypass_filter
    assert shown.rowCount() == figures.by_chain["base64|rot13"].bypassed
    table = panel.results.bypass_view
    table.setCurrentIndex(shown.index(0, 0))
    table.setFocus()
    chosen = panel.results.selected_ids()
    assert len(chosen) == 1 and chosen[0].endswith("~base64|rot13")

    # Enter opens it as a thread, the chat shows the variant the design let through
    (thread_id,) = until_signal(
        qloop, lab.controller.case_thread_ready, lambda: qtbot.keyClick(table, Qt.Key.Key_Return)
    )
    run(qloop, lab.controller.wait_idle())
    messages = run(qloop, workspace.store.memory.all_messages(thread_id))
    variant = attack.bypass(chosen[0])
    assert variant is not None and variant.case is not None
    assert any(variant.case.text in str(message.content) for message in messages)

    # Ctrl+B keeps it in the corpus of found bypasses, listed on the left (unticked)
    lab.activateWindow()  # the thread came up in the main window; a shortcut reaches only the active one
    qtbot.waitUntil(lab.isActiveWindow)
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    run(qloop, lab.controller.wait_idle())
    found_path = data_dir() / FOUND_BYPASSES
    assert [case.id for case in load_corpus(found_path).cases] == chosen
    sources = {source.path: source for source in lab.controller.corpora.sources()}
    assert found_path in sources and not sources[found_path].checked
    qtbot.mouseClick(panel.results.add_button, Qt.MouseButton.LeftButton)  # the same one again: kept once
    run(qloop, lab.controller.wait_idle())
    assert len(load_corpus(found_path).cases) == 1

    # exported as a regression test, it fails against the design that lets it through
    test_file = tmp_path / "test_found.py"
    panel.export_test(chosen, test_file)
    run(qloop, lab.controller.wait_idle())
    assert chosen[0] in test_file.read_text(encoding="utf-8")
    finished = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert finished.returncode == 1, finished.stdout[-2000:]
    assert "1 failed" in finished.stdout


def test_cancel_keeps_what_finished_and_resume_runs_the_rest_from_the_keys(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, lab, panel = attack_tab(qtbot, qloop, tmp_path)
    attack = panel.controller
    assert not panel.resume_button.isEnabled()
    qtbot.waitUntil(lab.isActiveWindow)  # a shortcut reaches only the active window
    panel.editor.chain_view.setFocus()

    def cancel_at_the_first_variants(found: list[Any]) -> None:
        if attack.is_running and not attack.run.cancelled:
            qtbot.keyClick(panel.editor.chain_view, Qt.Key.Key_Escape)

    attack.results_added.connect(cancel_at_the_first_variants)
    _, status = attack_to_the_end(
        qloop,
        lab,
        lambda: qtbot.keyClick(panel.editor.chain_view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier),
    )
    attack.results_added.disconnect(cancel_at_the_first_variants)
    assert status == "cancelled"
    kept = {item.id for item in attack.found}
    assert kept and latest_unfinished() is not None
    assert panel.resume_button.isEnabled() and "cancelled" in panel.progress.format()
    assert not lab.controller.is_running  # the Lab's own run was never started by the keys

    _, status = attack_to_the_end(
        qloop,
        lab,
        lambda: qtbot.keyClick(
            panel.editor.chain_view,
            Qt.Key.Key_R,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        ),
    )
    assert status == "finished"
    assert kept <= {item.id for item in attack.found}  # the resumed attack's report is the whole attack's
    assert attack.run_resumed >= len(kept)  # what had finished came from the results file, not run again
    assert latest_unfinished() is None and not panel.resume_button.isEnabled()
