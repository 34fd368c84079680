"""``FileExports``: what the workspace writes to files — the design, its Python script, a thread, a regression test.

    files = FileExports(store=store, catalogue=catalogue, document=document, replays=replays)
    files.file_failed.connect(window.show_file_error)        # (title, what happened): shown without blocking
    files.save_design_file(path)                             # True when written
    await files.export_thread(thread_id, path)
    await files.export_regression_test(run_id, path)         # asserts what the run's last replay gave
    await files.reexport_regression_test(run_id)             # again, over the file it was last exported to

A thread file carries what the guards hid only as ``[REDACTED]`` (:mod:`studio.store.run_transfer`: its runs, and the
values of its messages that the guards would hide, a tool's result kept as the tool gave it). Every file is written
atomically (:func:`studio.system.files.write_text_atomic`: a failure leaves the old file), the large ones on a worker
thread; a failure is said in the status bar and in :attr:`file_failed`, never raised into Qt.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from processors.errors import ProcessorError
from studio.controllers.replay_controller import ReplayController
from studio.design.agent_design import DesignError, save_design
from studio.design.export import design_to_python, script_requirements
from studio.error_texts import error_text
from studio.i18n import translate
from studio.models.design_document import DesignDocument
from studio.regression_exports import (
    exported_path,
    exported_texts,
    masked_kinds,
    remember_export,
    with_unmasked_header,
)
from studio.replays.regression_test import regression_test
from studio.system.files import write_text_atomic

logger = logging.getLogger(__name__)


class FileExports(QObject):
    """The workspace's file writes (see the module docstring)."""

    #: A line for the status bar.
    status_message = Signal(str)
    #: Saving or exporting a file failed (a title and what happened); the window shows it without blocking.
    file_failed = Signal(str, str)

    def __init__(
        self,
        *,
        store: Any,
        catalogue: Any,
        document: DesignDocument,
        replays: ReplayController,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._store = store
        self._catalogue = catalogue
        self._document = document
        self._replays = replays

    def save_design_file(self, path: Path) -> bool:
        """Save the design to ``path`` (atomically: a failure leaves the old file); False, and said, on failure."""
        try:
            save_design(self._document.snapshot(), path)
        except (DesignError, OSError, UnicodeError) as error:
            self._failed(translate("Workspace", "The design was not saved"), error)
            return False
        self._document.mark_saved()
        self.status_message.emit(translate("Workspace", "Saved {file}").format(file=path.name))
        return True

    def export_script(self, path: Path) -> bool:
        """Write the design as a Python script (checked to compile, written atomically); False on failure."""
        design = self._document.snapshot()
        try:
            script = design_to_python(design, catalogue=self._catalogue)
            write_text_atomic(path, script)
        except (DesignError, OSError, UnicodeError) as error:
            self._failed(translate("Workspace", "The script was not exported"), error)
            return False
        needs = "; ".join(need.replace("`", "") for need in script_requirements(design))
        self.status_message.emit(
            translate("Workspace", "Exported {file} — run it with: python {file} (it needs {needs})").format(
                file=path.name, needs=needs
            )
        )
        return True

    async def export_thread(self, thread_id: str | None, path: Path) -> None:
        if thread_id is None:
            self.status_message.emit(translate("Workspace", "No thread is open."))
            return
        try:
            data = await self._store.export_thread(thread_id)  # scrubbed (Store.export_thread)
            text = json.dumps(data, indent=2, ensure_ascii=False)
            await asyncio.to_thread(write_text_atomic, path, text)
        except (OSError, UnicodeError, ValueError, ProcessorError) as error:
            # (a user's pattern of a guard that timed out on the thread's text: nothing is written unchecked)
            self._failed(translate("Workspace", "The thread was not exported"), error)
            return
        self.status_message.emit(translate("Workspace", "Exported the thread to {file}").format(file=path.name))

    async def export_regression_test(self, run_id: str, path: Path) -> bool:
        """Write ``run_id``'s last replay through the current chain as a pytest file
        (:mod:`studio.replays.regression_test`) that asserts the outcome that replay gave; False, and said, when it
        cannot."""
        made = await self.regression_test_script(run_id)
        return made is not None and await self.write_regression_test(made[0], path, run_id=run_id)

    async def reexport_regression_test(self, run_id: str) -> bool:
        """Write ``run_id``'s last replay as a pytest file again, over the file it was last exported to (the design as
        it is now replaces the frozen copy); False, and said, when it was never exported or cannot be."""
        path = exported_path(run_id)
        if path is None:
            self._refused(
                translate("Workspace", "The regression test cannot be exported again"),
                translate("Workspace", "This run's regression test was never exported, or its file is gone."),
            )
            return False
        return await self.export_regression_test(run_id, path)

    async def regression_test_script(self, run_id: str) -> tuple[str, list[str]] | None:
        """The regression test of ``run_id``'s last replay, made before the user picks a file, so a test that cannot
        be exported (no replay yet, a replay that diverged, a design that cannot be exported) is said at once
        instead of after a file was chosen; None, and said (status bar and a message box), when it cannot. With it,
        the kinds of values the run's hiding guards masked that the file holds unmasked
        (:func:`studio.regression_exports.masked_kinds`; the window asks before writing such a file), which its
        header names too."""
        comparison = self._replays.comparisons.get(run_id)
        if comparison is None:
            self._refused(
                translate("Workspace", "The regression test cannot be exported"),
                translate("Workspace", "Replay the run first: the test asserts what the replay gave."),
            )
            return None
        try:
            source = await self._replays.source(run_id)
            design = self._document.snapshot()
            script = regression_test(design, source, comparison.current, catalogue=self._catalogue)
            kinds = await asyncio.to_thread(masked_kinds, source.design or design, exported_texts(source))
            return with_unmasked_header(script, kinds), kinds
        except (LookupError, DesignError, ValueError, SyntaxError, ProcessorError) as error:
            self._failed(translate("Workspace", "The regression test cannot be exported"), error)
            return None

    async def write_regression_test(self, script: str, path: Path, *, run_id: str | None = None) -> bool:
        """Write a script :meth:`regression_test_script` made; False, and said, when the file cannot be written. The
        file of ``run_id``'s test is remembered, to export it again there (:meth:`reexport_regression_test`)."""
        try:
            await asyncio.to_thread(write_text_atomic, path, script)
        except (OSError, UnicodeError) as error:
            self._failed(translate("Workspace", "The regression test was not exported"), error)
            return False
        if run_id is not None:
            record = await self._store.get_run(run_id)
            remember_export(run_id, record.thread_id if record is not None else None, path)
        self.status_message.emit(
            translate(
                "Workspace", "Exported {0} — run it with: python -m pytest {0} (it needs only processors and pytest)"
            ).format(path.name)
        )
        return True

    def _refused(self, title: str, text: str) -> None:
        """Say why something cannot be done, in the status bar and in a message box that does not block."""
        self.status_message.emit(f"{title}: {text}")
        self.file_failed.emit(title, text)

    def _failed(self, title: str, error: BaseException) -> None:
        """Say in the status bar and in a message box (non-blocking) that a file was not written, and why."""
        logger.warning("%s: %s", title, error)
        self.status_message.emit(f"{title}: {error_text(error)}")
        self.file_failed.emit(title, error_text(error))


__all__ = ["FileExports"]
