"""The lab controller's running of a lab run: start one over the chosen corpora, cancel it, resume it, and show
and save its results as they arrive.

The engine is :mod:`lab` (pure Python, the same as ``processor-studio lab``); this layer drives a
:class:`lab.process_run.ProcessLabRun` as a task on the qasync loop: the cases run in worker processes (one per
:data:`lab.process_run.CASES_PER_PROCESS` cases, at most one per CPU and one per case at once; the warm ones of
:attr:`LabRunning.pool`, started when the Lab window first opens, whatever the number of cases), this process only
receives their results and draws, so the window keeps painting whatever the cases cost. The Concurrency box is the
number of cases at once in every mode, spread over the workers. A design's MCP servers run in each worker for a
``model`` or ``replay`` run, once their launch is allowed (the chat's approval, asked in the Lab's window) and once
they started here (:meth:`LabRunning.servers_ready`): a server that cannot start
is said, naming it, and no lab run is created. Results are gathered for :data:`FLUSH_INTERVAL`
and handed on in batches: one model insert, one figure refresh and one store
transaction per batch, however many cases finished in it. A crash loses at most the cases in flight and the last
batch; a resume (of a cancelled or interrupted run) runs only the cases without a result, on the design as it ran.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from typing import Any

from lab.corpus import Case
from lab.metrics import summary
from lab.process_run import ProcessLabRun, auto_processes, cpu_count
from lab.recipe import AgentRecipe
from lab.results import CaseResult
from lab.runner import LabRun
from lab.worker_pool import WorkerPool
from processors.messages import new_id
from studio.controllers.lab_agents import LabAgentMaker
from studio.controllers.lab_corpora import LabCorpora
from studio.controllers.lab_events import LabEvents, OnShow
from studio.controllers.lab_records import case_of, compact, recordings_of, result_of
from studio.controllers.tasks import TaskKeeper
from studio.design.agent_design import AgentDesign, DesignError
from studio.error_texts import error_text
from studio.i18n import translate
from studio.lab.design import design_info, needs_mcp_servers
from studio.models.lab_lists import LabRunsModel
from studio.store.database import LabRunRecord

logger = logging.getLogger(__name__)

#: How long finished cases are gathered before they are shown and saved (seconds).
FLUSH_INTERVAL = 0.2
#: The modes the Lab view offers for a new run (``replay`` re-runs a model run's recorded replies: see
#: :meth:`studio.controllers.lab_experiments.LabExperiments.replay`).
STUDIO_MODES = ("guardrails", "model")
#: How many lab worker processes the studio keeps warm once the Lab window has opened (each holds litellm, ~255 MB,
#: ~555 MB once a run read the learned injection model: README.md, "Lab workers"):
#: one per CPU unless this environment variable says otherwise (0: none; runs then start their own workers).
POOL_VARIABLE = "PROCESSOR_STUDIO_LAB_WORKERS"
#: A lab run ready to drive: the engine's run, its lab run's id and what the store keeps of it.
Prepared = tuple[LabRun, str, dict[str, Any]]


#: How much lower than the studio its lab workers run: their batch work yields a core to the window at once (a
#: window waiting behind its own lab for a core stalled past 16 ms on 2 cores: ``tests/bench/bench_ui.py --lab``).
WORKER_NICENESS = 10


def warm_pool_size() -> int:
    """The number of warm lab workers: :data:`POOL_VARIABLE`, else one per CPU."""
    value = os.environ.get(POOL_VARIABLE, "").strip()
    if not value:
        return cpu_count()
    try:
        return max(0, int(value))
    except ValueError:
        logger.warning("%s=%r is not a number of worker processes; using one per CPU", POOL_VARIABLE, value)
        return cpu_count()


class LabRunning:
    """The lab run going on: start one over the chosen corpora, resume one, cancel it, and show and save its results
    in batches as they arrive (see the module docstring). One collaborator of
    :class:`studio.controllers.lab_controller.LabController`; it keeps the one lab task (:meth:`run_as_the_lab_task`)
    and the warm worker processes."""

    def __init__(
        self,
        events: LabEvents,
        *,
        store: Any,
        show: OnShow,
        corpora: LabCorpora,
        agents: LabAgentMaker,
        runs: LabRunsModel,
        tasks: TaskKeeper,
        current_design: Callable[[], AgentDesign | None],
    ) -> None:
        self._events = events
        self._store = store
        self._show = show
        self._corpora = corpora
        self._agents = agents
        self._runs = runs
        self._tasks = tasks
        self._current_design = current_design
        #: The engine's run going on and its lab run's id (None between runs).
        self.live_run: LabRun | None = None
        self.live_id: str | None = None
        self._task: asyncio.Task[Any] | None = None
        self._running = False
        self._pending: list[CaseResult] = []
        self._started = 0.0
        #: The lab's warm worker processes (:meth:`warm_workers`), kept between runs; None before the Lab opened.
        self.pool: WorkerPool | None = None
        self._warming = False

    @property
    def is_running(self) -> bool:
        """A lab run is starting, running or saving its end (False from ``run_ended`` on)."""
        return self._running

    async def refresh_runs(self) -> None:
        """The list of stored lab runs again, the live one marked."""
        self._runs.set_records(await self._store.lab_runs.list_lab_runs(), live=self.live_id)

    async def wait_idle(self) -> None:
        """Wait until the lab task and every task the controller spawned have ended."""
        while self._tasks.tasks or (self._task is not None and not self._task.done()):
            pending = [*self._tasks.tasks, *([self._task] if self._task is not None else [])]
            await asyncio.gather(*pending, return_exceptions=True)
            if self._task is not None and self._task.done():
                self._task = None

    def warm_workers(self) -> None:
        """Start the lab's worker processes now, so a run finds them warm (litellm imported and its first call's
        work done, :mod:`lab.worker_pool`). In the background: the processes are started off the UI thread (~50 ms
        each on a loaded machine) and warm up in their own; a run that comes first starts what it lacks. Once; a
        failure is logged, never said as an error (each run then starts its own workers, as without a pool)."""
        if self._warming or self.pool is not None:
            return
        size = warm_pool_size()
        if size <= 0:
            return
        self._warming = True
        self._tasks.spawn(self._warm(size))

    async def _warm(self, size: int) -> None:
        pool = WorkerPool(size, warm=True, niceness=WORKER_NICENESS)
        try:
            await asyncio.to_thread(pool.start)
        except Exception:
            logger.exception("the lab's worker processes could not be started ahead; each run starts its own")
            await asyncio.to_thread(pool.close)
            return
        self.pool = pool  # from now on runs borrow it (aclose waits for this task, then stops the pool)

    async def _owned(self, coroutine: Any) -> Any:
        """The lab run's task: whatever ends it, it is no longer running (before a failure is said)."""
        try:
            return await coroutine
        finally:
            self._running = False

    def run_as_the_lab_task(self, coroutine: Any, name: str) -> None:
        """Run a lab run's coroutine as the one lab task (the view's buttons follow :attr:`is_running`)."""
        self._running = True
        self._task = asyncio.get_event_loop().create_task(self._tasks.guarded(self._owned(coroutine)), name=name)

    def refuse_while_running(self) -> bool:
        """True, said, when a lab run is going on (one at a time)."""
        if self.is_running:
            self._events.failed.emit(translate("LabController", "A lab run is already running: cancel it first."))
            return True
        return False

    def cases_to_start(self, mode: str) -> list[Case] | None:
        """The chosen cases for a new run in ``mode``; None, said, when none can start: a lab run going on, a mode
        the studio does not run, no corpus chosen (:meth:`LabCorpora.chosen_or_said`)."""
        if self.refuse_while_running():
            return None
        if mode not in STUDIO_MODES:
            self._events.failed.emit(translate("LabController", "Unknown mode {mode!r}").format(mode=mode))
            return None
        return self._corpora.chosen_or_said()

    def stand_down(self) -> None:
        """The lab task ends without a run (it could not start): the view's buttons follow at once."""
        self._running = False

    async def servers_ready(self, design: AgentDesign, mode: str) -> bool:
        """The design's MCP servers start and offer their tools (:meth:`LabAgentMaker.servers_refusal`); False,
        said, when not: then nothing is running any more, before the view hears why."""
        refusal = await self._agents.servers_refusal(design, mode)
        if refusal is None:
            return True
        self._running = False  # the view's buttons follow at once
        self._events.failed.emit(refusal)
        return False

    def start(self, *, mode: str = "guardrails", concurrency: int = 4) -> str | None:
        """Run the checked corpora against the current design; returns the new lab run's id (None if it could
        not start, said through ``failed``). A run that starts MCP servers starts them here first, in the run's
        task: one that cannot start is said through ``failed`` then, and that lab run is never created."""
        cases = self.cases_to_start(mode)
        if cases is None:
            return None
        design = self._current_design()
        if design is None:
            self._events.failed.emit(translate("LabController", "There is no design to run."))
            return None
        prepared = self.prepare(design, cases, mode=mode, concurrency=concurrency)
        if prepared is None:
            return None
        run, lab_run_id, create = prepared
        if not needs_mcp_servers(design, mode):
            self.begin(run, lab_run_id, [])
            self.run_as_the_lab_task(self.drive(run, create=create), f"lab {lab_run_id}")
            return lab_run_id

        async def after_servers() -> None:
            if await self.servers_ready(design, mode):
                self.begin(run, lab_run_id, [])
                await self.drive(run, create=create)

        self.run_as_the_lab_task(after_servers(), f"lab {lab_run_id}")
        return lab_run_id

    def prepare(
        self,
        design: AgentDesign,
        cases: list[Case],
        *,
        mode: str,
        concurrency: int,
        recordings: dict[str, str] | None = None,
        name: str | None = None,
        corpora: list[dict[str, Any]] | None = None,
        settings: dict[str, Any] | None = None,
    ) -> Prepared | None:
        """A new lab run of ``design`` over ``cases``: the engine's run, its id and what the store keeps of it;
        None (said) when the design cannot be built or its key may not be sent."""
        try:
            factory = self._agents.recipe(design, mode)
        except DesignError as error:
            self._events.failed.emit(
                translate("LabController", "The agent could not be built: {error}").format(error=error_text(error))
            )
            return None
        if factory is None:
            return None
        lab_run_id = new_id("lab")
        if corpora is None:
            corpora = self._corpora.described()
        info = design_info(design)
        run = _worker_run(
            cases, factory, mode=mode, concurrency=concurrency, design=info, recordings=recordings, pool=self.pool
        )
        if name is None:
            names = ", ".join(str(item["name"]) for item in corpora)
            name = translate("LabController", "{design} · {corpora}").format(design=design.name, corpora=names)
        create = {
            "name": name[:200],
            "design_json": design.to_json(),
            "design_id": design.id,
            "design_fingerprint": info["fingerprint"],
            "mode": mode,
            "cases": [case.to_dict() for case in cases],
            "corpus": corpora,
            "settings": {"concurrency": concurrency, **(settings or {})},
        }
        return run, lab_run_id, create

    def resume(self, lab_run_id: str) -> None:
        """Run the cases of a cancelled or interrupted lab run that have no result yet (on its own design)."""
        if self.refuse_while_running():
            return
        self.run_as_the_lab_task(self._resume(lab_run_id), f"lab {lab_run_id}")

    async def _resume(self, lab_run_id: str) -> None:
        loaded = await self._store.lab_runs.load_lab_run(lab_run_id)
        if loaded is None:
            self._running = False
            self._events.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return
        record, rows = loaded
        try:
            design = AgentDesign.from_json(record.design_json)
            cases = [case_of(row) for row in rows]
            factory = self._agents.recipe(design, record.mode)
        except (DesignError, ValueError) as error:
            self._running = False
            self._events.failed.emit(
                translate("LabController", "The lab run cannot be resumed: {error}").format(error=error_text(error))
            )
            return
        if factory is None or not await self.servers_ready(design, record.mode):
            self._running = False
            return
        concurrency = int(record.settings.get("concurrency", 4))
        recordings = await self._replayed(record) if record.mode == "replay" else {}
        if recordings is None:
            self._running = False
            return
        done = [result for result in map(result_of, rows) if result is not None]
        run = _worker_run(
            cases,
            factory,
            mode=record.mode,
            concurrency=concurrency,
            design=design_info(design),
            recordings=recordings,
            todo=len(cases) - len(done),
            pool=self.pool,
        )
        run.finished = {result.id: result for result in done}
        run.resumed = len(done)
        self.begin(run, lab_run_id, done, record)
        await self.drive(run, resumed=True)

    async def _replayed(self, record: LabRunRecord) -> dict[str, str] | None:
        """The recorded answers a ``replay`` lab run replays: those of the lab run it replays (None, said, when
        that run is gone)."""
        loaded = await self._store.lab_runs.load_lab_run(str(record.settings.get("replay_of", "")))
        if loaded is None:
            self._events.failed.emit(
                translate("LabController", "The lab run whose recorded replies this replays is no longer in the store.")
            )
            return None
        return recordings_of(loaded[1])

    def begin(self, run: LabRun, lab_run_id: str, done: list[CaseResult], record: LabRunRecord | None = None) -> None:
        """``run`` is the live run, on show from now on with the results it already has (the lab is running from
        here: between an A/B experiment's A and its B too)."""
        self._running = True
        self.live_run, self.live_id = run, lab_run_id
        self._pending = []
        self._started = time.monotonic()
        self._show.results = list(done)
        self._show.record = record
        self._events.results_reset.emit(list(done))
        self._events.progress_changed.emit(len(done), run.total, -1.0)

    def cancel(self) -> None:
        """Stop the live run now; the cases that finished are kept, and it can be resumed."""
        if self.live_run is not None and self.is_running:
            self.live_run.cancel()
            self._events.status_message.emit(translate("LabController", "Cancelling the lab run…"))

    async def drive(self, run: LabRun, *, create: dict[str, Any] | None = None, resumed: bool = False) -> str:
        """Run ``run`` to its end (or its cancel), saving and showing results as they arrive; returns how it
        ended: ``finished`` or ``cancelled``."""
        lab_run_id = self.live_id
        assert lab_run_id is not None
        status = "cancelled"
        try:
            if create is not None:
                self._show.record = await self._store.lab_runs.create_lab_run(lab_run_id, **create)
            else:
                self._show.record = await self._store.lab_runs.set_lab_run_status(
                    lab_run_id, "running", resumed=resumed
                )
            await self.refresh_runs()
            self._events.run_started.emit(lab_run_id)
            self._events.run_shown.emit(self._show.record)
            flusher: asyncio.Task[None] | None = None
            async for result in run.results():
                self._pending.append(result)
                if flusher is None or flusher.done():
                    flusher = asyncio.get_running_loop().create_task(self._flush_later(run))
            if flusher is not None:
                await flusher  # never cancelled: it may be saving a batch
            await self._flush(run)
            status = "finished" if run.done == run.total else "cancelled"
        finally:
            try:
                await asyncio.shield(self._end(run, lab_run_id, status))
            except Exception:
                logger.exception("the lab run %s could not be closed in the store", lab_run_id)
            finally:
                self.live_run = None
                self.live_id = None
        self._running = False
        self._events.run_ended.emit(lab_run_id, status)
        return status

    async def _end(self, run: LabRun, lab_run_id: str, status: str) -> None:
        await self._flush(run)
        in_order = run.results_in_order()
        if [result.id for result in in_order] != [result.id for result in self._show.results]:
            # Cases finish in any order while the run streams; the finished run reads as its corpus does (as it
            # does reopened from the store).
            self._show.results = in_order
            self._events.results_reset.emit(list(in_order))
        figures = summary(in_order)
        self._show.record = await self._store.lab_runs.set_lab_run_status(lab_run_id, status, summary=compact(figures))
        self.live_id = None
        await self.refresh_runs()
        if status == "cancelled":
            self._events.status_message.emit(
                translate(
                    "LabController", "Lab run cancelled after {done} of {total} cases; Resume runs the rest."
                ).format(done=run.done, total=run.total)
            )
        else:
            total = run.total  # a plain name: lupdate finds a plural text only so
            self._events.status_message.emit(translate("LabController", "Lab run finished: %n case(s).", None, total))

    async def _flush_later(self, run: LabRun) -> None:
        await asyncio.sleep(FLUSH_INTERVAL)
        await self._flush(run)

    async def _flush(self, run: LabRun) -> None:
        batch, self._pending = self._pending, []
        if not batch or self.live_id is None:
            return
        self._show.results.extend(batch)
        self._events.results_added.emit(batch)
        fresh = run.done - run.resumed
        elapsed = time.monotonic() - self._started
        eta = elapsed / fresh * (run.total - run.done) if fresh else -1.0
        self._events.progress_changed.emit(run.done, run.total, eta)
        await self._store.lab_runs.save_lab_results(self.live_id, [result.to_dict() for result in batch])

    async def aclose(self) -> None:
        """Cancel a live run, wait until its results are saved and stop the warm workers (the studio is quitting):
        no worker process outlives the studio."""
        self.cancel()
        await self.wait_idle()
        if self.pool is not None:
            await self.pool.aclose()


def _worker_run(
    cases: list[Case],
    recipe: AgentRecipe,
    *,
    mode: str,
    concurrency: int,
    design: dict[str, Any],
    recordings: dict[str, str] | None,
    todo: int | None = None,
    pool: WorkerPool | None = None,
) -> LabRun:
    """The engine's run of ``cases`` in worker processes: ``concurrency`` cases at once in every mode, over as many
    workers as the cases to run repay (:func:`lab.process_run.auto_processes`), or as are warm in ``pool`` (they
    cost nothing to start)."""
    count = len(cases) if todo is None else todo
    processes = auto_processes(count, concurrency)
    if pool is not None and not pool.lent:
        processes = max(processes, min(pool.size, concurrency, count))
    return ProcessLabRun(
        cases,
        recipe,
        processes=processes,
        pool=pool,
        niceness=WORKER_NICENESS,
        mode=mode,
        concurrency=concurrency,
        design=design,
        recordings=recordings,
    )


__all__ = ["FLUSH_INTERVAL", "POOL_VARIABLE", "STUDIO_MODES", "LabRunning", "Prepared", "warm_pool_size"]
