"""Where the studio keeps user data: the platform's user data folder, never next to the program."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "ProcessorStudio"


def data_dir() -> Path:
    """``$PROCESSOR_STUDIO_DATA`` when set (tests, portable installs), else the platform's user data dir."""
    override = os.environ.get("PROCESSOR_STUDIO_DATA")
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_url() -> str:
    return f"sqlite:///{data_dir() / 'studio.db'}"


def processors_folder() -> Path:
    """User processor files (``*.py``) the palette loads."""
    path = data_dir() / "processors"
    path.mkdir(parents=True, exist_ok=True)
    return path


def tools_folder() -> Path:
    """User tool files (``*.py`` with ``@tool`` functions) the agent settings offer."""
    path = data_dir() / "tools"
    path.mkdir(parents=True, exist_ok=True)
    return path
