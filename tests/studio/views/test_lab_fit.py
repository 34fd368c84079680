"""The Lab's tables and chart never cut their own words: seen when the Lab was driven on a 1366x768 screen under
Xvfb, where the cases table's "Language" header read ".anguage" and the chart's "direct-injection" read
"direct…ection" with a whole screen of room beside it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from lab.corpus import bundled_corpora, load_corpora
from studio.models.lab_tables import CategoryBar
from studio.views.lab_bars import MARGIN, CategoryBars
from studio.views.lab_cases_panel import LabCasesPanel

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
