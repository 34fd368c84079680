"""The studio's "cannot open its data" message for a database it cannot use says what is wrong and what to do."""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
import qasync

from processors.memory.errors import DatabaseCorruptError
from studio.controllers.workspace import Workspace
from studio.design.catalog import studio_catalogue
from studio.keys.secrets import SecretStore
from studio.store.database import Store
from tests.studio.conftest import run


def test_the_workspace_start_fails_with_the_explained_error_the_fatal_dialog_shows(
    qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    path = tmp_path / "studio.db"
    store = Store(f"sqlite:///{path}")
    run(qloop, store.open())
    run(qloop, store.close())
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("DELETE FROM alembic_version")
        connection.commit()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    workspace = Workspace(store=Store(f"sqlite:///{path}"), catalogue=studio_catalogue(), secrets=SecretStore())
    with pytest.raises(DatabaseCorruptError) as caught:  # app.py shows str(error) under "cannot open its data"
        run(qloop, workspace.start())
    run(qloop, workspace.store.close())
    assert "alembic_version table is empty" in str(caught.value) and "Restore a backup" in str(caught.value)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
