"""The schema's history as Alembic revisions, run by :mod:`processors.memory.migrate` (no ``env.py`` needed).

Each file in ``versions/`` is one revision (``revision``, ``down_revision``, ``upgrade()``). To change the
schema: add a file whose ``down_revision`` is the current head, write ``upgrade()`` with ``alembic.op``
(SQLite: use ``op.batch_alter_table`` to alter columns), and update ``processors/memory/schema.py`` to match;
``tests/processors/memory/test_sql.py`` checks the two agree. Never edit a released revision: databases in the
wild were made by it. The revision files are read from disk, so an installer must ship this folder's ``.py``
files as data.

These are the runtime's tables only. An application that keeps its own tables in the same database (the studio)
ships its own revisions, continuing this history, and hands their folder to ``SqlMemory(migrations=...)``. The
runtime's revisions after ``0001`` are named ``rNNNN`` so that they never collide with an application's.
"""

from __future__ import annotations

from pathlib import Path

#: Where the revisions live (handed to ``alembic.script.ScriptDirectory``).
MIGRATIONS_DIR = Path(__file__).resolve().parent

__all__ = ["MIGRATIONS_DIR"]
