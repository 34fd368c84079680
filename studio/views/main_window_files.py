"""The main window's file actions: open and save designs, export a script, import and export threads.

Every file dialog is opened with ``open()`` (never ``exec()`` on the qasync loop), so the chat keeps streaming while
one is up; the work itself is a call on the workspace.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from studio import i18n
from studio.system.files import suggested_file_name
from studio.views.export_notes import add_contents_note, thread_note
from studio.views.last_folder import remember_folder, start_folder

if TYPE_CHECKING:
    from studio.controllers.workspace import Workspace

translate = i18n.translate


class FileActions(QObject):
    """The main window's File menu: its slots and their file dialogs (``window.files``)."""

    def __init__(self, window: QWidget, workspace: Workspace) -> None:
        super().__init__(window)
        self._window = window
        self.workspace = workspace

    @Slot(str, str)
    def show_failure(self, title: str, text: str) -> None:
        """A save or export failed: a message box that does not block (``open()``), besides the status bar."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self._window)
        box.setObjectName("file_failed")
        box.finished.connect(box.deleteLater)
        box.open()

    def file_dialog(
        self,
        title: str,
        filters: str,
        *,
        save: bool,
        accept: Any,
        suggested: str | None = None,
        note: str | None = None,
    ) -> QFileDialog:
        """A non-blocking file dialog (``open()``, never ``exec()`` on the qasync loop); a save dialog proposes
        ``suggested`` as the file name; ``note`` says what an exported file holds (``studio.views.export_notes``)."""
        dialog = QFileDialog(self._window, title, str(start_folder()), filters)
        dialog.setObjectName("file_dialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave if save else QFileDialog.AcceptMode.AcceptOpen)
        if not save:
            dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        if suggested:
            dialog.selectFile(suggested)
        if note:
            add_contents_note(dialog, note)

        def chosen(path: str) -> None:
            remember_folder(Path(path))
            accept(Path(path))

        dialog.fileSelected.connect(chosen)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    @Slot()
    def open_design(self) -> None:
        self.file_dialog(
            translate("MainWindow", "Open design"),
            translate("MainWindow", "Agent designs (*.json)"),
            save=False,
            accept=self.workspace.open_design_file,
        )

    @Slot()
    def save_design(self) -> None:
        self.file_dialog(
            translate("MainWindow", "Save design"),
            translate("MainWindow", "Agent designs (*.json)"),
            save=True,
            accept=self.workspace.save_design_file,
            suggested=suggested_file_name(self.workspace.document.design().name, ".json"),
        )

    @Slot()
    def export_script(self) -> None:
        self.file_dialog(
            translate("MainWindow", "Export as Python"),
            translate("MainWindow", "Python scripts (*.py)"),
            save=True,
            accept=self.workspace.export_script,
            suggested=suggested_file_name(self.workspace.document.design().name, ".py"),
        )

    @Slot()
    def import_thread(self) -> None:
        self.file_dialog(
            translate("MainWindow", "Import thread"),
            translate("MainWindow", "Threads (*.json)"),
            save=False,
            accept=self.workspace.import_thread_file,
        )

    @Slot()
    def export_thread(self) -> None:
        self.file_dialog(
            translate("MainWindow", "Export thread"),
            translate("MainWindow", "Threads (*.json)"),
            save=True,
            accept=self.workspace.export_thread_file,
            suggested=suggested_file_name(self._thread_title(), ".json", fallback="thread"),
            note=thread_note(),
        )

    def _thread_title(self) -> str:
        thread_id = self.workspace.thread_id
        record = next((r for r in self.workspace.threads_model.records() if r.id == thread_id), None)
        return (record.title if record is not None and record.title else thread_id) or "thread"
