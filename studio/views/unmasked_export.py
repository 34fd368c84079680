"""Asking before a file holds, unmasked, values the guardrails hid in the chat (DESIGN §6, privacy).

A regression test of a run holds the run's message, the thread before it and the recording raw: a PII guard's test
needs the values to exercise the guard. When the run's hiding guards found values in them
(:func:`studio.regression_exports.masked_kinds`), the window asks first, naming their kinds::

    box = ask_to_export_unmasked(window, ["email", "phone"], accept=write_it)   # non-blocking; Esc cancels

"Export with the values" calls ``accept``; "Cancel", Esc or closing the box writes nothing (``cancel``, if given).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget

from studio.i18n import translate

__all__ = ["ask_to_export_unmasked"]


def ask_to_export_unmasked(
    parent: QWidget, kinds: Sequence[str], *, accept: Callable[[], None], cancel: Callable[[], None] | None = None
) -> QMessageBox:
    """Show (window-modal, not blocking) the question whether to export a file holding ``kinds`` of masked values
    unmasked; ``accept`` runs on "Export with the values", ``cancel`` on Cancel, Esc or closing the box. The box
    is ``unmasked_export_dialog``, its buttons ``unmasked_export.accept`` and ``unmasked_export.cancel``."""
    box = QMessageBox(parent)
    box.setObjectName("unmasked_export_dialog")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("UnmaskedExport", "Export unmasked values?"))
    box.setText(
        translate(
            "UnmaskedExport",
            "The file will hold, unmasked, values the guardrails hid in the chat: {kinds}.",
        ).format(kinds=", ".join(kinds))
    )
    box.setInformativeText(
        translate(
            "UnmaskedExport",
            "The regression test needs them to replay the run. Share the file as you would the conversation itself.",
        )
    )
    export = box.addButton(translate("UnmaskedExport", "Export with the values"), QMessageBox.ButtonRole.AcceptRole)
    export.setObjectName("unmasked_export.accept")
    keep = box.addButton(translate("UnmaskedExport", "Cancel"), QMessageBox.ButtonRole.RejectRole)
    keep.setObjectName("unmasked_export.cancel")
    box.setDefaultButton(keep)
    box.setEscapeButton(keep)  # Esc and the close button click it

    def clicked(button: QAbstractButton) -> None:
        if button is export:
            accept()
        elif cancel is not None:
            cancel()

    box.buttonClicked.connect(clicked)
    box.open()
    return box
