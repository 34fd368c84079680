"""At 200 % text size the options form of an entry fits its pane's width instead of scrolling sideways.

Seen under Xvfb on a 1366x768 laptop at 200 %: selecting the prompt-injection detector, the options pane scrolled
sideways, its title cut ("Prompt injection detecto") and its description cut at the right edge ("A learned model
offline, opt"): the title ("Prompt injection detector  PromptInjectionDetector") was one line wider than the pane,
and so were its two columns of detection types. Now the title wraps and the check boxes go into one column there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QLabel

from tests.studio.conftest import open_studio, run

LAPTOP = (1366, 768)


@pytest.mark.parametrize("factor", [1.0, 2.0])
def test_every_entrys_options_fit_the_panes_width(
    qtbot: Any, qloop: qasync.QEventLoop, tmp_path: Path, text_size: Any, factor: float
) -> None:
    text_size(factor)
    workspace, window = open_studio(qtbot, qloop, size=LAPTOP, database=tmp_path / "studio.db")
    qtbot.waitExposed(window)
    form = window.options
    checked = 0
    for lane in ("input", "output", "error"):
        model = window.chains.model(lane)
        for row in range(model.rowCount()):
            entry = model.entry_at(row)
            assert entry is not None
            window.chains.select(entry.uid, focus=False)
            QApplication.processEvents()
            assert form.uid() == entry.uid
            title = form.widget().findChild(QLabel, "options.title")
            assert title is not None
            assert not form.horizontalScrollBar().isVisible(), entry.type
            assert title.width() <= form.viewport().width(), entry.type
            # the type's name in code letters gives way (elided in the middle, whole in its tooltip): as one word
            # ("PromptInjectionDetector") it was wider than the pane under Xvfb at 200 %
            type_name = form.widget().findChild(QLabel, "options.type")
            assert type_name is not None and type_name.text() == entry.type
            assert type_name.minimumSizeHint().width() < QFontMetrics(type_name.font()).horizontalAdvance(entry.type)
            assert type_name.shown_text() == entry.type or "…" in type_name.shown_text()
            if entry.type == "PromptInjectionDetector":  # its detection types: two columns where they fit
                assert form.editor("detection_types").columns() == (2 if factor == 1.0 else 1)
            checked += 1
    assert checked >= 6
    run(qloop, workspace.shutdown())
