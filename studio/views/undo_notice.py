"""``announce_undo``: the window says which design edit Ctrl+Z (or Ctrl+Shift+Z) just undid (redid).

Ctrl+Z reaches the design's undo stack from any pane whose text field has nothing of its own to undo (issue 10 §3),
so a Ctrl+Z typed in the chat box can take a guard out of a chain the user is not looking at. Naming the edit in the
status bar makes that visible, and says how to get it back.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QUndoStack

from studio.i18n import translate

__all__ = ["announce_undo"]


def announce_undo(stack: QUndoStack, undo: QAction, redo: QAction, show: Callable[[str], None]) -> None:
    """Call ``show`` with a line naming the edit each time ``undo`` or ``redo`` (the stack's own actions) acts.

    Connected after the stack's own slots, so the stack has already moved: the edit undone is the next to redo."""

    def undone() -> None:
        if text := stack.redoText():
            show(translate("MainWindow", "Undone: {edit} (Ctrl+Shift+Z redoes it)").format(edit=text))

    def redone() -> None:
        if text := stack.undoText():
            show(translate("MainWindow", "Redone: {edit} (Ctrl+Z undoes it)").format(edit=text))

    undo.triggered.connect(undone)
    redo.triggered.connect(redone)
