"""What an exported file holds, said in the dialog that asks where to write it (issue 26 §4).

An export leaves the studio: a lab report goes into CI logs and pull requests, a regression test into a repository.
The user decides what to share only if the dialog says what text the file carries — in particular whether it holds
text the guardrails masked in the chat. :func:`add_contents_note` puts that under the file dialog's fields; the
dialog is Qt's own (never the platform's), so the note shows on every system.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QGridLayout, QLabel

from studio.i18n import translate
from studio.texts.translator import QT_TRANSLATE_NOOP

__all__ = [
    "AB_COMPARISON_CONTENTS",
    "LAB_REPORT_CONTENTS",
    "REGRESSION_TEST_CONTENTS",
    "THREAD_CONTENTS",
    "ab_comparison_note",
    "add_contents_note",
    "lab_report_note",
    "regression_test_note",
    "thread_note",
]

LAB_REPORT_CONTENTS = QT_TRANSLATE_NOOP(
    "ExportNotes",
    "The report holds each case's text as written in the corpus (before any guardrail: attacks and any personal "
    "data in them included), the reply after the guardrails (what a user would have seen, masked where they "
    "masked), each guardrail's outcome and reason, timings, tokens and cost, and the design's name. Never an API "
    "key; the model's raw answers stay in the studio.",
)
AB_COMPARISON_CONTENTS = QT_TRANSLATE_NOOP(
    "ExportNotes",
    "The comparison holds both runs' figures and, for each case whose verdict changed, its id, label, category, "
    "outcomes and the guardrails that tripped, and the designs' names: no case text, no reply, never an API key.",
)
THREAD_CONTENTS = QT_TRANSLATE_NOOP(
    "ExportNotes",
    "The file holds the thread's messages as the guardrails let them through, and its runs for another studio: "
    "their traces and the recordings of what the model answered and the tools returned before any guardrail, so "
    "whatever the guardrails masked in the chat is in it, unmasked. Never an API key.",
)
REGRESSION_TEST_CONTENTS = QT_TRANSLATE_NOOP(
    "ExportNotes",
    "The test holds the design (its chain and options, never an API key), the thread before the run, the run's "
    "message, and the recording of what the model answered and the tools returned before any guardrail: whatever "
    "the guardrails masked in the chat (an e-mail address, say) is in it, unmasked. Share it as you would the "
    "conversation itself.",
)


def add_contents_note(dialog: QFileDialog, text: str) -> QLabel:
    """Say ``text`` (already translated) under ``dialog``'s fields; the note is ``export_contents_note``."""
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    note = QLabel(text, dialog)
    note.setObjectName("export_contents_note")
    note.setWordWrap(True)
    layout = dialog.layout()
    if isinstance(layout, QGridLayout):
        layout.addWidget(note, layout.rowCount(), 0, 1, layout.columnCount())
    elif layout is not None:
        layout.addWidget(note)
    return note


def lab_report_note() -> str:
    return translate("ExportNotes", LAB_REPORT_CONTENTS)


def ab_comparison_note() -> str:
    return translate("ExportNotes", AB_COMPARISON_CONTENTS)


def regression_test_note() -> str:
    return translate("ExportNotes", REGRESSION_TEST_CONTENTS)


def thread_note() -> str:
    return translate("ExportNotes", THREAD_CONTENTS)
