"""Finding the shipped resources (styles, icons, sample agents) in a checkout and in an installed bundle."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    """``resources/`` beside the packages in a checkout; inside the bundle when frozen by PyInstaller."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def read_text(relative: str) -> str:
    """A resource's text, or '' when it is missing (the app still runs, just plainer)."""
    try:
        return (resources_dir() / relative).read_text(encoding="utf-8")
    except OSError:
        return ""
