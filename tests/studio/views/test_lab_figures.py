"""The Lab window's plots over the real studio: the bars of recall and false-positive rate per category, redrawn
as each batch of results arrives, painted from the same confusion matrices as the tables, and clickable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from lab.metrics import confusion_by
from studio.models.lab_tables import category_bars, processor_table
from studio.views.lab_bars import FPR_COLOR, RECALL_COLOR
from tests.studio.views.lab_support import choose, finish, open_lab


def test_recall_and_fpr_bars_per_category_follow_the_results_as_they_arrive(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, _, lab = open_lab(qtbot, qloop, tmp_path, size=(1280, 720))
    chart = lab.confusion_panel.bars
    assert chart.bars() == []
    choose(lab, *[source.name for source in lab.controller.corpora.sources()])
    lab.concurrency.setValue(1)
    # Run shows the Cases tab; the user then opens the Confusion tab: its figures follow every batch.
    lab.controller.run_started.connect(lambda _id: lab.tabs.setCurrentIndex(1))
    seen: list[tuple[Any, Any]] = []
    behind: list[bool] = []
    lab.controller.results_added.connect(  # the tab out of view waits until it is opened
        lambda _batch: behind.append(
            lab.tables["processors"].table().rows != processor_table(lab.controller.results).rows
        )
    )
    # Connected after the view's own slot: each batch is already drawn when this runs.
    lab.controller.results_added.connect(
        lambda _batch: seen.append((chart.bars(), category_bars(lab.controller.results)))
    )
    finish(qloop, lab, lab.run_button.click)

    assert seen and all(drawn == expected for drawn, expected in seen)  # redrawn with every batch
    assert len(behind) < 2 or any(behind)  # (one batch may hold every result)
    results = lab.controller.results
    lab.tabs.setCurrentIndex(2)
    assert lab.tables["processors"].table().rows == processor_table(results).rows
    by_category = confusion_by(results, lambda r: r.category)
    assert [(bar.category, bar.recall, bar.fpr) for bar in chart.bars()] == [
        (name, matrix.recall, matrix.fpr) for name, matrix in by_category.items()
    ]
    table = lab.tables["category"].table()
    assert [row[0] for row in table.rows] == [bar.category for bar in chart.bars()]

    lab.tabs.setCurrentIndex(1)
    QApplication.processEvents()
    overall = lab.confusion_panel.overall_view  # the overall row is whole above the splitter's other parts
    assert overall.viewport().height() >= overall.rowHeight(0) > 0
    image = chart.grab().toImage()
    image.save(str(tmp_path / "bars.png"))
    painted = 0
    for row, bar in enumerate(chart.bars()):
        recall, fpr = chart.bar_rects(row)
        recall_track, fpr_track = chart.track_rects(row)
        if bar.recall:
            assert recall is not None and abs(recall.width() - recall_track.width() * bar.recall) <= 1
            assert image.pixelColor(recall.center()).rgb() == RECALL_COLOR.rgb()
            painted += 1
        if bar.recall is not None and bar.recall < 1:  # the rest of the track is not painted as recall
            assert image.pixelColor(recall_track.right() - 1, recall_track.center().y()).rgb() != RECALL_COLOR.rgb()
        if bar.fpr:
            assert fpr is not None and image.pixelColor(fpr.center()).rgb() == FPR_COLOR.rgb()
        else:
            assert image.pixelColor(fpr_track.center()).rgb() != FPR_COLOR.rgb()
    assert painted > 0  # the sample catches some attacks of some category

    # A click on a category's row shows its cases.
    row = next(i for i, bar in enumerate(chart.bars()) if bar.recall)
    category = chart.bars()[row].category
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=chart.track_rects(row)[0].center())
    assert lab.tabs.currentIndex() == 0
    assert set(lab.visible_case_ids()) == {r.id for r in results if (r.category or "(none)") == category}


def test_a_heat_map_cell_counts_and_shows_the_attacks_its_processor_tripped_on_or_only_changed(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, _, lab = open_lab(qtbot, qloop, tmp_path)
    choose(lab, "direct-injection.jsonl", "indirect-injection.jsonl", "obfuscation.jsonl")
    finish(qloop, lab, lab.run_button.click)
    results = lab.controller.results
    model = lab.tables["processors"]
    table = model.table()
    changed_only = 0
    for row, cells in enumerate(table.rows):
        for column, processor in enumerate(table.columns[1:-1], start=1):
            category = table.filters[row][column]["category"]
            attacks = [r for r in results if r.label == "attack" and (r.category or "(none)") == category]
            tripped = {r.id for r in attacks if processor in r.tripped}
            changed = {r.id for r in attacks if processor in r.caught_by and processor not in r.tripped}
            text = cells[column]
            numbers = [int(word) for word in text.split() if word.isdigit()]
            assert sum(numbers) == len(tripped) + len(changed), (processor, category, text)
            assert ("changed" in text) == bool(changed)
            if changed and not tripped:
                changed_only += 1
                assert text == f"{len(changed)} changed"
            assert str(len(changed)) in str(model.index(row, column).data(Qt.ItemDataRole.ToolTipRole))
            if tripped or changed:  # the cell's filter shows exactly the cases it counts
                lab.apply_filters(table.filters[row][column])
                assert set(lab.visible_case_ids()) == tripped | changed, (processor, category)
    # The sample's Unicode normaliser rewrites some attacks it never blocks: before, its cells read "·" while a
    # click on them listed those attacks.
    assert changed_only > 0
    column = table.columns.index("unicode-normalizer")
    row = next(r for r, cells in enumerate(table.rows) if "changed" in cells[column])
    index = model.index(row, column)
    view = lab.processors_view
    lab.tabs.setCurrentIndex(2)
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
    assert lab.tabs.currentIndex() == 0
    shown = lab.visible_case_ids()
    assert shown and len(shown) == sum(int(w) for w in table.rows[row][column].split() if w.isdigit())
