"""The Lab's tables and chart never cut their own words: seen when the Lab was driven on a 1366x768 screen under
Xvfb, where the cases table's "Language" header read ".anguage" and the chart's "direct-injection" read
"direct…ection" with a whole screen of room beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from lab.corpus import bundled_corpora, load_corpora
from studio.models.lab_tables import CategoryBar
from studio.views.lab_bars import MARGIN, CategoryBars
from studio.views.lab_cases_panel import LabCasesPanel
from tests.studio.views.lab_support import open_lab

CATEGORIES = sorted({case.category or "" for case in load_corpora(bundled_corpora()).cases} - {""})


@pytest.mark.parametrize("points", [9, 10, 11, 12, 13])
def test_the_chart_shows_each_bundled_category_name_whole(qtbot: QtBot, points: int) -> None:
    """The label column is as wide as the widest name: measured to the fraction of a pixel, since a name given its
    whole-pixel width (rounded down) is elided."""
    chart = CategoryBars()
    qtbot.addWidget(chart)
    chart.setStyleSheet(f"font-size: {points}pt")
    chart.ensurePolished()
    chart.resize(1000, 200)
    assert CATEGORIES
    for name in CATEGORIES:
        chart.set_bars([CategoryBar(name, 1.0, 0.0, 3, 2)])
        room = chart._label_width() - 2 * MARGIN
        assert chart.fontMetrics().elidedText(name, Qt.TextElideMode.ElideMiddle, room) == name, (points, name)


@pytest.mark.parametrize("points", [9, 10, 13])
def test_the_cases_table_opens_with_every_header_whole(qtbot: QtBot, qapp: QApplication, points: int) -> None:
    """With the studio's style sheet's font (set on the application, as the studio sets it)."""
    previous = qapp.styleSheet()
    qapp.setStyleSheet(f"QWidget {{ font-size: {points}pt; }}")
    try:
        panel = LabCasesPanel()
        qtbot.addWidget(panel)
        header = panel.cases_view.horizontalHeader()
        assert header.sectionSize(0) == 320  # the case column keeps its room for the text
        for column in range(panel.cases_model.columnCount()):
            assert header.sectionSize(column) >= header.sectionSizeHint(column), (points, column)
    finally:
        qapp.setStyleSheet(previous)


@pytest.mark.parametrize("narrowed", [False, True])
@pytest.mark.parametrize("language", ["zh_CN", "zh_TW", "en"])
def test_every_corpus_name_is_readable_whole_in_the_side_bar(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, in_language: Any, language: str, narrowed: bool
) -> None:
    """Seen on a 1366x768 screen: the side bar opened 300 px wide, "direct-injection.jsonl · 简体中文（16 个用例）" was
    cut and a horizontal scroll bar appeared under the corpora. The side bar now opens as wide as the names need
    (within reason), a side bar the user narrowed wraps them, and each name's tooltip says it whole."""
    in_language(language)
    _, _, lab = open_lab(qtbot, qloop, tmp_path, (1366, 768), offered=True)
    lab.show()
    qtbot.waitExposed(lab)
    total = sum(lab.body.sizes())
    assert 300 <= lab.body.sizes()[0] <= max(300, total * 0.4)
    if narrowed:  # as a drag of the side bar's edge does it
        lab.body.setSizes([220, total - 220])
        lab.body.splitterMoved.emit(220, 1)
        lab.resize(1300, 768)  # a resize keeps the user's width
        qtbot.waitUntil(lambda: lab.width() == 1300)
        assert lab.body.sizes()[0] == 220
    view = lab.corpora_view
    model = view.model()
    lab.grab().save(str(tmp_path / f"lab-{language}-{'narrowed' if narrowed else 'opened'}.png"))
    assert model.rowCount() >= 6 and not view.horizontalScrollBar().isVisible()
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        text = index.data()
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        view.itemDelegateForIndex(index).initStyleOption(option, index)
        option.rect = view.visualRect(index)
        room = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view)
        needed = option.fontMetrics.boundingRect(room, int(Qt.TextFlag.TextWordWrap), text)
        assert room.width() > 0 and needed.width() <= room.width() and needed.height() <= room.height(), (
            text,
            room,
            needed,
        )
        line = option.fontMetrics.boundingRect(QRect(0, 0, 100_000, 1_000), 0, text)
        assert (needed.height() > line.height()) == (narrowed and line.width() > room.width()), text  # wrapped?
        assert text in index.data(Qt.ItemDataRole.ToolTipRole)
