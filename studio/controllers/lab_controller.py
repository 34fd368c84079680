"""``LabController``: the guardrail lab's use cases in the studio — choose corpora, run them against the design,
cancel, resume, keep every lab run in the store, compare two, export reports, open a case as a thread.

It holds collaborators with one job each, the way the workspace holds its key gate and MCP launcher, and says
what they do through its own signals (:class:`studio.controllers.lab_events.LabEvents`):

- :class:`~studio.controllers.lab_corpora.LabCorpora` — the corpora to choose from and the cases chosen;
- :class:`~studio.controllers.lab_agents.LabAgentMaker` — a design's agents for the workers (key, MCP approvals);
- :class:`~studio.controllers.lab_running.LabRunning` — the lab run going on (start, resume, cancel, results saved
  and shown in batches) and the warm worker processes;
- :class:`~studio.controllers.lab_stored.LabStoredRuns` — the stored lab runs (show, delete, compare, export, open
  a case as a thread);
- :class:`~studio.controllers.lab_experiments.LabExperiments` — A/B of two designs, and replays.

What is on show (:attr:`shown`, :attr:`results`) is one :class:`~studio.controllers.lab_events.OnShow` that the
live run and the stored runs both replace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from lab.corpus import Case
from lab.results import CaseResult
from lab.runner import LabRun
from lab.worker_pool import WorkerPool
from studio.controllers.lab_agents import LabAgentMaker
from studio.controllers.lab_attack import LabAttack
from studio.controllers.lab_corpora import LabCorpora
from studio.controllers.lab_events import OnShow
from studio.controllers.lab_experiments import DesignChoice, LabExperiments
from studio.controllers.lab_records import Comparison
from studio.controllers.lab_running import LabRunning
from studio.controllers.lab_side_by_side import LabSideBySide
from studio.controllers.lab_stored import LabStoredRuns
from studio.controllers.lab_thresholds import LabThresholds
from studio.controllers.mcp_launcher import McpLauncher
from studio.controllers.tasks import TaskKeeper
from studio.design.agent_design import AgentDesign
from studio.keys.secrets import SecretStore
from studio.models.design_document import DesignDocument
from studio.models.lab_lists import CorpusListModel, LabRunsModel
from studio.store.database import LabRunRecord


class LabController(QObject):
    """The Lab view's controller (see the module docstring for its collaborators)."""

    #: A line for the status bar (and the view's message line).
    status_message = Signal(str)
    #: Something the user asked for could not be done: one readable line (a corpus error names file and line).
    failed = Signal(str)
    #: Another lab run is on show (its record): the view resets its cases and figures.
    run_shown = Signal(object)
    #: The results on show were replaced (a list of :class:`CaseResult`).
    results_reset = Signal(list)
    #: More cases finished in the run on show (a list of :class:`CaseResult`).
    results_added = Signal(list)
    #: Progress of the live run: (done, total, seconds left or -1 when not known yet).
    progress_changed = Signal(int, int, float)
    #: A lab run started or resumed (its id).
    run_started = Signal(str)
    #: A lab run ended: (its id, ``finished`` or ``cancelled``).
    run_ended = Signal(str, str)
    #: A case was opened as a thread: (thread id); the workspace shows it.
    case_thread_ready = Signal(str)
    #: A comparison of two lab runs is ready (a :class:`studio.controllers.lab_records.Comparison`).
    compared = Signal(object)
    #: A run would start a design's stdio MCP server (a :class:`~studio.design.agent_design.McpServerConfig`) whose
    #: program the user has not allowed; the Lab window asks, showing the exact command, and answers with
    #: :meth:`answer_mcp_approval`.
    mcp_approval_requested = Signal(object)
    #: The designs to choose from for A/B changed (a list of :class:`DesignChoice`).
    design_choices_changed = Signal(list)
    #: Each guard alone ran (:meth:`start_side_by_side`): the table (:class:`lab.metrics.GuardColumns` per guard)
    #: and every guard's results (their scores under the guard's id).
    side_by_side_ready = Signal(list, list)
    #: A design file asked for by :meth:`add_design_file_for` is offered: (the letter it was asked for, ``A`` or
    #: ``B``; its :class:`DesignChoice`).
    design_file_added = Signal(str, object)

    def __init__(
        self,
        *,
        store: Any,
        catalogue: Any,
        secrets: SecretStore | None = None,
        design: Callable[[], AgentDesign] | None = None,
        mcp_launcher: McpLauncher | None = None,
        document: DesignDocument | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        #: A callable returning the design to run (the studio's current one: ``document.snapshot``).
        self.design = design
        self._tasks = TaskKeeper("lab", self.failed.emit)
        self._show = OnShow()
        launcher = mcp_launcher if mcp_launcher is not None else McpLauncher(parent=self)
        self._agents = LabAgentMaker(self, catalogue=catalogue, secrets=secrets, mcp_launcher=launcher)
        self._corpora = LabCorpora(self, parent=self)
        #: The stored lab runs, as the Lab window lists them.
        self.runs = LabRunsModel(self)
        #: Guards' thresholds in the design being edited (the Scores tab's slider writes them, one undo step).
        self.thresholds = LabThresholds(document, catalogue, parent=self)
        self._live = LabRunning(
            self,
            store=store,
            show=self._show,
            corpora=self._corpora,
            agents=self._agents,
            runs=self.runs,
            tasks=self._tasks,
            current_design=self._current_design,
        )
        self._stored = LabStoredRuns(
            self, store=store, show=self._show, live=self._live, agents=self._agents, parent=self
        )
        self._experiments = LabExperiments(
            self,
            store=store,
            corpora=self._corpora,
            live=self._live,
            stored=self._stored,
            current_design=self._current_design,
        )
        self._side_by_side = LabSideBySide(
            self,
            corpora=self._corpora,
            live=self._live,
            catalogue=lambda: self._agents.catalogue,
            current_design=self._current_design,
        )
        #: The Attack tab's red-teaming: seeds, converter chains and their preview, the attack and its bypasses.
        self.attack = LabAttack(
            self,
            corpora=self._corpora,
            tasks=self._tasks,
            current_design=self._current_design,
            agents=self._agents,
            live=self._live,
            stored=self._stored,
            parent=self,
        )

    def _current_design(self) -> AgentDesign | None:
        return self.design() if self.design is not None else None

    # ----------------------------------------------------------------------------------------- state
    @property
    def catalogue(self) -> Any:
        """The processors' catalogue the lab's agents are built from."""
        return self._agents.catalogue

    @catalogue.setter
    def catalogue(self, catalogue: Any) -> None:
        self._agents.catalogue = catalogue

    @property
    def corpora(self) -> CorpusListModel:
        """The corpora to choose from, as the Lab window lists them (checked: chosen)."""
        return self._corpora.model

    @property
    def shown(self) -> LabRunRecord | None:
        """The lab run on show (None before any)."""
        return self._show.record

    @property
    def results(self) -> list[CaseResult]:
        """The results on show so far."""
        return self._show.results

    @property
    def is_running(self) -> bool:
        """A lab run is starting, running or saving its end (False from ``run_ended`` on)."""
        return self._live.is_running

    @property
    def live_run(self) -> LabRun | None:
        """The engine's run going on (its worker processes' ids in ``pids``), None between runs."""
        return self._live.live_run

    @property
    def pool(self) -> WorkerPool | None:
        """The lab's warm worker processes (:meth:`warm_workers`), None before the Lab window opened."""
        return self._live.pool

    @property
    def last_comparison(self) -> Comparison | None:
        """The comparison last shown (what "Export A/B…" writes), None before any."""
        return self._stored.last_comparison

    async def wait_idle(self) -> None:
        await self._live.wait_idle()
        await self.attack.wait_idle()

    # ----------------------------------------------------------------------------------------- corpora
    async def load(self) -> None:
        """Read the bundled corpora (off the UI thread) and the stored lab runs."""
        await self._corpora.load_bundled()
        await self._live.refresh_runs()

    async def refresh_runs(self) -> None:
        await self._live.refresh_runs()

    async def import_corpus(self, path: Path, *, label: str | None = None, skip_bad: bool = False) -> bool:
        """Add a corpus file, checked (:meth:`LabCorpora.import_file`)."""
        return await self._corpora.import_file(path, label=label, skip_bad=skip_bad)

    def chosen_cases(self) -> list[Case]:
        """The cases of the checked corpora, in order (:meth:`LabCorpora.chosen_cases`)."""
        return self._corpora.chosen_cases()

    def answer_mcp_approval(self, config: Any, approved: bool) -> None:
        """The user's answer to :attr:`mcp_approval_requested` (remembered as the chat's answers are)."""
        self._agents.mcp_launcher.answer_approval(config, approved)

    # ----------------------------------------------------------------------------------------- the live run
    def warm_workers(self) -> None:
        self._live.warm_workers()

    def start(self, *, mode: str = "guardrails", concurrency: int = 4) -> str | None:
        """Run the checked corpora against the current design (:meth:`LabRunning.start`); the new lab run's id."""
        return self._live.start(mode=mode, concurrency=concurrency)

    def resume(self, lab_run_id: str) -> None:
        self._live.resume(lab_run_id)

    def cancel(self) -> None:
        self._live.cancel()

    async def aclose(self) -> None:
        """Cancel a live run, save what finished and stop the warm workers (the studio is quitting)."""
        await self.attack.aclose()
        await self._live.aclose()

    # ----------------------------------------------------------------------------------------- stored runs
    async def show_run(self, lab_run_id: str) -> None:
        await self._stored.show_run(lab_run_id)

    async def delete_run(self, lab_run_id: str) -> None:
        await self._stored.delete_run(lab_run_id)

    async def compare_runs(self, a_id: str, b_id: str) -> Comparison | None:
        return await self._stored.compare_runs(a_id, b_id)

    async def export_comparison(self, path: Path) -> bool:
        return await self._stored.export_comparison(path)

    async def export(self, kind: str, path: Path) -> bool:
        return await self._stored.export(kind, path)

    async def open_case(self, case_id: str) -> str | None:
        return await self._stored.open_case(case_id)

    # ----------------------------------------------------------------------------------------- experiments
    async def load_design_choices(self) -> list[DesignChoice]:
        return await self._experiments.load_design_choices()

    async def add_design_file(self, path: Path) -> DesignChoice | None:
        return await self._experiments.add_design_file(path)

    def design_choices(self) -> list[DesignChoice]:
        return self._experiments.design_choices()

    def start_ab(self, a_key: str, b_key: str, *, mode: str = "guardrails", concurrency: int = 4) -> bool:
        return self._experiments.start_ab(a_key, b_key, mode=mode, concurrency=concurrency)

    def start_side_by_side(self, *, mode: str = "guardrails", concurrency: int = 4, guards: Sequence[str] = ()) -> bool:
        """Each guard of the current design alone on the chosen corpora (:class:`LabSideBySide`)."""
        return self._side_by_side.start(mode=mode, concurrency=concurrency, guards=guards)

    def replay(self, lab_run_id: str, *, concurrency: int | None = None) -> bool:
        return self._experiments.replay(lab_run_id, concurrency=concurrency)

    # ----------------------------------------------------------------------------------------- the view's requests
    # The Lab view asks and returns: each of these starts the work as a task of the lab (a failure goes to
    # ``failed``) and says how it ended through the signals above, so no view keeps a coroutine of its own.
    def select_run(self, lab_run_id: str) -> None:
        """A stored lab run was picked: show it (:meth:`show_run`)."""
        self._tasks.spawn(self.show_run(lab_run_id))

    def compare_selected(self, a_id: str, b_id: str) -> None:
        """Compare two stored lab runs, older first (:meth:`compare_runs`); :attr:`compared` brings it."""
        self._tasks.spawn(self.compare_runs(a_id, b_id))

    def delete_runs(self, lab_run_ids: Sequence[str]) -> None:
        """Delete these stored lab runs (:meth:`delete_run`, each)."""
        for lab_run_id in lab_run_ids:
            self._tasks.spawn(self.delete_run(lab_run_id))

    def import_corpus_file(self, path: Path, *, label: str | None = None, skip_bad: bool = False) -> None:
        """Corpus → Import: :meth:`import_corpus` as a task."""
        self._tasks.spawn(self.import_corpus(path, label=label, skip_bad=skip_bad))

    def export_report_file(self, kind: str, path: Path) -> None:
        """Export the lab run on show as ``kind`` (:meth:`export`)."""
        self._tasks.spawn(self.export(kind, path))

    def export_comparison_file(self, path: Path) -> None:
        """Export the comparison last shown (:meth:`export_comparison`)."""
        self._tasks.spawn(self.export_comparison(path))

    def open_case_as_thread(self, case_id: str) -> None:
        """Open a case of the run on show as a thread (:meth:`open_case`); :attr:`case_thread_ready` brings it."""
        self._tasks.spawn(self.open_case(case_id))

    def refresh_design_choices(self) -> None:
        """Read the designs to choose from for A/B again; :attr:`design_choices_changed` brings them."""
        self._tasks.spawn(self.load_design_choices())

    def add_design_file_for(self, letter: str, path: Path) -> None:
        """Offer the design in ``path`` for A/B (:meth:`add_design_file`), asked for ``letter``;
        :attr:`design_file_added` brings the choice (a file the studio would not open is said with ``failed``)."""

        async def add() -> None:
            choice = await self.add_design_file(path)
            if choice is not None:
                self.design_file_added.emit(letter, choice)

        self._tasks.spawn(add())


__all__ = ["LabController"]
