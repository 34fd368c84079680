"""A throwaway PostgreSQL server for the tests: ``postgres_url`` (one database per session) and ``new_postgres_url``.

The cluster is made with the server's own binaries (``initdb``, ``pg_ctl``; Debian's ``postgresql`` package puts
them in ``/usr/lib/postgresql/<major>/bin``) in a temporary directory, listens on a free port of 127.0.0.1 only
(and on a Unix socket inside that directory), runs with ``fsync`` off, and is stopped and removed when the session
ends. ``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` system user
(``runuser``); as any other user it runs as that user. Connections use psycopg 3: the URLs are
``postgresql+psycopg://postgres@127.0.0.1:PORT/DBNAME``, which the suite's network guard allows (loopback).

Without the binaries, the ``postgres`` user (as root) or the driver, the tests that use these fixtures are
skipped with the reason, unless ``PROCESSORS_REQUIRE_POSTGRES=1`` is set (CI): then they fail instead, so a
broken CI image cannot silently skip them.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

#: Set to 1 (CI) to make a missing server, user or driver a failure instead of a skip.
REQUIRE_ENV = "PROCESSORS_REQUIRE_POSTGRES"
#: The directory holding ``initdb`` and ``pg_ctl``, if not found on its own.
BINDIR_ENV = "PROCESSORS_POSTGRES_BINDIR"

_SUPERUSER = "postgres"


def _unavailable(reason: str) -> NoReturn:
    """Skip (or fail, when CI requires PostgreSQL) with ``reason``."""
    if os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0"):
        pytest.fail(f"PostgreSQL tests required ({REQUIRE_ENV} is set) but {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason}")


def _find_bindir() -> Path | None:
    candidates: list[Path] = []
    if os.environ.get(BINDIR_ENV):
        candidates.append(Path(os.environ[BINDIR_ENV]))
    which = shutil.which("initdb")
    if which:
        candidates.append(Path(which).parent)
    versions = [Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")]
    candidates += sorted(versions, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True)
    for directory in candidates:
        if (directory / "initdb").is_file() and (directory / "pg_ctl").is_file():
            return directory
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class PostgresServer:
    """A running throwaway cluster."""

    host: str
    port: int
    user: str

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{self.user}@{self.host}:{self.port}/{database}"

    def create_database(self, prefix: str = "test") -> str:
        """A new empty database; returns its SQLAlchemy URL."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(
            host=self.host, port=self.port, user=self.user, dbname="postgres", autocommit=True, connect_timeout=10
        ) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _run(command: list[str], *, as_user: str | None, log: Path | None = None) -> None:
    full = ["runuser", "-u", as_user, "--", *command] if as_user else command
    result = subprocess.run(full, capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:] if log is not None and log.exists() else ""
        raise RuntimeError(
            f"{' '.join(full)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}\n{tail}".rstrip()
        )


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """Start a throwaway PostgreSQL cluster on 127.0.0.1 for the session; stop and remove it afterwards."""
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("the psycopg driver is not installed (pip install 'psycopg[binary]')")
    bindir = _find_bindir()
    if bindir is None:
        _unavailable(
            "no PostgreSQL server binaries (initdb, pg_ctl) found: install the `postgresql` package "
            f"or set {BINDIR_ENV}"
        )
    as_user: str | None = None
    owner: pwd.struct_passwd | None = None
    if os.geteuid() == 0:  # initdb refuses root: run the server as the postgres system user
        try:
            owner = pwd.getpwnam(_SUPERUSER)
        except KeyError:
            _unavailable(f"running as root and there is no `{_SUPERUSER}` system user")
        if shutil.which("runuser") is None:
            _unavailable("running as root and `runuser` is missing")
        as_user = _SUPERUSER

    # As root, under /tmp: $TMPDIR may be a folder the postgres user cannot enter. Short, too: the server's Unix
    # socket lives in it, and socket paths are limited to about 100 bytes.
    base = "/tmp" if owner is not None and os.path.isdir("/tmp") else None
    root = Path(tempfile.mkdtemp(prefix="processors-pg-", dir=base))
    data = root / "data"
    log = root / "server.log"
    started = False
    try:
        if owner is not None:
            os.chown(root, owner.pw_uid, owner.pw_gid)
        _run(
            [
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-A",
                "trust",
                "-U",
                _SUPERUSER,
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ],
            as_user=as_user,
        )
        port = _free_port()
        options = f"-k {root} -c listen_addresses=127.0.0.1 -p {port} -F"
        _run(
            [str(bindir / "pg_ctl"), "start", "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o", options],
            as_user=as_user,
            log=log,
        )
        started = True
        yield PostgresServer(host="127.0.0.1", port=port, user=_SUPERUSER)
    finally:
        if started:
            with contextlib.suppress(Exception):
                _run(
                    [str(bindir / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate", "-w", "-t", "30"],
                    as_user=as_user,
                )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """A database shared by the session's tests (use your own thread/run ids): ``postgresql+psycopg://...``."""
    return postgres_server.create_database("processors")


@pytest.fixture
def new_postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty database for one test."""
    return postgres_server.create_database("fresh")


__all__ = ["PostgresServer", "new_postgres_url", "postgres_server", "postgres_url"]
