"""``ImportProgressView``: a progress dialog for each thread import, fed by the import controller's signals.

The dialog is not modal: the rest of the window stays usable during an import, and a modal progress dialog's
``setValue`` would run ``processEvents()`` inside the slot, re-entering the qasync loop (it is never ``exec()``-ed
either). Its Cancel button asks the controller to stop; the dialog closes itself when the import finished, failed
or stopped. A small import finishes before the dialog's minimum duration, so it never flashes on screen.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QProgressDialog, QWidget

from studio.controllers.import_controller import ThreadImportController, phase_label
from studio.i18n import translate

#: Milliseconds an import runs before its dialog shows (Qt's own rule: only if it will take longer still).
SHOW_AFTER_MS = 400


class ImportProgressView(QObject):
    """Shows a :class:`QProgressDialog` over ``window`` while ``controller`` imports a thread."""

    def __init__(self, controller: ThreadImportController, window: QWidget) -> None:
        super().__init__(window)
        self.controller = controller
        self.window = window
        #: The dialog of the running import (None between imports).
        self.dialog: QProgressDialog | None = None
        self._name = ""
        controller.import_started.connect(self._on_controller_import_started)
        controller.progress_changed.connect(self._on_controller_progress_changed)
        for done in (controller.import_finished, controller.import_failed, controller.import_stopped):
            done.connect(self._close)

    @Slot(str)
    def _on_controller_import_started(self, name: str) -> None:
        self._close()
        dialog = QProgressDialog(
            translate("ImportProgress", "Importing {name}…").format(name=name),
            translate("ImportProgress", "Cancel"),
            0,
            0,
            self.window,
        )
        dialog.setObjectName("import_progress")
        dialog.setWindowTitle(translate("ImportProgress", "Import thread"))
        dialog.setWindowModality(Qt.WindowModality.NonModal)
        dialog.setMinimumDuration(SHOW_AFTER_MS)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(self.controller.stop)
        self.dialog = dialog
        self._name = name

    @Slot(str, int, int)
    def _on_controller_progress_changed(self, phase: str, done: int, total: int) -> None:
        dialog = self.dialog
        if dialog is None:
            return
        dialog.setLabelText(f"{phase_label(phase)}\n{self._name}")
        if dialog.maximum() != max(total, 1):
            dialog.setRange(0, max(total, 1))
        dialog.setValue(min(done, max(total, 1)))

    @Slot()
    def _close(self, *_args: object) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.canceled.disconnect(self.controller.stop)  # closing is no request to stop
            dialog.close()
            dialog.deleteLater()


__all__ = ["SHOW_AFTER_MS", "ImportProgressView"]
