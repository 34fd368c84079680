"""Saying what is wrong with a SQLite database file, and what the user can do, instead of a raw driver error.

Two jobs, both for SQLite files only (other databases report their own errors):

- :func:`check_writable` runs before a database is opened: a read-only file, or a read-only folder (SQLite
  creates its ``-wal`` and ``-shm`` journal files beside the database, and a new database in it), is refused up
  front with :class:`DatabaseReadOnlyError`. Otherwise the store would open, show the data, and lose every
  message the user then writes. ``os.access`` is asked, not the mode bits: it knows about the user, ACLs,
  read-only mounts and immutable files (which even root cannot write).
- :func:`translate` turns the SQLite errors a damaged or unwritable file raises at any later moment (``database
  disk image is malformed``, ``file is not a database``, ``attempt to write a readonly database``, ``unable to
  open database file``) into :class:`DatabaseCorruptError` / :class:`DatabaseReadOnlyError`, naming the file.

Every message says that nothing was changed: these errors are raised before a write, or by a write SQLite
refused, whose transaction is rolled back.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from processors.memory.errors import DatabaseCorruptError, DatabaseReadOnlyError, StoreError

#: What the user can do with a damaged database file.
_RESTORE = (
    "Restore a backup (Processor Studio copies the file to '{name}.bak-<revision>' beside it before each "
    "upgrade), or move the file aside to start with an empty database; the sqlite3 tool's '.recover' command can "
    "often save the rest of its data."
)

_CANNOT_OPEN = frozenset({"SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"})


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


def _existing_folder(path: Path) -> Path:
    """The folder the database is (or will be created) in, or its nearest existing ancestor."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def read_only_file(path: Path) -> DatabaseReadOnlyError:
    return DatabaseReadOnlyError(
        f"The database {path} is read-only, and Processor Studio must be able to write to it. Nothing was changed. "
        "Make the file writable for your user (check its permissions, and that its disk is not mounted "
        "read-only), or use a database in a folder you can write to."
    )


def read_only_folder(path: Path, folder: Path) -> DatabaseReadOnlyError:
    return DatabaseReadOnlyError(
        f"The folder {folder} is read-only, and the database {path} needs it writable: SQLite keeps its journal "
        "files (-wal, -shm) beside the database. Nothing was changed. Make the folder writable for your user, or "
        "use a database in a folder you can write to."
    )


def corrupt(path: Path, detail: str) -> DatabaseCorruptError:
    return DatabaseCorruptError(
        f"The database {path} is damaged (SQLite says: {detail}). Nothing was changed. "
        + _RESTORE.format(name=path.name)
    )


def not_a_database(path: Path) -> DatabaseCorruptError:
    return DatabaseCorruptError(
        f"{path} is not a SQLite database, or its first page is damaged. Nothing was changed. If it is Processor "
        "Studio's database, r" + _RESTORE.format(name=path.name)[1:]
    )


def empty_revision(path: Path, tables: list[str]) -> DatabaseCorruptError:
    return DatabaseCorruptError(
        f"The database {path} has tables ({', '.join(tables)}) but no schema revision: its alembic_version table "
        "is empty, so which version wrote it is unknown and it cannot be upgraded safely. Nothing was changed. "
        + _RESTORE.format(name=path.name)
    )


def check_writable(path: Path, *, exists: bool) -> None:
    """Refuse a database that could be read but not written (see the module docstring)."""
    if exists and not _writable(path):
        raise read_only_file(path)
    folder = path.parent if exists else _existing_folder(path)
    if not _writable(folder):
        raise read_only_folder(path, folder)


def translate(error: BaseException, path: Path) -> StoreError | None:
    """The store error for a SQLite error on ``path`` (raw ``sqlite3`` or wrapped by SQLAlchemy), or None.

    None means the error is not about the file itself (a constraint, a lock timeout, a bug): raise it as it is.
    """
    original = getattr(error, "orig", error)  # SQLAlchemy's DBAPIError keeps the driver's error in ``orig``
    if not isinstance(original, sqlite3.Error):
        return None
    name = getattr(original, "sqlite_errorname", "") or ""  # extended codes: SQLITE_CORRUPT_INDEX, ...
    if name == "SQLITE_NOTADB":
        return not_a_database(path)
    if name.startswith("SQLITE_CORRUPT"):
        return corrupt(path, str(original))
    if name.startswith("SQLITE_READONLY"):
        if path.exists() and not _writable(path):
            return read_only_file(path)
        if not _writable(path.parent):
            return read_only_folder(path, path.parent)
        return read_only_file(path)  # SQLite knows better than access(): a read-only mount, a read-only open
    if name in _CANNOT_OPEN:
        folder = path.parent if path.exists() else _existing_folder(path)
        if not _writable(folder):
            return read_only_folder(path, folder)
        if path.exists() and not _writable(path):
            return read_only_file(path)
    return None


__all__ = [
    "check_writable",
    "corrupt",
    "empty_revision",
    "not_a_database",
    "read_only_file",
    "read_only_folder",
    "translate",
]
