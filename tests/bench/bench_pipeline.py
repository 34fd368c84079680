"""Per-chunk cost of the stream pipeline: 20,000 text deltas through ``agent.stream()``.

Run: ``.venv/bin/python tests/bench/bench_pipeline.py``. Prints microseconds per chunk with no processors and
with five pass-through stream processors (target: ≤ 5 µs per chunk with five, on a 2-core machine; Mastra 1.71
on Node 22 takes ~56 µs for the same work). The model is a ScriptedModel whose one turn is 20,000 exact deltas.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from processors import Agent, Processor
from processors.models import ScriptedModel, Turn

CHUNKS = 20_000
ROUNDS = 5


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
    print(
        f"target ≤ 5 µs/chunk with five processors: {'met' if five <= 5 else 'NOT met'} (CPU); "
        "Mastra 1.71 on Node 22: ~56 µs, a ratio of ~"
        f"{56 / five:.0f}x"
    )


if __name__ == "__main__":
    asyncio.run(main())
