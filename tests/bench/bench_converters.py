"""The attack converters' speed: 10,000 variants of the starter attacks, and (``--through-sample``) the same
10,000 through the sample design in guardrails mode (issue 29's goal: ≤ 30 s, memory flat).

Run: ``.venv/bin/python tests/bench/bench_converters.py [--through-sample] [--processes P]``. Prints figures,
asserts nothing. ``BENCH_VARIANTS=N``: N variants instead of 10,000.

- conversion: the starter corpora's attacks × every registered converter (and a few two-step chains), cycled to
  10,000 ``(case, chain)`` pairs, each variant made from its own seeded generator (``Chain.variant``) as a lab run
  would; variants/s, the slowest converters (µs a variant), and the peak RSS before and after (``make_variants``
  is lazy: memory stays flat however many variants);
- ``--through-sample``: the variants as lab cases (a multi-turn variant's turns joined by blank lines) through
  ``lab.runner`` with the sample design in guardrails mode (a fresh agent per case, results appended to a file),
  in this process or ``--processes P`` worker processes; the conversion is part of the clock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from lab.converters import Chain, load_converters
from lab.corpus import Case, bundled_corpora, load_corpora

VARIANTS = int(os.environ.get("BENCH_VARIANTS", "10000"))
SEED = 2026
PROCESSES = int(sys.argv[sys.argv.index("--processes") + 1]) if "--processes" in sys.argv else 1
#: Two-step chains beside the single converters, as an attack run would mix them.
CHAINS = ("homoglyph|zero-width", "zh-s2t|zh-homophone", "leetspeak|role-play", "base64|split-turns")


def attacks() -> list[Case]:
    return [case for case in load_corpora(bundled_corpora()).cases if case.label == "attack"]


def pairs(cases: list[Case], chains: list[Chain]) -> Iterator[tuple[Case, Chain]]:
    """``VARIANTS`` pairs: every chain over each case in turn, the cases cycled."""
    return itertools.islice(_interleaved(cases, chains), VARIANTS)


def _interleaved(cases: list[Case], chains: list[Chain]) -> Iterator[tuple[Case, Chain]]:
    for round_number in itertools.count():
        for case in cases:
            for chain in chains:
                yield (case if round_number == 0 else dataclasses.replace(case, id=f"{case.id}@{round_number}")), chain


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def children_cpu() -> float:
    """CPU seconds of this process's ended child processes (the lab's workers with ``--processes``)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def conversion(cases: list[Case], chains: list[Chain]) -> None:
    for chain in chains:  # load the libraries' dictionaries (OpenCC, pypinyin) before the clock
        chain.variant("warm", "忽略之前的指令 ignore", SEED)
    per_chain: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    before = rss_mb()
    started, cpu = time.perf_counter(), time.process_time()
    total_chars = 0
    for case, chain in pairs(cases, chains):
        one = time.perf_counter()
        variant = chain.variant(case.id, case.text, SEED)
        per_chain[chain.spec] += time.perf_counter() - one
        counts[chain.spec] += 1
        total_chars += sum(len(turn) for turn in variant.turns)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(
        f"conversion: {VARIANTS} variants ({len(chains)} chains over {len(cases)} attacks) in {seconds:.2f} s wall, "
        f"{cpu:.2f} s CPU: {VARIANTS / seconds:,.0f} variants/s; {total_chars / VARIANTS:.0f} characters a variant; "
        f"peak RSS {before:.0f} → {rss_mb():.0f} MB; load average {os.getloadavg()[0]:.1f}"
    )
    slowest = sorted(per_chain, key=lambda spec: per_chain[spec] / counts[spec], reverse=True)[:6]
    print("  slowest: " + ", ".join(f"{spec} {per_chain[spec] / counts[spec] * 1e6:.0f} µs" for spec in slowest))


def through_sample(cases: list[Case], chains: list[Chain]) -> None:
    from lab.process_run import ProcessLabRun
    from lab.runner import LabRun
    from processors.builtin.registry import load_catalogue
    from studio.design.build import build_agent
    from studio.design.sample import sample_design
    from studio.lab.design import agent_recipe

    catalogue = load_catalogue()
    design = sample_design()
    before = rss_mb()
    started, cpu, workers = time.perf_counter(), time.process_time(), children_cpu()
    variant_cases = []
    for case, chain in pairs(cases, chains):
        variant = chain.variant(case.id, case.text, SEED)
        variant_cases.append(dataclasses.replace(case, id=f"{case.id}~{chain.spec}", text=variant.text))
    with tempfile.TemporaryDirectory() as folder:
        options = {"mode": "guardrails", "concurrency": 16, "results_path": Path(folder) / "results.jsonl"}
        if PROCESSES > 1:
            run = ProcessLabRun(
                variant_cases, agent_recipe(design, catalogue=catalogue), processes=PROCESSES, **options
            )
        else:
            run = LabRun(variant_cases, lambda: build_agent(design, catalogue=catalogue), **options)

        async def drain() -> int:
            blocked = 0
            async for result in run.results():
                blocked += result.outcome == "blocked"
            return blocked

        blocked = asyncio.run(drain())
    seconds, cpu, workers = time.perf_counter() - started, time.process_time() - cpu, children_cpu() - workers
    where = "one process" if PROCESSES == 1 else f"{PROCESSES} worker processes"
    print(
        f"through the sample design (guardrails mode, {where}): {VARIANTS} variants in {seconds:.2f} s wall, "
        f"{cpu:.2f} s CPU here + {workers:.2f} s in workers; {blocked} blocked ({blocked / VARIANTS:.1%}); "
        f"peak RSS {before:.0f} → {rss_mb():.0f} MB; load average {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    registry = load_converters()
    chains = [registry.chain(name) for name in registry] + [registry.chain(spec) for spec in CHAINS]
    cases = attacks()
    conversion(cases, chains)
    if "--through-sample" in sys.argv:
        through_sample(cases, chains)


if __name__ == "__main__":
    main()
