"""Databases that cannot be used as they are: each refusal says what is wrong and what to do, bytes unchanged.

The read-only cases are real: as root (the test machine), ``chmod`` does not stop a write, so the file or folder
is made immutable with ``chattr +i``, which stops root too; as another user ``chmod`` is enough. Where neither
works (a file system without ``chattr``), those tests are skipped, and
``test_translate_explains_the_real_sqlite_errors`` still checks the translation with the real error of a real
read-only connection (``mode=ro``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

from processors.memory import SqlMemory
from processors.memory.diagnose import translate
from processors.memory.errors import DatabaseCorruptError, DatabaseReadOnlyError, StoreError
from processors.messages import Message

PAGE = 4096


def url_of(path: Path) -> str:
    return f"sqlite:///{path}"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def zero_page(path: Path, page: int) -> None:
    """Overwrite page ``page`` (1-based) of the file with zeros, as a failing disk or a bad copy leaves it."""
    data = bytearray(path.read_bytes())
    data[(page - 1) * PAGE : page * PAGE] = bytes(PAGE)
    path.write_bytes(data)


def listing(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir())


@pytest.fixture
async def database(tmp_path: Path) -> Path:
    """A real database (threads with messages, the studio's tables too), closed."""
    path = tmp_path / "data" / "studio.db"
    path.parent.mkdir()
    memory = SqlMemory(url_of(path))
    for thread in range(4):
        await memory.save_messages(f"t{thread}", [Message.user("x" * 2000) for _ in range(10)])
    await memory.close()
    return path


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make ``path`` (a file or a folder) really read-only for this process, and writable again afterwards."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("running as root without chattr: nothing makes a file read-only for this process")
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip(f"chattr +i is not supported here: {done.stderr.decode().strip()}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)


async def refused(url: str, error: type[StoreError]) -> StoreError:
    """Open the database and return the refusal."""
    memory = SqlMemory(url)
    try:
        with pytest.raises(error) as caught:
            await memory.open()
    finally:
        await memory.close()
    return caught.value


async def test_an_empty_revision_table_is_refused_not_upgraded_over_its_tables(database: Path) -> None:
    with closing(sqlite3.connect(database)) as connection:
        connection.execute("DELETE FROM alembic_version")
        connection.commit()
    before, files = digest(database), listing(database.parent)
    error = await refused(url_of(database), DatabaseCorruptError)
    message = str(error)
    assert f"The database {database} has tables (messages, threads)" in message
    assert "alembic_version table is empty" in message and "Nothing was changed" in message
    assert "Restore a backup" in message and "move the file aside" in message
    assert digest(database) == before and listing(database.parent) == files


async def test_a_zeroed_first_page_is_not_a_database_and_says_what_to_do(database: Path) -> None:
    zero_page(database, 1)
    before = digest(database)
    error = await refused(url_of(database), DatabaseCorruptError)
    assert str(error).startswith(f"{database} is not a SQLite database, or its first page is damaged. Nothing was")
    assert "restore a backup" in str(error)
    assert digest(database) == before


async def test_a_zeroed_table_page_gives_a_damaged_database_error_on_use(database: Path) -> None:
    with closing(sqlite3.connect(database)) as connection:
        (root,) = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'messages'").fetchone()
    zero_page(database, root)
    before = digest(database)
    memory = SqlMemory(url_of(database))
    try:
        await memory.open()  # the schema is readable: opening does not scan every page
        with pytest.raises(DatabaseCorruptError, match=r"is damaged \(SQLite says: database disk image is malformed\)"):
            await memory.all_messages("t1")
        with pytest.raises(DatabaseCorruptError, match=r"Nothing was changed\. Restore a backup"):
            await memory.save_messages("t1", [Message.user("lost?")])
    finally:
        await memory.close()
    assert digest(database) == before


async def test_a_read_only_file_is_refused_before_anything_is_lost(database: Path) -> None:
    before, files = digest(database), listing(database.parent)
    with read_only(database):
        error = await refused(url_of(database), DatabaseReadOnlyError)
    assert isinstance(error, PermissionError)
    assert str(error).startswith(f"The database {database} is read-only, and Processor Studio must be able to write")
    assert "Nothing was changed. Make the file writable for your user" in str(error)
    assert digest(database) == before and listing(database.parent) == files


async def test_a_read_only_folder_is_refused_naming_the_folder(database: Path) -> None:
    before, files = digest(database), listing(database.parent)
    with read_only(database.parent):
        error = await refused(url_of(database), DatabaseReadOnlyError)
        new = await refused(url_of(database.parent / "sub" / "new.db"), DatabaseReadOnlyError)
    assert str(error).startswith(f"The folder {database.parent} is read-only, and the database {database} needs it")
    assert "journal files (-wal, -shm)" in str(error) and "Make the folder writable" in str(error)
    assert str(new).startswith(f"The folder {database.parent} is read-only")
    assert digest(database) == before and listing(database.parent) == files


def test_translate_explains_the_real_sqlite_errors(tmp_path: Path) -> None:
    path = tmp_path / "plain.db"
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE t (a)")
    # A write on a read-only connection: SQLite's own SQLITE_READONLY, whoever runs the test.
    readonly_uri = f"file:{path}?mode=ro"
    with closing(sqlite3.connect(readonly_uri, uri=True)) as connection, pytest.raises(sqlite3.Error) as readonly:
        connection.execute("INSERT INTO t VALUES (1)")
    assert readonly.value.sqlite_errorname == "SQLITE_READONLY"
    explained = translate(readonly.value, path)
    assert isinstance(explained, DatabaseReadOnlyError) and str(explained).startswith(f"The database {path} is read")
    # The same error as SQLAlchemy raises it.
    engine = sa.create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
    try:
        with engine.connect() as connection, pytest.raises(sa.exc.OperationalError) as wrapped:
            connection.exec_driver_sql("INSERT INTO t VALUES (1)")
    finally:
        engine.dispose()
    assert isinstance(translate(wrapped.value, path), DatabaseReadOnlyError)
    # A file that is no database at all.
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database, just bytes" * 200)
    with closing(sqlite3.connect(junk)) as connection, pytest.raises(sqlite3.DatabaseError) as notadb:
        connection.execute("SELECT * FROM sqlite_master")
    assert isinstance(translate(notadb.value, junk), DatabaseCorruptError)
    # An error about the data, not the file, is left as it is.
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE u (a PRIMARY KEY)")
        connection.execute("INSERT INTO u VALUES (1)")
        with pytest.raises(sqlite3.IntegrityError) as duplicate:
            connection.execute("INSERT INTO u VALUES (1)")
    assert translate(duplicate.value, path) is None
    assert translate(ValueError("x"), path) is None
