"""Errors of the SQL thread store, rooted in the runtime's :class:`~processors.errors.ProcessorsError`.

::

    ProcessorsError
    └── StoreError                   the database cannot be used as asked
        ├── SchemaTooNewError            written by a newer version: refused, nothing changed
        ├── DatabaseMissingError         ``create=False`` and there is no database (also FileNotFoundError)
        ├── ForeignDatabaseError         a SQLite file with other tables and no schema revision: not ours
        ├── DatabaseCorruptError         a damaged SQLite file (or an empty revision table): says how to recover
        ├── DatabaseReadOnlyError        a SQLite file or its folder cannot be written (also PermissionError)
        ├── ThreadNotFoundError          no thread with that id (also LookupError)
        ├── ThreadExistsError            a thread with that id is already stored
        ├── ResourceMismatchError        the thread belongs to another resource (user)
        └── ThreadImportError            a malformed or conflicting import (also ValueError): names what is wrong
"""

from __future__ import annotations

from collections.abc import Sequence

from processors.errors import ProcessorsError


class StoreError(ProcessorsError):
    """Root of the store's errors."""


class SchemaTooNewError(StoreError):
    """The database carries a schema revision this program does not know: a newer version wrote it, or an
    application that keeps its own tables in it (the studio) and is not the one opening it now.

    Raised before anything is written, so the newer version can still open the file afterwards.
    """

    def __init__(self, found: Sequence[str], known_head: str | None) -> None:
        self.found = tuple(found)
        self.known_head = known_head
        revisions = ", ".join(self.found)
        super().__init__(
            f"This database was written by a newer version of Processor Studio (revision {revisions}); "
            f"this version knows up to {known_head}. Nothing was changed. (A database the studio made can only be "
            "opened with the studio's store, which knows the studio's own revisions.)"
        )


class DatabaseMissingError(StoreError, FileNotFoundError):
    """``SqlMemory(..., create=False)`` was asked to open a database file that does not exist."""


class ForeignDatabaseError(StoreError):
    """The SQLite file holds someone else's tables: it is left alone rather than filled with ours."""


class DatabaseCorruptError(StoreError):
    """The SQLite file is damaged (or carries our tables without a revision); the message says what to do."""


class DatabaseReadOnlyError(StoreError, PermissionError):
    """The SQLite file, or the folder it is in, cannot be written; refused before the user loses a message."""


class ThreadNotFoundError(StoreError, LookupError):
    """No thread has the given id."""


class ThreadExistsError(StoreError):
    """A thread with the given id is already stored (create or import would overwrite it)."""


class ResourceMismatchError(StoreError):
    """The thread belongs to another resource: one user's thread is never read or written as another's."""


class ThreadImportError(StoreError, ValueError):
    """A thread import was refused; ``problems`` lists each as ``"<path>: <what is wrong>"``. Nothing was written."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        shown = "; ".join(self.problems[:5])
        more = f" (and {len(self.problems) - 5} more)" if len(self.problems) > 5 else ""
        super().__init__(f"Thread import refused: {shown}{more}")


__all__ = [
    "DatabaseCorruptError",
    "DatabaseMissingError",
    "DatabaseReadOnlyError",
    "ForeignDatabaseError",
    "ResourceMismatchError",
    "SchemaTooNewError",
    "StoreError",
    "ThreadExistsError",
    "ThreadImportError",
    "ThreadNotFoundError",
]
