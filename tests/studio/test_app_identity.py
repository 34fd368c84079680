"""The studio's windows are named for the desktop: WM_CLASS, the desktop entry and its StartupWMClass agree."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from studio.app import APP_ID

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import subprocess, sys
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget
from studio.app import make_application
app = make_application()
print(QCoreApplication.arguments()[0], app.applicationName(), QGuiApplication.desktopFileName())
if sys.argv[1:] == ["xprop"]:
    window = QWidget()
    window.show()
    app.processEvents()
    print(subprocess.run(["xprop", "-id", str(int(window.winId())), "WM_CLASS"],
                         capture_output=True, text=True, check=True).stdout.strip())
"""


def _probe(platform: str, *args: str) -> list[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": platform, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_application_is_named_processor_studio_and_matches_its_desktop_entry() -> None:
    (line,) = _probe("offscreen")
    assert line.split() == [APP_ID, APP_ID, APP_ID]  # argv[0] (X11's WM_CLASS instance), class, desktop file
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(ROOT / "packaging" / "linux" / f"{APP_ID}.desktop")
    assert entry["Desktop Entry"]["StartupWMClass"] == APP_ID


@pytest.mark.xvfb
@pytest.mark.skipif(
    not os.environ.get("DISPLAY") or shutil.which("xprop") is None,
    reason="needs an X display and xprop (run under xvfb-run)",
)
def test_the_window_class_on_x11_is_processor_studio() -> None:
    lines = _probe("xcb", "xprop")
    assert lines[-1] == f'WM_CLASS(STRING) = "{APP_ID}", "{APP_ID}"'
