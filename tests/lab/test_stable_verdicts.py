"""A lab run gives the same verdict for every case every time: the sample design, real litellm over HTTP to the local
test server, at high concurrency, in this process and in worker processes, with and without rate limits.

Before the lab retried rate-limited calls below the chain, the sample's StreamErrorRetry retried them inside the
case, and a benign case whose call happened to meet the limit came out ``modified`` instead of ``passed``: the
same 1,000 cases gave passed 262-266 and modified 210-214 from run to run."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from lab.corpus import Case, bundled_corpora, load_corpora
from lab.process_run import ProcessLabRun
from lab.runner import LabRun
from processors.builtin.registry import load_catalogue
from studio.design.agent_design import ModelConfig
from studio.design.sample import sample_design
from studio.lab.design import agent_factory, agent_recipe
from tests.support.openai_server import ErrorReply, OpenAIServer, Reply

CASES = 48
CONCURRENCY = 16


class RefusingServer(OpenAIServer):
    """Answers 429 (Retry-After: 0) to the requests numbered in ``refuse``: which case's call that is depends on
    the order the concurrent cases reach the server, as with a provider's rate limit."""

    def __init__(self, refuse: frozenset[int] = frozenset()) -> None:
        super().__init__()
        self.refuse = refuse
        self.refused = 0

    def _record(self, body: dict[str, Any], headers: dict[str, str]) -> Reply | None:
        reply = super()._record(body, headers)
        with self._lock:
            if len(self.requests) in self.refuse:
                self.refused += 1
                if reply is not None:
                    self._queue.appendleft(reply)  # the answer waits for the next request
                return ErrorReply(429, "slow down", "rate_limit_error", headers={"Retry-After": "0"})
        return reply


#: Benign messages the sample's input PIIDetector redacts: "modified" verdicts, decided before the model is asked.
WITH_ADDRESSES = (
    "Please send the invoice to jo@example.com, thanks.",
    "My number is +44 20 7946 0018, call me after five.",
    "请把发票寄到 li.wei@example.cn，谢谢。",
    "我的電話是 +886 2 2345 6789，下午再打給我。",
)


def starter_cases() -> list[Case]:
    base = load_corpora(bundled_corpora()).cases
    picked = [base[n % len(base)] for n in range(CASES - len(WITH_ADDRESSES))]
    picked += [Case(id=f"benign-pii-{n}", text=text, label="benign") for n, text in enumerate(WITH_ADDRESSES)]
    return [dataclasses.replace(case, id=f"{case.id}#{n}") for n, case in enumerate(picked)]


def verdicts(run: LabRun) -> dict[str, Any]:
    """Each case's verdict and what it rests on (not its latency)."""
    return {
        result.id: (result.outcome, result.tripped, result.hits, result.reason, result.reply, result.error)
        for result in run.results_in_order()
    }


async def drain(run: LabRun) -> LabRun:
    async for _ in run.results():
        pass
    return run


async def test_the_sample_designs_verdicts_are_the_same_on_every_run_with_or_without_rate_limits() -> None:
    cases = starter_cases()
    catalogue = load_catalogue()
    design = sample_design()
    runs: dict[str, dict[str, Any]] = {}
    refusals: dict[str, tuple[int, int]] = {}
    for name, refuse, processes in (
        ("quiet, in this process", frozenset(), 1),
        ("rate limited, in this process", frozenset({2, 5, 9, 14, 20}), 1),
        ("rate limited, in 2 workers", frozenset({3, 6, 11, 17}), 2),
    ):
        with RefusingServer(refuse) as server:
            for _ in range(CASES + len(refuse)):
                server.reply_text("Sure, ", "happy to help.")
            design.model = ModelConfig(model="openai/lab-model", api_base=server.base_url)
            run: LabRun
            if processes == 1:
                run = LabRun(
                    cases,
                    agent_factory(design, catalogue=catalogue, api_key="sk-local"),
                    mode="model",
                    concurrency=CONCURRENCY,
                )
                await drain(run)
            else:
                recipe = agent_recipe(design, catalogue=catalogue, api_key="sk-local")
                run = ProcessLabRun(cases, recipe, mode="model", processes=processes, concurrency=CONCURRENCY)
                await asyncio.wait_for(drain(run), 180)
            runs[name] = verdicts(run)
            refusals[name] = (server.refused, run.rate_limited)
    assert refusals == {
        "quiet, in this process": (0, 0),
        "rate limited, in this process": (5, 5),
        "rate limited, in 2 workers": (4, 4),
    }
    quiet = runs["quiet, in this process"]
    assert len(quiet) == CASES and {verdict[0] for verdict in quiet.values()} == {"blocked", "modified", "passed"}
    for name, got in runs.items():
        differ = {case: (quiet[case], got[case]) for case in quiet if got[case] != quiet[case]}
        assert not differ, f"{name}: {len(differ)} verdicts differ from the quiet run's: {differ}"
