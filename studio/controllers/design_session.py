"""``DesignSession``: which design the studio edits, and keeping it saved.

    designs = DesignSession(store, document, spawn=workspace.spawn)
    designs.design_opened.connect(on_opened)        # (name): after the document holds the new design
    await designs.open_latest()                     # at start-up: the newest saved design, else the sample
    designs.open_file(path); designs.new(); designs.open_sample()
    await designs.flush()                           # at shutdown: an edit not saved yet is saved now

Every opened design is saved to the store at once, and every edit :data:`AUTOSAVE_MS` after the last one (a burst
of edits is one write), off the UI thread like every store call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from studio import i18n
from studio.design.agent_design import AgentDesign, DesignError, load_design
from studio.design.sample import sample_design
from studio.error_texts import error_text
from studio.i18n import translate
from studio.models.design_document import DesignDocument

#: How long after the last edit the design is saved to the store.
AUTOSAVE_MS = 800


class DesignSession(QObject):
    """The design document's opening and saving (see the module docstring)."""

    #: The document now holds another design (its name).
    design_opened = Signal(str)
    #: A line for the status bar.
    status_message = Signal(str)

    def __init__(
        self,
        store: Any,
        document: DesignDocument,
        *,
        spawn: Callable[[Coroutine[Any, Any, Any]], Any],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._store = store
        self._document = document
        self._spawn = spawn
        #: Fires :data:`AUTOSAVE_MS` after the last edit.
        self.autosave = QTimer(self, singleShot=True, interval=AUTOSAVE_MS)
        self.autosave.timeout.connect(self._on_autosave_timeout)
        for signal in (
            document.entry_inserted,
            document.entry_removed,
            document.entry_moved,
            document.entry_changed,
            document.settings_changed,
        ):
            signal.connect(self._on_document_edited)

    async def open_latest(self) -> None:
        """Open the newest design saved in the store; the sample on the first start (saved at once), or when the
        saved one cannot be read (said in the status bar)."""
        designs = await self._store.list_designs()
        if designs:
            latest = max(designs, key=lambda record: record.updated_at)
            try:
                design = AgentDesign.from_json(latest.json_text)
            except DesignError as error:
                self.status_message.emit(
                    translate("Workspace", "The saved design “{name}” could not be read: {error}").format(
                        name=latest.name, error=error_text(error)
                    )
                )
                design = sample_design(i18n.current_language())
        else:
            design = sample_design(i18n.current_language())
            await self._store.save_design(design.id, design.name, design.to_json())
        self.open(design)

    def open(self, design: AgentDesign) -> None:
        self._document.open_design(design)
        self.design_opened.emit(design.name)

    def open_file(self, path: Path) -> bool:
        try:
            design = load_design(path)
        except DesignError as error:
            self.status_message.emit(error_text(error))
            return False
        self.open(design)
        self._spawn(self.save_to_store())
        self.status_message.emit(translate("Workspace", "Opened {file}").format(file=path.name))
        return True

    def new(self) -> None:
        self.open(AgentDesign(name=translate("Workspace", "New agent")))
        self._spawn(self.save_to_store())

    def open_sample(self) -> None:
        self.open(sample_design(i18n.current_language()))
        self._spawn(self.save_to_store())

    async def save_to_store(self) -> None:
        design = self._document.snapshot()
        await self._store.save_design(design.id, design.name, design.to_json())

    async def flush(self) -> None:
        """Save an edit the autosave has not written yet."""
        if self.autosave.isActive():
            self.autosave.stop()
            await self.save_to_store()

    @Slot()
    def _on_document_edited(self, *_args: Any) -> None:
        self.autosave.start()

    @Slot()
    def _on_autosave_timeout(self) -> None:
        if not _event_loop_set():
            # The studio is gone: shutdown flushed the design and its loop is closed; a save made now could only be
            # dropped unawaited (an edit that lands after the flush, as a window's last signals do).
            return
        self._spawn(self.save_to_store())


def _event_loop_set() -> bool:
    """Whether a loop is there to run the save (this module sits below ``studio.controllers.tasks``, whose
    ``event_loop_set`` says the same)."""
    try:
        asyncio.get_event_loop()
    except RuntimeError:
        return False
    return True


__all__ = ["AUTOSAVE_MS", "DesignSession"]
