"""Help → About: the version, the data folder and the licences of the bundled components (from their metadata)."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import qasync
from PySide6.QtCore import qVersion
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from studio.about import bundled_components, licence_of
from studio.system.paths import data_dir
from studio.views.about_dialog import AboutDialog
from tests.studio.conftest import run
from tests.studio.test_app import open_studio


def test_the_licences_are_read_from_the_installed_metadata() -> None:
    by_name = {component.name.lower().replace("_", "-"): component for component in bundled_components(qVersion())}
    assert by_name["qt"].version == qVersion() and "LGPL" in by_name["qt"].licence
    assert "LGPL" in by_name["pyside6-essentials"].licence
    assert by_name["litellm"].licence == "MIT" and by_name["litellm"].version == metadata.version("litellm")
    assert by_name["qasync"].licence == licence_of(metadata.metadata("qasync"))
    assert all(component.licence != "unknown" for component in by_name.values()), by_name


def test_help_about_shows_version_data_folder_and_licences(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    action = window.findChild(QAction, "action.about")
    assert action is not None and "About" in action.text()
    action.trigger()
    dialog = window.findChild(AboutDialog)
    assert dialog is not None
    assert dialog.isVisible()
    heading = dialog.findChild(QLabel, "about.heading")
    assert heading is not None
    cells = [line.strip() for line in dialog.components.toPlainText().splitlines()]  # a table: a cell a line
    assert metadata.version("processor-studio") in heading.text()
    assert str(data_dir()) in heading.text()
    for name, licence in (
        ("litellm", "MIT"),
        ("PySide6", "LGPL"),
        ("Qt", "LGPL"),
        ("SQLAlchemy", "MIT"),
        ("fasttext-predict", "MIT"),
        ("fastText language identification model (lid.176.ftz)", "CC-BY-SA-3.0"),  # a data file's own licence
        ("Python", "PSF-2.0"),
    ):
        row = next(index for index, cell in enumerate(cells) if cell.startswith(name))
        assert licence in cells[row + 2], cells[row : row + 3]  # name, version, licence
    text = dialog.components.toPlainText()
    assert "https://creativecommons.org/licenses/by-sa/3.0/" in text  # the model's notice
    assert "THIRD-PARTY-NOTICES.txt" in text
    dialog.reject()
    run(qloop, workspace.shutdown())
