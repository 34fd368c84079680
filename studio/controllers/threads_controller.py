"""``ThreadsController``: threads in the store — list, search, create, rename, delete, restore — without blocking
the UI. A deleted thread goes to the store's trash (:mod:`studio.store.trash`) and :meth:`restore` brings the most
recently deleted one back, so a deletion can be undone.

Every store call is awaited in a task on the qasync loop (the store does its I/O in a worker thread); results
come back as signals, and the list model is refreshed from them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from processors.memory.records import ThreadRecord
from studio.i18n import translate
from studio.models.threads_model import ThreadListModel
from studio.texts.translator import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)


class ThreadsController(QObject):
    #: The list was reloaded (after a search or a change).
    threads_loaded = Signal(list)
    #: A thread was created; the view selects it.
    thread_created = Signal(object)
    #: A thread was deleted (its id): it is in the trash.
    thread_deleted = Signal(str)
    #: A thread came back from the trash (its id).
    thread_restored = Signal(str)
    #: The title of the thread "Undo delete" would bring back ("" for one without a title), or None: nothing to undo.
    restorable_changed = Signal(object)
    #: A store call failed; a readable message for the status bar.
    failed = Signal(str)

    def __init__(self, store: Any, model: ThreadListModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self.model = model
        self._search = ""
        self._tasks: set[asyncio.Task[Any]] = set()

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_event_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def wait_idle(self) -> None:
        """Wait for every pending store call (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _guard(self, what: str, coroutine: Coroutine[Any, Any, Any]) -> Any:
        try:
            return await coroutine
        except asyncio.CancelledError:
            raise
        except Exception as error:
            logger.warning("%s failed", what, exc_info=True)
            self.failed.emit(translate("ThreadsController", what).format(error=error))
            return None

    def refresh(self, search: str | None = None) -> asyncio.Task[Any]:
        if search is not None:
            self._search = search
        return self._spawn(self._refresh())

    async def reload(self) -> None:
        """Reload the list now (awaitable, for callers that need the result before going on)."""
        await self._refresh()

    async def _refresh(self) -> None:
        records = await self._guard(
            QT_TRANSLATE_NOOP("ThreadsController", "Could not load the threads: {error}"),
            self._store.memory.list_threads(search=self._search or None),
        )
        if records is not None:
            self.model.set_records(records)
            self.threads_loaded.emit(records)

    def create(self, title: str | None = None) -> asyncio.Task[Any]:
        return self._spawn(self._create(title))

    async def _create(self, title: str | None) -> ThreadRecord | None:
        record = await self._guard(
            QT_TRANSLATE_NOOP("ThreadsController", "Could not create a thread: {error}"),
            self._store.memory.create_thread(title=title),
        )
        if record is not None:
            await self._refresh()
            self.thread_created.emit(record)
        return record  # type: ignore[no-any-return]

    def rename(self, thread_id: str, title: str) -> asyncio.Task[Any]:
        return self._spawn(self._rename(thread_id, title))

    async def _rename(self, thread_id: str, title: str) -> None:
        if await self._guard(
            QT_TRANSLATE_NOOP("ThreadsController", "Could not rename the thread: {error}"),
            self._store.memory.rename_thread(thread_id, title.strip() or None),
        ):
            await self._refresh()

    def delete(self, thread_id: str) -> asyncio.Task[Any]:
        return self._spawn(self._delete(thread_id))

    async def _delete(self, thread_id: str) -> None:
        deleted = await self._guard(
            QT_TRANSLATE_NOOP("ThreadsController", "Could not delete the thread: {error}"),
            self._store.trash.trash_thread(thread_id),
        )
        if deleted:
            await self._refresh()
            self.thread_deleted.emit(thread_id)
            await self._tell_restorable()

    def restore(self) -> asyncio.Task[Any]:
        """Bring the most recently deleted thread back from the trash (Undo delete)."""
        return self._spawn(self._restore())

    async def _restore(self) -> str | None:
        thread_id = await self._guard(
            QT_TRANSLATE_NOOP("ThreadsController", "Could not restore the thread: {error}"),
            self._store.trash.restore_thread(),
        )
        if thread_id is not None:
            await self._refresh()
            self.thread_restored.emit(thread_id)
        await self._tell_restorable()
        return thread_id  # type: ignore[no-any-return]

    async def open_trash(self) -> None:
        """At start: forget what was deleted too long ago, and say whether a deletion can be undone."""
        await self._guard(
            QT_TRANSLATE_NOOP("ThreadsController", "Could not empty the trash: {error}"),
            self._store.trash.empty_trash(),
        )
        await self._tell_restorable()

    async def _tell_restorable(self) -> None:
        trashed = await self._guard(
            QT_TRANSLATE_NOOP("ThreadsController", "Could not read the trash: {error}"),
            self._store.trash.trashed_threads(),
        )
        if trashed is not None:
            self.restorable_changed.emit((trashed[0].title or "") if trashed else None)
