"""The debugger panel: breakpoints for the studio's runs, and the run paused at one of them.

A thin view over :class:`~studio.controllers.debug_controller.DebugController`: a list of breakpoints with a small
form to add one (hook, processor, chunk type, text the chunk contains, step); when a run pauses, what the processor
is about to receive (the chunk as JSON, or a summary of the messages) and its state (JSON), both editable, with
Continue, Step (pause again at the very next call) and Abort. Invalid JSON is refused with the reason and the run
stays paused. The window's Stop (Esc) always works.

Object names for automation: ``debug.breakpoints``, ``debug.hook``, ``debug.processor``, ``debug.chunk_type``,
``debug.text``, ``debug.step_number``, ``debug.add``, ``debug.remove``, ``debug.where``, ``debug.args``,
``debug.chunk``, ``debug.state``, ``debug.error``, ``debug.continue``, ``debug.step``, ``debug.abort``.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from processors.pipeline.debugger import Breakpoint, Pause
from processors.pipeline.processor import HOOKS
from studio import i18n
from studio.controllers.debug_controller import DebugController

translate = i18n.translate


class DebugPanel(QWidget):
    def __init__(self, controller: DebugController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("debug_panel")
        self.controller = controller
        #: The chunk and state as shown when the run paused (an answer hands on only what was edited).
        self._shown_chunk = ""
        self._shown_state = ""

        self.breakpoint_list = QListWidget()
        self.breakpoint_list.setObjectName("debug.breakpoints")
        self.breakpoint_list.setMaximumHeight(90)
        self.hook = QComboBox()
        self.hook.setObjectName("debug.hook")
        self.hook.addItem(translate("DebugPanel", "any hook"), None)
        for hook in HOOKS:
            self.hook.addItem(hook, hook)
        self.processor = QLineEdit()
        self.processor.setObjectName("debug.processor")
        self.processor.setPlaceholderText(translate("DebugPanel", "any processor (an id, e.g. pii-detector)"))
        self.chunk_type = QLineEdit()
        self.chunk_type.setObjectName("debug.chunk_type")
        self.chunk_type.setPlaceholderText(translate("DebugPanel", "any chunk type (e.g. text-delta)"))
        self.text = QLineEdit()
        self.text.setObjectName("debug.text")
        self.text.setPlaceholderText(translate("DebugPanel", "any text"))
        self.step_number = QSpinBox()
        self.step_number.setObjectName("debug.step_number")
        self.step_number.setRange(-1, 999)
        self.step_number.setSpecialValueText(translate("DebugPanel", "any step"))
        self.step_number.setValue(-1)
        self.add_button = QPushButton(translate("DebugPanel", "Add breakpoint"))
        self.add_button.setObjectName("debug.add")
        self.remove_button = QPushButton(translate("DebugPanel", "Remove"))
        self.remove_button.setObjectName("debug.remove")
        form = QFormLayout()
        form.addRow(translate("DebugPanel", "Hook"), self.hook)
        form.addRow(translate("DebugPanel", "Processor"), self.processor)
        form.addRow(translate("DebugPanel", "Chunk type"), self.chunk_type)
        form.addRow(translate("DebugPanel", "Text contains"), self.text)
        # "Step" is also the button that steps once: the label is the number of the step to pause in
        form.addRow(translate("DebugPanel", "Step", "the number of the step to pause in"), self.step_number)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)

        self.where = QLabel(translate("DebugPanel", "No run is paused. Set a breakpoint, then send a message."))
        self.where.setObjectName("debug.where")
        self.where.setWordWrap(True)
        self.args = QLabel()
        self.args.setObjectName("debug.args")
        self.args.setWordWrap(True)
        self.chunk = QPlainTextEdit()
        self.chunk.setObjectName("debug.chunk")
        self.chunk.setPlaceholderText(translate("DebugPanel", "The chunk the processor is about to receive (JSON)"))
        self.state = QPlainTextEdit()
        self.state.setObjectName("debug.state")
        self.state.setPlaceholderText(translate("DebugPanel", "The processor's state (JSON)"))
        self.error = QLabel()
        self.error.setObjectName("debug.error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        self.continue_button = QPushButton(translate("DebugPanel", "Continue"))
        self.continue_button.setObjectName("debug.continue")
        self.step_button = QPushButton(translate("DebugPanel", "Step"))
        self.step_button.setObjectName("debug.step")
        self.step_button.setToolTip(
            translate("DebugPanel", "Go on and pause again before the very next processor call")
        )
        self.abort_button = QPushButton(translate("DebugPanel", "Abort the run"))
        self.abort_button.setObjectName("debug.abort")
        answers = QHBoxLayout()
        for button in (self.continue_button, self.step_button, self.abort_button):
            answers.addWidget(button)
        answers.addStretch(1)

        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(translate("DebugPanel", "<b>Breakpoints</b>")))
        layout.addWidget(self.breakpoint_list)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.where)
        layout.addWidget(self.args)
        layout.addWidget(self.chunk, 1)
        layout.addWidget(self.state, 1)
        layout.addWidget(self.error)
        layout.addLayout(answers)
        self._show_paused(False)

        self.add_button.clicked.connect(self._on_add_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.continue_button.clicked.connect(lambda: self._answer(step=False))
        self.step_button.clicked.connect(lambda: self._answer(step=True))
        self.abort_button.clicked.connect(controller.abort)
        controller.paused.connect(self.show_pause)
        controller.resumed.connect(self._on_controller_resumed)
        controller.breakpoints_changed.connect(self._on_controller_breakpoints_changed)

    # ----------------------------------------------------------------------------------------- breakpoints
    @Slot()
    def _on_add_clicked(self) -> None:
        step = self.step_number.value()
        self.controller.add_breakpoint(
            Breakpoint(
                hook=self.hook.currentData(),
                processor_id=self.processor.text().strip() or None,
                chunk_type=self.chunk_type.text().strip() or None,
                text_contains=self.text.text() or None,
                step_number=step if step >= 0 else None,
            )
        )

    @Slot()
    def _on_remove_clicked(self) -> None:
        self.controller.remove_breakpoint(self.breakpoint_list.currentRow())

    @Slot(list)
    def _on_controller_breakpoints_changed(self, breakpoints: list[Breakpoint]) -> None:
        self.breakpoint_list.clear()
        for breakpoint in breakpoints:
            self.breakpoint_list.addItem(self._describe(breakpoint))

    def _describe(self, breakpoint: Breakpoint) -> str:
        parts = [
            breakpoint.hook or translate("DebugPanel", "any hook"),
            breakpoint.processor_id or translate("DebugPanel", "any processor"),
        ]
        if breakpoint.chunk_type:
            parts.append(translate("DebugPanel", "chunk {0}").format(breakpoint.chunk_type))
        if breakpoint.text_contains:
            parts.append(translate("DebugPanel", "text contains {0}").format(json.dumps(breakpoint.text_contains)))
        if breakpoint.step_number is not None:
            parts.append(translate("DebugPanel", "step {0}").format(breakpoint.step_number))
        return " · ".join(parts)

    # ----------------------------------------------------------------------------------------- a paused run
    @Slot(object)
    def show_pause(self, pause: Pause) -> None:
        step = "" if pause.step_number is None else translate("DebugPanel", " (step {0})").format(pause.step_number)
        self.where.setText(
            translate(
                "DebugPanel", "Paused before {0}.{1}{2}: edit what it receives or its state, then continue."
            ).format(pause.processor_id, pause.hook, step)
        )
        messages = getattr(pause.args, "messages", None)
        self.args.setText(
            translate("DebugPanel", "Messages: {0}").format(" | ".join(getattr(m, "text", "")[:60] for m in messages))
            if messages
            else ""
        )
        self.chunk.setVisible(pause.part is not None)
        self._shown_chunk = json.dumps(pause.part.to_wire(), indent=2, ensure_ascii=False) if pause.part else ""
        self.chunk.setPlainText(self._shown_chunk)
        try:
            self._shown_state = json.dumps(pause.state, indent=2, ensure_ascii=False)
            self.state.setReadOnly(False)
            self.state.setToolTip("")
        except (TypeError, ValueError):  # a processor's own objects in its state: shown, not editable
            self._shown_state = json.dumps(pause.state, indent=2, ensure_ascii=False, default=repr)
            self.state.setReadOnly(True)
            self.state.setToolTip(
                translate("DebugPanel", "This state holds objects that are not JSON: it can be read, not edited.")
            )
        self.state.setPlainText(self._shown_state)
        self.error.clear()
        self._show_paused(True)

    def _answer(self, *, step: bool) -> None:
        """Continue or step; only what the user edited is handed on (an untouched state stays the very objects)."""
        chunk, state = self.chunk.toPlainText(), self.state.toPlainText()
        problem = self.controller.resume(
            chunk_json=chunk if self.chunk.isVisibleTo(self) and chunk != self._shown_chunk else None,
            state_json=state if not self.state.isReadOnly() and state != self._shown_state else None,
            step=step,
        )
        self.error.setText(problem)

    @Slot()
    def _on_controller_resumed(self) -> None:
        if self.controller.pause is None:
            self.where.setText(translate("DebugPanel", "The run goes on."))
            self._show_paused(False)

    def _show_paused(self, paused: bool) -> None:
        for widget in (self.args, self.state, self.continue_button, self.step_button, self.abort_button):
            widget.setVisible(paused)
        if not paused:
            self.chunk.hide()
            self.error.clear()


__all__ = ["DebugPanel"]
