"""The lab's runner: every case through a fresh agent with the full pipeline, concurrently, cancellable, resumable.

``LabRun(cases, agent_factory, mode=..., concurrency=N, results_path=...)`` is driven by iterating
:meth:`LabRun.results` (an async iterator of :class:`CaseResult` in the order cases finish): the headless command
prints progress from it, the studio's Lab view will draw from it. Cancelling the iterating task stops every case
in flight at once. ``agent_factory`` returns a fresh :class:`processors.Agent` per case, so no processor's
instance state leaks from one case into the next.

Modes:

- ``guardrails`` — no model call: the agent's model is replaced by a :class:`ScriptedModel` answering the case's
  ``reply`` (or :data:`lab.case_run.DEFAULT_REPLY`), so the input and output lanes run around a fixed answer;
- ``model`` — the design's own model answers; each case's answers and tool results are recorded
  (:mod:`processors.models.recording`) in its result;
- ``replay`` — those recorded answers again (``recordings``), around a chain that may have changed since, with no
  model call: after editing only output processors, a re-run costs nothing.

A case with a ``tool_result`` first makes the model call the lab's :data:`lab.case_run.LAB_TOOL` (scripted, in both
modes), which returns that text, so ``process_tool_result`` guards see it as a real tool result.

Resuming: each result is appended to ``results_path`` (one JSON line, written with one ``write`` as soon as the
case finishes) and a later run with the same file skips the cases already there, so a crash or a SIGKILL loses
at most the cases in flight. The file is fsync'd at most every :data:`FSYNC_INTERVAL` seconds and at the end (a
power cut may lose that much more; an fsync per case would cost more than the guardrails themselves).

The verdict comes from the run's chunks and trace events, the same data the studio's inspector shows: the final
tripwire makes a case ``blocked``; a processor that aborted (and was retried) or changed or dropped something
makes it ``modified``; a processor that raised, or a run that ended in error, makes it ``error``.
A 429 (or 503) is retried after the provider's Retry-After, or an exponential back-off, and every worker waits
out that pause before its next model call, so a rate limit does not become a storm of refused calls. The call is
tried again below every processor (:class:`lab.rate_gate.GatedModel`): which calls meet a limit depends on timing,
and a case's verdict must not (the design's error processors never see a limit the lab's own load met).

Given an :class:`lab.recipe.AgentRecipe` instead of a factory, the run opens it when it starts (a design's MCP
servers start then, once for the run) and closes it when it ends, is cancelled or fails; a recipe that cannot be
opened, or whose shared parts cannot go on (a server that does not start again after a crash), ends the run with
:class:`LabError` naming the part, before the first case or instead of the next one. A case whose tool's server
failed under it is an ``error`` naming the server (:meth:`lab.recipe.LabAgents.spoiled`): what the tool would have
returned never reached the guards, so its verdict would test nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from lab.case_run import MODES, Mode, make_result, run_case
from lab.corpus import Case
from lab.rate_gate import RateGate
from lab.recipe import AgentRecipe, LabAgents, LabAgentsError
from lab.results import CaseResult, ResultsFile, read_results
from processors import Agent

AgentFactory = Callable[[], Agent]

RESULTS_FORMAT = 1


class LabError(Exception):
    """The run cannot start (e.g. a results file made for another design or mode)."""


# ------------------------------------------------------------------------------------------------ the run


class LabRun:
    """One run of cases through an agent factory. Iterate :meth:`results`; read ``done``/``total`` for progress."""

    def __init__(
        self,
        cases: Sequence[Case],
        agent_factory: AgentFactory | AgentRecipe,
        *,
        mode: Mode = "guardrails",
        concurrency: int = 4,
        results_path: Path | str | None = None,
        design: dict[str, Any] | None = None,
        max_attempts: int = 6,
        recordings: dict[str, str] | None = None,
        backoff: float = 1.0,
        max_backoff: float = 60.0,
        pace: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        self.cases = list(cases)
        #: A recipe is opened when the run starts (:meth:`results`); its agents replace it here until the run ends.
        self.agent_factory: AgentFactory | AgentRecipe = agent_factory
        self.mode: Mode = mode
        self.concurrency = concurrency
        self.results_path = Path(results_path) if results_path is not None else None
        self.design = design or {}
        self.max_attempts = max_attempts
        #: ``replay`` mode: case id → the recording a ``model`` run kept (``CaseResult.recording``).
        self.recordings = recordings or {}
        self.backoff = backoff
        self.max_backoff = max_backoff
        #: Awaited by each worker before each case: a UI sharing the loop takes its turn there.
        self.pace = pace
        #: Results of this run and of the run it resumes, by case id.
        self.finished: dict[str, CaseResult] = {}
        #: How many results came from the results file (skipped this time).
        self.resumed = 0
        self._gate = RateGate(backoff, max_backoff)
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Set by :meth:`cancel`: no case starts after it, and a case it cut short is not a result.
        self.cancelled = False

    @property
    def rate_limited(self) -> int:
        """How many times a rate limit paused the run."""
        return self._gate.pauses

    @property
    def total(self) -> int:
        return len(self.cases)

    @property
    def done(self) -> int:
        return len(self.finished)

    def header(self) -> dict[str, Any]:
        return {"kind": "header", "format": RESULTS_FORMAT, "mode": self.mode, "design": self.design}

    def _resume(self) -> None:
        if self.results_path is None:
            return
        header, previous = read_results(self.results_path)
        if header is not None and (
            header.get("mode") != self.mode or _design_key(header) != _design_key(self.header())
        ):
            raise LabError(
                f"{self.results_path}: these results are from another design or mode; choose a new results file"
            )
        wanted = {case.id for case in self.cases}
        self.finished = {case_id: result for case_id, result in previous.items() if case_id in wanted}
        self.resumed = len(self.finished)

    def results_in_order(self) -> list[CaseResult]:
        """Every finished result, in the corpus's order."""
        return [self.finished[case.id] for case in self.cases if case.id in self.finished]

    def cancel(self) -> None:
        """Stop every case in flight now (a studio's Cancel button); the iterator then ends.

        A case whose agent turns the cancellation into a stopped run (the loop keeps what it saw and finishes
        with ``abort``) comes back as if it had finished: it is dropped, so a resume runs it again."""
        self.cancelled = True
        for task in list(self._tasks):
            task.cancel()

    async def results(self) -> AsyncIterator[CaseResult]:
        """Each case's result as it finishes (cases finished by an earlier run are skipped, see ``finished``)."""
        self._resume()
        todo = [case for case in self.cases if case.id not in self.finished]
        recipe = self.agent_factory if isinstance(self.agent_factory, AgentRecipe) else None
        opened: LabAgents | None = None
        if recipe is not None and todo:
            try:
                opened = await recipe.open()
            except LabAgentsError as error:
                raise LabError(str(error)) from None
            self.agent_factory = opened
        file = None
        try:
            if self.results_path is not None:
                fresh = not self.results_path.exists() or self.results_path.stat().st_size == 0
                file = ResultsFile(self.results_path)
                if fresh:
                    file.append(self.header())
            async with contextlib.aclosing(self._produce(todo)) as produced:
                async for result in produced:
                    if self.cancelled:
                        break  # what came after the cancel is not shown (nor saved): the run ends here
                    self.finished[result.id] = result
                    if file is not None:
                        file.append(result.to_dict())
                    yield result
        except LabAgentsError as error:
            raise LabError(str(error)) from None
        finally:
            if file is not None:
                file.close()
            if opened is not None:
                self.agent_factory = recipe  # type: ignore[assignment]  # a later resume opens it again
                await opened.aclose()

    async def _produce(self, todo: list[Case]) -> AsyncGenerator[CaseResult, None]:
        """The results of ``todo`` as cases finish: here, ``concurrency`` workers on this process's loop (a
        process-backed run runs them in worker processes instead: :mod:`lab.process_run`)."""
        queue: asyncio.Queue[CaseResult] = asyncio.Queue()
        cases = iter(todo)
        remaining = len(todo)
        workers = [asyncio.create_task(self._worker(cases, queue)) for _ in range(min(self.concurrency, remaining))]
        self._tasks.update(workers)
        try:
            while remaining:
                # Checked before each wait, not only after one: a worker may end while its last result is handed on
                # (a run's agents that cannot go on), and a wait on the queue alone would then never end. The results
                # already queued are handed on first.
                if queue.empty():
                    for task in workers:  # a worker that died of something unexpected: say it, do not hang
                        if task.done() and not task.cancelled() and task.exception() is not None:
                            raise task.exception()  # type: ignore[misc]
                    if all(task.done() for task in workers):
                        break  # cancelled workers: nothing more will come
                getter = asyncio.ensure_future(queue.get())
                waiting = {getter, *(task for task in workers if not task.done())}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
                    continue
                remaining -= 1
                yield getter.result()
        finally:
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            self._tasks.difference_update(workers)

    async def _worker(self, todo: Iterable[Case], queue: asyncio.Queue[CaseResult]) -> None:
        for case in todo:
            if self.pace is not None:
                await self.pace()
            if self.cancelled:
                return
            factory = self.agent_factory
            assert not isinstance(factory, AgentRecipe)  # opened by results()
            result = await run_with_retries(
                case, factory, self.mode, self.recordings.get(case.id), self._gate, self.max_attempts
            )
            if self.cancelled:
                return  # cut short by the cancel: not a result
            queue.put_nowait(result)
            # A case with nothing to wait for (guardrails, replay) never suspends: without this turn, one worker
            # ran every case in a single step of the loop, and nothing else on that loop ran meanwhile.
            await asyncio.sleep(0)


async def run_with_retries(
    case: Case,
    agent_factory: AgentFactory | LabAgents,
    mode: Mode,
    recording: str | None,
    gate: RateGate,
    max_attempts: int,
) -> CaseResult:
    """One case on a fresh agent, after the run's pause (every worker, of every process, waits it out). In
    ``model`` mode a call refused for a rate limit is tried again below the chain, up to ``max_attempts`` times
    (:class:`lab.rate_gate.GatedModel`), so the case's verdict is the one a run without the limit gives. Shared by
    the in-process run and the worker processes.

    With :class:`lab.recipe.LabAgents`, their :meth:`~lab.recipe.LabAgents.ready` comes first (it raises
    :class:`lab.recipe.LabAgentsError` when the run cannot go on), and a case they call spoiled is an ``error``
    with their reason (its recording dropped: a replay of an answer made with a broken tool would test nothing)."""
    await gate.wait()
    agents = agent_factory if isinstance(agent_factory, LabAgents) else None
    if agents is not None:
        await agents.ready()
    try:
        agent = agent_factory()
    except Exception as error:
        return make_result(case, "error", latency=0.0, error=f"the agent could not be built: {error}")
    result = await run_case(case, agent, mode, recording, gate if mode == "model" else None, max_attempts)
    spoiled = agents.spoiled(agent) if agents is not None else None
    if spoiled is None:
        return result
    return dataclasses.replace(
        result, outcome="error", reason=spoiled, error=spoiled, tripped=[], hits=[], recording=None
    )


def _design_key(header: dict[str, Any]) -> Any:
    design = header.get("design") or {}
    return design.get("fingerprint", design.get("id"))


async def run_lab(
    cases: Sequence[Case],
    agent_factory: AgentFactory,
    *,
    on_result: Callable[[CaseResult, LabRun], None] | None = None,
    **options: Any,
) -> LabRun:
    """Run every case (see :class:`LabRun` for the options) and return the finished run."""
    run = LabRun(cases, agent_factory, **options)
    async for result in run.results():
        if on_result is not None:
            on_result(result, run)
    return run


__all__ = ["RESULTS_FORMAT", "AgentFactory", "LabError", "LabRun", "run_lab", "run_with_retries"]
