"""The lab controller's side-by-side experiment: each input and tool-result guard of the current design alone on
the chosen corpora (issue 30 item 4), as ``processor-studio lab --side-by-side`` runs them.

Each guard's run is an ordinary lab run of the design with only that guard in its lane
(:func:`studio.lab.side_by_side.guard_alone`), kept, listed and exportable like any other; when the last one ends,
``side_by_side_ready`` carries the table (:class:`lab.metrics.GuardColumns` per guard: recall, FPR, AUC, cost per
case) and every run's results, whose scores are keyed by the guard's id in the whole design, so the Scores tab draws
each guard's curves from its own run.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from lab.metrics import guard_columns
from lab.results import CaseResult
from studio.controllers.lab_corpora import LabCorpora
from studio.controllers.lab_events import LabEvents
from studio.controllers.lab_running import LabRunning, Prepared
from studio.design.agent_design import AgentDesign, DesignError
from studio.i18n import translate
from studio.lab.side_by_side import Guard, design_guards, guard_alone, pick_guards, renamed

__all__ = ["LabSideBySide"]


class LabSideBySide:
    """Runs a design's guards one by one, each alone (see the module docstring)."""

    def __init__(
        self,
        events: LabEvents,
        *,
        corpora: LabCorpora,
        live: LabRunning,
        catalogue: Callable[[], Any],
        current_design: Callable[[], AgentDesign | None],
    ) -> None:
        self._events = events
        self._corpora = corpora
        self._live = live
        self._catalogue = catalogue
        self._current_design = current_design

    def start(self, *, mode: str = "guardrails", concurrency: int = 4, guards: Sequence[str] = ()) -> bool:
        """Run the chosen corpora on each guard alone (those named by processor id in ``guards``, else every input
        and tool-result guard). False, said, when it cannot start."""
        cases = self._live.cases_to_start(mode)
        if cases is None:
            return False
        design = self._current_design()
        if design is None:
            self._events.failed.emit(translate("LabController", "There is no design to run."))
            return False
        try:
            chosen = (
                pick_guards(design, self._catalogue(), guards) if guards else design_guards(design, self._catalogue())
            )
        except (DesignError, ValueError) as error:
            self._events.failed.emit(str(error))
            return False
        if not chosen:
            self._events.failed.emit(
                translate("LabController", "The design has no input or tool-result guard to run side by side.")
            )
            return False
        corpora = self._corpora.described()
        names = ", ".join(str(item["name"]) for item in corpora)
        prepared: list[tuple[Guard, Prepared]] = []
        for guard in chosen:
            name = translate("LabController", "{guard} alone · {corpora}").format(guard=guard.id, corpora=names)
            one = self._live.prepare(
                guard_alone(design, guard),
                cases,
                mode=mode,
                concurrency=concurrency,
                name=name,
                corpora=corpora,
                settings={"side_by_side": guard.id},
            )
            if one is None:
                return False  # every guard's run is built before the first runs
            prepared.append((guard, one))
        self._live.run_as_the_lab_task(self._run(prepared, design, mode), "lab side by side")
        return True

    async def _run(self, prepared: list[tuple[Guard, Prepared]], design: AgentDesign, mode: str) -> None:
        if not await self._live.servers_ready(design, mode):
            return
        outcomes: dict[str, list[CaseResult]] = {}
        for guard, (engine_run, lab_run_id, create) in prepared:
            run: Any = _Renamed(engine_run, guard)  # stored, shown and counted under the guard's id in the design
            self._live.begin(run, lab_run_id, [])
            status = await self._live.drive(run, create=create)
            outcomes[guard.id] = run.results_in_order()
            if status != "finished":
                return  # cancelled: what ran is kept and can be resumed; no table of half the guards
        rows = [guard_columns(guard, results) for guard, results in outcomes.items()]
        self._events.side_by_side_ready.emit(rows, [result for results in outcomes.values() for result in results])


class _Renamed:
    """A guard's run alone whose results name the guard by its id in the whole design (:func:`renamed`) as they
    arrive, so the store keeps them that way; everything else is the run's own."""

    def __init__(self, run: Any, guard: Guard) -> None:
        self._run = run
        self._guard = guard

    def __getattr__(self, name: str) -> Any:
        return getattr(self._run, name)

    async def results(self) -> AsyncIterator[CaseResult]:
        async for result in self._run.results():
            yield renamed(result, self._guard)

    def results_in_order(self) -> list[CaseResult]:
        return [renamed(result, self._guard) for result in self._run.results_in_order()]
