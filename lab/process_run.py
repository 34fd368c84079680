"""A lab run in worker processes: the same face as :class:`lab.runner.LabRun`, the cases' CPU elsewhere.

One process cannot meet the lab's speed targets: a ``model`` case costs ~25 ms of CPU in litellm alone, a
``guardrails`` case ~5 ms, and the studio's window shares its process's loop with whatever runs there.
:class:`ProcessLabRun` runs the cases in ``processes`` workers (:mod:`lab.process_worker`) and only receives their
results, so iterating :meth:`~lab.runner.LabRun.results`, ``done``/``total``, :meth:`~lab.runner.LabRun.cancel`
(or cancelling the iterating task), the results file and its resume, and the recordings of ``model`` mode behave
as in one process: the parent alone writes the results file.

- **Start**: the ``spawn`` method (the parent may have Qt and threads; ``fork`` would copy them half-held), so a
  worker imports only what its arguments need; the agents come from an :class:`lab.recipe.AgentRecipe`, sent with
  the run's mode, share of the concurrency and environment when the run starts (``("run", RunOrder)``). A worker
  takes ~1-3 s to start (imports, the catalogue; litellm's import on its first model call): see
  :func:`auto_processes`. Given a :class:`lab.worker_pool.WorkerPool` (the studio's, the command's), the run
  borrows its workers, started and warmed ahead, and gives them back at its end; without one (or while another
  run holds it) it starts workers of its own and stops them at its end.
- **Balance**: the cases wait in one queue here; each worker is sent the next as soon as it has room (its share
  of ``concurrency``, plus one case ready to start), so a slow case never holds up a fixed slice of the corpus.
- **Reading**: one thread per worker blocks on its pipe and hands each message to the loop with
  ``call_soon_threadsafe`` (no ``add_reader``: that does not work on Windows' pipes), so the loop never waits.
- **Rate limits**: every worker's :class:`lab.rate_gate.RateGate` shares one board in shared memory: a 429 one
  worker meets pauses every worker's next model call until its Retry-After.
- **Cancel**: each worker is told to stop and its pipe closed at once (a worker whose pipe closes stops too, so
  none outlives its parent, even a killed one); one that has not ended after :data:`STOP_GRACE` seconds is
  terminated, then killed. A pool starts new workers in the place of a cancelled run's.
- **A worker that dies** (killed, out of memory, a crash in native code): each case it had *started* becomes an
  ``error`` result ("the worker process … died while running this case") — it may be the case that killed it,
  and running it again could kill the next worker too; the cases it had been sent but not started go back to the
  queue. A new worker takes its place while cases wait (at most ``processes`` replacements in a run); after that
  the run goes on with the workers left, and when none is left it ends with :class:`lab.runner.LabError` rather
  than wait for nothing.
- **Scripts**: ``spawn`` starts each worker by importing the parent's main script again (as ``__mp_main__``),
  so a script that drives a :class:`ProcessLabRun` must start it under ``if __name__ == "__main__":`` (the
  ``processor-studio`` command, ``python -m studio`` and the bundle's entry script do; a frozen app must call
  :func:`multiprocessing.freeze_support` first, as ``packaging/entry.py`` does).
- **A worker that cannot build the agent** (the recipe fails there, e.g. a design's MCP server does not start) or
  whose agents cannot go on (:class:`lab.recipe.LabAgentsError`: a crashed server that does not start again): the
  run ends with :class:`LabError` saying why, naming the server (callers build one agent in their own process
  first, so a design that cannot be built is said before). Each worker opens the recipe once per run, so a
  design's MCP servers run once per worker, and closes it when the run ends or the worker is stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
from collections import deque
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field
from typing import Any

from lab.case_run import make_result
from lab.corpus import Case
from lab.process_worker import RunOrder
from lab.rate_gate import RateGate
from lab.recipe import AgentRecipe
from lab.results import CaseResult
from lab.runner import LabError, LabRun
from lab.worker_pool import STOP_GRACE, PoolWorker, WorkerPool
from processors import Agent

#: Cases sent to a worker beyond its share of the concurrency, so it never waits for the next one.
PREFETCH = 1
#: How many cases a run needs per worker process to repay the worker's start (~1-3 s each).
CASES_PER_PROCESS = 200


def cpu_count() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def auto_processes(cases: int, concurrency: int, *, cpus: int | None = None) -> int:
    """Worker processes worth starting for ``cases`` at ``concurrency``: one per :data:`CASES_PER_PROCESS` cases,
    at most one per CPU and one per case in flight (at least one)."""
    cpus = cpu_count() if cpus is None else cpus
    return max(1, min(cpus, concurrency, math.ceil(cases / CASES_PER_PROCESS)))


def shares(concurrency: int, processes: int) -> list[int]:
    """``concurrency`` spread over ``processes`` workers (each gets at least one case at a time)."""
    count = max(1, min(concurrency, processes))
    return [concurrency // count + (1 if index < concurrency % count else 0) for index in range(count)]


def _not_here() -> Agent:
    raise RuntimeError("a process-backed lab run builds its agents in its worker processes")


@dataclass(eq=False)
class _Worker:
    """The run's side of one worker process."""

    handle: PoolWorker
    slots: int
    #: Cases sent and not started yet, and cases started and not finished, by id.
    sent: dict[str, Case] = field(default_factory=dict)
    started: dict[str, Case] = field(default_factory=dict)
    failure: str | None = None
    alive: bool = True

    @property
    def pid(self) -> int:
        return self.handle.pid

    @property
    def room(self) -> int:
        return self.slots + PREFETCH - len(self.sent) - len(self.started)


class ProcessLabRun(LabRun):
    """A :class:`LabRun` whose cases run in ``processes`` worker processes (see the module docstring); borrowed
    warm from ``pool`` when it is given and free (:mod:`lab.worker_pool`), else started for this run."""

    def __init__(
        self,
        cases: Sequence[Case],
        recipe: AgentRecipe,
        *,
        processes: int = 2,
        pool: WorkerPool | None = None,
        niceness: int = 0,
        **options: Any,
    ) -> None:
        if processes < 1:
            raise ValueError(f"processes must be at least 1, got {processes}")
        options.pop("pace", None)  # nothing shares the workers' loops
        super().__init__(cases, _not_here, **options)
        self.recipe = recipe
        self.processes = processes
        self.pool = pool
        #: How much lower the workers this run starts itself run (a pool's own say for a borrowed one).
        self.niceness = niceness
        #: The worker processes' ids, as they join the run (a test checks they are gone after a cancel).
        self.pids: list[int] = []
        #: How many worker processes died under the run.
        self.deaths = 0
        #: Whether the run borrowed ``pool``'s workers (False: it started its own).
        self.pooled = False
        self._events: asyncio.Queue[tuple[str, _Worker | None, Any]] | None = None
        self._pauses: int | None = None

    @property
    def rate_limited(self) -> int:
        """How many times a rate limit paused the run (kept when it ends: the pool's board serves the next run)."""
        return self._pauses if self._pauses is not None else self._gate.pauses

    def cancel(self) -> None:
        super().cancel()
        if self._events is not None:
            self._events.put_nowait(("cancel", None, None))

    async def _produce(self, todo: list[Case]) -> AsyncGenerator[CaseResult, None]:
        if not todo:
            return
        loop = asyncio.get_running_loop()
        self.pooled = self.pool is not None and self.pool.lend()
        pool = self.pool if self.pooled and self.pool is not None else WorkerPool(0, warm=False, niceness=self.niceness)
        if not self.pooled:
            pool.lend()
        self._gate = RateGate(self.backoff, self.max_backoff, board=pool.board)
        events: asyncio.Queue[tuple[str, _Worker | None, Any]] = asyncio.Queue()
        self._events = events
        queue = deque(todo)
        remaining = len(todo)
        workers: list[_Worker] = []
        replacements = self.processes
        environ = dict(os.environ)

        def order(slots: int) -> RunOrder:
            return RunOrder(self.recipe, self.mode, slots, (self.backoff, self.max_backoff), self.max_attempts, environ)

        def start(slots: int) -> None:
            worker = _Worker(pool.take(), slots)
            workers.append(worker)
            self.pids.append(worker.pid)
            worker.handle.attach(lambda message: _post(loop, events, (message[0], worker, message[1])))
            worker.handle.send(("run", order(slots)))

        def feed() -> None:
            for worker in workers:
                while worker.alive and worker.room > 0 and queue:
                    case = queue.popleft()
                    worker.sent[case.id] = case
                    if not worker.handle.send(("case", case, self.recordings.get(case.id))):
                        break  # it died: its "gone" is on the way and puts the case back

        try:
            for slots in shares(self.concurrency, min(self.processes, len(todo))):
                start(slots)
            feed()
            while remaining and not self.cancelled:
                kind, worker, payload = await events.get()
                if worker is None:  # a cancel
                    break
                if kind == "started":
                    case = worker.sent.pop(payload, None)
                    if case is not None:
                        worker.started[case.id] = case
                elif kind == "result":
                    worker.started.pop(payload.id, None)
                    worker.sent.pop(payload.id, None)
                    remaining -= 1
                    feed()
                    yield payload
                elif kind == "failed":
                    worker.failure = str(payload)
                elif kind == "gone" and worker.alive:
                    worker.alive = False
                    if worker.failure is not None:
                        raise LabError(f"a lab worker process {worker.failure}")
                    self.deaths += 1
                    queue.extendleft(reversed(worker.sent.values()))  # not started: another worker runs them
                    worker.sent.clear()
                    lost, worker.started = list(worker.started.values()), {}
                    for case in lost:
                        remaining -= 1
                        yield make_result(
                            case,
                            "error",
                            latency=0.0,
                            error=f"the lab's worker process {worker.pid} died while running this case "
                            f"({_exit_text(payload)}); it is not run again",
                        )
                    if queue:
                        if replacements > 0:  # its share of the concurrency goes on in a new worker
                            replacements -= 1
                            start(worker.slots)
                        elif not any(other.alive for other in workers):
                            raise LabError(
                                f"the lab's worker processes kept dying (the last: {_exit_text(payload)}); "
                                f"{remaining} cases did not run"
                            )
                    feed()
        finally:
            self._events = None
            self._pauses = self._gate.pauses
            clean = remaining == 0 and not self.cancelled
            # a clean end leaves nothing in flight: the workers wait for the next run; else they are stopped now
            await pool.release([worker.handle for worker in workers], clean=clean)
            if not self.pooled:
                await pool.aclose()


def _post(loop: asyncio.AbstractEventLoop, events: asyncio.Queue[Any], event: tuple[Any, ...]) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is listening any more
        loop.call_soon_threadsafe(events.put_nowait, event)


def _exit_text(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        return f"signal {-exitcode}"
    return f"exit code {exitcode}"


def open_run(
    cases: Sequence[Case], recipe: AgentRecipe, *, processes: int = 1, pool: WorkerPool | None = None, **options: Any
) -> LabRun:
    """A lab run of ``cases``: in this process when ``processes`` is 1 and no ``pool`` is given (the recipe opened
    here when the run starts), else in worker processes (``pool``'s when given)."""
    if processes <= 1 and pool is None:
        return LabRun(cases, recipe, **options)
    return ProcessLabRun(cases, recipe, processes=processes, pool=pool, **options)


__all__ = [
    "CASES_PER_PROCESS",
    "PREFETCH",
    "STOP_GRACE",
    "ProcessLabRun",
    "auto_processes",
    "cpu_count",
    "open_run",
    "shares",
]
