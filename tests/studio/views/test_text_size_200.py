"""At 200 % text size the main window fits a 1366×768 laptop's screen; the Lab and the settings dialog fit theirs.

Seen under Xvfb at 1366×768 with the text at 200 %: the window's minimum width was 1,441 px, the inspector's tab bar
(every tab's name whole, 571 px) and its raw log's type filter (22 characters, 382 px) holding the inspector wider
than the window left it, its last tab cut off at the screen's edge. Now the tabs scroll and the filter's minimum stays
what it is at 100 %, where the layout is unchanged (every tab's name whole in the inspector's minimum).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QPlainTextEdit, QPushButton

from studio.design.agent_design import LANES
from studio.views.chain_editor import LANE_CHARACTERS
from studio.views.lab_view import ATTACK_TAB
from studio.views.main_window import MINIMUM_HEIGHT, MINIMUM_WIDTH
from studio.views.screen_fit import ScreenFitScroll
from tests.studio.conftest import open_studio, run
from tests.studio.views.lab_support import open_lab

LAPTOP = (1366, 768)


def test_at_200_percent_the_window_fits_1366_px_and_the_chat_input_is_usable(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, text_size: Any
) -> None:
    text_size(2.0)
    _, window = open_studio(qtbot, qloop, size=LAPTOP, database=tmp_path / "studio.db")
    qtbot.waitExposed(window)

    assert window.minimumSizeHint().width() <= LAPTOP[0]
    for index in range(window.splitter.count()):  # every pane gets at least its minimum: nothing cut at the edge
        pane = window.splitter.widget(index)
        assert pane.width() >= pane.minimumSizeHint().width(), pane.objectName() or type(pane).__name__

    chat_input = window.chat.findChild(QPlainTextEdit, "chat.input")
    send = window.chat.findChild(QPushButton, "chat.send")
    assert chat_input is not None and send is not None
    assert chat_input.isVisible() and send.isVisible()
    assert chat_input.width() >= 15 * QFontMetrics(chat_input.font()).averageCharWidth()  # room for a few words
    assert send.width() >= QFontMetrics(send.font()).horizontalAdvance(send.text())  # "Send" whole
    assert window.chat.mapTo(window, send.rect().topRight()).x() <= window.width()
    chat_input.setFocus()
    qtbot.keyClicks(chat_input, "hello")
    assert chat_input.toPlainText() == "hello"
    assert send.isEnabled()


def test_at_100_percent_the_inspector_keeps_every_tab_name_whole_in_its_minimum(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, window = open_studio(qtbot, qloop, size=LAPTOP, database=tmp_path / "studio.db")
    tabs = window.inspector.tabs
    bar = tabs.tabBar()
    assert tabs.minimumSizeHint().width() >= bar.sizeHint().width()  # the whole bar, as before
    assert bar.elideMode() == Qt.TextElideMode.ElideNone
    assert window.inspector.width() >= bar.sizeHint().width()


def test_at_200_percent_the_lab_fits_its_screen_and_scrolls_to_what_is_past_it(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, text_size: Any
) -> None:
    """The Lab window's minimum was 1,954 px at 200 % (its top bar's buttons in a row, the Attack tab's columns):
    wider than a laptop's screen, its right part out of reach. Now it is bounded by the screen and the content
    scrolls; the Run button is reached by scrolling."""
    text_size(2.0)
    _, _, lab = open_lab(qtbot, qloop, tmp_path)
    room = lab.screen().availableGeometry()
    lab.resize(room.width(), room.height())
    lab.show()
    qtbot.waitExposed(lab)
    lab.tabs.setCurrentIndex(ATTACK_TAB)
    QApplication.processEvents()

    assert lab.minimumSizeHint().width() <= room.width()
    assert lab.width() <= room.width()
    scroll = lab.findChild(ScreenFitScroll)
    assert scroll is not None
    assert scroll.widget().width() >= scroll.widget().minimumSizeHint().width()  # the content keeps its minimum
    scroll.ensureWidgetVisible(lab.run_button)
    QApplication.processEvents()
    corner = lab.run_button.mapTo(scroll.viewport(), lab.run_button.rect().bottomRight())
    assert scroll.viewport().rect().contains(corner)  # scrolled to, whole
    assert lab.run_button.width() >= lab.run_button.minimumSizeHint().width()


def test_at_100_percent_the_lab_does_not_scroll_at_1366x768(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, _, lab = open_lab(qtbot, qloop, tmp_path, size=LAPTOP)
    lab.show()
    qtbot.waitExposed(lab)
    scroll = lab.findChild(ScreenFitScroll)
    assert scroll is not None
    assert not scroll.horizontalScrollBar().isVisible() and not scroll.verticalScrollBar().isVisible()
    assert scroll.widget().size() == scroll.viewport().size()  # the content fills the window, as before


def test_at_200_percent_the_settings_dialog_fits_its_screen_with_close_in_sight(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, text_size: Any
) -> None:
    """The settings dialog was 777 px tall at 200 %, taller than a 768 px screen: its fields now scroll and Close
    stays below them, in sight; no sideways scrolling where only the height is short."""
    text_size(2.0)
    _, window = open_studio(qtbot, qloop, size=LAPTOP, database=tmp_path / "studio.db")
    dialog = window.dialogs.open_settings()
    qtbot.waitExposed(dialog)
    room = dialog.screen().availableGeometry()
    assert dialog.minimumSizeHint().height() <= room.height()
    assert dialog.minimumSizeHint().width() <= room.width()
    dialog.resize(dialog.minimumSizeHint())
    QApplication.processEvents()
    close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    assert close.isVisible() and dialog.rect().contains(close.mapTo(dialog, close.rect().bottomRight()))
    scroll = dialog.findChild(ScreenFitScroll)
    assert scroll is not None
    if scroll.widget().minimumSizeHint().width() + scroll.verticalScrollBar().width() <= room.width():
        assert not scroll.horizontalScrollBar().isVisible()
    dialog.close()


def test_at_200_percent_the_chain_lanes_keep_an_entrys_name_readable_and_scroll_sideways(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, text_size: Any
) -> None:
    """Seen under Xvfb at 1366x768 and 200 %: the three lanes shared the editor's ~430 px, ~100 px each, every
    entry elided to two or three letters ("U…", "PII…"). Now each lane keeps room for an entry's name and the lanes
    scroll sideways; the lane that takes the keyboard (Tab, a click, Ctrl+Right moving an entry) scrolls into sight."""
    text_size(2.0)
    workspace, window = open_studio(qtbot, qloop, size=LAPTOP, database=tmp_path / "studio.db")
    qtbot.waitExposed(window)
    QApplication.processEvents()
    chains = window.chains
    characters = QFontMetrics(chains.view("input").font()).averageCharWidth() * LANE_CHARACTERS
    for lane in LANES:
        view = chains.view(lane)
        assert view.viewport().width() >= characters, lane  # 129 px before (offscreen; ~100 under Xvfb)
        assert view.width() >= view.minimumSizeHint().width(), lane
    area = chains.lanes_area
    assert area.horizontalScrollBar().isVisible()  # the lanes are wider than the editor: they scroll
    assert window.minimumSizeHint().width() <= LAPTOP[0]  # and do not widen the window

    error = chains.view("error")
    error.setFocus()
    qtbot.waitUntil(error.hasFocus)
    corner = error.mapTo(area.viewport(), error.rect().bottomRight())
    assert area.viewport().rect().contains(corner)  # scrolled into sight, whole
    run(qloop, workspace.shutdown())


@pytest.mark.parametrize("size", [LAPTOP, (MINIMUM_WIDTH, MINIMUM_HEIGHT)])
def test_at_100_percent_the_chain_lanes_do_not_scroll_sideways(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, size: tuple[int, int]
) -> None:
    workspace, window = open_studio(qtbot, qloop, size=size, database=tmp_path / "studio.db")
    qtbot.waitExposed(window)
    QApplication.processEvents()
    area = window.chains.lanes_area
    assert not area.horizontalScrollBar().isVisible()
    assert area.widget().width() == area.viewport().width()  # the lanes fill the editor's width, as before
    run(qloop, workspace.shutdown())
