"""The guardrail lab's speed: 1,000 cases through the sample design, headless (``lab.runner``).

Run: ``.venv/bin/python tests/bench/bench_lab.py [--skip-model]``. Prints figures, asserts nothing.

- ``guardrails`` mode: the sample design, 1,000 cases (the starter corpora cycled), a fresh agent per case,
  results appended to a file as in ``processor-studio lab --results`` (target ≤ 5 s on this 2-core machine);
- ``model`` mode: the sample's chains around litellm talking to the local OpenAI-compatible test server, which
  answers each call after 200 ms; 1,000 cases at concurrency 16; a few 429s with Retry-After: 1 are queued
  among the answers to show the limiter pausing instead of storming (target ≤ 20 s).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
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

CASES = 1000


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


def model_mode() -> None:
    from tests.support.openai_server import OpenAIServer

    catalogue = load_catalogue()
    with OpenAIServer() as server:
        design = sample_design()
        design.model = ModelConfig(model="openai/bench-model", api_base=server.base_url)
        cases = thousand_cases()
        # Attacks the input lane blocks never reach the model; queue an answer for every case anyway (extra ones
        # stay unused), and a few rate limits after the first 200.
        for index in range(CASES + 20):
            if index == 200:
                for _ in range(4):
                    server.reply_error(429, "slow down", type="rate_limit_error", headers={"Retry-After": "1"})
            server.reply_text("Sure, ", "happy to help.", headers_delay=0.2)

        def factory():  # type: ignore[no-untyped-def]
            return build_agent(design, catalogue=catalogue, api_key="sk-local-test")

        warm = LabRun(cases[:1], factory, mode="model")  # litellm's import (~3 s) is not part of the figure
        asyncio.run(timed(warm))
        run = LabRun(cases[1:], factory, mode="model", concurrency=16)
        seconds = asyncio.run(timed(run))
        outcomes: dict[str, int] = {}
        for result in run.finished.values():
            outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
        print(
            f"model mode, concurrency 16, 200 ms a call: {len(cases) - 1} cases in {seconds:.2f} s; "
            f"{len(server.requests)} requests; lab paused for a rate limit {run.rate_limited} times; {outcomes}"
        )


if __name__ == "__main__":
    for concurrency in (1, 8):
        guardrails(concurrency)
    if "--skip-model" not in sys.argv:
        model_mode()
