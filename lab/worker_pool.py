"""Lab worker processes started ahead and kept between runs: a run borrows them warm instead of paying their start.

A lab worker's start is most of a short ``model`` run's CPU: litellm's import (~3 s of CPU idle, ~7 s on a loaded
machine), its tokenizer and its first call's lazy imports (:func:`lab.process_worker.warm_up`), then the
catalogue. :class:`WorkerPool` starts ``size`` workers (``spawn``) and has them do that work before any run; a
:class:`lab.process_run.ProcessLabRun` given the pool borrows them, sends each its recipe, mode and share of the
concurrency per run (``("run", RunOrder)``), and gives them back when it ends. The studio starts a pool when the
Lab window first opens and closes it on quit; ``processor-studio lab`` starts one while it reads the corpora.

- **One run at a time**: :meth:`WorkerPool.lend` lends the pool to one run (the rate gate's shared board is the
  pool's: it is handed to the workers when they start, the only way a ``multiprocessing`` array crosses to a
  ``spawn``ed process). A second run while the pool is lent starts workers of its own (a private pool).
- **More than warm**: a run that needs more workers than are idle gets new ones at once (cold: they warm on their
  first call, like any); replacements of workers that died during the run too.
- **Giving back**: a run that finished every case gives its workers back (``("end",)``; they wait for the next
  run); the pool keeps ``size`` of them and stops the rest. A run cancelled or broken off stops its workers at
  once (a case in flight is not waited for) and the pool starts new ones in their place, in the background.
- **A worker that dies while idle** is dropped when found (a dead one is never lent); a failed warm-up is logged
  and the worker serves cold.
- **Closing** (:meth:`WorkerPool.aclose`, or :meth:`WorkerPool.close` from synchronous code) stops every worker,
  idle or lent; a worker whose pipe closes stops too, so none outlives a parent that was killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import threading
from collections.abc import Callable, Iterable
from multiprocessing.connection import wait as wait_for_any
from typing import Any

from lab.process_worker import worker_main

logger = logging.getLogger(__name__)

#: Seconds a stopped worker has to end before it is terminated (then killed). A worker stops its run's MCP servers
#: before it ends, and the MCP SDK gives a server 2 s to leave after its stdin closes, then terminates it and waits
#: for it up to 2 s more: a worker terminated sooner would leave its server behind, unreaped.
STOP_GRACE = 6.0

Sink = Callable[[tuple[str, Any]], None]


class PoolWorker:
    """The parent's side of one worker process: its inbox, and a thread that hands its messages to whoever holds
    it (a run's :attr:`sink`), then its end (``("gone", exit code)``)."""

    def __init__(self, process: Any, inbox: Any, from_worker: Any, pool: WorkerPool, *, warm: bool) -> None:
        self.process = process
        self.inbox = inbox
        self.pid: int = process.pid
        #: Warmed up (``ready``); still at it (``warming``).
        self.ready = False
        self.warming = warm
        self.alive = True
        self.exitcode: int | None = None
        self._pool = pool
        self._sink: Sink | None = None
        self._lock = threading.Lock()
        threading.Thread(target=self._read, args=(from_worker,), name=f"lab-worker-{self.pid}", daemon=True).start()

    def attach(self, sink: Sink | None) -> None:
        """Send this worker's messages to ``sink`` from now on (None: drop them); a worker already gone says so to
        the new sink at once."""
        with self._lock:
            self._sink = sink
            gone = not self.alive
        if gone and sink is not None:
            sink(("gone", self.exitcode))

    def send(self, message: tuple[Any, ...]) -> bool:
        """False when the worker's pipe is closed (it died: its ``gone`` is on the way)."""
        try:
            self.inbox.send(message)
        except (OSError, ValueError):
            return False
        return True

    def _read(self, from_worker: Any) -> None:
        while True:
            # The pipe's end of file says the worker ended, unless another process holds its write end too (a child
            # forked while the pipe was open, in this process or the worker): the process's own sentinel says it
            # then. What the worker wrote before it ended is read first: the pipe is read while it has anything.
            if from_worker not in wait_for_any([from_worker, self.process.sentinel]):
                break
            try:
                message = from_worker.recv()
            except (EOFError, OSError):
                break
            if message[0] == "ready":
                self.ready, self.warming = True, False
                self._pool._warmed(self, message[1])
            elif message[0] == "warm-failed":
                logger.warning("a lab worker process could not warm up (it runs cold): %s", message[1])
                self.warming = False
                self._pool._warmed(self, None)
            with self._lock:
                sink = self._sink
            if sink is not None:
                sink((message[0], message[1] if len(message) > 1 else None))
        from_worker.close()
        self.process.join()
        with self._lock:
            self.exitcode = self.process.exitcode
            self.alive = self.warming = False
            sink = self._sink
        self._pool._warmed(self, None)  # wakes a waiter: this one will never be ready
        if sink is not None:
            sink(("gone", self.exitcode))


class WorkerPool:
    """``size`` lab worker processes kept warm between runs (see the module docstring). ``warm``: have each do the
    first ``model`` call's work (litellm) before any run; without it a worker only starts (the catalogue and the
    runtime load when a run sends its recipe)."""

    def __init__(self, size: int, *, warm: bool = True, context: Any = None, niceness: int = 0) -> None:
        if size < 0:
            raise ValueError(f"size must be at least 0, got {size}")
        if niceness < 0:
            raise ValueError(f"niceness must be at least 0 (a worker may only yield), got {niceness}")
        self.size = size
        self.warm = warm
        #: How much lower than this process the workers run (POSIX ``nice``): the studio's window must not wait for a
        #: core behind its own lab's batch work (its stalls p99 ≤ 16 ms, issue 11). 0 for the headless command.
        self.niceness = niceness
        self.context = context if context is not None else multiprocessing.get_context("spawn")
        #: The rate gate's board of the run the pool is lent to (:class:`lab.rate_gate.RateGate`).
        self.board: Any = self.context.Array("d", 3)
        self.idle: list[PoolWorker] = []
        #: Every worker this pool started, in order (a test checks each is gone after :meth:`close`).
        self.started: list[PoolWorker] = []
        #: CPU seconds each warm-up took, as workers report them.
        self.warm_seconds: list[float] = []
        self.lent = False
        self.closed = False
        self._changed = threading.Condition()

    def __repr__(self) -> str:
        return f"WorkerPool(size={self.size}, idle={len(self.idle)}, lent={self.lent}, closed={self.closed})"

    # ------------------------------------------------------------------------------------------ workers
    def start(self) -> None:
        """Start workers until ``size`` are idle (none while lent or closed). Returns at once: they warm up in
        their own processes."""
        if self.closed or self.lent:
            return
        self.idle = [worker for worker in self.idle if worker.alive]
        while len(self.idle) < self.size:
            self.idle.append(self._spawn(self.warm))

    def _spawn(self, warm: bool) -> PoolWorker:
        to_worker, inbox = self.context.Pipe(duplex=False)
        from_worker, outbox = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=worker_main,
            args=(to_worker, outbox, self.board, warm, self.niceness),
            name="lab-worker",
            daemon=True,
        )
        process.start()
        # The worker's ends are the worker's: closed here, a worker that ends closes its pipe for good (EOF).
        to_worker.close()
        outbox.close()
        worker = PoolWorker(process, inbox, from_worker, self, warm=warm)
        self.started.append(worker)
        return worker

    def _warmed(self, worker: PoolWorker, seconds: float | None) -> None:
        with self._changed:
            if seconds is not None:
                self.warm_seconds.append(seconds)
            self._changed.notify_all()

    @property
    def ready(self) -> int:
        """Idle workers that finished warming up."""
        return sum(1 for worker in self.idle if worker.ready and worker.alive)

    def wait_ready(self, count: int | None = None, within: float = 120.0) -> bool:
        """Block until ``count`` (default: ``size``) idle workers are warm; False after ``within`` seconds or as
        soon as that cannot happen any more (no idle worker is still warming up: one died or failed to warm)."""
        wanted = self.size if count is None else count

        def settled() -> bool:
            return self.ready >= wanted or not any(worker.warming for worker in list(self.idle))

        with self._changed:
            self._changed.wait_for(settled, within)
        return self.ready >= wanted

    async def async_wait_ready(self, count: int | None = None, within: float = 120.0) -> bool:
        """:meth:`wait_ready` off the event loop."""
        return await asyncio.to_thread(self.wait_ready, count, within)

    # ------------------------------------------------------------------------------------------ runs
    def lend(self) -> bool:
        """Lend the pool to one run (False when it is lent already or closed); the board starts clear."""
        if self.lent or self.closed:
            return False
        self.lent = True
        with self.board.get_lock():
            self.board[:] = [0.0, 0.0, 0.0]
        return True

    def take(self) -> PoolWorker:
        """A worker for the run the pool is lent to: an idle one (warm first), else a new one."""
        self.idle = [worker for worker in self.idle if worker.alive]
        if self.idle:
            self.idle.sort(key=lambda worker: not worker.ready)
            return self.idle.pop(0)
        return self._spawn(False)

    async def release(self, workers: Iterable[PoolWorker], *, clean: bool) -> None:
        """The run is over: ``clean`` (every case finished) gives its live workers back, up to ``size`` kept idle;
        otherwise (cancelled, broken off) they are stopped now and new ones started in their place."""
        back: list[PoolWorker] = []
        stop: list[PoolWorker] = []
        for worker in workers:
            worker.attach(None)
            if not worker.alive:
                continue
            if clean and not self.closed and len(self.idle) + len(back) < self.size and worker.send(("end",)):
                back.append(worker)
            else:
                stop.append(worker)
        self.idle.extend(back)
        self.lent = False
        await stop_workers(stop)
        self.start()

    # ------------------------------------------------------------------------------------------ closing
    async def aclose(self) -> None:
        """Stop every worker this pool started (idle or lent), and start no more."""
        self.closed = True
        self.idle = []
        await stop_workers([worker for worker in self.started if worker.alive])

    def close(self) -> None:
        """:meth:`aclose` for synchronous code (a command's ``finally``)."""
        self.closed = True
        self.idle = []
        live = [worker for worker in self.started if worker.alive]
        _ask_to_stop(live)
        for worker in live:
            _end(worker.process)


def _ask_to_stop(workers: list[PoolWorker]) -> None:
    """Tell each worker to stop and close its pipe now (no await: a second cancel cannot leave one running)."""
    for worker in workers:
        worker.send(("stop",))
        with contextlib.suppress(OSError):
            worker.inbox.close()


def _end(process: Any) -> None:
    process.join(STOP_GRACE)
    if process.is_alive():
        process.terminate()
        process.join(STOP_GRACE)
    if process.is_alive():
        process.kill()
        process.join()


async def stop_workers(workers: list[PoolWorker]) -> None:
    """Stop ``workers`` now, then wait, off the loop, for each to end; terminate, then kill, one that does not."""
    _ask_to_stop(workers)
    await asyncio.gather(*(asyncio.to_thread(_end, worker.process) for worker in workers))


__all__ = ["STOP_GRACE", "PoolWorker", "WorkerPool", "stop_workers"]
