"""Per-chunk cost of the stream pipeline: 20,000 text deltas through ``agent.stream()``.

Run: ``.venv/bin/python tests/bench/bench_pipeline.py``. Prints microseconds per chunk with no processors and
with five pass-through stream processors (target: ≤ 5 µs per chunk with five, on a 2-core machine). The model is a
ScriptedModel whose one turn is 20,000 exact deltas.

Then, when ``node`` is on the PATH and ``tests/bench/mastra`` has its packages (``cd tests/bench/mastra && npm ci
--ignore-scripts``: ``@mastra/core`` pinned in its ``package.json`` and lock file), the same work through a Mastra
agent (``tests/bench/mastra/bench_pipeline.mjs``) in the same minute, and the ratio of the two; without them it
says what is missing and measures nothing of Mastra's.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from processors import Agent, Processor
from processors.models import ScriptedModel, Turn

CHUNKS = 20_000
ROUNDS = 5
#: The Mastra side: a Node script over the pinned ``@mastra/core`` (its own package.json and lock file).
MASTRA = Path(__file__).resolve().parent / "mastra"


class PassThrough(Processor):
    def __init__(self, index: int) -> None:
        self.id = f"pass-{index}"

    def process_output_stream(self, args):  # type: ignore[no-untyped-def]
        return args.part


async def one_run(processors: list[Processor]) -> tuple[float, float]:
    """(wall-clock, CPU) microseconds per chunk. CPU time is what this process spent, so it is the steadier
    figure on a shared machine; wall clock is what a user waits."""
    model = ScriptedModel([Turn(text=["tok "] * CHUNKS)])
    agent = Agent(id="bench", model=model, output_processors=processors)
    stream = agent.stream("go")
    started, cpu_started = time.perf_counter(), time.process_time()
    count = 0
    async for chunk in stream:
        if chunk.type == "text-delta":
            count += 1
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    assert count == CHUNKS, count
    return elapsed / CHUNKS * 1e6, cpu / CHUNKS * 1e6


async def main() -> None:
    results = {}
    for label, factory in (
        ("no processors", list),
        ("five pass-through stream processors", lambda: [PassThrough(i) for i in range(5)]),
    ):
        timings = [await one_run(factory()) for _ in range(ROUNDS)]
        wall = statistics.median(t[0] for t in timings)
        cpu = statistics.median(t[1] for t in timings)
        results[label] = cpu
        print(
            f"{label:40s} {cpu:6.2f} µs/chunk CPU, {wall:6.2f} µs wall (medians of {ROUNDS}; "
            f"best wall {min(t[0] for t in timings):.2f})"
        )
    base, five = results["no processors"], results["five pass-through stream processors"]
    print(f"{'cost of five processors':40s} {five - base:6.2f} µs/chunk; ratio {five / base:.2f}x")
    print(f"target ≤ 5 µs/chunk with five processors: {'met' if five <= 5 else 'NOT met'} (CPU)")
    mastra = mastra_side()
    if mastra is not None:
        print(f"Mastra / this runtime, five processors, CPU per chunk: {mastra / five:.0f}x")


def mastra_side() -> float | None:
    """Run the Mastra script when it can run; its CPU µs per chunk with five processors, else None (said why)."""
    node = shutil.which("node")
    if node is None or not (MASTRA / "node_modules" / "@mastra" / "core").is_dir():
        missing = "node is not on the PATH" if node is None else "run 'npm ci --ignore-scripts' in tests/bench/mastra"
        print(f"Mastra side not measured: {missing}")
        return None
    done = subprocess.run([node, "bench_pipeline.mjs"], cwd=MASTRA, capture_output=True, text=True, check=False)
    print(done.stdout.rstrip())
    if done.returncode != 0:
        print(f"Mastra side failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
        return None
    found = re.search(r"^five pass-through stream processors\s+([\d.]+) µs/chunk CPU", done.stdout, re.MULTILINE)
    return float(found.group(1)) if found else None


if __name__ == "__main__":
    asyncio.run(main())
