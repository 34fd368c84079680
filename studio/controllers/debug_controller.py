"""``DebugController``: the studio's breakpoints, and the run paused at one of them.

    debug = DebugController()
    debug.add_breakpoint(Breakpoint(processor_id="pii-detector-2", text_contains="@"))
    stream = agent.stream(text, debugger=debug.debugger_for_run())   # None when no breakpoint is set: no cost
    debug.paused.connect(panel.show_pause)
    debug.resume(chunk_json=edited, state_json=edited_state)          # "" when accepted, else why not

The run waits in :meth:`processors.pipeline.debugger.Debugger.before` (an ``await`` on the UI's own loop, so the
window stays responsive); this controller turns that into :attr:`paused`, and the user's answer — continue, step
to the next call, abort — with the chunk and the state edited as JSON, validated before the run goes on. Stop
(cancelling the run) always works: the waiting run is cancelled where it waits.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QObject, Signal

from processors.chunks import chunk_from_wire
from processors.pipeline.debugger import Breakpoint, Debugger, Pause
from studio import i18n

translate = i18n.translate


class DebugController(QObject):
    """Breakpoints for the studio's runs, and the answers to a paused run."""

    #: A run paused before a hook call (a :class:`~processors.pipeline.debugger.Pause`).
    paused = Signal(object)
    #: The paused run went on (or ended): the pause is over.
    resumed = Signal()
    #: The breakpoints changed (the list as it is now).
    breakpoints_changed = Signal(list)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.breakpoints: list[Breakpoint] = []
        self.pause: Pause | None = None

    # ----------------------------------------------------------------------------------------- breakpoints
    def add_breakpoint(self, breakpoint: Breakpoint) -> None:
        self.breakpoints.append(breakpoint)
        self.breakpoints_changed.emit(list(self.breakpoints))

    def remove_breakpoint(self, index: int) -> None:
        if 0 <= index < len(self.breakpoints):
            del self.breakpoints[index]
            self.breakpoints_changed.emit(list(self.breakpoints))

    def debugger_for_run(self) -> Debugger | None:
        """A debugger for the next run, or None when no breakpoint is set (the run then pays nothing)."""
        if not self.breakpoints:
            return None
        return Debugger(self.breakpoints, on_pause=self._on_pause)

    # ----------------------------------------------------------------------------------------- a paused run
    def _on_pause(self, pause: Pause) -> None:
        self.pause = pause
        self.paused.emit(pause)

    def resume(self, *, chunk_json: str | None = None, state_json: str | None = None, step: bool = False) -> str:
        """Let the paused run go on, with the chunk and state as edited; returns "" when accepted, or why not (the
        run stays paused: bad JSON, a chunk that is not one)."""
        pause = self.pause
        if pause is None:
            return translate("DebugController", "No run is paused.")
        part: Any = None
        if chunk_json is not None and pause.part is not None:
            try:
                wire = json.loads(chunk_json)
                if not isinstance(wire, dict):
                    raise ValueError(translate("DebugController", "a chunk is a JSON object"))
                part = chunk_from_wire(wire)
            except ValueError as error:  # json.JSONDecodeError and pydantic's ValidationError are ValueErrors
                return translate("DebugController", "The chunk is not valid: {0}").format(error)
            if part.type != pause.part.type:
                return translate("DebugController", "The chunk must stay a {0} chunk.").format(pause.part.type)
        state: dict[str, Any] | None = None
        if state_json is not None:
            try:
                loaded = json.loads(state_json)
            except ValueError as error:
                return translate("DebugController", "The state is not valid JSON: {0}").format(error)
            if not isinstance(loaded, dict):
                return translate("DebugController", "The state is a JSON object.")
            state = loaded
        self.pause = None
        pause.resume(part=part, state=state, step=step)
        self.resumed.emit()
        return ""

    def abort(self) -> None:
        """End the paused run here (it finishes with an error saying the debugger stopped it)."""
        pause, self.pause = self.pause, None
        if pause is not None:
            pause.abort()
            self.resumed.emit()

    def run_ended(self) -> None:
        """The run ended (finished, stopped, failed): any pause is over."""
        if self.pause is not None:
            self.pause = None
            self.resumed.emit()


__all__ = ["DebugController"]
