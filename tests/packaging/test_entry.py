"""The bundle's entry script: unattended checks end with an exit code, never in a modal crash dialog."""

import subprocess
import sys
from pathlib import Path

ENTRY = Path(__file__).resolve().parents[2] / "packaging" / "entry.py"

#: Runs entry.py as PyInstaller does (as ``__main__``) but without packaging/ on sys.path, so the bundle-only
#: module ``bundle_check`` is missing: the crash a bundle that left it out would have.
AS_IN_A_BROKEN_BUNDLE = f"""
import runpy, sys
sys.argv = ["processor-studio", *sys.argv[1:]]
runpy.run_path({str(ENTRY)!r}, run_name="__main__")
"""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", AS_IN_A_BROKEN_BUNDLE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ENTRY.parents[1] / "tests",
    )


def test_a_crash_during_a_check_exits_70_with_the_traceback_on_stderr() -> None:
    result = run("--bundle-check")
    assert result.returncode == 70, result.stderr
    assert "ModuleNotFoundError: No module named 'bundle_check'" in result.stderr
    assert "Traceback" in result.stderr


def test_an_explicit_exit_keeps_its_code() -> None:
    """argparse's usage error (exit 2) is an answer, not a crash: it passes through unchanged."""
    result = run("--self-test", "out.png", "--no-such-flag")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_the_bundle_check_starts_a_lab_worker_process_from_the_entry_script() -> None:
    """The bundle check's lab worker, from the source tree: a spawned worker gives the sample's verdicts. (In the
    bundle the worker is the bundle started again: entry.py's main() calls freeze_support() first, which runs it.)"""
    script = f"""
import sys
sys.path.insert(0, {str(ENTRY.parent)!r})
import bundle_check
print(bundle_check.check_lab_worker())
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ENTRY.parents[1]
    )
    assert result.returncode == 0, result.stderr
    assert "a worker process ran the sample design on 2 cases" in result.stdout
