"""``scripts/run`` checks the machine once, not at every start: bootstrap runs again only when what it checked changed.

The run script is the real one, in a scratch copy of the checkout; its ``scripts/bootstrap`` is a stand-in that
records each run and points ``.venv/bin/python`` at this interpreter (the real one installs Debian packages and
the project, which a test must not do to the machine). The studio it starts is the real one (``--help`` and the
headless lab, which need no window).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

STAND_IN_BOOTSTRAP = f"""#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "${{BASH_SOURCE[0]}}")/.."
echo ran >>bootstrap.log
mkdir -p .venv/bin
ln -sf {sys.executable} .venv/bin/python
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy2(ROOT / "scripts" / "run", tmp_path / "scripts" / "run")
    bootstrap = tmp_path / "scripts" / "bootstrap"
    bootstrap.write_text(STAND_IN_BOOTSTRAP, encoding="utf-8")
    bootstrap.chmod(0o755)
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for package in ("processors", "studio", "lab"):
        (tmp_path / package).symlink_to(ROOT / package)
    return tmp_path


def run(checkout: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(checkout), "PROCESSOR_STUDIO_DATA": str(checkout / "data")}
    return subprocess.run(
        [str(checkout / "scripts" / "run"), *args], capture_output=True, text=True, timeout=120, env=env
    )


def bootstrap_runs(checkout: Path) -> int:
    log = checkout / "bootstrap.log"
    return len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0


def test_bootstrap_runs_on_the_first_start_only(checkout: Path) -> None:
    for start in range(3):
        result = run(checkout, "--help")
        assert result.returncode == 0, result.stderr
        assert "usage: processor-studio" in result.stdout
        assert bootstrap_runs(checkout) == 1, f"start {start + 1}"


def test_bootstrap_runs_again_when_pyproject_or_the_virtualenv_changed(checkout: Path) -> None:
    assert run(checkout, "--help").returncode == 0
    pyproject = checkout / "pyproject.toml"
    later = pyproject.stat().st_mtime + 10
    os.utime(pyproject, (later, later))
    assert run(checkout, "--help").returncode == 0
    assert bootstrap_runs(checkout) == 2
    (checkout / ".venv" / ".installed-stamp").write_text("processors studio ", encoding="utf-8")
    assert run(checkout, "--help").returncode == 0
    assert bootstrap_runs(checkout) == 3
    assert run(checkout, "--help").returncode == 0
    assert bootstrap_runs(checkout) == 3


def test_the_headless_lab_passes_through(checkout: Path) -> None:
    result = run(checkout, "lab", "--help")
    assert result.returncode == 0, result.stderr
    assert "usage: processor-studio lab" in result.stdout
