"""``LabThresholds``: a scoring guard's threshold in the studio's design, read and written from the Lab window.

The Lab's Scores tab shows a guard by the processor id its results name (``prompt-injection-detector-2``); this
finds the chain entry that id was built from in the design being edited (:func:`studio.lab.side_by_side.
design_processors`: the same de-duplicated ids as a run's) and writes a threshold into its options as one
:class:`~studio.models.editor_commands.EditOptions` on the document's undo stack, so one Ctrl+Z in the editor
restores the old one (and the edit is saved with the design like any other).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from lab.guard_scores import score_number
from studio.design.agent_design import ChainEntry, DesignError
from studio.lab.side_by_side import design_processors
from studio.models.design_document import DesignDocument
from studio.models.editor_commands import EditOptions

__all__ = ["THRESHOLD_OPTION", "LabThresholds"]

#: The option a scoring guard compares its score with (the built-in detector's, ClassifierGuard's, the services').
THRESHOLD_OPTION = "threshold"


class LabThresholds(QObject):
    """Reads and writes guards' thresholds in ``document`` (None: the Lab has no design to write to)."""

    #: A threshold was written into the design: (processor id, the threshold).
    threshold_set = Signal(str, float)

    def __init__(self, document: DesignDocument | None, catalogue: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.catalogue = catalogue

    def entry(self, processor: str) -> ChainEntry | None:
        """The chain entry ``processor`` (a lab result's processor id) runs from in the design, if it has one."""
        if self.document is None:
            return None
        try:
            guard = design_processors(self.document.design(), self.catalogue).get(processor)
        except (DesignError, ValueError, TypeError):  # a design that cannot be built has no ids to match
            return None
        return None if guard is None else self.document.entry(guard.uid)

    def threshold(self, processor: str) -> float | None:
        """``processor``'s threshold in the design (its option, or the type's default); None when it has none."""
        entry = self.entry(processor)
        if entry is None or self.document is None:
            return None
        value = entry.options.get(THRESHOLD_OPTION, self.document.option_defaults(entry.type).get(THRESHOLD_OPTION))
        return score_number(value)

    def set_threshold(self, processor: str, value: float) -> bool:
        """Write ``value`` as ``processor``'s threshold: one undo step. False when the design has no such entry
        with a threshold, or the value is not one its options accept."""
        entry = self.entry(processor)
        if entry is None or self.document is None or self.threshold(processor) is None:
            return False
        options = {**entry.options, THRESHOLD_OPTION: round(float(value), 4)}
        if self.document.option_errors(entry.type, options):
            return False
        self.document.undo_stack().push(EditOptions(self.document, entry.uid, options, field=THRESHOLD_OPTION))
        self.threshold_set.emit(processor, options[THRESHOLD_OPTION])
        return True
