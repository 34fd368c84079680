"""The studio's tables' history: Alembic revisions that continue the runtime's (``processors.memory.migrations``).

The runtime owns threads and messages (its revision ``0001``); the studio owns designs, runs, trace events and
violations (``0002`` onwards, declared in :mod:`studio.store.schema`). One database has one history, so the first
studio revision's ``down_revision`` is the runtime's ``0001``; :class:`studio.store.database.Store` hands this folder to
the runtime's :class:`~processors.memory.sql.SqlMemory`, which migrates both.

To change the studio's schema: add a file to ``versions/`` whose ``down_revision`` is the studio's current head,
named ``vNNNN_what.py`` with ``revision = "sNNNN"`` (the ``s`` keeps the studio's ids apart from the runtime's;
``0002`` and ``0003`` predate the split), write ``upgrade()`` with ``alembic.op``, and update
``studio/store/schema.py`` to match (``tests/studio/store/test_schema.py`` checks the two agree). Never edit a
released revision. Installers ship this folder's ``.py`` files as data (Alembic reads them from disk).
"""

from __future__ import annotations

from pathlib import Path

#: The revision files (handed to the store's ``SqlMemory`` as its ``migrations``).
STUDIO_MIGRATIONS = Path(__file__).resolve().parent / "versions"

__all__ = ["STUDIO_MIGRATIONS"]
