"""At 200 % text size a hook's row in the inspector's timeline says which hook it is.

Seen under Xvfb on a 1366x768 laptop at 200 %: the timeline's Entry column was ~130 px and every hook row read
"proc…" ("process_input ×3", "process_output_stream ×3", "process_tool_result" alike). Now a hook's name that does not
fit drops the ``process_`` all of them share before it is elided; at 100 % (room enough) nothing changes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem

from studio.models.trace_nodes import HookNode
from studio.views.inspector import InspectorView
from studio.views.timeline_names import HOOK_PREFIX
from tests.studio.views.test_inspector import feed
from tests.support.trace_runs import RecordedRun, full_run


@pytest.fixture(scope="module")
def recorded() -> RecordedRun:
    return asyncio.run(full_run())


def _hook_rows(view: InspectorView) -> list[tuple[str, str, int]]:
    """Each hook row's name, the text its delegate hands the style, and the width the style gives that text."""
    tree, model = view.timeline, view.trace_model
    rows: list[tuple[str, str, int]] = []

    def walk(parent: QModelIndex) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if isinstance(model.node(index), HookNode):
                option = QStyleOptionViewItem()
                option.initFrom(tree.viewport())
                option.rect = tree.visualRect(index)
                option.font = tree.font()
                option.fontMetrics = QFontMetrics(tree.font())
                tree.itemDelegateForIndex(index).initStyleOption(option, index)  # type: ignore[attr-defined]
                text_rect = tree.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, tree)
                margin = tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1
                rows.append((str(index.data()), str(option.text), text_rect.width() - 2 * margin))
            walk(index)

    walk(QModelIndex())
    return rows


def _inspector(qtbot: Any, recorded: RecordedRun, width: int) -> InspectorView:
    view = InspectorView()
    qtbot.addWidget(view)
    view.resize(width, 700)
    feed(view, recorded)
    view.show()
    qtbot.waitExposed(view)
    view.timeline.expandAll()
    QApplication.processEvents()
    return view


def test_at_200_percent_a_narrow_timeline_names_each_hook_by_what_tells_it_apart(
    qtbot: Any, recorded: RecordedRun, text_size: Any
) -> None:
    text_size(2.0)
    view = _inspector(qtbot, recorded, 400)  # the inspector's width at 200 % on a 1366 px screen
    rows = _hook_rows(view)
    assert len(rows) >= 3
    metrics = QFontMetrics(view.timeline.font())
    narrowed = 0
    for name, shown, width in rows:
        if metrics.horizontalAdvance(name) > width:  # did not fit: the shared prefix goes first
            assert shown == name.removeprefix(HOOK_PREFIX), (name, shown)
            narrowed += 1
        else:
            assert shown == name
    assert narrowed >= 3
    drawn = {metrics.elidedText(shown, Qt.TextElideMode.ElideRight, width) for _, shown, width in rows}
    assert len(drawn) >= 5  # no longer "proc…" on every row: input, llm, tool, api error and output rows differ


def test_at_100_percent_with_room_the_hook_names_are_whole(qtbot: Any, recorded: RecordedRun) -> None:
    view = _inspector(qtbot, recorded, 900)
    rows = _hook_rows(view)
    assert rows and all(shown == name for name, shown, _ in rows)
