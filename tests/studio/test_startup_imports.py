"""What the studio loads before its first window: the lab, httpx and the hiding guards wait until they are needed.

Launch to window is the figure users feel (tests/bench/README.md); the lab's controllers, engine and reports and
httpx (which loads click, rich and pygments with it) were a quarter of the start's import time. The check runs in a
fresh interpreter, so modules other tests imported do not count. The PII detector and the regex filter (with their
patterns) load with the first run or export whose design has one (``studio.store.run_transfer`` imports them when a
thread export needs them): the store and the exports import neither at startup.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

#: What ``studio.app._run`` imports before it shows the window.
FIRST_WINDOW_IMPORTS = (
    "studio.app",
    "studio.gc_policy",
    "studio.i18n",
    "studio.controllers.workspace",
    "studio.design.catalog",
    "studio.keys.secrets",
    "studio.quit_filter",
    "studio.store.database",
    "studio.views.main_window",
)


def loaded_after_first_window_imports() -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for name in {list(FIRST_WINDOW_IMPORTS)!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=120,
    ).stdout
    return set(json.loads(output.splitlines()[-1]))


def test_the_first_window_loads_neither_the_lab_nor_httpx() -> None:
    loaded = loaded_after_first_window_imports()
    assert "studio.views.main_window" in loaded  # the check ran what the window needs
    lab_parts = sorted(
        name
        for name in loaded
        if name.startswith(("lab.attack", "lab.strategies", "lab.reports", "studio.controllers.lab"))
    )
    assert lab_parts == []
    assert {"httpx", "click", "rich", "pygments"} & loaded == set()


def test_the_first_window_loads_no_hiding_guard() -> None:
    loaded = loaded_after_first_window_imports()
    assert "studio.store.run_transfer" in loaded  # the thread export's scrub is there, its guards are not
    guards = {"processors.builtin.pii_detector", "processors.builtin.pii_patterns", "processors.builtin.regex_filter"}
    assert guards & loaded == set()
