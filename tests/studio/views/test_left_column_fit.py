"""With large text on a short screen the editor's column scrolls; its chains, palette and options keep their size.

Seen under Xvfb at 1366x768 with the text at 200 % the way a desktop sets it (``Xft.dpi`` 192, so Qt's style grows
too): the window needed 1,008 px of height, the editor column alone 967 (threads 279, the Guardrails tab 688). The
screen gave it 768, so the Guardrails tab's three panes were squeezed under their minimum: the palette showed its
"Input" heading and no processor, each chain less than one entry (83 px of the 168 it needs), with nothing to drag
or scroll to get them back. Now the column scrolls when the screen is too short for it, and each pane keeps its
minimum. The tests' offscreen style does not grow with the text, so 300 % there gives the same squeeze on its
800 px screen; at 100 % nothing changes (no scroll bar, the column fills its place as before).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QScrollArea

from tests.studio.conftest import open_studio, run


@pytest.fixture
def large_text(qapp: QApplication) -> Iterator[None]:
    original = qapp.font()
    font = qapp.font()
    font.setPointSizeF(original.pointSizeF() * 3)
    qapp.setFont(font)
    yield
    qapp.setFont(original)


def test_with_large_text_on_a_short_screen_the_guardrail_panes_keep_their_minimum(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, large_text: None
) -> None:
    workspace, window = open_studio(qtbot, qloop, database=tmp_path / "studio.db")
    room = window.screen().availableGeometry()
    window.resize(room.width(), room.height())
    qtbot.waitExposed(window)
    QApplication.processEvents()

    assert window.minimumSizeHint().height() <= room.height()
    for index in range(window.guardrails.count()):  # palette, chains, options: each at least its minimum
        pane = window.guardrails.widget(index)
        assert pane.height() >= pane.minimumSizeHint().height(), index
    chain = window.chains.view("input")
    assert chain.height() >= chain.sizeHintForRow(0)  # a whole entry, to read and to drag
    run(qloop, workspace.shutdown())


def test_at_100_percent_the_editor_column_does_not_scroll(qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=tmp_path / "studio.db")
    qtbot.waitExposed(window)
    QApplication.processEvents()
    for scroll in window.findChildren(QScrollArea):
        if scroll.widget() is window.left_pane:
            assert not scroll.verticalScrollBar().isVisible() and not scroll.horizontalScrollBar().isVisible()
            assert window.left_pane.size() == scroll.viewport().size()
    run(qloop, workspace.shutdown())


def test_tab_never_stops_on_the_scrolling_frame(qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    """The scroll area is a frame around the column, not a control: Tab (and a click beside the controls) stopped
    on it, an invisible stop with nothing to type into."""
    workspace, window = open_studio(qtbot, qloop, size=(1366, 768), database=tmp_path / "studio.db")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.threads.list.setFocus()
    stops = []
    for _ in range(40):
        focused = QApplication.focusWidget()
        assert focused is not None
        stops.append(focused)
        qtbot.keyClick(focused, Qt.Key.Key_Tab)
    assert not [stop for stop in stops if isinstance(stop, QScrollArea) and stop.widget() is window.left_pane]
    run(qloop, workspace.shutdown())
