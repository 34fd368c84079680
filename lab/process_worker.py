"""A lab worker process: runs the cases its parent sends, as many at once as its share of the run's concurrency.

Started by :class:`lab.process_run.ProcessLabRun` with the ``spawn`` method, so it imports only what unpickling its
arguments needs (this module, the recipe's builder, the lab engine and the runtime: no Qt, whatever the parent
has loaded). The protocol is two one-way pipes of pickled tuples:

- parent → worker: ``("case", Case, recording or None)``, ``("stop",)``; the pipe closing means stop too (a parent
  that died: the worker never outlives it);
- worker → parent: ``("started", case id)`` when a case starts (a case sent but not started is not this worker's
  if it dies), ``("result", CaseResult)``, ``("failed", reason)`` when the agent factory cannot be made here.

The worker writes no file: the parent alone keeps the results file, so a resume reads one writer's lines.
Ctrl+C in a terminal reaches the whole process group: the worker ignores it and lets its parent stop it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from multiprocessing.connection import Connection
from typing import Any

from lab.corpus import Case
from lab.rate_gate import RateGate
from lab.recipe import AgentFactory, AgentRecipe
from lab.runner import Mode, run_with_retries


def worker_main(
    inbox: Connection,
    outbox: Connection,
    recipe: AgentRecipe,
    mode: Mode,
    slots: int,
    board: Any,
    gate_options: tuple[float, float],
    max_attempts: int,
) -> None:
    """The worker process's entry point (a module-level function, so ``spawn`` can name it)."""
    with contextlib.suppress(ValueError, OSError):  # not the main thread (a test calling this directly)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        factory = recipe.factory()
    except Exception as error:
        with contextlib.suppress(OSError):
            outbox.send(("failed", f"{type(error).__name__}: {error}"))
        return
    gate = RateGate(*gate_options, board=board)
    asyncio.run(_serve(inbox, outbox, factory, mode, slots, gate, max_attempts))


async def _serve(
    inbox: Connection,
    outbox: Connection,
    factory: AgentFactory,
    mode: Mode,
    slots: int,
    gate: RateGate,
    max_attempts: int,
) -> None:
    loop = asyncio.get_running_loop()
    messages: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()

    def read() -> None:
        """The inbox, read on a thread of its own: a blocking ``recv`` never holds the worker's loop."""
        while True:
            try:
                message = inbox.recv()
            except (EOFError, OSError):
                message = ("stop",)
            try:
                loop.call_soon_threadsafe(messages.put_nowait, message)
            except RuntimeError:  # the loop is closed: the worker is ending anyway
                return
            if message[0] == "stop":
                return

    threading.Thread(target=read, name="lab-worker-inbox", daemon=True).start()
    room = asyncio.Semaphore(slots)
    running: set[asyncio.Task[None]] = set()

    async def one(case: Case, recording: str | None) -> None:
        async with room:
            outbox.send(("started", case.id))
            result = await run_with_retries(case, factory, mode, recording, gate, max_attempts)
            outbox.send(("result", result))

    while True:
        message = await messages.get()
        if message[0] != "case":
            break
        task = asyncio.create_task(one(message[1], message[2]))
        running.add(task)
        task.add_done_callback(running.discard)
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)


__all__ = ["worker_main"]
