"""What the Lab refuses before a run starts, and a report it cannot write: each said once through ``failed``,
whichever way the run was asked for (a run, A/B, each guard alone), nothing started."""

from __future__ import annotations

from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot

from tests.studio.conftest import run
from tests.studio.views.lab_support import choose, finish, open_lab


def test_a_mode_the_studio_does_not_run_is_refused_by_every_kind_of_run(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, _, lab = open_lab(qtbot, qloop, tmp_path)
    choose(lab, "direct-injection.jsonl")
    said: list[str] = []
    lab.controller.failed.connect(said.append)
    assert lab.controller.start(mode="replay") is None
    assert lab.controller.start_ab("current", "current", mode="replay") is False
    assert lab.controller.start_side_by_side(mode="replay") is False
    assert said == ["Unknown mode 'replay'"] * 3
    assert not lab.controller.is_running


def test_a_report_that_cannot_be_written_is_said_and_a_written_one_too(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, _, lab = open_lab(qtbot, qloop, tmp_path)
    choose(lab, "direct-injection.jsonl")
    finish(qloop, lab, lab.run_button.click)
    said: list[str] = []
    lab.controller.failed.connect(said.append)
    (tmp_path / "taken.json").mkdir()  # a folder where the report would go
    lab.controller.export_report_file("json", tmp_path / "taken.json")
    run(qloop, lab.controller.wait_idle())
    assert len(said) == 1 and said[0].startswith("The report was not written: ")
    lab.controller.export_report_file("junit", tmp_path / "report.xml")
    run(qloop, lab.controller.wait_idle())
    assert (tmp_path / "report.xml").exists() and lab.message.text() == "Wrote report.xml"
