"""The lab in worker processes (``lab.process_run``): real ``spawn``ed processes, real designs built from a recipe,
real litellm over HTTP to the local test server, real results files.

Each process run starts workers (~1-3 s each on this machine), so the tests share runs where they can."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from lab.corpus import Case, bundled_corpora, load_corpora
from lab.process_run import ProcessLabRun, auto_processes, open_run, shares
from lab.recipe import AgentRecipe
from lab.results import read_results
from lab.runner import LabError, LabRun
from processors.builtin.registry import load_catalogue
from studio.design.agent_design import AgentDesign, ChainEntry, ModelConfig
from studio.design.sample import sample_design
from studio.lab.design import agent_recipe, lab_agents
from tests.support.openai_server import ErrorReply, OpenAIServer, Reply

#: A user processor file: ``LabProbe`` makes a worker do what a case asks of it.
PROBE_FILE = '''
import os
import signal
import sys

from processors import Processor


class LabProbe(Processor):
    """Cases that test the lab's workers: one kills its own process, one raises, one says what is imported."""

    id = "lab-probe"

    def process_input(self, args):
        text = args.messages[-1].text
        if "KILL-WORKER" in text:
            os.kill(os.getpid(), signal.SIGKILL)
        if "BOOM" in text:
            raise RuntimeError("the probe broke")
        if "ENV?" in text:
            args.abort("env: " + os.environ.get("LAB_PROBE_ENV", "(unset)") + " pid " + str(os.getpid()))
        if "MODULES?" in text:
            qt = sorted(
                m for m in sys.modules
                if m.split(".")[0] in ("PySide6", "shiboken6", "qasync")
                or m.startswith(("studio.views", "studio.controllers", "studio.models"))
            )
            args.abort("imported: " + ",".join(qt))
        return args.messages
'''


def starter_cases() -> list[Case]:
    return load_corpora(bundled_corpora()).cases


def verdicts(run: LabRun) -> dict[str, tuple[str, list[str], str | None]]:
    return {key: (result.outcome, result.tripped, result.reason) for key, result in run.finished.items()}


async def drain(run: LabRun) -> list[str]:
    return [result.id async for result in run.results()]


def gone(pid: int) -> bool:
    """The process has ended (a zombie nobody reaped counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.fixture
def probe_catalogue(tmp_path: Path) -> Any:
    folder = tmp_path / "processors"
    folder.mkdir()
    (folder / "lab_probe.py").write_text(PROBE_FILE, encoding="utf-8")
    catalogue = load_catalogue(folder)
    assert "LabProbe" in catalogue, catalogue.errors
    return catalogue


def probe_design() -> AgentDesign:
    design = sample_design()
    design.input.insert(0, ChainEntry(type="LabProbe"))
    return design


def test_shares_spread_the_concurrency_and_auto_pays_for_the_workers_start() -> None:
    assert shares(16, 2) == [8, 8]
    assert shares(5, 2) == [3, 2]
    assert shares(1, 4) == [1]
    assert auto_processes(100, 16, cpus=8) == 1  # too few cases to repay a worker's start
    assert auto_processes(1000, 16, cpus=2) == 2
    assert auto_processes(1000, 3, cpus=8) == 3  # never more workers than cases at once
    assert auto_processes(5000, 16, cpus=8) == 8


def test_a_recipe_never_shows_its_key() -> None:
    recipe = agent_recipe(sample_design(), catalogue=load_catalogue(), api_key="sk-very-secret")
    assert "sk-very-secret" not in repr(recipe) and "sk-very-secret" not in str(recipe)


async def test_worker_processes_give_the_verdicts_of_one_process_over_the_starter_corpora(tmp_path: Path) -> None:
    cases = starter_cases()
    recipe = agent_recipe(sample_design(), catalogue=load_catalogue())
    here = open_run(cases, recipe, processes=1, concurrency=2)
    assert type(here) is LabRun
    await drain(here)
    there = open_run(cases, recipe, processes=2, concurrency=4, results_path=tmp_path / "r.jsonl")
    assert isinstance(there, ProcessLabRun)
    seen = await drain(there)
    assert sorted(seen) == sorted(case.id for case in cases) and there.done == there.total == len(cases)
    assert verdicts(there) == verdicts(here)
    assert len(there.pids) == 2 and all(gone(pid) for pid in there.pids)
    # the parent alone wrote the results file: one header and one line per case, each case once
    header, saved = read_results(tmp_path / "r.jsonl")
    lines = (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()
    assert header is not None and len(lines) == 1 + len(cases) and set(saved) == set(seen)


async def test_a_case_that_kills_its_worker_is_an_error_a_raising_processor_too_and_the_run_goes_on(
    probe_catalogue: Any,
) -> None:
    """The in-flight case of a worker that died is an ``error`` (not run again: it may be what killed it); a new
    worker takes the dead one's place; the workers import no Qt even when the parent has.

    One worker, so the cases after the death can only run in its replacement (with two, the other worker may
    finish every waiting case before the death is noticed, and then no replacement is needed)."""
    import PySide6.QtCore  # noqa: F401 - the parent has Qt loaded, as the studio has

    texts = ["hello there", "KILL-WORKER now", "BOOM", "MODULES?", *(f"what is {n} plus {n}?" for n in range(8))]
    cases = [Case(id=f"c{n}", text=text, label="benign") for n, text in enumerate(texts)]
    recipe = agent_recipe(probe_design(), catalogue=probe_catalogue)
    run = ProcessLabRun(cases, recipe, processes=1, concurrency=2)
    await asyncio.wait_for(drain(run), 120)
    results = run.finished
    assert len(results) == len(cases)
    died = results["c1"]
    assert died.outcome == "error" and "died while running this case (signal 9)" in (died.error or "")
    assert results["c2"].outcome == "error" and "the probe broke" in (results["c2"].reason or "")
    assert results["c3"].outcome == "blocked" and results["c3"].reason == "imported: ", results["c3"].reason
    assert {results[f"c{n}"].outcome for n in (0, *range(4, 12))} == {"passed"}
    assert run.deaths == 1 and len(run.pids) == 2  # the dead worker was replaced
    assert all(gone(pid) for pid in run.pids)


async def test_a_worker_killed_from_outside_loses_only_its_cases_in_flight() -> None:
    base = starter_cases()
    cases = [dataclasses.replace(base[n % len(base)], id=f"{base[n % len(base)].id}#{n}") for n in range(600)]
    run = ProcessLabRun(cases, agent_recipe(sample_design(), catalogue=load_catalogue()), processes=2, concurrency=2)
    killed: list[int] = []
    async for _ in run.results():
        if not killed and run.done >= 20:
            killed.append(run.pids[0])
            os.kill(run.pids[0], signal.SIGKILL)
    assert run.done == run.total == len(cases)
    errors = [result for result in run.finished.values() if result.outcome == "error"]
    # at most its one case started (its share of the concurrency is one); a case sent but not started ran elsewhere
    assert len(errors) <= 1
    assert all(f"worker process {killed[0]} died" in (result.error or "") for result in errors)
    assert run.deaths == 1 and all(gone(pid) for pid in run.pids)


async def test_cancelling_the_iterating_task_stops_every_worker_and_keeps_what_finished(tmp_path: Path) -> None:
    base = starter_cases()
    cases = [dataclasses.replace(base[n % len(base)], id=f"{base[n % len(base)].id}#{n}") for n in range(2000)]
    run = ProcessLabRun(
        cases,
        agent_recipe(sample_design(), catalogue=load_catalogue()),
        processes=2,
        concurrency=2,
        results_path=tmp_path / "r.jsonl",
    )
    seen: list[str] = []
    five = asyncio.Event()

    async def drive() -> None:
        async for result in run.results():
            seen.append(result.id)
            if len(seen) == 5:
                five.set()

    task = asyncio.create_task(drive())
    await five.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(run.pids) == 2 and all(gone(pid) for pid in run.pids), "no worker outlives a cancel"
    _, saved = read_results(tmp_path / "r.jsonl")
    assert list(saved) == seen and len(seen) < len(cases)
    # and a resume runs only the rest
    again = ProcessLabRun(
        cases[:300],
        agent_recipe(sample_design(), catalogue=load_catalogue()),
        processes=1,
        concurrency=1,
        results_path=tmp_path / "r.jsonl",
    )
    fresh = await drain(again)
    assert again.resumed == len([key for key in seen if key in {case.id for case in cases[:300]}])
    assert not set(fresh) & set(seen) and again.done == 300


async def test_a_worker_that_cannot_build_the_agent_ends_the_run_with_the_reason() -> None:
    recipe = AgentRecipe(lab_agents, {"design_json": "{not json", "folders": [], "api_key": None})
    run = ProcessLabRun([Case(id="a", text="hi")], recipe, processes=1)
    with pytest.raises(LabError, match="could not build the agent"):
        await asyncio.wait_for(drain(run), 60)
    assert all(gone(pid) for pid in run.pids)


class RateWindow(OpenAIServer):
    """Answers the second request 429 (Retry-After: 1 s) and every request in the second after it. The first
    request is held until the run's shared pause has started (``paused()``), so the other worker's next call
    comes after it: with a run-wide pause, only the one call meets the limit."""

    def __init__(self, paused: Any) -> None:
        super().__init__()
        self.paused = paused
        self.refused = 0
        self.window_ends: float | None = None
        self.never_paused = False

    def _record(self, body: dict[str, Any], headers: dict[str, str]) -> Reply | None:
        reply = super()._record(body, headers)
        with self._lock:
            count = len(self.requests)
            if count == 2:
                self.window_ends = time.monotonic() + 1.0
            if self.window_ends is not None and time.monotonic() < self.window_ends:
                self.refused += 1
                if reply is not None:
                    self._queue.appendleft(reply)
                return ErrorReply(429, "slow down", "rate_limit_error", headers={"Retry-After": "1"})
        if count == 1:
            deadline = time.monotonic() + 60
            while not self.paused() and time.monotonic() < deadline:
                threading.Event().wait(0.01)
            self.never_paused = not self.paused()
        return reply


async def test_a_429_in_one_worker_pauses_every_worker_and_model_runs_record_for_replay() -> None:
    run: ProcessLabRun | None = None
    server = RateWindow(lambda: run is not None and run.rate_limited >= 1).start()
    try:
        for _ in range(8):
            server.reply_text("Sure, ", "happy to help.")
        design = AgentDesign(name="plain", model=ModelConfig(model="openai/gpt-4o-mini", api_base=server.base_url))
        cases = [Case(id=f"c{n}", text=f"what is {n} plus one?", label="benign") for n in range(6)]
        recipe = agent_recipe(design, catalogue=load_catalogue(), api_key="sk-local")
        run = ProcessLabRun(cases, recipe, mode="model", processes=2, concurrency=2)
        await asyncio.wait_for(drain(run), 120)
    finally:
        server.stop()
    assert not server.never_paused, "the other worker's pause never reached the shared board"
    assert server.refused == 1, f"{server.refused} calls met the limit: the other worker did not wait"
    assert run.rate_limited == 1 and len(server.requests) == len(cases) + 1
    assert {result.outcome for result in run.finished.values()} == {"passed"}
    assert {result.reply for result in run.finished.values()} == {"Sure, happy to help."}
    assert sum(result.attempts for result in run.finished.values()) == len(cases) + 1
    # the recordings came back from the workers: a replay in workers needs no server at all
    recordings = {key: result.recording for key, result in run.finished.items() if result.recording}
    assert set(recordings) == {case.id for case in cases}
    replay = ProcessLabRun(cases, recipe, mode="replay", recordings=recordings, processes=2, concurrency=2)
    await asyncio.wait_for(drain(replay), 120)
    assert {result.reply for result in replay.finished.values()} == {"Sure, happy to help."}
