"""The guardrail lab's speed: 1,000 cases through the sample design, headless (``lab.runner``).

Run: ``.venv/bin/python tests/bench/bench_lab.py [--skip-model | --model-only]``. Prints figures, asserts nothing.

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
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from lab.corpus import bundled_corpora, load_corpora
from lab.metrics import confusion
from lab.runner import LabRun
from processors.builtin.registry import load_catalogue
from studio.build import build_agent
from studio.design import ModelConfig
from studio.sample import sample_design

WARM = 3
#: How long the server's rate-limit window lasts (``model`` mode).
LIMIT_SECONDS = 1.0
CASES = int(os.environ.get("BENCH_LAB_CASES", "1000"))


def thousand_cases() -> list:  # type: ignore[type-arg]
    base = load_corpora(bundled_corpora()).cases
    return [dataclasses.replace(base[n % len(base)], id=f"{base[n % len(base)].id}#{n}") for n in range(CASES)]


async def timed(run: LabRun) -> float:
    started = time.perf_counter()
    async for _ in run.results():
        pass
    return time.perf_counter() - started


def guardrails(concurrency: int) -> None:
    catalogue = load_catalogue()
    design = sample_design()
    cases = thousand_cases()
    with tempfile.TemporaryDirectory() as folder:
        run = LabRun(
            cases,
            lambda: build_agent(design, catalogue=catalogue),
            mode="guardrails",
            concurrency=concurrency,
            results_path=Path(folder) / "results.jsonl",
        )
        cpu = time.process_time()
        seconds = asyncio.run(timed(run))
        cpu = time.process_time() - cpu
    matrix = confusion(run.finished.values())
    print(
        f"guardrails mode, concurrency {concurrency}: {CASES} cases in {seconds:.2f} s wall, {cpu:.2f} s CPU "
        f"({seconds / CASES * 1000:.2f} ms a case); recall {matrix.recall}, fpr {matrix.fpr}"
    )


def serve(cases: int) -> None:
    """The test server for ``model`` mode, in a process of its own (``bench_lab.py --serve N``).

    Its HTTP threads would otherwise share the lab's interpreter (and GIL): the figure would count the server's
    CPU as the lab's. Every call is answered after 200 ms, except during a rate-limit window: from the
    ``WARM + 200``-th request on, for :data:`LIMIT_SECONDS`, every request gets a 429 with ``Retry-After: 1``,
    as a provider's per-minute limit would. How many 429s went out shows whether the lab backed off (each
    caller waiting once) or stormed (callers retrying into the window). Prints the base URL, then, when stdin
    closes, the requests answered and the 429s among them.
    """
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
        print(f"{len(server.requests)} requests ({server.limited} answered 429)", flush=True)


def model_mode() -> None:
    catalogue = load_catalogue()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(CASES)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        design = sample_design()
        design.model = ModelConfig(model="openai/bench-model", api_base=server.stdout.readline().strip())
        cases = thousand_cases()

        def factory():  # type: ignore[no-untyped-def]
            return build_agent(design, catalogue=catalogue, api_key="sk-local-test")

        # litellm's import (~3 s) and its first call's lazy imports are not part of the figure: warm up with benign
        # cases (an attack the input lane blocks never reaches the model, so it would warm up nothing).
        warm = [dataclasses.replace(case, id=f"warm-{case.id}") for case in cases if case.label == "benign"][:WARM]
        asyncio.run(timed(LabRun(warm, factory, mode="model")))
        run = LabRun(cases, factory, mode="model", concurrency=16)
        load = os.getloadavg()[0]
        cpu, main_cpu = time.process_time(), time.thread_time()
        seconds = asyncio.run(timed(run))
        cpu, main_cpu = time.process_time() - cpu, time.thread_time() - main_cpu
    finally:
        server.stdin.close()
        requests = server.stdout.read().strip()
        server.wait()
    outcomes: dict[str, int] = {}
    for result in run.finished.values():
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
    tokens = sum(result.input_tokens + result.output_tokens for result in run.finished.values())
    print(
        f"model mode, concurrency 16, 200 ms a call: {len(cases)} cases in {seconds:.2f} s wall, "
        f"{cpu:.2f} s CPU ({main_cpu:.2f} s on the loop's thread); {requests}; "
        f"lab paused for a rate limit {run.rate_limited} times; {outcomes}; {tokens} tokens; "
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after"
    )


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve(int(sys.argv[sys.argv.index("--serve") + 1]))
        sys.exit()
    if "--model-only" not in sys.argv:
        for concurrency in (1, 8):
            guardrails(concurrency)
    if "--skip-model" not in sys.argv:
        model_mode()
