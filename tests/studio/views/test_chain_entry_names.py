"""A chain entry's whole name is readable in its lane, at 100 % and at 200 % text size, in English and in Chinese.

Seen under Xvfb on a 1366x768 laptop: at 100 % the lanes showed "Unicode Nor…", "Prompt inject…", "Stream Error Re…";
at 200 % (after the lanes got room for 12 characters) "Unicode Nor…", "PII detecto…", and the tooltip gave the type's
description without its name. Now a name wraps onto up to three lines (the options summary stays one line, elided),
each row is as tall as its lines, and the tooltip starts with the whole name and summary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetrics, QHelpEvent
from PySide6.QtWidgets import QApplication, QListView, QStyle, QStyleOptionViewItem, QToolTip

from studio.design.agent_design import LANES
from studio.views.chain_editor import NAME_LINES, wrap_name
from tests.studio.conftest import open_studio, run

LAPTOP = (1366, 768)


def _shown(view: QListView, row: int) -> tuple[list[str], int]:
    """The lines the style draws for ``row`` (as the delegate hands them over) and the width they get."""
    index = view.model().index(row, 0)
    option = QStyleOptionViewItem()
    option.initFrom(view.viewport())
    option.rect = view.visualRect(index)
    option.font = view.font()
    option.fontMetrics = QFontMetrics(view.font())
    view.itemDelegate().initStyleOption(option, index)  # type: ignore[attr-defined]  # a QStyledItemDelegate
    text_rect = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view)
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return str(option.text).split("\u2028"), text_rect.width() - 2 * margin


def _assert_names_whole(window: Any) -> int:
    checked = 0
    for lane in LANES:
        view = window.chains.view(lane)
        model = view.model()
        metrics = QFontMetrics(view.font())
        for row in range(model.rowCount()):
            name = str(model.index(row, 0).data()).split("\n")[0]
            lines, width = _shown(view, row)
            words = len(wrap_name(name, view.font(), width, most=99))
            assert words <= NAME_LINES, name  # no built-in name needs more at this width
            shown_name = " ".join(lines[:words])
            assert shown_name.replace(" ", "") == name.replace(" ", ""), (lane, name, lines)
            for line in lines[:words]:
                assert metrics.horizontalAdvance(line) <= width, (lane, line, width)  # the style elides none
            assert view.visualRect(model.index(row, 0)).height() >= len(lines) * metrics.lineSpacing() - 2, name
            checked += 1
    return checked


@pytest.mark.parametrize("factor", [1.0, 2.0])
def test_every_entry_name_of_the_sample_shows_whole_in_its_lane(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, text_size: Any, factor: float
) -> None:
    text_size(factor)
    workspace, window = open_studio(qtbot, qloop, size=LAPTOP, database=tmp_path / "studio.db")
    qtbot.waitExposed(window)
    QApplication.processEvents()
    assert _assert_names_whole(window) >= 6  # the sample's entries, in the three lanes
    run(qloop, workspace.shutdown())


def test_a_chinese_entry_name_wraps_between_characters(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, text_size: Any, in_language: Any
) -> None:
    in_language("zh_CN")
    text_size(2.0)
    workspace, window = open_studio(qtbot, qloop, size=LAPTOP, database=tmp_path / "studio.db")
    qtbot.waitExposed(window)
    QApplication.processEvents()
    assert _assert_names_whole(window) >= 6
    run(qloop, workspace.shutdown())


def test_a_name_longer_than_its_lines_ends_in_an_ellipsis() -> None:
    font = QApplication.font()
    width = QFontMetrics(font).horizontalAdvance("injection") + 2
    lines = wrap_name("Prompt injection detector of very long words", font, width, most=3)
    assert len(lines) == 3
    assert lines[:2] == ["Prompt", "injection"]
    assert lines[2].endswith("…")


def test_the_tooltip_starts_with_the_whole_name(qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    workspace, window = open_studio(qtbot, qloop, size=LAPTOP, database=tmp_path / "studio.db")
    qtbot.waitExposed(window)
    view = window.chains.view("input")
    index = view.model().index(0, 0)
    name = str(index.data()).split("\n")[0]
    where = view.visualRect(index).center()
    event = QHelpEvent(QEvent.Type.ToolTip, where, view.viewport().mapToGlobal(where))
    QApplication.sendEvent(view.viewport(), event)
    qtbot.waitUntil(QToolTip.isVisible)
    tip = QToolTip.text()
    assert tip.startswith(name + "\n"), tip
    assert str(index.data(Qt.ItemDataRole.ToolTipRole)) in tip  # the description is still there
    QToolTip.hideText()
    run(qloop, workspace.shutdown())
