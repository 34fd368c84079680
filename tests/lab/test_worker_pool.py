"""The lab's warm worker pool (``lab.worker_pool``): real ``spawn``ed processes kept between runs, real designs
built from recipes, real litellm over HTTP to the local test server.

Each worker takes ~1-3 s to start (a warm one several more: litellm's import), so the tests share pools where
they can and warm only where warmth is the point."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import threading
import time
from typing import Any

import pytest

from lab.corpus import Case
from lab.process_run import ProcessLabRun
from lab.runner import LabRun
from lab.worker_pool import PoolWorker, WorkerPool
from processors.builtin.registry import load_catalogue
from studio.design.agent_design import AgentDesign, ModelConfig
from studio.design.sample import sample_design
from studio.lab.design import agent_recipe
from tests.lab.test_process_run import drain, gone, probe_catalogue, probe_design, starter_cases
from tests.support.openai_server import OpenAIServer

__all__ = ["probe_catalogue"]  # the fixture, used by name


def pids(workers: Any) -> set[int]:
    return {worker.pid for worker in workers}


async def test_a_warm_pool_has_done_litellms_first_call_work_and_a_model_run_borrows_it_and_gives_it_back(
    openai_server: OpenAIServer,
) -> None:
    pool = WorkerPool(2, warm=True)
    try:
        pool.start()
        assert await pool.async_wait_ready(within=180), "the workers never said they were warm"
        assert len(pool.warm_seconds) == 2 and all(seconds > 0 for seconds in pool.warm_seconds)
        warm = pids(pool.idle)
        for _ in range(4):
            openai_server.reply_text("Sure, ", "happy to help.")
        design = AgentDesign(
            name="plain", model=ModelConfig(model="openai/gpt-4o-mini", api_base=openai_server.base_url)
        )
        cases = [Case(id=f"c{n}", text=f"what is {n} plus one?", label="benign") for n in range(4)]
        run = ProcessLabRun(
            cases, agent_recipe(design, catalogue=load_catalogue(), api_key="sk-local"), mode="model", pool=pool
        )
        await asyncio.wait_for(drain(run), 120)
        assert {result.reply for result in run.finished.values()} == {"Sure, happy to help."}
        assert run.pooled and set(run.pids) == warm, "the run started workers of its own"
        # given back: the same processes wait for the next run, none was stopped
        assert pids(pool.idle) == warm and not pool.lent
        assert not any(gone(pid) for pid in warm)
    finally:
        await pool.aclose()
    assert all(gone(worker.pid) for worker in pool.started), "a worker outlived the pool's close"


async def test_one_pool_serves_runs_of_different_designs_each_with_the_environment_of_its_start(
    probe_catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recipe, the mode and the parent's environment go with each run, not with the worker's start."""
    pool = WorkerPool(2, warm=False)
    try:
        pool.start()
        started = pids(pool.idle)
        attacks = [case for case in starter_cases() if case.label == "attack" and case.category == "direct-injection"]
        cases = [*attacks[:6], Case(id="env", text="ENV?", label="benign")]
        monkeypatch.setenv("LAB_PROBE_ENV", "first")
        recipe = agent_recipe(probe_design(), catalogue=probe_catalogue)
        guarded = ProcessLabRun(cases, recipe, pool=pool)
        await asyncio.wait_for(drain(guarded), 120)
        here = LabRun(attacks[:6], recipe.factory())
        await drain(here)
        monkeypatch.setenv("LAB_PROBE_ENV", "second")
        bare = AgentDesign(name="bare")
        bare.input.insert(0, probe_design().input[0])  # the probe alone: nothing guards
        unguarded = ProcessLabRun(cases, agent_recipe(bare, catalogue=probe_catalogue), pool=pool)
        await asyncio.wait_for(drain(unguarded), 120)
        assert set(guarded.pids) == set(unguarded.pids) == started, "a run did not reuse the pool's workers"
        expected = {key: result.outcome for key, result in here.finished.items()}
        assert {case.id: guarded.finished[case.id].outcome for case in attacks[:6]} == expected
        assert "blocked" in expected.values()
        assert {unguarded.finished[case.id].outcome for case in attacks[:6]} == {"passed"}
        assert (guarded.finished["env"].reason or "").startswith("env: first")
        assert (unguarded.finished["env"].reason or "").startswith("env: second")
    finally:
        await pool.aclose()
    assert all(gone(worker.pid) for worker in pool.started)


async def test_cancelling_a_pooled_run_stops_its_workers_and_the_pool_starts_new_ones() -> None:
    pool = WorkerPool(2, warm=False)
    try:
        pool.start()
        base = starter_cases()
        cases = [dataclasses.replace(base[n % len(base)], id=f"{base[n % len(base)].id}#{n}") for n in range(2000)]
        recipe = agent_recipe(sample_design(), catalogue=load_catalogue())
        run = ProcessLabRun(cases, recipe, pool=pool, concurrency=2)
        seen = 0
        async for _ in run.results():
            seen += 1
            if seen == 5:
                run.cancel()
        assert run.pooled and len(run.pids) == 2
        assert all(gone(pid) for pid in run.pids), "a worker with cases in flight outlived the cancel"
        # replaced at once: the next run finds the pool full again, with new processes
        assert len(pool.idle) == 2 and not pids(pool.idle) & set(run.pids)
        again = ProcessLabRun(cases[:20], recipe, pool=pool, concurrency=2)
        await asyncio.wait_for(drain(again), 120)
        assert again.done == 20 and set(again.pids) == pids(pool.idle)
    finally:
        await pool.aclose()
    assert all(gone(worker.pid) for worker in pool.started)


async def test_a_worker_that_dies_in_a_pooled_run_is_replaced_in_the_run_and_in_the_pool(probe_catalogue: Any) -> None:
    pool = WorkerPool(1, warm=False)
    try:
        pool.start()
        first = pids(pool.idle)
        texts = ["hello there", "KILL-WORKER now", *(f"what is {n} plus {n}?" for n in range(6))]
        cases = [Case(id=f"c{n}", text=text, label="benign") for n, text in enumerate(texts)]
        run = ProcessLabRun(cases, agent_recipe(probe_design(), catalogue=probe_catalogue), processes=1, pool=pool)
        await asyncio.wait_for(drain(run), 120)
        died = run.finished["c1"]
        assert died.outcome == "error" and "died while running this case (signal 9)" in (died.error or "")
        assert {run.finished[f"c{n}"].outcome for n in (0, *range(2, 8))} == {"passed"}
        assert run.deaths == 1 and len(run.pids) == 2 and run.pids[0] in first
        # the replacement finished the run cleanly: it stays in the pool in the dead worker's place
        assert pids(pool.idle) == {run.pids[1]} and not gone(run.pids[1])
    finally:
        await pool.aclose()
    assert all(gone(worker.pid) for worker in pool.started)


async def test_a_second_run_while_the_pool_is_lent_starts_its_own_workers_and_close_stops_every_worker() -> None:
    pool = WorkerPool(1, warm=False)
    pool.start()
    recipe = agent_recipe(sample_design(), catalogue=load_catalogue())
    cases = starter_cases()[:30]
    first = ProcessLabRun(cases, recipe, pool=pool, processes=1)
    second = ProcessLabRun(cases, recipe, pool=pool, processes=1)
    await asyncio.wait_for(asyncio.gather(drain(first), drain(second)), 120)
    assert first.done == second.done == len(cases)
    assert first.pooled != second.pooled, "both runs used the pool at once"
    own = second if first.pooled else first
    assert all(gone(pid) for pid in own.pids), "a run's own workers outlived it"
    assert len(pool.idle) == 1 and not gone(pool.idle[0].pid)
    pool.close()  # as a command's finally does
    assert all(gone(worker.pid) for worker in pool.started)
    assert not pool.lend(), "a closed pool lent itself"


async def test_a_pooled_runs_rate_limit_pauses_are_its_own(openai_server: OpenAIServer) -> None:
    """The pool's shared board starts clear for each run, and a run that ended keeps its own count."""
    openai_server.reply_error(429, "slow down", type="rate_limit_error", headers={"Retry-After": "0"})
    for _ in range(3):
        openai_server.reply_text("Sure, ", "happy to help.")
    design = AgentDesign(name="plain", model=ModelConfig(model="openai/gpt-4o-mini", api_base=openai_server.base_url))
    recipe = agent_recipe(design, catalogue=load_catalogue(), api_key="sk-local")
    pool = WorkerPool(1, warm=False)
    try:
        pool.start()
        first = ProcessLabRun([Case(id="a", text="hi", label="benign")], recipe, mode="model", pool=pool)
        await asyncio.wait_for(drain(first), 120)
        second = ProcessLabRun([Case(id="b", text="hello", label="benign")], recipe, mode="model", pool=pool)
        await asyncio.wait_for(drain(second), 120)
    finally:
        await pool.aclose()
    assert first.pooled and second.pooled
    assert first.finished["a"].attempts == 2 and second.finished["b"].attempts == 1
    assert first.rate_limited == 1 and second.rate_limited == 0


async def test_a_run_that_comes_while_the_workers_warm_up_does_not_wait_for_litellm() -> None:
    """A guardrails run needs no litellm: a worker still importing it (in a thread) serves the run meanwhile."""
    pool = WorkerPool(1, warm=True)
    try:
        pool.start()
        (worker,) = pool.idle
        recipe = agent_recipe(sample_design(), catalogue=load_catalogue())
        run = ProcessLabRun(starter_cases()[:3], recipe, processes=1, pool=pool)
        ready_at_first_result: list[bool] = []
        async for _ in run.results():
            ready_at_first_result.append(worker.ready)
        assert run.pooled and run.pids == [worker.pid]
        assert ready_at_first_result[0] is False, "the run waited for the warm-up"
        assert await pool.async_wait_ready(within=180), "the warm-up did not finish beside the run"
    finally:
        await pool.aclose()


def test_a_pool_refuses_a_negative_size() -> None:
    with pytest.raises(ValueError, match="size"):
        WorkerPool(-1)


async def test_workers_run_as_much_lower_as_asked_pooled_or_started_for_a_run() -> None:
    """The studio's lab workers yield a core to its window (``niceness``); a worker applies it before any case."""
    if not hasattr(os, "getpriority"):
        pytest.skip("no process priorities on this platform")
    base = os.getpriority(os.PRIO_PROCESS, 0)
    recipe = agent_recipe(sample_design(), catalogue=load_catalogue())
    pool = WorkerPool(1, warm=False, niceness=3)
    try:
        pool.start()
        pooled = ProcessLabRun(starter_cases()[:2], recipe, processes=1, pool=pool)
        async for _ in pooled.results():
            assert os.getpriority(os.PRIO_PROCESS, pooled.pids[0]) == min(base + 3, 19)
        (worker,) = pool.idle
        assert worker.pid == pooled.pids[0] and os.getpriority(os.PRIO_PROCESS, worker.pid) == min(base + 3, 19)
    finally:
        await pool.aclose()
    own = ProcessLabRun(starter_cases()[:2], recipe, processes=1, niceness=4)
    async for _ in own.results():
        assert os.getpriority(os.PRIO_PROCESS, own.pids[0]) == min(base + 4, 19)


def test_a_pool_refuses_to_raise_its_workers_priority() -> None:
    with pytest.raises(ValueError, match="niceness"):
        WorkerPool(1, niceness=-1)


def test_a_worker_that_dies_while_another_process_holds_its_pipe_is_still_seen_gone() -> None:
    """A worker's end is seen by its pipe's end of file, unless another process holds the pipe's write end too (a
    child forked while the pipe was open: CI once hung on it for good). Here the test holds that end itself."""
    pool = WorkerPool(0, warm=False)
    context = pool.context
    from_worker, outbox = context.Pipe(duplex=False)
    to_worker, inbox = context.Pipe(duplex=False)
    process = context.Process(target=time.sleep, args=(3600,), daemon=True)
    process.start()
    told: list[tuple[str, Any]] = []
    gone_told = threading.Event()

    def sink(message: tuple[str, Any]) -> None:
        told.append(message)
        if message[0] == "gone":
            gone_told.set()

    try:
        worker = PoolWorker(process, inbox, from_worker, pool, warm=False)
        worker.attach(sink)
        outbox.send(("started", "case-1"))  # what the worker wrote before it died is still read
        os.kill(process.pid, signal.SIGKILL)
        assert gone_told.wait(60), "the worker's death was never seen while its pipe stayed open elsewhere"
        assert told == [("started", "case-1"), ("gone", -signal.SIGKILL)]
        assert not worker.alive and worker.exitcode == -signal.SIGKILL
    finally:
        for end in (outbox, to_worker):
            end.close()
        process.join(10)
