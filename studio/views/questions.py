"""``DestructiveQuestion``: "Delete …?" asked so that a hurried Enter, Space or Esc keeps the user's data.

Every question whose Yes destroys something (a conversation, lab runs) is one of these: Yes and Cancel, with Cancel
the default button (Enter), the escape button (Esc) and the focused one (Space) — set again when the box is shown,
since a window manager's activation may otherwise focus the first button, Yes. ``on_yes`` runs only when Yes was
clicked. Open it with ``open()``, never ``exec()`` (the studio's window runs on the asyncio loop).

    box = DestructiveQuestion(title, text, parent, on_yes=lambda: delete(thread_id))
    box.open()
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QMessageBox, QWidget

__all__ = ["DestructiveQuestion"]


class DestructiveQuestion(QMessageBox):
    """A Yes / Cancel question whose safe answer, Cancel, is the default, the escape and the focused button."""

    def __init__(self, title: str, text: str, parent: QWidget | None, *, on_yes: Callable[[], None]) -> None:
        super().__init__(
            QMessageBox.Icon.Question,
            title,
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            parent,
        )
        self._on_yes = on_yes
        self.setDefaultButton(QMessageBox.StandardButton.Cancel)
        self.setEscapeButton(QMessageBox.StandardButton.Cancel)
        self.buttonClicked.connect(self._on_button_clicked)
        self.finished.connect(self.deleteLater)

    def showEvent(self, event: QShowEvent) -> None:  # a Qt override
        super().showEvent(event)
        cancel = self.button(QMessageBox.StandardButton.Cancel)
        if cancel is not None:
            cancel.setFocus()

    def _on_button_clicked(self, button: object) -> None:
        if button is self.button(QMessageBox.StandardButton.Yes):
            self._on_yes()
