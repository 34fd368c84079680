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
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "\n# a change\n", encoding="utf-8")
    assert run(checkout, "--help").returncode == 0
    assert bootstrap_runs(checkout) == 2
    (checkout / ".venv" / ".installed-stamp").write_text("processors studio ", encoding="utf-8")
    assert run(checkout, "--help").returncode == 0
    assert bootstrap_runs(checkout) == 3
    assert run(checkout, "--help").returncode == 0
    assert bootstrap_runs(checkout) == 3


def test_a_pull_that_rewrites_the_files_unchanged_does_not_run_bootstrap(checkout: Path) -> None:
    """Git rewrites a file (and its modification time) on every checkout that touches it: only content counts."""
    assert run(checkout, "--help").returncode == 0
    for path in ("pyproject.toml", "scripts/run", "scripts/bootstrap"):
        file = checkout / path
        later = file.stat().st_mtime + 10
        file.write_bytes(file.read_bytes())
        os.utime(file, (later, later))
    assert run(checkout, "--help").returncode == 0
    assert bootstrap_runs(checkout) == 1


def test_the_headless_lab_passes_through(checkout: Path) -> None:
    result = run(checkout, "lab", "--help")
    assert result.returncode == 0, result.stderr
    assert "usage: processor-studio lab" in result.stdout


# The real bootstrap, in a scratch checkout: no Debian packages (PROCESSOR_STUDIO_SKIP_APT) and a virtualenv whose
# Python is this interpreter, except that `python -m pip` records its arguments instead of installing anything.
STAND_IN_VENV_PYTHON = f"""#!/usr/bin/env bash
if [[ ${{1:-}} == -m && ${{2:-}} == pip ]]; then echo "$*" >>pip.log; exit 0; fi
exec {sys.executable} "$@"
"""


@pytest.fixture
def bootstrap_checkout(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy2(ROOT / "scripts" / "bootstrap", tmp_path / "scripts" / "bootstrap")
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for package in ("processors", "studio", "lab", "tests"):
        (tmp_path / package).symlink_to(ROOT / package)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(STAND_IN_VENV_PYTHON, encoding="utf-8")
    python.chmod(0o755)
    return tmp_path


def pip_installs(checkout: Path) -> int:
    """Runs bootstrap and says how many times it has run `pip install` in this checkout so far."""
    env = {**os.environ, "PROCESSOR_STUDIO_SKIP_APT": "1"}
    result = subprocess.run(
        [str(checkout / "scripts" / "bootstrap")], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr
    log = checkout / "pip.log"
    return len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0


def edit_pyproject(checkout: Path, old: str, new: str) -> None:
    pyproject = checkout / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert old in text
    pyproject.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_bootstrap_reinstalls_only_when_what_it_installs_changed(bootstrap_checkout: Path) -> None:
    checkout = bootstrap_checkout
    assert pip_installs(checkout) == 1
    assert pip_installs(checkout) == 1
    pyproject = checkout / "pyproject.toml"
    later = pyproject.stat().st_mtime + 10
    os.utime(pyproject, (later, later))
    assert pip_installs(checkout) == 1, "a touched but unchanged pyproject.toml"
    edit_pyproject(checkout, "# Exact pins:", "# Exactly pinned:")
    edit_pyproject(checkout, "line-length = 120", "line-length = 119")
    edit_pyproject(checkout, "timeout = 120", "timeout = 121")
    assert pip_installs(checkout) == 1, "a comment, ruff's and pytest's settings"
    edit_pyproject(checkout, '"hypothesis==6.170.17",', '"hypothesis==6.170.17",\n    "six==1.17.0",')
    assert pip_installs(checkout) == 2, "a new dev dependency"
    assert pip_installs(checkout) == 2
    edit_pyproject(checkout, '"pydantic==2.14.3"', '"pydantic==2.14.4"')
    assert pip_installs(checkout) == 3, "a changed pin"
    edit_pyproject(checkout, "[project.scripts]\n", '[project.scripts]\nprocessor-lab = "lab.cli:main"\n')
    assert pip_installs(checkout) == 4, "a new entry point"


def test_bootstrap_reinstalls_when_a_top_level_package_appears(bootstrap_checkout: Path) -> None:
    checkout = bootstrap_checkout
    (checkout / "lab").unlink()
    assert pip_installs(checkout) == 1
    (checkout / "training").mkdir()
    (checkout / "training" / "__init__.py").write_text("", encoding="utf-8")
    assert pip_installs(checkout) == 1, "a folder pyproject.toml does not install"
    (checkout / "lab").symlink_to(ROOT / "lab")
    assert pip_installs(checkout) == 2
    assert pip_installs(checkout) == 2
