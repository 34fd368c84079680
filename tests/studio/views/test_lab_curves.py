"""The Lab window's Scores tab over the real studio (issue 30 item 3): a real run of the sample design, the
detector's histogram and curves as :mod:`lab.metrics` computes them, a threshold slider moved with real key and mouse
events that shows recall and FPR there, and "Use in the design" writing the threshold as one undo step that one
Ctrl+Z in the main window restores."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionSlider
from pytestqt.qtbot import QtBot

from lab.metrics import score_curves
from studio.models.lab_tables import pct
from studio.views.lab_curves import SLIDER_STEPS
from tests.studio.views.lab_support import choose, finish, open_lab

DETECTOR = "prompt-injection-detector"
CTRL = Qt.KeyboardModifier.ControlModifier


def detector_entry(workspace: object) -> object:
    document = workspace.document  # type: ignore[attr-defined]
    return next(entry for entry in document.chain("input") if entry.type == "PromptInjectionDetector")


def test_the_scores_tab_draws_the_detectors_curves_and_its_slider_writes_one_undo_step(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window, lab = open_lab(qtbot, qloop, tmp_path, size=(1366, 768))
    choose(lab, "direct-injection.jsonl")
    finish(qloop, lab, lab.run_button.click)
    panel = lab.curves_panel
    lab.tabs.setCurrentWidget(panel)
    QApplication.processEvents()

    results = lab.controller.results
    expected = score_curves(results)[DETECTOR]
    assert all(DETECTOR in result.scores for result in results)  # passing and blocked cases alike
    assert [panel.guard.itemData(i) for i in range(panel.guard.count())] == [DETECTOR]
    figure = panel.figure
    assert figure.curves is not None and figure.curves.roc == expected.roc and figure.curves.pr == expected.pr
    assert figure.histogram == expected.histogram()
    assert f"ROC AUC {expected.roc_auc:.3f}" in panel.summary.text()
    # the slider starts on the design's threshold (the sample's 0.7), with the figures there
    assert panel.threshold() == 0.7
    at_design = expected.at(0.7)
    assert panel.point() == at_design
    assert f"recall <b>{pct(at_design.recall)}</b>" in panel.figures.text()
    assert not panel.save.isEnabled()  # nothing to write: that is the design's threshold

    # real key events: down to 0.5 (PageDown is 50 steps of 1000)
    panel.slider.setFocus()
    for _ in range(4):
        qtbot.keyClick(panel.slider, Qt.Key.Key_PageDown)
    assert panel.threshold() == 0.5
    assert panel.point() == expected.at(0.5)
    assert f"FPR <b>{pct(expected.at(0.5).fpr)}</b>" in panel.figures.text()
    assert figure.point == expected.at(0.5)
    # a real mouse drag of the handle to the right end: the highest threshold flags no benign case
    option = QStyleOptionSlider()
    panel.slider.initStyleOption(option)
    handle = panel.slider.style().subControlRect(
        QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, panel.slider
    )
    qtbot.mousePress(panel.slider, Qt.MouseButton.LeftButton, pos=handle.center())
    qtbot.mouseMove(panel.slider, QPoint(panel.slider.width() - 1, handle.center().y()))
    qtbot.mouseRelease(
        panel.slider, Qt.MouseButton.LeftButton, pos=QPoint(panel.slider.width() - 1, handle.center().y())
    )
    assert panel.slider.value() == SLIDER_STEPS and panel.threshold() == 1.0
    assert panel.point() == expected.at(1.0)
    # the lowest threshold within a 1 % false-positive budget, exactly (not the slider's nearest step)
    budget = expected.threshold_for_fpr(0.01)
    assert budget is not None
    panel.budget.setValue(1.0)
    qtbot.mouseClick(panel.find_button, Qt.MouseButton.LeftButton)
    assert panel.threshold() == budget.threshold and panel.point() == budget
    assert budget.fpr is not None and budget.fpr <= 0.01
    qtbot.keyClick(panel.slider, Qt.Key.Key_Home)
    for _ in range(11):
        qtbot.keyClick(panel.slider, Qt.Key.Key_PageUp)
    assert panel.threshold() == 0.55

    image = panel.grab()
    image.save(str(tmp_path / "scores.png"))

    # "Use in the design": one undo step that writes the threshold into the editor's design
    document = workspace.document
    steps = document.undo_stack().count()
    assert panel.save.isEnabled()
    qtbot.mouseClick(panel.save, Qt.MouseButton.LeftButton)
    assert detector_entry(workspace).options["threshold"] == 0.55  # type: ignore[attr-defined]
    assert document.undo_stack().count() == steps + 1
    assert "0.55" in lab.message.text()
    assert not panel.save.isEnabled()  # the slider is on the design's threshold now
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)  # one Ctrl+Z in the main window restores the old threshold
    assert detector_entry(workspace).options["threshold"] == 0.7  # type: ignore[attr-defined]
    assert document.undo_stack().count() == steps + 1 and document.undo_stack().index() == steps


def test_a_guard_the_design_does_not_have_cannot_be_written(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _window, lab = open_lab(qtbot, qloop, tmp_path)
    thresholds = lab.controller.thresholds
    assert thresholds.threshold(DETECTOR) == 0.7
    assert thresholds.threshold("unicode-normalizer") is None  # no threshold option
    assert thresholds.threshold("no-such-guard") is None
    steps = workspace.document.undo_stack().count()
    assert not thresholds.set_threshold("no-such-guard", 0.5)
    assert not thresholds.set_threshold("unicode-normalizer", 0.5)
    assert not thresholds.set_threshold(DETECTOR, 1.5)  # the detector's options refuse it
    assert workspace.document.undo_stack().count() == steps
