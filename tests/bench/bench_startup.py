"""Launch to window: the studio started as a user starts it, several times in turn, a fresh data folder each time.

Run: ``.venv/bin/python tests/bench/bench_startup.py [--runs N] [--skip-run-script] [--old CHECKOUT]``.
Prints figures, asserts nothing (README.md's launch table quotes them).

Each start is ``--self-test DIR/s.png --print-startup-time --data-dir DIR`` offscreen (``QT_QPA_PLATFORM=offscreen``):
the studio prints the process's age when its window is shown and the process's CPU time by then; ``./scripts/run``
execs the studio in its own process, so the script's checks are in both figures. The starts go in turn (A B A B …,
one warm-up round not counted) so a machine whose speed drifts slows them alike; on a busy machine the wall clock
mostly measures waiting for a core and the CPU time is the figure to compare.

- ``python -m studio``: this interpreter (run it as ``.venv/bin/python``) in this checkout;
- ``./scripts/run``, its checks remembered (``.venv/.run-checked`` up to date: run ``./scripts/run --help`` once
  first, or the first start pays ``scripts/bootstrap``); ``--skip-run-script`` leaves it out;
- ``--old CHECKOUT``: ``python -m studio`` in another checkout (``git worktree add --detach DIR COMMIT``) with this
  interpreter, to tell whether a commit made the start slower;
- then each start's own cost, ``--help`` (no window, no Qt): CPU and wall medians, which is what the run script adds.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: A self-test takes seconds: one still running after this long hung (seen once, 2026-12-07 16:00 UTC, at the end
#: of a passed self-test) and is killed.
HANG_SECONDS = 180
SHOWN = re.compile(r"startup: window shown ([\d.]+) s after launch \(CPU ([\d.]+) s\)")


def option(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


@dataclass
class Start:
    """One way to start the studio, and what its runs measured."""

    name: str
    command: list[str]
    cwd: Path
    shown: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    help_cpu: list[float] = field(default_factory=list)
    help_wall: list[float] = field(default_factory=list)
    #: Starts killed after :data:`HANG_SECONDS`.
    hung: int = 0


def children_cpu() -> float:
    """CPU seconds of every process this one has waited for (a start's whole tree: the run script's checks too)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def environment() -> dict[str, str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LITELLM_LOCAL_MODEL_COST_MAP="True")
    env.pop("PYTHONPATH", None)  # each checkout imports its own code (``-m`` puts the working folder first)
    return env


def window(start: Start) -> tuple[float, float]:
    """One start to the self-test's end: the window's age and CPU time when shown. A start still running
    :data:`HANG_SECONDS` after it began is killed and counted in ``start.hung`` (its figures kept if it showed the
    window): the self-test ends in seconds, so it hung."""
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as data:
        command = [*start.command, "--self-test", f"{data}/s.png", "--print-startup-time", "--data-dir", data]
        try:
            done = subprocess.run(
                command, cwd=start.cwd, env=environment(), capture_output=True, text=True, check=False,
                timeout=HANG_SECONDS,
            )  # fmt: skip
            output, failed = done.stdout, done.returncode != 0
        except subprocess.TimeoutExpired as hung:
            start.hung += 1
            output, failed = hung.stdout if isinstance(hung.stdout, str) else (hung.stdout or b"").decode(), False
    found = SHOWN.search(output)
    if failed or found is None:
        raise SystemExit(f"{start.name}: no window, or it failed\n{output[-2000:]}")
    return float(found.group(1)), float(found.group(2))


def help_cost(start: Start) -> tuple[float, float]:
    """One ``--help``: the start's own cost without a window (CPU of the whole tree, wall)."""
    cpu, wall = children_cpu(), time.perf_counter()
    subprocess.run([*start.command, "--help"], cwd=start.cwd, env=environment(), capture_output=True, check=True)
    return children_cpu() - cpu, time.perf_counter() - wall


def spread(values: list[float], digits: int = 2, unit: str = " s") -> str:
    low, high, middle = min(values), max(values), statistics.median(values)
    return f"{low:.{digits}f}-{high:.{digits}f}{unit}, median {middle:.{digits}f}"


def main() -> None:
    runs = int(option("--runs", "5") or 5)
    starts = [Start("python -m studio", [sys.executable, "-m", "studio"], ROOT)]
    if "--skip-run-script" not in sys.argv:
        starts.append(Start("./scripts/run", ["./scripts/run"], ROOT))
    old = option("--old")
    if old is not None:
        starts.append(Start(f"python -m studio in {old}", [sys.executable, "-m", "studio"], Path(old).resolve()))
    began, load = time.strftime("%Y-%m-%d %H:%M", time.gmtime()), os.getloadavg()[0]
    for round_ in range(runs + 1):  # round 0 warms the caches and is not counted
        for start in starts:
            shown, cpu = window(start)
            if round_:
                start.shown.append(shown)
                start.cpu.append(cpu)
    for _ in range(runs):
        for start in starts:
            cpu, wall = help_cost(start)
            start.help_cpu.append(cpu)
            start.help_wall.append(wall)
    print(
        # the start's date with the start's time (a run across midnight printed the end's date before the start's time)
        f"{began}-{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after; {runs} runs each, in turn"
    )
    first = starts[0]
    for start in starts:
        ratios = [cpu / base for cpu, base in zip(start.cpu, first.cpu, strict=True)]
        versus = (
            "" if start is first else f"; CPU to the window / {first.name}'s, run by run: {spread(ratios, unit='')}"
        )
        print(
            f"{start.name}: window shown {spread(start.shown)}; CPU to the window {spread(start.cpu, 3)}{versus}; "
            f"--help {statistics.median(start.help_cpu):.3f} s CPU, {statistics.median(start.help_wall):.2f} s "
            f"wall (medians)"
            + (f"; {start.hung} of {runs + 1} starts hung after the self-test, killed" if start.hung else "")
        )


if __name__ == "__main__":
    main()
