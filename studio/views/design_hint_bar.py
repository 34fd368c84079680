"""``DesignHintBar``: a non-blocking hint under the chains when the design leaves tool results unchecked.

A design whose agent has tools (its own or an MCP server's) and whose prompt-injection detector sits only in the
input lane never checks what the tools return (:func:`~studio.models.design_hints.tool_results_unchecked`). The bar
says so (``chain.hint``) and offers the fix in one click (``chain.hint.fix``): the same detector added to the output
lane, as an undoable command like any other edit. It follows the document: it appears and goes as entries, tools
and MCP servers change, and it never stops a run.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from studio.i18n import translate
from studio.models.design_document import DesignDocument
from studio.models.design_hints import INJECTION_DETECTOR, output_guard_for, tool_results_unchecked
from studio.models.editor_commands import AddEntry
from studio.models.palette_model import lane_title

__all__ = ["DesignHintBar"]


class DesignHintBar(QFrame):
    """The hint and its fix; hidden while the design has nothing to hint about."""

    #: The fix was applied: the uid of the detector added to the output lane.
    fix_applied = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chain.hint")
        self._document = document
        self.setStyleSheet(
            "QFrame#chain\\.hint { background: palette(tool-tip-base); border: 1px solid #d4a017;"
            " border-radius: 3px; }"
            " QFrame#chain\\.hint QLabel { color: palette(tool-tip-text); }"
        )
        self.label = QLabel(self)
        self.label.setObjectName("chain.hint.text")
        self.label.setWordWrap(True)
        # Two short lines fit under the lanes of a 768-pixel-high screen without squeezing them; the whole story
        # is the tooltip.
        self.label.setText(
            translate(
                "DesignHints",
                "Tool results go unchecked (indirect injection): the prompt-injection detector is only in the "
                "{input} lane.",
            ).format(input=lane_title("input"))
        )
        self.setToolTip(
            translate(
                "DesignHints",
                "This agent has tools, but its prompt-injection detector is only in the {input} lane, which never "
                "sees tool results: instructions hidden in a page or an e-mail a tool returns reach the model "
                "unchecked (indirect injection).",
            ).format(input=lane_title("input"))
        )
        self.fix_button = QPushButton(
            translate("DesignHints", "Add to the {output} lane").format(output=lane_title("output")), self
        )
        self.fix_button.setObjectName("chain.hint.fix")
        self.fix_button.setToolTip(
            translate("DesignHints", "Add a prompt-injection detector with the same options to the {output} lane, "
                      "checking tool results (undoable)").format(output=lane_title("output"))
        )  # fmt: skip
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.fix_button)
        self.fix_button.clicked.connect(self.apply_fix)
        for signal in (
            document.entry_inserted,
            document.entry_removed,
            document.entry_moved,
            document.entry_changed,
            document.settings_changed,
            document.design_replaced,
            document.catalogue_changed,
        ):
            signal.connect(self._on_document_changed)
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        """Show the bar when the design leaves tool results unchecked, hide it otherwise."""
        design = self._document.design()
        self.setHidden(not tool_results_unchecked(design))
        # A catalogue without the detector (or refusing it in the output lane) gets the hint without the button.
        self.fix_button.setHidden(self._document.can_place(INJECTION_DETECTOR, "output") is not None)

    @Slot()
    def apply_fix(self) -> None:
        """Add the input lane's detector (same options, checking tool results) to the end of the output lane."""
        design = self._document.design()
        if not tool_results_unchecked(design) or self._document.can_place(INJECTION_DETECTOR, "output") is not None:
            return
        entry = output_guard_for(design)
        self._document.undo_stack().push(AddEntry(self._document, "output", len(design.output), entry))
        self.fix_applied.emit(entry.uid)

    @Slot()
    def _on_document_changed(self, *_args: Any) -> None:
        self.refresh()
