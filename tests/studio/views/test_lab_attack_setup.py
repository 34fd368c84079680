"""The Lab window's Attack tab, set-up half, driven as a user would over the real studio (a real store file, the
sample design): the converters listed with their descriptions, chains composed by double click, Enter, drag and
drop, reordered and removed with buttons and keys, the seeds from the corpora ticked on the left, and the live
preview, which is exactly the variant the attack sends for that seed, chain and seed number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from lab.converters import load_converters
from studio.controllers.lab_attack import DEFAULT_BUDGET, attacked_text
from studio.models.lab_attack_chains import CONVERTER_MIME, DEFAULT_CHAINS, chain_spec
from studio.views.lab_view import ATTACK_TAB
from tests.studio.conftest import run
from tests.studio.views.lab_support import choose, open_lab


def open_attack(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, *corpora: str) -> tuple[Any, Any]:
    """The Lab window on its Attack tab, the converters read, ``corpora`` ticked on the left."""
    _, _, lab = open_lab(qtbot, qloop, tmp_path, size=(1366, 768))
    choose(lab, *corpora)
    lab.tabs.setCurrentIndex(ATTACK_TAB)
    panel = lab.attack_panel
    run(qloop, lab.controller.wait_idle())
    qtbot.waitUntil(lambda: panel.controller.converters.rowCount() > 0)
    shown_preview(qtbot, qloop, panel)
    return lab, panel


def synthetic_drop(view: Any, mime: QMimeData, point: QPoint) -> bool:
    """Enter, move and drop events at ``point`` of the view's viewport (the offscreen platform has no real drag);
    True when the view took the drag move."""
    actions = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    events = (
        QDragEnterEvent(point, actions, mime, buttons, modifiers),
        QDragMoveEvent(point, actions, mime, buttons, modifiers),
        QDropEvent(QPointF(point), actions, mime, buttons, modifiers),
    )
    for event in events:
        event.setDropAction(Qt.DropAction.CopyAction)
        QApplication.sendEvent(view.viewport(), event)
    return events[1].isAccepted()


def shown_preview(qtbot: QtBot, qloop: qasync.QEventLoop, panel: Any) -> str:
    """Wait for the preview the latest edit asked for, and return it."""
    if panel._preview_timer.isActive():  # the edit's preview: asked now rather than when the timer fires
        panel._preview_timer.stop()
        panel.ask_preview()
    run(qloop, panel.controller.wait_tasks())
    return str(panel.editor.preview.toPlainText())


def test_the_attack_tab_lists_every_converter_and_starts_with_a_handful_of_chains(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _lab, panel = open_attack(qtbot, qloop, tmp_path, "direct-injection.jsonl")
    registry = load_converters()
    names = [item.name for item in panel.controller.converters.converters()]
    assert sorted(names) == sorted(registry)
    assert len(names) >= 30
    assert panel.controller.chains.specs() == [chain_spec(chain) for chain in DEFAULT_CHAINS]
    assert panel.budget.value() == DEFAULT_BUDGET == 500
    seeds = panel.controller.seed_cases()
    assert seeds and all(case.label == "attack" for case in seeds)
    assert f"the {len(seeds)} attacks" in panel.seeds_label.text()

    view = panel.editor.converter_view
    row = next(r for r in range(view.model().rowCount()) if view.model().index(r, 0).data() == "rot13")
    view.setCurrentIndex(view.model().index(row, 0))
    assert panel.editor.converter_about.text() == registry["rot13"].description
    qtbot.keyClicks(panel.editor.converter_search, "morse")  # a search by name or description
    assert [view.model().index(r, 0).data() for r in range(view.model().rowCount())] == ["morse"]


def test_the_preview_is_the_variant_the_attack_sends_and_follows_every_edit(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _lab, panel = open_attack(qtbot, qloop, tmp_path, "direct-injection.jsonl")
    editor = panel.editor
    registry = load_converters()
    seed = panel.chosen_seed()
    assert seed is not None
    first = shown_preview(qtbot, qloop, panel)
    assert first == registry.chain("base64").variant(seed.id, attacked_text(seed), 0).text
    assert "base64" in editor.preview_note.text()

    # a new chain: empty until converters are added (a double click, then Enter on another)
    qtbot.mouseClick(editor.new_chain_button, Qt.MouseButton.LeftButton)
    assert editor.chosen_spec() == ""
    panel.ask_preview()
    assert "empty" in editor.preview_note.text()
    view, converters = editor.converter_view, editor.converter_filter
    rows = {converters.index(r, 0).data(): r for r in range(converters.rowCount())}
    view.scrollTo(converters.index(rows["leetspeak"], 0))
    rect = view.visualRect(converters.index(rows["leetspeak"], 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a double click: press first
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    view.setCurrentIndex(converters.index(rows["story"], 0))
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert editor.steps.steps() == ["leetspeak", "story"]
    assert editor.chosen_spec() == "leetspeak|story"
    assert (
        shown_preview(qtbot, qloop, panel)
        == registry.chain("leetspeak|story").variant(seed.id, attacked_text(seed), 0).text
    )

    # reorder with Alt+Up, and the preview follows
    editor.step_view.setCurrentIndex(editor.steps.index(1))
    editor.step_view.setFocus()
    qtbot.keyClick(editor.step_view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert editor.steps.steps() == ["story", "leetspeak"]
    assert panel.controller.chains.specs()[-1] == "story|leetspeak"
    assert panel._preview_timer.isActive()  # the edit asked for a preview (once its typing settles)
    assert (
        shown_preview(qtbot, qloop, panel)
        == registry.chain("story|leetspeak").variant(seed.id, attacked_text(seed), 0).text
    )

    # another seed number, another variant (the same number, the same one)
    panel.seed.setValue(7)
    assert (
        shown_preview(qtbot, qloop, panel)
        == registry.chain("story|leetspeak").variant(seed.id, attacked_text(seed), 7).text
    )

    # Del takes a step out; Del on the chains list removes the chain
    qtbot.keyClick(editor.step_view, Qt.Key.Key_Delete)
    assert editor.steps.steps() == ["leetspeak"]
    editor.chain_view.setFocus()
    before = panel.controller.chains.rowCount()
    qtbot.keyClick(editor.chain_view, Qt.Key.Key_Delete)
    assert panel.controller.chains.rowCount() == before - 1
    assert "story|leetspeak" not in panel.controller.chains.specs()
    shown_preview(qtbot, qloop, panel)


def test_converters_dropped_on_the_steps_go_where_they_fall_and_a_dragged_step_moves(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _lab, panel = open_attack(qtbot, qloop, tmp_path, "direct-injection.jsonl")
    editor = panel.editor
    editor.choose_chain(len(DEFAULT_CHAINS) - 1)  # leetspeak | story
    assert editor.steps.steps() == ["leetspeak", "story"]
    converters = editor.converter_filter
    rows = {converters.index(r, 0).data(): r for r in range(converters.rowCount())}
    # a drag from the converters list carries the names; dropped on the first step, it goes before it
    data = converters.mimeData([converters.index(rows["base64"], 0)])
    assert data.hasFormat(CONVERTER_MIME)
    target = editor.step_view.visualRect(editor.steps.index(0))
    assert synthetic_drop(editor.step_view, data, QPoint(target.center().x(), target.top() + 2))
    assert editor.steps.steps() == ["base64", "leetspeak", "story"]
    # the steps list drags its own rows: the last one dropped on the first goes first
    moved = editor.steps.mimeData([editor.steps.index(2)])
    assert editor.steps.dropMimeData(moved, Qt.DropAction.MoveAction, 0, 0, editor.steps.index(0).parent())
    assert editor.steps.steps() == ["story", "base64", "leetspeak"]
    assert panel.controller.chains.specs()[-1] == "story|base64|leetspeak"
    assert isinstance(data, QMimeData)
    shown_preview(qtbot, qloop, panel)


def test_the_seeds_follow_the_corpora_ticked_on_the_left(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    lab, panel = open_attack(qtbot, qloop, tmp_path)
    assert panel.controller.seed_cases() == []
    assert panel.editor.preview_seed.count() == 0
    panel.ask_preview()
    assert "tick corpora" in panel.editor.preview_note.text()
    choose(lab, "prompt-extraction.jsonl")
    attacks = [c for c in lab.controller.corpora.checked()[0].cases if c.label == "attack"]
    assert panel.editor.preview_seed.count() == len(attacks)
    assert panel.editor.preview_seed.itemData(0) == attacks[0].id
    panel.editor.preview_seed.setCurrentIndex(2)
    assert panel.chosen_seed() == attacks[2]
    assert (
        shown_preview(qtbot, qloop, panel)
        == load_converters().chain("base64").variant(attacks[2].id, attacked_text(attacks[2]), 0).text
    )
