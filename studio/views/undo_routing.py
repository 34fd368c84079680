"""``EditorUndoRouting``: the Edit menu's Undo/Redo work from anywhere in the window.

A text field claims Ctrl+Z (Qt's ``ShortcutOverride``) whenever it has focus, even with nothing of its own to
undo, so with the palette's search box focused the design's Undo never fired. This filter lets a text field
keep the keys only while it has its own edit to undo (or redo); otherwise the key goes on to the window's
shortcuts, where the Edit menu's actions take it.

    routing = EditorUndoRouting(window)       # parented to the window; filters the application's events
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

__all__ = ["EditorUndoRouting", "text_field_can"]


def text_field_can(widget: QObject, undo: bool) -> bool | None:
    """Whether ``widget`` (a text field) has its own edit to undo (``undo``) or redo; None if it is no text field."""
    if isinstance(widget, QAbstractSpinBox):
        line = widget.findChild(QLineEdit)
        return text_field_can(line, undo) if line is not None else False
    if isinstance(widget, QLineEdit):
        if widget.isReadOnly():
            return False
        return widget.isUndoAvailable() if undo else widget.isRedoAvailable()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        if widget.isReadOnly():
            return False
        document = widget.document()
        return document.isUndoAvailable() if undo else document.isRedoAvailable()
    return None


class EditorUndoRouting(QObject):
    """Filters the application's ``ShortcutOverride`` events for text fields in ``window``."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        app = QCoreApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if event.matches(QKeySequence.StandardKey.Undo):
            undo = True
        elif event.matches(QKeySequence.StandardKey.Redo) or _is_ctrl_shift_z(event):
            undo = False
        else:
            return False
        if not isinstance(watched, QWidget) or watched.window() is not self._window:
            return False
        own = text_field_can(watched, undo)
        if own is None or own:
            return False  # not a text field, or its own undo: Qt's usual handling
        event.ignore()  # not claimed: the window's shortcut (the Edit menu's action) gets the key
        return True


def _is_ctrl_shift_z(event: QKeyEvent) -> bool:
    """The chain editor's Redo key on every platform (the platform's own Redo may be Ctrl+Y only)."""
    return QKeySequence(event.keyCombination()) == QKeySequence("Ctrl+Shift+Z")
