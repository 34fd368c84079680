"""An attack run: the baseline (which seeds the design stops), then their variants, on the lab's own runner.

:class:`AttackRun` drives :func:`lab.process_run.open_run` — the same modes, concurrency, worker processes (a
:class:`lab.worker_pool.WorkerPool` lent for the whole run) and results file as a ``processor-studio lab`` run — in
up to three steps, each a lab run of its own over the same results file:

1. **baseline** — the plan's attacks as they are: the seeds are those the design blocks (``seeds="stopped"``), and
   the processors that blocked each one are what the heat map measures evasion against;
2. **chains** — the plan's chain variants of those seeds, within the budget
   (:meth:`lab.attack.plan.AttackPlan.variants`);
3. **sources** — each variant source (a model strategy), read in batches of ``batch`` variants as it yields them.

The chains' variants are made lazily and run ``chunk`` at a time (each chunk a lab run), so memory does not grow
with the budget: what a run keeps is what its caller keeps of the results it yields. In worker processes without a
``pool``, the run starts one of its own for its whole length (the chunks share its workers) and stops it at its end.

Resuming: the results file keeps the baseline and every variant under its own id (``<seed>~<chain>``), so a run
given the same file after a cancel or a crash runs only what is missing, and yields the results it finds there too
(a report after a resume is the whole run's). The file's header holds the design's fingerprint with the run's seed,
so a file made with another seed (other variants under the same ids) is refused, as one of another design is.

Progress: ``phase``, ``done`` and ``total`` (the total grows when the baseline has found the seeds, and as sources
yield). :meth:`cancel` stops every case in flight; the iterator then ends.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterable, AsyncIterator, Callable, Sequence
from typing import Any, Literal

from lab.attack.plan import AttackPlan, VariantSource, seed_of, variant_case, variant_id
from lab.attack.robustness import VariantResult
from lab.converters import Variant
from lab.corpus import Case
from lab.process_run import open_run
from lab.recipe import AgentRecipe
from lab.results import CaseResult
from lab.runner import AgentFactory, LabRun
from lab.worker_pool import WorkerPool

Phase = Literal["waiting", "baseline", "chains", "sources", "done"]
#: Variants of a source run together (a strategy's variants arrive as it makes them).
BATCH = 256
#: The chains' variants run together: enough to keep the workers busy, few enough that memory stays flat.
CHUNK = 2000


class AttackRun:
    """Run an :class:`AttackPlan` (module docstring); iterate :meth:`results` for each :class:`VariantResult`.

    ``agents`` is a recipe (needed for ``processes`` > 1 or a ``pool``) or, in this process, an agent factory.
    ``options`` are :class:`lab.runner.LabRun`'s (``mode``, ``concurrency``, ``results_path``, ``design``, ...)."""

    def __init__(
        self,
        plan: AttackPlan,
        agents: AgentFactory | AgentRecipe,
        *,
        processes: int = 1,
        pool: WorkerPool | None = None,
        batch: int = BATCH,
        chunk: int = CHUNK,
        on_baseline: Callable[[CaseResult], None] | None = None,
        **options: Any,
    ) -> None:
        if batch < 1 or chunk < 1:
            raise ValueError(f"batch and chunk must be at least 1, got {batch} and {chunk}")
        self.plan = plan
        self.agents = agents
        self.processes = processes
        self.pool = pool
        self.batch = batch
        self.chunk = chunk
        self.on_baseline = on_baseline
        self.design: dict[str, Any] = dict(options.pop("design", None) or {})
        self.options = options
        self.phase: Phase = "waiting"
        #: The baseline's results by seed id, and the seeds it chose (in the corpus's order).
        self.baseline: dict[str, CaseResult] = {}
        self.seeds: list[Case] = []
        #: Results found in the results file rather than run now.
        self.resumed = 0
        self.cancelled = False
        self._total = len(plan.attacks)
        self._done_before = 0  # cases of the steps already over
        self._current: LabRun | None = None

    @property
    def total(self) -> int:
        """Cases known so far: the baseline's, then the chains' variants, then the sources' as they come."""
        return self._total

    @property
    def done(self) -> int:
        return self._done_before + (self._current.done if self._current is not None else 0)

    def cancel(self) -> None:
        """Stop now (a Cancel button): the case in flight is dropped; the results file keeps the rest."""
        self.cancelled = True
        if self._current is not None:
            self._current.cancel()

    def _run_design(self) -> dict[str, Any]:
        """The design the results file's header holds: the run's seed is part of its fingerprint (docstring)."""
        design = dict(self.design)
        key = design.get("fingerprint", design.get("id"))
        design["fingerprint"] = f"{key}+attack-seed={self.plan.seed}"
        return design

    def _open(self, cases: Sequence[Case]) -> LabRun:
        agents = self.agents
        if self.processes > 1 or self.pool is not None:
            if not isinstance(agents, AgentRecipe):
                raise TypeError("an attack run in worker processes needs an AgentRecipe, not a factory")
            design = self._run_design()
            return open_run(cases, agents, processes=self.processes, pool=self.pool, design=design, **self.options)
        return LabRun(cases, agents, design=self._run_design(), **self.options)

    async def _step(self, cases: Sequence[Case]) -> AsyncIterator[CaseResult]:
        """One lab run of ``cases``; yields the results the file already had (a resume) before the new ones."""
        run = self._current = self._open(cases)
        flushed = False
        try:
            async for result in run.results():
                if not flushed:
                    flushed = True
                    self.resumed += run.resumed
                    for earlier in run.results_in_order():
                        if earlier.id != result.id:
                            yield earlier
                yield result
            if not flushed and not self.cancelled:
                self.resumed += run.resumed
                for earlier in run.results_in_order():
                    yield earlier
        finally:
            self._done_before += run.done
            self._current = None

    async def results(self) -> AsyncIterator[VariantResult]:
        """Each variant's result as it finishes (and those a resumed file had), step after step (docstring)."""
        own_pool = None
        if self.processes > 1 and self.pool is None:
            own_pool = self.pool = WorkerPool(self.processes, warm=self.options.get("mode") == "model")
            own_pool.start()
        try:
            async for found in self._steps():
                yield found
        finally:
            if own_pool is not None:
                self.pool = None
                await own_pool.aclose()

    async def _steps(self) -> AsyncIterator[VariantResult]:
        self.phase = "baseline"
        async for result in self._step(self.plan.attacks):
            self.baseline[result.id] = result
            if self.on_baseline is not None:
                self.on_baseline(result)
        if self.cancelled:
            return
        every = self.plan.seeds == "attacks"
        self.seeds = [
            case
            for case in self.plan.attacks
            if case.id in self.baseline and (every or self.baseline[case.id].outcome == "blocked")
        ]
        seeds = {case.id: case for case in self.seeds}
        self.phase = "chains"
        self._total += self.plan.variant_count(len(self.seeds))
        taken: set[str] = set()
        variants = self.plan.variants(self.seeds)
        while chunk := list(itertools.islice(variants, self.chunk)):
            taken.update(case.id for case in chunk)
            async for found in self._variants(chunk, seeds):
                yield found
            if self.cancelled:
                return
        self.phase = "sources"
        for source in self.plan.sources:
            async for batch in _batches(source, self.batch):
                cases = [_source_case(variant, seeds, taken) for variant in batch]
                self._total += len(cases)
                async for found in self._variants(cases, seeds):
                    yield found
                if self.cancelled:
                    return
        self.phase = "done"

    async def _variants(self, cases: list[Case], seeds: dict[str, Case]) -> AsyncIterator[VariantResult]:
        by_id = {case.id: case for case in cases}
        async for result in self._step(cases):
            case = by_id[result.id]
            seed_id = str(case.metadata.get("attack_seed", ""))
            seed = seeds.get(seed_id)
            baseline = self.baseline.get(seed_id)
            yield VariantResult(
                seed_id,
                str(case.metadata.get("attack_chain", "")),
                variant_turns(case, seed),
                result,
                list(baseline.tripped) if baseline is not None else [],
                case,
            )


def variant_turns(case: Case, seed: Case | None) -> tuple[str, ...]:
    """What the variant changed: the planted tool result, or the user turns it added and its text."""
    if case.tool_result is not None and (seed is None or seed.tool_result is not None):
        return (case.tool_result,)
    earlier = case.turns[len(seed.turns) if seed is not None else 0 :]
    return (*(turn["content"] for turn in earlier if turn.get("role") == "user"), case.text)


def _source_case(variant: Variant, seeds: dict[str, Case], taken: set[str]) -> Case:
    """A source's variant as a case, its id unique in the run (a strategy may try one seed several times)."""
    base = variant_id(variant.case_id, variant.chain)
    case_id, number = base, 1
    while case_id in taken:
        number += 1
        case_id = f"{base}~{number}"
    taken.add(case_id)
    return variant_case(seed_of(variant, seeds), variant, case_id)


async def _batches(source: VariantSource, size: int) -> AsyncIterator[list[Variant]]:
    batch: list[Variant] = []
    if isinstance(source, AsyncIterable):
        async for variant in source:
            batch.append(variant)
            if len(batch) >= size:
                yield batch
                batch = []
    else:
        for variant in source:
            batch.append(variant)
            if len(batch) >= size:
                yield batch
                batch = []
    if batch:
        yield batch


__all__ = ["BATCH", "CHUNK", "AttackRun", "Phase", "variant_turns"]
