"""After a lab run the Lab window does not grow a second vertical scroll bar beside its cases table's.

Seen under Xvfb at 1366x768 and 100 %: once a run finished, a scroll bar appeared down the window's right edge, beside
the cases table's own, and the window's content scrolled by a few pixels. The run's closing message ("Lab run
finished: 35 cases.") is a word-wrapped label: with text in it the content's layout has a height for its width, and a
scroll area sizes such a content at its *preferred* height for the width (817 px, from the Confusion tab's preferred
718) instead of the viewport's 746, though its minimum (506) fitted. Now the content's height for a width is its
preferred one bounded by the viewport, never under its minimum: it scrolls only where its minimum does not fit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from studio.views.screen_fit import FitContent, ScreenFitScroll
from tests.studio.views.lab_support import choose, finish, open_lab

LAPTOP = (1366, 768)


def test_after_a_run_the_lab_window_does_not_scroll(qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    _, _, lab = open_lab(qtbot, qloop, tmp_path, size=LAPTOP)
    lab.show()
    qtbot.waitExposed(lab)
    choose(lab, "pii-exfiltration.jsonl")
    finish(qloop, lab, lab.run_button.click)
    QApplication.processEvents()
    assert lab.message.text()  # the run's closing message is on show
    scroll = lab.findChild(ScreenFitScroll)
    assert scroll is not None
    assert not scroll.verticalScrollBar().isVisible()
    assert scroll.widget().size() == scroll.viewport().size()  # the content fills the window, no more


def test_a_content_whose_minimum_does_not_fit_still_scrolls(qtbot: Any) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    content = FitContent()
    layout = QVBoxLayout(content)
    note = QLabel("A wrapped note " * 40)
    note.setWordWrap(True)
    layout.addWidget(note)
    tall = QWidget()
    tall.setMinimumHeight(900)
    layout.addWidget(tall)
    outer = QVBoxLayout(window)
    scroll = ScreenFitScroll(content)
    outer.addWidget(scroll)
    window.resize(600, 400)
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    assert scroll.verticalScrollBar().isVisible()
    assert content.height() >= 900
