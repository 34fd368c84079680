"""``ThreadImportController``: import a thread file off the UI thread, with progress and a way to stop.

A thread export can hold hundreds of thousands of messages. Reading the file, decoding, checking and writing all
run off the UI thread (the file read on a thread of asyncio's pool, the rest on the store's worker thread;
:meth:`processors.memory.SqlMemory.import_thread`), and the store's progress callback — called on that worker
thread — is turned into :attr:`progress_changed`, which Qt delivers on the UI thread. Stopping sets a flag the
next progress call sees; it raises there, so the import ends with nothing written (the whole import is one
transaction, and the checks write nothing).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot

from studio.error_texts import error_text
from studio.texts.translator import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

#: What the phases of an import are called in the UI.
PHASE_LABELS = {
    "reading": QT_TRANSLATE_NOOP("ImportProgress", "Reading the file…"),
    "checking": QT_TRANSLATE_NOOP("ImportProgress", "Checking the messages…"),
    "writing": QT_TRANSLATE_NOOP("ImportProgress", "Saving the messages…"),
}


translate = QCoreApplication.translate


def phase_label(phase: str) -> str:
    """An import phase as the progress dialog names it, in the studio's language."""
    label = PHASE_LABELS.get(phase)
    return QCoreApplication.translate("ImportProgress", label) if label else phase


class ImportStopped(Exception):
    """Raised inside the store's worker when the user stopped the import; nothing is written."""


class ThreadImportController(QObject):
    """Runs one thread import at a time into a store (the studio's :class:`~studio.store.database.Store`, whose import
    keeps the runs too, or a :class:`~processors.memory.SqlMemory`)."""

    #: An import of the file (its name) began.
    import_started = Signal(str)
    #: How far the running import got: phase (``reading``, ``checking``, ``writing``), done, total.
    progress_changed = Signal(str, int, int)
    #: The import finished: the new thread's id and the file's name.
    import_finished = Signal(str, str)
    #: The import was refused or failed; the message says why (nothing was written).
    import_failed = Signal(str)
    #: The user stopped the import; nothing was written.
    import_stopped = Signal()

    def __init__(self, memory: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.memory = memory
        self._stop = threading.Event()
        self._running = False

    @property
    def is_running(self) -> bool:
        return self._running

    @Slot()
    def stop(self) -> None:
        """Stop the running import at its next progress step (the store's worker sees the flag)."""
        if self._running:
            self._stop.set()

    async def import_file(self, path: Path) -> str | None:
        """Import ``path``; the new thread's id, or None when it was refused, failed or stopped (signals say)."""
        if self._running:
            self.import_failed.emit(translate("ImportProgress", "Another thread import is still running."))
            return None
        self._running = True
        stop = self._stop = threading.Event()  # its own flag: a stopped import still queued stays stopped
        self.import_started.emit(path.name)
        try:
            data = await asyncio.to_thread(path.read_bytes)
            progress = functools.partial(self._on_progress, stop)
            thread_id: str = await self.memory.import_thread(data, progress=progress)
        except ImportStopped:
            self.import_stopped.emit()
            return None
        except OSError as error:
            self.import_failed.emit(
                translate("ImportProgress", "Cannot read {file}: {error}").format(
                    file=path.name, error=error.strerror or error
                )
            )
            return None
        except ValueError as error:  # ThreadImportError: every problem, named by its path
            self.import_failed.emit(
                translate("ImportProgress", "Import refused, nothing was written: {error}").format(
                    error=error_text(error)
                )
            )
            return None
        except asyncio.CancelledError:
            stop.set()  # the worker job goes on without a waiter: make it stop, writing nothing
            raise
        except Exception as error:  # e.g. the database cannot be written: say so, never a silent end
            logger.exception("thread import of %s failed", path)
            self.import_failed.emit(
                translate("ImportProgress", "Import of {file} failed, nothing was written: {error}").format(
                    file=path.name, error=error
                )
            )
            return None
        finally:
            self._running = False
        self.import_finished.emit(thread_id, path.name)
        return thread_id

    def _on_progress(self, stop: threading.Event, phase: str, done: int, total: int) -> None:
        """Called on the store's worker thread: Qt queues the signal to the UI thread's receivers."""
        if stop.is_set():
            raise ImportStopped
        self.progress_changed.emit(phase, done, total)


__all__ = ["PHASE_LABELS", "ImportStopped", "ThreadImportController", "phase_label"]
