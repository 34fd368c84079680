"""The store's run recordings: what the model and the tools said in each run, below every processor, compressed
(``Recording.to_bytes()``), so a past run replays through an edited chain and a reopened tool card knows what the
tool returned. Held by :class:`studio.store.database.Store` as ``store.recordings`` (the same database and worker
thread, through ``memory``).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from processors.memory.sql import SqlMemory
from processors.models.recording import FORMAT_VERSION, RecordedToolCall, Recording
from studio.store.schema import run_recordings, runs


class RecordingsStore:
    """Run recordings (see the module docstring)."""

    def __init__(self, memory: SqlMemory) -> None:
        self.memory = memory

    async def save_recording(self, run_id: str, recording: Recording | bytes) -> int:
        """Keep a run's recording (replacing any); returns its size in bytes. Compressed on the store's worker
        thread, so a 10,000-chunk recording costs the UI nothing. A recording never holds a key
        (:mod:`processors.models.recording`)."""

        def work(connection: Connection) -> int:
            if isinstance(recording, Recording):
                data, chunks = recording.to_bytes(), recording.chunk_count
            else:
                data, chunks = recording, Recording.from_bytes(recording).chunk_count
            connection.execute(sa.delete(run_recordings).where(run_recordings.c.run_id == run_id))
            connection.execute(
                sa.insert(run_recordings).values(run_id=run_id, format=FORMAT_VERSION, chunk_count=chunks, data=data)
            )
            return len(data)

        return await self.memory.run_sync(work, write=True)

    async def recording_bytes(self, run_id: str) -> bytes | None:
        """The run's recording as stored (``Recording.to_bytes()``), or None when the run has none."""
        query = sa.select(run_recordings.c.data).where(run_recordings.c.run_id == run_id)

        def work(connection: Connection) -> bytes | None:
            value = connection.execute(query).scalar_one_or_none()
            return None if value is None else bytes(value)

        return await self.memory.run_sync(work)

    async def recorded_tool_calls(self, thread_id: str) -> dict[str, list[RecordedToolCall]]:
        """What each run of the thread's tools returned, before any ``process_tool_result``, from the runs'
        recordings (decoded on the store's thread). A run without a readable recording is left out: its tool
        cards then show only what the model was given."""
        query = (
            sa.select(run_recordings.c.run_id, run_recordings.c.data)
            .join(runs, runs.c.id == run_recordings.c.run_id)
            .where(runs.c.thread_id == thread_id)
        )

        def work(connection: Connection) -> dict[str, list[RecordedToolCall]]:
            found: dict[str, list[RecordedToolCall]] = {}
            for row in connection.execute(query):
                try:
                    calls = Recording.from_bytes(bytes(row.data)).tool_calls
                except ValueError:
                    continue
                if calls:
                    found[row.run_id] = calls
            return found

        return await self.memory.run_sync(work)

    async def get_recording(self, run_id: str) -> Recording | None:
        """The run's recording, or None when it has none. Raises ``ValueError`` when the stored one is unreadable."""

        def work(connection: Connection) -> Recording | None:
            value = connection.execute(
                sa.select(run_recordings.c.data).where(run_recordings.c.run_id == run_id)
            ).scalar_one_or_none()
            return None if value is None else Recording.from_bytes(bytes(value))

        return await self.memory.run_sync(work)

    async def recorded_runs(self, thread_id: str) -> set[str]:
        """The ids of the thread's runs that have a recording (they can be replayed)."""
        query = (
            sa.select(run_recordings.c.run_id)
            .join(runs, runs.c.id == run_recordings.c.run_id)
            .where(runs.c.thread_id == thread_id)
        )
        return await self.memory.run_sync(lambda c: {str(row[0]) for row in c.execute(query)})


__all__ = ["RecordingsStore"]
