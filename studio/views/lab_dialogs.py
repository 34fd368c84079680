"""The Lab window's dialogs, each opened with ``open()`` (never ``exec()``: the window runs on the asyncio loop)
and answered through a callback: confirm deleting lab runs, choose a corpus file, choose a design file for A/B,
choose where a report goes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from studio.i18n import translate
from studio.views.export_notes import add_contents_note
from studio.views.last_folder import remember_folder, start_folder
from studio.views.questions import DestructiveQuestion

REPORT_FILTERS = {"json": "JSON (*.json)", "junit": "JUnit XML (*.xml)", "html": "HTML (*.html)"}
REPORT_SUFFIXES = {"json": ".json", "junit": ".xml", "html": ".html"}


def confirm_delete(parent: QWidget, count: int, on_yes: Callable[[], None]) -> QMessageBox:
    """Ask before deleting ``count`` lab runs; ``on_yes`` runs only on Yes (Cancel is the default)."""
    box = DestructiveQuestion(
        translate("LabView", "Delete lab runs"),
        translate(
            "LabView", "Delete {count} lab run(s) and their results? Threads opened from their cases stay."
        ).format(count=count),
        parent,
        on_yes=on_yes,
    )
    box.setObjectName("lab_delete_confirm")
    box.open()
    return box


def _chosen(path: Path, on_chosen: Callable[[Path], None]) -> None:
    remember_folder(path)
    on_chosen(path)


def choose_corpus(parent: QWidget, on_chosen: Callable[[Path], None]) -> QFileDialog:
    """Ask for a corpus file to import."""
    dialog = QFileDialog(
        parent,
        translate("LabView", "Import a corpus"),
        str(start_folder()),
        translate("LabView", "Corpora (*.jsonl *.ndjson *.csv *.txt *.yaml *.yml *.json);;All files (*)"),
    )
    dialog.setObjectName("lab_import_dialog")
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.fileSelected.connect(lambda path: _chosen(Path(path), on_chosen))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


def choose_design_file(parent: QWidget, letter: str, on_chosen: Callable[[Path], None]) -> QFileDialog:
    """Ask for a design file (JSON) to compare as design ``letter`` (A or B)."""
    dialog = QFileDialog(
        parent,
        translate("LabView", "Design {letter} from a file").format(letter=letter),
        str(start_folder()),
        translate("LabView", "Agent designs (*.json);;All files (*)"),
    )
    dialog.setObjectName("lab_design_file_dialog")
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.fileSelected.connect(lambda path: _chosen(Path(path), on_chosen))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


def choose_report_path(
    parent: QWidget, kind: str, stem: str, on_chosen: Callable[[Path], None], *, note: str
) -> QFileDialog:
    """Ask where to write a ``kind`` report (``json``, ``junit`` or ``html``), suggesting ``stem`` plus its suffix;
    ``note`` says what text the report holds (:mod:`studio.views.export_notes`)."""
    dialog = QFileDialog(
        parent,
        translate("LabView", "Export the lab report"),
        str(start_folder() / f"{stem}{REPORT_SUFFIXES[kind]}"),
        REPORT_FILTERS[kind],
    )
    dialog.setObjectName("lab_export_dialog")
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    add_contents_note(dialog, note)
    dialog.fileSelected.connect(lambda path: _chosen(Path(path), on_chosen))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


__all__ = [
    "REPORT_FILTERS",
    "REPORT_SUFFIXES",
    "choose_corpus",
    "choose_design_file",
    "choose_report_path",
    "confirm_delete",
]
