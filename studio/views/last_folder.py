"""The folder the studio's file dialogs open in: the one a file was last chosen in, kept across starts in the data
folder's ``settings.ini``, so a user exporting three reports or opening designs side by side does not walk down
from the home folder every time. A folder that no longer exists falls back to the home folder."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from studio.system.paths import data_dir

_KEY = "files/last_folder"


def _settings() -> QSettings:
    return QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)


def start_folder() -> Path:
    """Where the next file dialog opens: the last chosen file's folder while it exists, else the home folder."""
    kept = _settings().value(_KEY, "")
    folder = Path(str(kept)) if kept else None
    return folder if folder is not None and folder.is_dir() else Path.home()


def remember_folder(chosen: Path) -> None:
    """Keep the folder of a file the user just chose (opened or saved) for the next dialog."""
    settings = _settings()
    settings.setValue(_KEY, str(chosen.parent))
    settings.sync()
