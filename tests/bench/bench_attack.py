"""The attack engine's speed and memory: 10,000 converted variants of the bundled corpora through the sample design.

Run: ``.venv/bin/python tests/bench/bench_attack.py [--budget N] [--processes P] [--seed S]``. Prints figures,
asserts nothing. The run is what ``processor-studio lab attack sample --budget 10000`` does: the bundled corpora's
attacks run first (the baseline), the ones the sample design blocks are the seeds, and each seed goes through every
registered converter alone and ten two-step chains, the budget's worth of (seed, chain) pairs drawn with the seed;
``guardrails`` mode, in ``--processes P`` worker processes (default 2, borrowed from a :class:`WorkerPool` started
and warmed before the clock, as the command starts its pool while it reads the corpora), concurrency 16.

Printed: wall time, CPU time (this process and the workers), the peak RSS of this process and of the largest
worker, this process's RSS after the first variant, a tenth, half and all of them (is memory flat as the run
grows?), the bypasses found and the attack success rate, and the load average (the machine is shared).
"""

from __future__ import annotations

import asyncio
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from lab.attack import AttackPlan, AttackRun, Robustness
from lab.converters import load_converters
from lab.corpus import bundled_corpora, load_corpora
from lab.worker_pool import WorkerPool
from processors.builtin.registry import load_catalogue
from studio.design.sample import sample_design
from studio.lab.design import agent_recipe

PAIRS = (
    "base64|leetspeak",
    "rot13|spacing",
    "typos|homoglyph",
    "split-turns|base64",
    "diacritics|random-caps",
    "zero-width|leetspeak",
    "story|typos",
    "fullwidth|diacritics",
    "reverse|zh-punct",
    "html-comment|homoglyph",
)


def option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def cpu() -> tuple[float, float]:
    """CPU seconds of this process, and of its ended children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def rss_now() -> float:
    """This process's resident set now (MB, /proc: Linux)."""
    status = Path("/proc/self/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1]) / 1024


def worker_cpu_and_rss(pids: list[int]) -> tuple[float, float]:
    """CPU seconds and the largest resident set (MB) of the live workers, from /proc (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    seconds, largest = 0.0, 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            seconds += (int(fields[11]) + int(fields[12])) / ticks
            status = Path(f"/proc/{pid}/status").read_text()
            high = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
            largest = max(largest, int(high.split()[1]) / 1024)
        except (OSError, StopIteration, IndexError, ValueError):
            continue
    return seconds, largest


async def main() -> None:
    budget = int(option("--budget", "10000"))
    processes = int(option("--processes", "2"))
    seed = int(option("--seed", "2026"))
    cases = load_corpora(bundled_corpora()).cases
    chains = [*load_converters(), *PAIRS]
    plan = AttackPlan(cases, chains=chains, budget=budget, seed=seed)
    recipe = agent_recipe(sample_design(), catalogue=load_catalogue())
    pool = WorkerPool(processes, warm=False) if processes > 1 else None
    if pool is not None:
        pool.start()
        await asyncio.sleep(3)  # the workers' imports, before the clock (the command overlaps them with its reading)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    run = AttackRun(plan, recipe, processes=processes, pool=pool, mode="guardrails", concurrency=16)
    robustness = Robustness()
    pids: list[int] = []
    cpu_before = cpu()
    started = time.perf_counter()
    samples: dict[int, float] = {}
    async for found in run.results():
        robustness.add(found)
        if robustness.total.variants in (1, budget // 10, budget // 2, budget):
            samples[robustness.total.variants] = rss_now()
        current = run._current
        if current is not None:
            pids = list(dict.fromkeys([*pids, *getattr(current, "pids", [])]))
    wall = time.perf_counter() - started
    own, ended = (after - before for after, before in zip(cpu(), cpu_before, strict=True))
    live, worker_rss = worker_cpu_and_rss(pids)
    if pool is not None:
        pool.close()
    total = robustness.total
    print(
        f"{total.variants} variants of {len(run.seeds)} stopped seeds ({len(run.baseline)} attacks in the baseline), "
        f"{len(chains)} chains, budget {budget}, seed {seed}, {processes} process(es)\n"
        f"wall {wall:.1f} s; CPU {own:.1f} s here + {live + ended:.1f} s in the workers (their whole life)\n"
        f"peak RSS here {rss_before:.0f} -> {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB; "
        f"largest worker {worker_rss:.0f} MB\n"
        f"RSS here after variant " + ", ".join(f"{count:,}: {mb:.0f} MB" for count, mb in samples.items()) + "\n"
        f"{total.bypassed} bypasses, attack success rate {total.asr:.1%}, errors {total.errors}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    asyncio.run(main())
