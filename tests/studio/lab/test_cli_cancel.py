"""Ctrl+C in ``processor-studio lab`` and ``lab attack``: one helper drives a run to its end or to the user's
interrupt (:func:`studio.lab.cli.drive_to_end`); an interrupted run exits 130 and says that what finished is kept
in ``--results`` (a resume runs the rest)."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab.runner import LabError
from studio.lab.cli import EXIT_CANCELLED, BadInput, drive_to_end
from tests.studio.lab.test_cli import CORPORA, lab, lab_running_until

KEPT = "lab: cancelled; finished cases are kept in --results (run again to resume)"


async def ends() -> None:
    return None


async def interrupted() -> None:
    raise KeyboardInterrupt


async def cannot_start() -> None:
    raise LabError("the design's MCP server was not allowed")


def test_a_run_that_ends_is_driven_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert drive_to_end(ends(), "en") is True
    assert capsys.readouterr().err == ""


def test_an_interrupted_run_says_what_is_kept_when_it_keeps_results(capsys: pytest.CaptureFixture[str]) -> None:
    assert drive_to_end(interrupted(), "en") is False
    assert capsys.readouterr().err == "\n" + KEPT + "\n"
    assert drive_to_end(interrupted(), "en", resumable=False) is False  # a guard alone (--side-by-side) keeps none
    assert capsys.readouterr().err == ""


def test_a_run_that_cannot_start_is_bad_input() -> None:
    with pytest.raises(BadInput, match="was not allowed"):
        drive_to_end(cannot_start(), "en")


@pytest.fixture
def interruptible() -> Iterator[None]:
    """Children that Ctrl+C reaches: a test run started in the background of a shell without job control ignores
    SIGINT, and a child inherits an ignored signal (one with a handler is reset to the default at exec)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("interruptible")
def test_ctrl_c_mid_run_exits_130_and_a_second_run_resumes(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    # Model mode with the demo model: benign cases stream the demo's reply word by word, slowly enough to interrupt.
    args = ["sample", "--corpus", str(CORPORA["direct-injection"]), "--mode", "model", "--concurrency", "2"]
    args += ["--results", str(results)]
    process = lab_running_until(args, results, 10, within=60)
    try:
        assert process.poll() is None, "the run must still be going when it is interrupted"
        seen = results.read_text(encoding="utf-8").count("\n")
        process.send_signal(signal.SIGINT)  # what Ctrl+C sends
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    if seen > 51:  # a loaded machine left this test behind: the run had ended, writing its reports, when it was told
        pytest.skip("the run finished before the interrupt reached it")
    assert process.returncode == EXIT_CANCELLED, f"interrupted with {seen - 1} of 51 results written"
    lines = results.read_text(encoding="utf-8").splitlines()[1:]
    finished = [json.loads(line)["id"] for line in lines if line.endswith("}")]
    out = lab(*args)
    assert out.returncode == 0, out.stderr
    assert f"resuming, {len(finished)} of 51 cases already done" in out.stderr
