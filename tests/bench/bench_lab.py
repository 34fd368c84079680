"""The guardrail lab's speed: 1,000 cases through the sample design, headless (``lab.runner``).

Run: ``.venv/bin/python tests/bench/bench_lab.py [--skip-model | --model-only] [--processes P [--pool]]
[--thread-server] [--verdicts FILE]``. Prints figures, asserts nothing. ``BENCH_LAB_CASES=N``: N cases instead
of 1,000. ``--verdicts FILE``: the model run's per-case verdicts written to FILE, to ``diff`` two runs' (they must
be equal: a rate limit met or not changes no verdict). With ``--processes P`` (P ≥ 2) the cases run in P worker
processes (``lab.process_run``), as ``processor-studio lab --processes P`` and the studio run them; the figures then
include the workers' start (imports, the catalogue, litellm's import on their first model call) unless ``--pool``
starts and warms them before the clock (``lab.worker_pool``, as the studio's Lab window does), and the CPU time is
the parent's plus the workers'. ``--thread-server``: the test suite's threaded server instead of the benchmark's
asyncio one (``tests/bench/sse_server.py``; same answers, a fraction of the CPU).

- ``guardrails`` mode: the sample design, 1,000 cases (the starter corpora cycled), a fresh agent per case,
  results appended to a file as in ``processor-studio lab --results`` (target ≤ 5 s on this 2-core machine);
- ``model`` mode: the sample's chains around litellm talking to the local OpenAI-compatible test server, which
  answers each call after 200 ms, in a process of its own; 1,000 cases at concurrency 16; after 200 calls the
  server answers 429 with Retry-After: 1 for a second, to show the lab waiting instead of storming (target
  ≤ 20 s).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from lab.corpus import bundled_corpora, load_corpora
from lab.metrics import confusion
from lab.process_run import ProcessLabRun
from lab.recipe import AgentRecipe
from lab.runner import LabRun
from lab.worker_pool import WorkerPool
from processors.builtin.registry import load_catalogue
from studio.design.agent_design import ModelConfig
from studio.design.build import build_agent
from studio.design.sample import sample_design
from studio.lab.design import agent_recipe

WARM = 3
#: How long the server's rate-limit window lasts (``model`` mode).
LIMIT_SECONDS = 1.0
CASES = int(os.environ.get("BENCH_LAB_CASES", "1000"))
#: ``--processes P``: the cases in P worker processes (1: in this process).
PROCESSES = int(sys.argv[sys.argv.index("--processes") + 1]) if "--processes" in sys.argv else 1
#: ``--pool``: the worker processes started and warmed before the clock (``lab.worker_pool``).
POOL = "--pool" in sys.argv
VERDICTS = sys.argv[sys.argv.index("--verdicts") + 1] if "--verdicts" in sys.argv else None


def thousand_cases() -> list:  # type: ignore[type-arg]
    base = load_corpora(bundled_corpora()).cases
    return [dataclasses.replace(base[n % len(base)], id=f"{base[n % len(base)].id}#{n}") for n in range(CASES)]


async def timed(run: LabRun) -> float:
    started = time.perf_counter()
    async for _ in run.results():
        pass
    return time.perf_counter() - started


def children_cpu() -> float:
    """CPU seconds of this process's ended (and reaped) child processes: the lab's workers."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def live_cpu(pids: list[int]) -> float:
    """CPU seconds so far of live processes (a pool's workers: alive, so not in :func:`children_cpu`)."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def resident_mb(pid: int) -> float:
    """A live process's resident set now (MB, /proc: Linux): what a warm pool's worker holds (README.md quotes it)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def open_bench_run(cases: list, factory, recipe: AgentRecipe, pool=None, **options) -> LabRun:  # type: ignore[no-untyped-def,type-arg]
    """In this process, or in :data:`PROCESSES` worker processes (``pool``'s when given)."""
    if PROCESSES > 1:
        return ProcessLabRun(cases, recipe, processes=PROCESSES, pool=pool, **options)
    return LabRun(cases, factory, **options)


def where() -> str:
    if PROCESSES == 1:
        return "one process"
    return f"{PROCESSES} worker processes ({'warm, from a pool' if POOL else 'cold'})"


def guardrails(concurrency: int) -> None:
    catalogue = load_catalogue()
    design = sample_design()
    cases = thousand_cases()
    with tempfile.TemporaryDirectory() as folder:
        run = open_bench_run(
            cases,
            lambda: build_agent(design, catalogue=catalogue),
            agent_recipe(design, catalogue=catalogue),
            mode="guardrails",
            concurrency=concurrency,
            results_path=Path(folder) / "results.jsonl",
        )
        cpu, workers = time.process_time(), children_cpu()
        seconds = asyncio.run(timed(run))
        cpu, workers = time.process_time() - cpu, children_cpu() - workers
    matrix = confusion(run.finished.values())
    print(
        f"guardrails mode, {where()}, concurrency {concurrency}: {CASES} cases in {seconds:.2f} s wall, "
        f"{cpu:.2f} s CPU here + {workers:.2f} s in workers ({seconds / CASES * 1000:.2f} ms a case); "
        f"recall {matrix.recall}, fpr {matrix.fpr}; load average {os.getloadavg()[0]:.1f}"
    )


def serve(cases: int) -> None:
    """The test server for ``model`` mode, in a process of its own (``bench_lab.py --serve N``).

    Its work would otherwise share the lab's interpreter (and GIL): the figure would count the server's CPU as the
    lab's. Every call is answered after 200 ms, except during a rate-limit window: from the ``WARM + 200``-th
    request on, for :data:`LIMIT_SECONDS`, every request gets a 429 with ``Retry-After: 1``, as a provider's
    per-minute limit would. How many 429s went out shows whether the lab backed off (each caller waiting once) or
    stormed (callers retrying into the window). Prints the base URL, then, when stdin closes, the requests
    answered, the 429s among them and the server's own CPU time.

    The server is :class:`tests.bench.sse_server.BenchServer` (one asyncio loop: it stands for a remote provider,
    whose CPU is not the lab's), or with ``--thread-server`` the test suite's ``OpenAIServer`` (a thread per
    connection: ~5-9 s of CPU for a 1,000-case run), answering the same.
    """
    if "--thread-server" in sys.argv:
        serve_threads(cases)
        return
    from tests.bench.sse_server import BenchServer

    async def main() -> None:
        server = await BenchServer(limit_after=WARM + 200, limit_seconds=LIMIT_SECONDS).start()
        print(server.base_url, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        print(
            f"{server.requests} requests ({server.limited} answered 429; server {time.process_time():.2f} s CPU)",
            flush=True,
        )
        await server.stop()

    asyncio.run(main())


def serve_threads(cases: int) -> None:
    """:func:`serve` with the test suite's threaded ``OpenAIServer``."""
    from tests.support.openai_server import ErrorReply, OpenAIServer, Reply

    class RateLimitedServer(OpenAIServer):
        limited = 0
        window_ends: float | None = None

        def _record(self, body: dict, headers: dict[str, str]) -> Reply | None:  # type: ignore[type-arg]
            reply = super()._record(body, headers)
            with self._lock:
                if len(self.requests) == WARM + 200:
                    self.window_ends = time.monotonic() + LIMIT_SECONDS
                if self.window_ends is not None and time.monotonic() < self.window_ends:
                    self.limited += 1
                    if reply is not None:
                        self._queue.appendleft(reply)  # the answer waits for the next request
                    return ErrorReply(429, "slow down", "rate_limit_error", headers={"Retry-After": "1"})
            return reply

    with RateLimitedServer() as server:
        # Attacks the input lane blocks never reach the model; queue an answer for every case anyway (extra ones
        # stay unused).
        for _ in range(WARM + cases):
            server.reply_text("Sure, ", "happy to help.", headers_delay=0.2)
        print(server.base_url, flush=True)
        sys.stdin.read()
        print(
            f"{len(server.requests)} requests ({server.limited} answered 429; server {time.process_time():.2f} s CPU)",
            flush=True,
        )


def save_verdicts(run: LabRun, path: Path) -> None:
    """Each case's verdict and the hits it rests on, one line a case in the corpus's order: ``diff`` two runs'."""
    lines = [
        json.dumps([r.id, r.outcome, [f"{hit.processor} {hit.hook} {hit.outcome}" for hit in r.hits]])
        for r in run.results_in_order()
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def model_mode() -> None:
    catalogue = load_catalogue()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(CASES), *(a for a in sys.argv if a == "--thread-server")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    pool = None
    assert server.stdin is not None and server.stdout is not None
    try:
        design = sample_design()
        design.model = ModelConfig(model="openai/bench-model", api_base=server.stdout.readline().strip())
        cases = thousand_cases()

        def factory():  # type: ignore[no-untyped-def]
            return build_agent(design, catalogue=catalogue, api_key="sk-local-test")

        # litellm's import (~3 s) and its first call's lazy imports are not part of the figure: warm up with benign
        # cases (an attack the input lane blocks never reaches the model, so it would warm up nothing). Worker
        # processes are warm with --pool (a WorkerPool started and warmed before the clock, as the studio's are
        # once the Lab window has been open a few seconds); else their start is in the figure.
        warm = [dataclasses.replace(case, id=f"warm-{case.id}") for case in cases if case.label == "benign"][:WARM]
        asyncio.run(timed(LabRun(warm, factory, mode="model")))
        recipe = agent_recipe(design, catalogue=catalogue, api_key="sk-local-test")
        if POOL:
            pool = WorkerPool(PROCESSES, warm=True)
            pool.start()
            assert pool.wait_ready(), "the pool's workers did not warm up"
        run = open_bench_run(cases, factory, recipe, mode="model", concurrency=16, pool=pool)
        load = os.getloadavg()[0]
        pooled = [worker.pid for worker in pool.idle] if pool is not None else []
        resident = [resident_mb(pid) for pid in pooled]
        cpu, main_cpu, workers = time.process_time(), time.thread_time(), children_cpu() + live_cpu(pooled)
        seconds = asyncio.run(timed(run))
        cpu, main_cpu = time.process_time() - cpu, time.thread_time() - main_cpu
        workers = children_cpu() + live_cpu(pooled) - workers
        if pool is not None:
            # after a run a worker also holds what its cases loaded (the injection detector's learned model, read on
            # the first case that scores), and keeps it for the next run: the figure the README quotes for the pool
            after = [resident_mb(pid) for pid in pooled]
            warmed = (
                f"; pool warm-up {', '.join(f'{s:.1f}' for s in pool.warm_seconds)} s CPU before the clock, "
                f"each warm worker resident {', '.join(f'{mb:.0f}' for mb in resident)} MB before the run, "
                f"{', '.join(f'{mb:.0f}' for mb in after)} MB after it"
            )
        else:
            warmed = ""
    finally:
        server.stdin.close()
        requests = server.stdout.read().strip()
        server.wait()
        if pool is not None:
            pool.close()
    outcomes: dict[str, int] = {}
    for result in run.finished.values():
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
    tokens = sum(result.input_tokens + result.output_tokens for result in run.finished.values())
    if VERDICTS is not None:
        save_verdicts(run, Path(VERDICTS))
    print(
        f"model mode, {where()}, concurrency 16, 200 ms a call: {len(cases)} cases in {seconds:.2f} s wall, "
        f"{cpu:.2f} s CPU here ({main_cpu:.2f} s on the loop's thread) + {workers:.2f} s in workers; {requests}; "
        f"lab paused for a rate limit {run.rate_limited} times; {outcomes}; {tokens} tokens; "
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after{warmed}"
    )


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve(int(sys.argv[sys.argv.index("--serve") + 1]))
        sys.exit()
    if "--model-only" not in sys.argv:
        for concurrency in (1, 8) if PROCESSES == 1 else (PROCESSES, 8):
            guardrails(concurrency)
    if "--skip-model" not in sys.argv:
        model_mode()
