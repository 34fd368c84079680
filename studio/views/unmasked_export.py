"""Asking before a file holds, unmasked, values the guardrails hid in the chat (DESIGN §6, privacy).

A regression test of a run holds the run's message, the thread before it and the recording raw: a PII guard's test
needs the values to exercise the guard. When the run's hiding guards found values in them
(:func:`studio.regression_exports.masked_kinds`), the window asks first, naming their kinds in the reader's words
(:func:`kind_label`: "card numbers and e-mail addresses" — "信用卡号和电子邮件" in Chinese — for ``credit-card``
and ``email``; a RegexFilter's rule by the name the user gave it)::

    box = ask_to_export_unmasked(window, ["email", "phone"], accept=write_it)   # non-blocking; Esc cancels

"Export with the values" calls ``accept``; "Cancel", Esc or closing the box writes nothing (``cancel``, if given).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget

from studio.i18n import current_locale, translate
from studio.texts.translator import QT_TRANSLATE_NOOP

__all__ = ["ask_to_export_unmasked", "kind_label"]

#: The PII detector's detection types as the question names them. The options pane offers the same types as their
#: ids (``OptionValue``: shown as they are in English); the Chinese words here are the ones it shows.
_TYPE_LABELS: Final = {
    "email": QT_TRANSLATE_NOOP("UnmaskedExport", "e-mail addresses"),
    "phone": QT_TRANSLATE_NOOP("UnmaskedExport", "phone numbers"),
    "credit-card": QT_TRANSLATE_NOOP("UnmaskedExport", "card numbers"),
    "ssn": QT_TRANSLATE_NOOP("UnmaskedExport", "social security numbers"),
    "api-key": QT_TRANSLATE_NOOP("UnmaskedExport", "API keys"),
    "ip-address": QT_TRANSLATE_NOOP("UnmaskedExport", "IP addresses"),
    "url": QT_TRANSLATE_NOOP("UnmaskedExport", "URLs"),
    "uuid": QT_TRANSLATE_NOOP("UnmaskedExport", "UUIDs"),
    "crypto-wallet": QT_TRANSLATE_NOOP("UnmaskedExport", "crypto wallets"),
    "iban": QT_TRANSLATE_NOOP("UnmaskedExport", "IBANs"),
    "cn-resident-id": QT_TRANSLATE_NOOP("UnmaskedExport", "Chinese resident ID numbers"),
    "tw-national-id": QT_TRANSLATE_NOOP("UnmaskedExport", "Taiwan national ID numbers"),
    "hk-id": QT_TRANSLATE_NOOP("UnmaskedExport", "Hong Kong ID numbers"),
    "name": QT_TRANSLATE_NOOP("UnmaskedExport", "names"),
    "address": QT_TRANSLATE_NOOP("UnmaskedExport", "addresses"),
    "date-of-birth": QT_TRANSLATE_NOOP("UnmaskedExport", "dates of birth"),
}


def kind_label(kind: str) -> str:
    """A kind of masked value in the studio's language: a PII detection type's label (``"credit-card"`` → "card
    numbers"), anything else — a RegexFilter's rule name — as it is."""
    english = _TYPE_LABELS.get(kind)
    return translate("UnmaskedExport", english) if english is not None else kind


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
        ).format(kinds=current_locale().createSeparatedList([kind_label(kind) for kind in kinds]))
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
