"""Opening a database: refuse one from a newer version, back up an older one, then bring it to the head revision.

The order matters. The database's revision is read first without writing anything (SQLite: a plain connection
that only SELECTs, before WAL mode or any pragma is applied), so a database written by a newer version is refused
byte-for-byte untouched. An older database is copied to ``<name>.bak-<revision>`` (SQLite's online backup, safe
while other connections are open) before the upgrade runs, in one transaction that takes the write lock and
checks the revision again (another process may have upgraded it meanwhile).

Alembic is driven directly (``ScriptDirectory`` + ``MigrationContext`` + ``Operations``), without ``env.py`` or
an ini file: the application, not a command line, decides when to migrate.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import urllib.parse
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import URL, Connection, Engine

from processors.memory import diagnose
from processors.memory.engine import WRITE_OPTION, sqlite_file
from processors.memory.errors import DatabaseMissingError, ForeignDatabaseError, SchemaTooNewError, StoreError
from processors.memory.migrations import MIGRATIONS_DIR

if TYPE_CHECKING:
    from alembic.script import ScriptDirectory

logger = logging.getLogger(__name__)

VERSION_TABLE = "alembic_version"


@dataclass(frozen=True, slots=True)
class OpenReport:
    """What opening did: the revisions before and after, and the backup made before upgrading (if any)."""

    before: tuple[str, ...]
    after: tuple[str, ...]
    backup: Path | None = None

    @property
    def upgraded(self) -> bool:
        return self.before != self.after


@functools.cache
def _script(extra: tuple[Path, ...] = ()) -> ScriptDirectory:
    """The revisions shipped with this version, plus an application's own (Alembic is imported only when a
    database is opened)."""
    from alembic.script import ScriptDirectory

    locations = [str(MIGRATIONS_DIR / "versions"), *(str(path) for path in extra)]
    return ScriptDirectory(str(MIGRATIONS_DIR), version_locations=locations)


def head_revisions(extra: tuple[Path, ...] = ()) -> tuple[str, ...]:
    """The newest schema revisions this version knows (one per branch of the history, sorted)."""
    heads = tuple(sorted(_script(extra).get_heads()))
    if not heads:  # pragma: no cover - the package always ships revisions
        raise StoreError("no schema revisions found in processors/memory/migrations")
    return heads


def known_revisions(extra: tuple[Path, ...] = ()) -> frozenset[str]:
    return frozenset(script.revision for script in _script(extra).walk_revisions())


def _existing_uri(path: Path) -> str:
    """A URI that opens ``path`` only if it exists (never creates it).

    Not ``mode=ro``: a read-only connection cannot remove the ``-wal``/``-shm`` files it makes, so a refused
    database would be left with two new files beside it. Only SELECTs run on this connection, and as the last
    one to close it leaves the directory as it found it.
    """
    return f"file:{urllib.parse.quote(str(path.resolve()))}?mode=rw"


def read_sqlite_revisions(path: Path) -> tuple[str, ...]:
    """The revisions stamped in a SQLite file, read without writing (empty for an empty database).

    A file with tables but no revision table was not made by us: it is refused rather than filled with ours. One
    with our revision table left empty cannot be placed in the history: it is refused rather than "upgraded" over
    its own tables. A damaged or unreadable file is refused saying what the user can do
    (:mod:`processors.memory.diagnose`).
    """
    try:
        connection = sqlite3.connect(_existing_uri(path), uri=True)
    except sqlite3.Error as error:
        explained = diagnose.translate(error, path)
        raise explained or StoreError(f"Cannot open {path} as a SQLite database: {error}") from error
    try:
        tables = {
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        if VERSION_TABLE not in tables:
            if tables:
                raise ForeignDatabaseError(
                    f"{path} is not a Processor Studio database (it has tables {', '.join(sorted(tables))} but no "
                    "schema revision). Nothing was changed."
                )
            return ()
        revisions = tuple(sorted(row[0] for row in connection.execute(f"SELECT version_num FROM {VERSION_TABLE}")))
        others = sorted(tables - {VERSION_TABLE})
        if not revisions and others:
            raise diagnose.empty_revision(path, others)
        return revisions
    except sqlite3.Error as error:
        raise diagnose.translate(error, path) or StoreError(
            f"{path} is not a usable SQLite database: {error}. Nothing was changed."
        ) from error
    finally:
        connection.close()


def _current(connection: Connection) -> tuple[str, ...]:
    from alembic.runtime.migration import MigrationContext

    return tuple(sorted(MigrationContext.configure(connection).get_current_heads()))


def _check_known(found: tuple[str, ...], extra: tuple[Path, ...]) -> None:
    known = known_revisions(extra)
    unknown = [revision for revision in found if revision not in known]
    if unknown:
        raise SchemaTooNewError(unknown, ", ".join(head_revisions(extra)))


def backup_sqlite(path: Path, revisions: tuple[str, ...]) -> Path:
    """Copy ``path`` to ``<name>.bak-<revision>`` with SQLite's backup API (consistent even mid-WAL)."""
    label = "+".join(revisions) or "base"
    target = path.with_name(f"{path.name}.bak-{label}")
    if target.exists():  # never overwrite an earlier backup
        target = path.with_name(f"{target.name}-{datetime.now(UTC):%Y%m%dT%H%M%S%f}")
    source = sqlite3.connect(_existing_uri(path), uri=True)
    try:
        destination = sqlite3.connect(str(target))
        try:
            source.backup(destination)
        finally:
            destination.close()
    finally:
        source.close()
    logger.info("backed up %s (revision %s) to %s before upgrading it", path, label, target)
    return target


def upgrade(connection: Connection, destination: str = "heads", extra: tuple[Path, ...] = ()) -> tuple[str, ...]:
    """Run every revision from the database's current one up to ``destination``; returns the new revisions.

    ``extra`` are an application's own revision folders (the studio's tables), on the same history. Call inside a
    transaction: on any failure nothing of the upgrade stays.
    """
    from alembic.operations import Operations
    from alembic.runtime.migration import MigrationContext

    script = _script(extra)
    context = MigrationContext.configure(connection)
    current = context.get_current_heads()
    _check_known(tuple(current), extra)
    pending = list(script.iterate_revisions(destination, current or "base"))
    for revision in reversed(pending):  # iterate_revisions walks from the destination down
        logger.info("upgrading schema to revision %s (%s)", revision.revision, revision.doc)
        with Operations.context(context):
            revision.module.upgrade()
        context.stamp(script, revision.revision)
    return tuple(sorted(context.get_current_heads()))


def open_database(engine: Engine, url: URL, *, create: bool, extra: tuple[Path, ...] = ()) -> OpenReport:
    """Make the database at ``url`` usable by this version (see the module docstring for the order of steps).

    ``extra``: revision folders of an application that keeps its own tables in the same database (the studio);
    the runtime knows nothing of their schema, only that they continue its history.
    """
    path = sqlite_file(url)
    if path is not None:
        exists = path.exists() and path.stat().st_size > 0
        if not exists and not create:
            raise DatabaseMissingError(f"No database at {path} (and create=False)")
        diagnose.check_writable(path, exists=exists)
        before = read_sqlite_revisions(path) if exists else ()
        if not exists:
            path.parent.mkdir(parents=True, exist_ok=True)
    else:
        with engine.connect() as connection:
            before = _current(connection)
            connection.rollback()
    _check_known(before, extra)
    head = head_revisions(extra)
    if before == head:
        return OpenReport(before, before)
    backup = backup_sqlite(path, before) if path is not None and before else None
    with engine.connect() as connection:
        connection.execution_options(**{WRITE_OPTION: True})
        with connection.begin():
            after = upgrade(connection, extra=extra)
    return OpenReport(before, after, backup)


__all__ = [
    "OpenReport",
    "backup_sqlite",
    "head_revisions",
    "known_revisions",
    "open_database",
    "read_sqlite_revisions",
    "upgrade",
]
