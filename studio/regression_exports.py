"""Where each run's regression test was last exported, so it can be exported again over the same file in one action.

An exported regression test holds a frozen copy of the design (:mod:`studio.replays.regression_test`): after the chain
changes, the user re-exports it — from the thread's menu, or the run's replay view — and the file is rewritten with
the design as it is now, without asking for the file again. Kept in the data folder's ``settings.ini`` (beside the
last folder of the file dialogs), per run: the file and the run's thread::

    remember_export(run_id, thread_id, path)
    exported_path(run_id)         # Path, or None when never exported (or the file was since removed)
    latest_export(thread_id)      # (run_id, Path) of the thread's newest export, or None
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from PySide6.QtCore import QSettings

from studio.system.paths import data_dir

__all__ = ["exported_path", "latest_export", "remember_export"]

_GROUP = "regression_exports"


def _settings() -> QSettings:
    return QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)


def remember_export(run_id: str, thread_id: str | None, path: Path) -> None:
    """``run_id``'s regression test was just written to ``path``."""
    settings = _settings()
    entry = {"path": str(path), "thread": thread_id, "at": time.time()}
    settings.setValue(f"{_GROUP}/{run_id}", json.dumps(entry))
    settings.sync()


def _entries() -> dict[str, dict[str, object]]:
    settings = _settings()
    settings.beginGroup(_GROUP)
    found: dict[str, dict[str, object]] = {}
    for run_id in settings.childKeys():
        try:
            entry = json.loads(str(settings.value(run_id, "")))
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            found[run_id] = entry
    settings.endGroup()
    return found


def exported_path(run_id: str) -> Path | None:
    """Where ``run_id``'s test was last written, while that file still exists."""
    entry = _entries().get(run_id)
    path = Path(str(entry["path"])) if entry is not None else None
    return path if path is not None and path.is_file() else None


def latest_export(thread_id: str) -> tuple[str, Path] | None:
    """The newest export of a run of ``thread_id`` whose file still exists: ``(run id, path)``."""
    candidates = sorted(
        ((float(str(entry.get("at", 0))), run_id, Path(str(entry["path"])))
         for run_id, entry in _entries().items() if entry.get("thread") == thread_id),
        reverse=True,
    )  # fmt: skip
    return next(((run_id, path) for _at, run_id, path in candidates if path.is_file()), None)
