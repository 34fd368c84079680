"""A lab worker process: runs the cases its parent sends, as many at once as its share of the run's concurrency,
run after run (a warm worker of :class:`lab.worker_pool.WorkerPool` serves many runs; one a run starts for itself
serves that run only).

Started by :class:`lab.worker_pool.WorkerPool` (for itself or for a :class:`lab.process_run.ProcessLabRun`) with
the ``spawn`` method, so it imports only what unpickling its arguments needs (this module, the lab engine and the
runtime: no Qt, whatever the parent has loaded). The protocol is two one-way pipes of pickled tuples:

- parent → worker: ``("run", RunOrder)`` starts a run (its recipe, mode, share of the concurrency, the parent's
  environment); then ``("case", Case, recording or None)`` for each case; ``("end",)`` ends the run (the worker
  waits for the next one); ``("stop",)`` ends the worker. The pipe closing means stop too (a parent that died: the
  worker never outlives it);
- worker → parent: ``("ready", CPU seconds)`` once warmed up (when asked to; ``("warm-failed", reason)`` if that
  failed: the worker then serves cold), ``("started", case id)`` when a case
  starts (a case sent but not started is not this worker's if it dies), ``("result", CaseResult)``,
  ``("failed", reason)`` when the run's agents cannot be opened here or cannot go on (a design's MCP server that
  does not start, or does not start again after a crash: the worker then ends, and the parent ends the run).

The run's agents are opened once per run (:meth:`lab.recipe.AgentRecipe.open`: a design's MCP servers start then,
one per worker, not one per case) and closed when the run ends, is cancelled or the worker is told to stop.

Warming up (:func:`warm_up`, beside the first run if one comes before it is done) does the work a first ``model``
call would do: litellm's import (~3 s of CPU idle, ~7 s on a loaded machine), the tokenizer litellm counts every
streamed call's prompt with (tiktoken's ``cl100k_base``, loaded on first use: litellm stamps a cost on the stream
before any usage arrives), and one streamed call answered by litellm's own ``mock_response`` (no network).

The worker writes no file: the parent alone keeps the results file, so a resume reads one writer's lines.
Ctrl+C in a terminal reaches the whole process group: the worker ignores it and lets its parent stop it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from lab.case_run import Mode
from lab.corpus import Case
from lab.rate_gate import RateGate
from lab.recipe import AgentRecipe, LabAgents, LabAgentsError
from lab.runner import run_with_retries


@dataclass(frozen=True)
class RunOrder:
    """What a worker needs to serve one run (sent with ``("run", order)``)."""

    recipe: AgentRecipe
    mode: Mode
    slots: int
    gate_options: tuple[float, float]
    max_attempts: int
    #: The parent's environment when the run started: a provider variable set or changed since the worker started
    #: (a user's ``export``, a key the studio set) reaches it (one unset since is not unset). Sent in memory, never
    #: logged.
    environ: Mapping[str, str] = field(default_factory=dict, repr=False)


def worker_main(inbox: Connection, outbox: Connection, board: Any, warm: bool, niceness: int = 0) -> None:
    """The worker process's entry point (a module-level function, so ``spawn`` can name it). ``board`` is the rate
    gate's shared board of every run this worker serves (:class:`lab.rate_gate.RateGate`); ``niceness``: how much
    lower than its parent the worker runs (where the system has ``nice``)."""
    if niceness > 0 and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(niceness)
    with contextlib.suppress(ValueError, OSError):  # not the main thread (a test calling this directly)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(_life(inbox, outbox, board, warm))


async def warm_up() -> float:
    """Do the first ``model`` call's one-time work now (see the module docstring); returns the CPU seconds spent."""
    started = time.process_time()
    from processors.models import LiteLLMModel

    await LiteLLMModel("openai/lab-warm-up").prepare()  # the import, off this loop, GC-frozen as in any call
    import litellm
    from litellm._lazy_imports import get_default_encoding

    get_default_encoding()
    response = await litellm.acompletion(
        model="openai/lab-warm-up",
        messages=[{"role": "user", "content": "warm up"}],
        stream=True,
        mock_response="ready",
        api_key="lab-warm-up",
    )
    async for _ in response:
        pass
    return time.process_time() - started


async def _life(inbox: Connection, outbox: Connection, board: Any, warm: bool) -> None:
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
    # Beside the runs, not before them: a run that comes while litellm is being imported (in a thread) starts at
    # once; its first model call waits for the same import (Python's import lock), not for a second one.
    warming = asyncio.create_task(_warm(outbox)) if warm else None
    try:
        while True:
            message = await messages.get()
            if message[0] == "stop":
                return
            if message[0] != "run":
                continue  # a case of a run that ended (its "end" came first): not this worker's any more
            order: RunOrder = message[1]
            # Set or changed, never cleared: the import going on in the warm-up reads variables too.
            os.environ.update(order.environ)
            try:
                agents = await order.recipe.open()
            except Exception as error:
                with contextlib.suppress(OSError):
                    outbox.send(("failed", f"could not build the agent: {_failure(error)}"))
                return
            gate = RateGate(*order.gate_options, board=board)
            try:
                served = await _serve(messages, outbox, agents, order, gate)
            finally:
                await agents.aclose()  # the run's MCP servers stop with it, before the worker goes on or ends
            if not served:
                return
    finally:
        if warming is not None:
            warming.cancel()


async def _warm(outbox: Connection) -> None:
    try:
        report: tuple[str, Any] = ("ready", await warm_up())
    except Exception as error:  # not fatal: the worker is cold, its first model call does the work
        report = ("warm-failed", f"{type(error).__name__}: {error}")
    with contextlib.suppress(OSError):
        outbox.send(report)


async def _serve(
    messages: asyncio.Queue[tuple[Any, ...]],
    outbox: Connection,
    agents: LabAgents,
    order: RunOrder,
    gate: RateGate,
) -> bool:
    """One run's cases; True when the run ended (``end``: wait for the next), False when the worker must stop
    (told to, or its agents cannot go on: then it says why with ``failed`` and the parent ends the run)."""
    room = asyncio.Semaphore(order.slots)
    running: set[asyncio.Task[None]] = set()

    async def one(case: Case, recording: str | None) -> None:
        async with room:
            outbox.send(("started", case.id))
            try:
                result = await run_with_retries(case, agents, order.mode, recording, gate, order.max_attempts)
            except LabAgentsError as error:
                outbox.send(("failed", f"stopped: {error}"))
                messages.put_nowait(("stop",))
                return
            outbox.send(("result", result))

    while True:
        message = await messages.get()
        if message[0] != "case":
            break
        task = asyncio.create_task(one(message[1], message[2]))
        running.add(task)
        task.add_done_callback(running.discard)
    for task in list(running):
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    return bool(message[0] == "end")


def _failure(error: BaseException) -> str:
    """Why the run's agents could not be opened here: their own sentence, or the error's type and text."""
    if isinstance(error, LabAgentsError):
        return str(error)
    return f"{type(error).__name__}: {error}"


__all__ = ["RunOrder", "warm_up", "worker_main"]
