"""``LabAttack``: the Lab window's red-teaming — seeds from the Lab's corpora, converter chains with a live preview,
a budget and a seed number; then the attack itself: started, cancelled and resumed off the UI thread, its progress,
the robustness matrix filling as results arrive, and each bypass one click from a thread, a corpus or a test.

One collaborator of :class:`studio.controllers.lab_controller.LabController` (``controller.attack``), told what it
needs by the controller: the corpora (:class:`~studio.controllers.lab_corpora.LabCorpora`: the seeds are the attacks
of the corpora ticked in the Lab's side bar, so any corpus the Lab knows, bundled or imported, can seed an attack),
the agents (:class:`~studio.controllers.lab_agents.LabAgentMaker`: the design's recipe for the worker processes),
the live run's warm workers and the stored runs' "open as a thread", and the lab's signals for what the user must
read (``failed``, ``status_message``, ``case_thread_ready``).

The engine is :mod:`lab.attack` (the same as ``processor-studio lab attack``): an
:class:`~lab.attack.AttackRun` in worker processes, iterated as a task on the qasync loop, its results gathered
for :data:`FLUSH_INTERVAL` and handed to the view in batches (one matrix refresh per batch; the first result at
once, so a short attack shows something, and a Cancel pressed then is honoured, before the first tick). Each attack
keeps its plan and its results file in the data folder (``attacks/<id>.plan.json`` and ``.jsonl``): a cancelled or
interrupted attack resumes from them, running only the variants without a result, on the design as it ran.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from lab.attack.plan import AttackPlan
from lab.attack.robustness import Robustness, VariantResult
from lab.attack.run import AttackRun
from lab.corpus import Case, CorpusError, case_from_dict, load_corpus
from lab.process_run import auto_processes
from lab.reports import write_atomically
from lab.strategies import StrategyError, StrategyPlan, StrategyVariant
from lab.worker_pool import WorkerPool
from processors.messages import new_id
from studio.controllers.lab_agents import LabAgentMaker
from studio.controllers.lab_attack_preview import AttackPreview, Preview
from studio.controllers.lab_attack_strategies import StrategyChoice, build_plan
from studio.controllers.lab_corpora import LabCorpora
from studio.controllers.lab_events import LabEvents
from studio.controllers.lab_running import STUDIO_MODES, WORKER_NICENESS, LabRunning
from studio.controllers.lab_stored import LabStoredRuns
from studio.controllers.tasks import TaskKeeper
from studio.design.agent_design import AgentDesign, DesignError
from studio.error_texts import error_text
from studio.i18n import current_language, translate
from studio.lab.attack_strategies import strategy_source
from studio.lab.bypass_tests import bypass_regression_test
from studio.lab.design import design_info, needs_mcp_servers
from studio.models.lab_attack_chains import DEFAULT_CHAINS, ChainListModel, ConverterListModel
from studio.models.lab_lists import CorpusSource
from studio.system.paths import data_dir

logger = logging.getLogger(__name__)

#: How long finished variants are gathered before they are shown (seconds): one matrix refresh per batch.
FLUSH_INTERVAL = 0.2
#: The file, in the data folder, that "Add to found bypasses" appends to (a corpus the Lab lists).
FOUND_BYPASSES = "found-bypasses.jsonl"

#: The attack's first budget: the most variants one attack runs (the seeds × chains drawn within it).
DEFAULT_BUDGET = 500
#: The attack's first seed number (the same number gives the same variants).
DEFAULT_SEED = 0


def attacked_text(case: Case) -> str:
    """What a variant converts: a seed's tool result when it has one (an indirect injection), else its text."""
    return case.tool_result if case.tool_result is not None else case.text


def attacks_folder() -> Path:
    """Where the attacks' plans and results files are kept (in the data folder)."""
    folder = data_dir() / "attacks"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class AttackRecord:
    """What an attack needs to run again (a resume): its plan, the design as it ran, and how it ended so far."""

    id: str
    design_json: str
    cases: list[dict[str, Any]]
    chains: list[str]
    budget: int
    seed: int
    mode: str = "guardrails"
    concurrency: int = 4
    #: ``running`` (or interrupted, if the studio quit meanwhile), ``cancelled`` or ``finished``.
    status: str = "running"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def plan_path(self) -> Path:
        return attacks_folder() / f"{self.id}.plan.json"

    @property
    def results_path(self) -> Path:
        return attacks_folder() / f"{self.id}.jsonl"

    def to_json(self) -> str:
        data = {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "extra"}
        return json.dumps({**self.extra, **data}, ensure_ascii=False)

    @classmethod
    def read(cls, path: Path) -> AttackRecord:
        data = json.loads(path.read_text(encoding="utf-8"))
        fields = {name: data.pop(name) for name in list(data) if name in cls.__dataclass_fields__}
        return cls(**fields, extra=data)

    def save(self) -> None:
        write_atomically(self.plan_path, self.to_json())


def latest_unfinished() -> AttackRecord | None:
    """The newest attack that did not finish (cancelled, or interrupted by a quit), None when there is none."""
    plans = sorted(attacks_folder().glob("*.plan.json"), key=lambda path: path.stat().st_mtime, reverse=True)
    for path in plans:
        try:
            record = AttackRecord.read(path)
        except (OSError, ValueError, TypeError, KeyError):
            logger.warning("the attack plan %s could not be read", path)
            continue
        return record if record.status != "finished" else None
    return None


class LabAttack(QObject):
    """The Attack panel's controller (see the module docstring)."""

    #: An attack started or resumed (its id).
    attack_started = Signal(str)
    #: The variants shown were replaced (a list of :class:`lab.attack.VariantResult`: a new or resumed attack).
    results_reset = Signal(list)
    #: More variants finished (a list of :class:`lab.attack.VariantResult`); :attr:`robustness` has them.
    results_added = Signal(list)
    #: Progress: (cases done, cases known so far, phase: ``baseline``, ``chains``, ``sources`` or ``done``).
    progress_changed = Signal(int, int, str)
    #: The attack ended: (its id, ``finished`` or ``cancelled``).
    attack_ended = Signal(str, str)
    #: Whether an unfinished attack can be resumed changed.
    resumable_changed = Signal(bool)
    #: The model strategies' estimate (its lines: calls, tokens, price per model) before any model is called; the
    #: view asks whether to go on and answers with :meth:`answer_estimate`.
    estimate_ready = Signal(list)

    def __init__(
        self,
        events: LabEvents,
        *,
        corpora: LabCorpora,
        tasks: TaskKeeper,
        current_design: Callable[[], AgentDesign | None],
        agents: LabAgentMaker | None = None,
        live: LabRunning | None = None,
        stored: LabStoredRuns | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._events = events
        self._corpora = corpora
        self._tasks = tasks
        self._current_design = current_design
        self._agents = agents
        self._live = live
        self._stored = stored
        #: The attack on show (None before any), its variants so far and their figures.
        self.record: AttackRecord | None = None
        self.found: list[VariantResult] = []
        self.robustness = Robustness()
        self.run: AttackRun | None = None
        self._task: asyncio.Task[Any] | None = None
        self._pending: list[VariantResult] = []
        self._resumable: AttackRecord | None = None
        self._started = 0.0
        self._running = False
        #: An attack waiting for the user's answer to its strategies' estimate.
        self._awaiting: tuple[AttackRecord, StrategyPlan] | None = None
        #: The strategies' variants no model wrote in the last attack (listed, not run).
        self.strategy_failures: list[StrategyVariant] = []
        #: The last attack's cases known and the results it found in its file rather than ran (a resume).
        self.run_total = 0
        self.run_resumed = 0
        #: The converters to pick from (filled by :meth:`load_converters`).
        self.converters = ConverterListModel(self)
        #: The chains the attack tries (a handful to start with: :data:`DEFAULT_CHAINS`).
        self.chains = ChainListModel(parent=self)
        #: The converters' registry and the previews of a seed through a chain.
        self.preview = AttackPreview(tasks, self)
        self.preview.converters_loaded.connect(self._on_converters_loaded)

    @property
    def corpora_model(self) -> Any:
        """The Lab's list of corpora (the seeds are the attacks of the ticked ones)."""
        return self._corpora.model

    # ----------------------------------------------------------------------------------------- set-up
    async def load_converters(self) -> None:
        """Read the converters (off the UI thread, once); the default chains are those the registry has."""
        await self.preview.load()

    def _on_converters_loaded(self, converters: list[Any]) -> None:
        self.converters.set_converters(converters)
        if not self.chains.rowCount():
            known = {item.name for item in converters}
            self.chains.set_chains(chain for chain in DEFAULT_CHAINS if all(step in known for step in chain))

    def seed_cases(self) -> list[Case]:
        """The attacks of the corpora ticked in the Lab's side bar, in order (none while two share an id)."""
        try:
            cases = self._corpora.chosen_cases()
        except CorpusError:
            return []
        return [case for case in cases if case.label == "attack"]

    def request_preview(self, spec: str, case: Case | None, seed: int) -> bool:
        """Ask for the preview of ``case`` through ``spec`` (``preview.preview_ready`` brings it); False when there
        is nothing to preview (no chain or no seed)."""
        if not spec or case is None:
            return False
        self.preview.request(spec, case.id, attacked_text(case), seed)
        return True

    # ----------------------------------------------------------------------------------------- the attack
    @property
    def is_running(self) -> bool:
        """An attack is starting or running (False from ``attack_ended`` on)."""
        return self._running

    @property
    def can_resume(self) -> bool:
        """An attack that did not finish can go on (this session's, or the newest one left by a quit)."""
        return not self.is_running and self._resumable is not None

    async def find_resumable(self) -> None:
        """Look for an unfinished attack in the data folder (off the UI thread) for Resume."""
        if self.is_running:
            return
        self._resumable = await asyncio.to_thread(latest_unfinished)
        self.resumable_changed.emit(self.can_resume)

    def start(
        self,
        *,
        chains: list[str],
        budget: int,
        seed: int,
        mode: str = "guardrails",
        concurrency: int = 4,
        strategies: StrategyChoice | None = None,
    ) -> str | None:
        """Attack the current design: the seeds' variants through ``chains`` within ``budget``, and the model
        ``strategies``' variants when any are named (after their estimate: :attr:`estimate_ready`); returns the
        attack's id (None, said through ``failed``, when it cannot start)."""
        choice = strategies or StrategyChoice()
        if self.is_running or self._awaiting is not None:
            self._events.failed.emit(translate("LabAttack", "An attack is already running: cancel it first."))
            return None
        if mode not in STUDIO_MODES:
            self._events.failed.emit(translate("LabController", "Unknown mode {mode!r}").format(mode=mode))
            return None
        if not chains and not choice.on:
            self._events.failed.emit(translate("LabAttack", "Add at least one chain of converters to attack with."))
            return None
        try:
            cases = self._corpora.chosen_cases()
        except CorpusError as error:
            self._events.failed.emit(error_text(error))
            return None
        seeds = [case for case in cases if case.label == "attack"]
        if not seeds:
            self._events.failed.emit(translate("LabAttack", "Tick at least one corpus with attacks on the left."))
            return None
        design = self._current_design()
        if design is None:
            self._events.failed.emit(translate("LabController", "There is no design to run."))
            return None
        record = AttackRecord(
            new_id("attack"),
            design.to_json(),
            [case.to_dict() for case in seeds],
            list(chains),
            budget,
            seed,
            mode,
            concurrency,
            extra={"strategies": choice.to_dict()} if choice.on else {},
        )
        if choice.on:
            self._running = True  # the buttons wait for the estimate and the answer
            self._tasks.spawn(self._estimate(record, choice, design, seeds))
            return record.id
        self._launch(record)
        return record.id

    async def _strategy_plan(self, record: AttackRecord, choice: StrategyChoice, design: AgentDesign) -> StrategyPlan:
        """The strategies of ``record`` (built off the UI thread; PAIR and crescendo get the design's agents with
        its own model). Raises :class:`lab.strategies.StrategyError` for a spec or a missing model."""
        factory = None
        if any(name in choice.specs for name in ("pair", "crescendo")) and self._agents is not None:
            recipe = self._agents.recipe(design, "model")
            factory = recipe.factory() if recipe is not None else None
        return await asyncio.to_thread(
            build_plan,
            choice,
            design=design,
            agent_factory=factory,
            seed=record.seed,
            results_path=record.results_path,
        )

    async def _estimate(
        self, record: AttackRecord, choice: StrategyChoice, design: AgentDesign, seeds: list[Case]
    ) -> None:
        try:
            plan = await self._strategy_plan(record, choice, design)
            lines = await asyncio.to_thread(lambda: plan.estimate(seeds).lines(current_language()))
        except (StrategyError, DesignError, ValueError) as error:
            self._running = False
            self.resumable_changed.emit(self.can_resume)
            self._events.failed.emit(
                translate("LabAttack", "The strategies cannot start: {error}").format(error=error_text(error))
            )
            return
        self._awaiting = (record, plan)
        self.estimate_ready.emit(lines)

    def answer_estimate(self, go_on: bool) -> None:
        """The user's answer to :attr:`estimate_ready`: start the attack, or drop it (no model is called)."""
        awaiting, self._awaiting = self._awaiting, None
        if awaiting is None:
            return
        record, plan = awaiting
        if go_on:
            self._launch(record, plan)
            return
        plan.close()
        self._running = False
        self.resumable_changed.emit(self.can_resume)
        self._events.status_message.emit(translate("LabAttack", "Not started: the estimate was declined."))

    def resume(self) -> str | None:
        """Go on with the unfinished attack (:attr:`can_resume`): only the variants without a result run."""
        record = self._resumable
        if self.is_running or record is None:
            return None
        self._launch(record)
        return record.id

    def _launch(self, record: AttackRecord, strategies: StrategyPlan | None = None) -> None:
        self._running = True
        self._task = asyncio.get_event_loop().create_task(self._tasks.guarded(self._owned(record, strategies)))

    async def _owned(self, record: AttackRecord, strategies: StrategyPlan | None) -> None:
        """The attack's task: whatever ends it (a refusal, a failure), it is no longer running, and the buttons
        follow."""
        try:
            await self._attack(record, strategies)
        finally:
            if self._running:
                self._running = False
                self.resumable_changed.emit(self.can_resume)

    def cancel(self) -> None:
        """Stop the attack now; what finished is kept, and Resume goes on from there."""
        if self.run is not None and self.is_running:
            self.run.cancel()
            self._events.status_message.emit(translate("LabAttack", "Cancelling the attack…"))

    async def wait_idle(self) -> None:
        """Wait until the attack and every task the lab started have ended."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
        await self._tasks.wait_idle()

    async def aclose(self) -> None:
        """Cancel a running attack and wait for it (the studio is quitting)."""
        self.cancel()
        await self.wait_idle()

    async def _attack(self, record: AttackRecord, strategies: StrategyPlan | None = None) -> None:
        try:
            design = AgentDesign.from_json(record.design_json)
            cases = [case_from_dict(data, default_id=str(data.get("id", ""))) for data in record.cases]
            recipe = self._agents.recipe(design, record.mode) if self._agents is not None else None
        except (DesignError, ValueError) as error:
            self._events.failed.emit(
                translate("LabController", "The agent could not be built: {error}").format(error=error_text(error))
            )
            return
        if recipe is None:
            return
        servers = needs_mcp_servers(design, record.mode) and self._live is not None
        if servers and self._live is not None and not await self._live.servers_ready(design, record.mode):
            return
        plan = AttackPlan(cases, chains=record.chains, budget=record.budget, seed=record.seed)
        try:
            plan.parsed_chains  # noqa: B018 - a chain that names no converter is said now, not mid-run
            choice = StrategyChoice.of(record.extra.get("strategies"))
            if strategies is None and choice.on:  # a resume: the user agreed to this attack's estimate
                strategies = await self._strategy_plan(record, choice, design)
        except (ValueError, StrategyError) as error:
            self._events.failed.emit(error_text(error))
            return
        self.strategy_failures = []
        if strategies is not None:
            plan.sources = [strategy_source(strategies, lambda: run.seeds, self.strategy_failures, progress=False)]
        record.status = "running"
        await asyncio.to_thread(record.save)
        self.record = record
        self._resumable = None
        self.resumable_changed.emit(False)
        pool, own_pool = await self._workers(record)
        processes = auto_processes(max(1, record.budget), record.concurrency)
        if pool is not None:
            processes = max(processes, min(pool.size, record.concurrency))
        run = AttackRun(
            plan,
            recipe,
            processes=max(2, processes),  # in worker processes: the window never runs a case itself
            pool=pool,
            mode=record.mode,
            concurrency=record.concurrency,
            results_path=record.results_path,
            design=design_info(design),
        )
        self.run = run
        self.found, self.robustness, self._pending = [], Robustness(), []
        self._started = time.monotonic()
        self.results_reset.emit([])
        self.attack_started.emit(record.id)
        self.progress_changed.emit(0, run.total, run.phase)
        status = "cancelled"
        ticker = asyncio.get_running_loop().create_task(self._tick(run))
        try:
            async for found in run.results():
                self._pending.append(found)
                if not self.found and len(self._pending) == 1:
                    self._flush(run)  # the first variant shows (and can be acted on) at once, not a tick later
            status = "cancelled" if run.cancelled else "finished"
        except (OSError, ValueError) as error:
            self._events.failed.emit(translate("LabAttack", "The attack stopped: {error}").format(error=error))
        finally:
            ticker.cancel()
            self._flush(run)
            record.status = status
            try:
                await asyncio.to_thread(record.save)
            except OSError:
                logger.exception("the attack %s could not be saved", record.id)
            if own_pool is not None:
                await own_pool.aclose()
            self.run_total, self.run_resumed = run.total, run.resumed
            self.run = None
            self._resumable = record if status != "finished" else None
            self._running = False
        self._end(record, status)

    def _end(self, record: AttackRecord, status: str) -> None:
        self.attack_ended.emit(record.id, status)
        self.resumable_changed.emit(self.can_resume)
        total, bypassed = self.robustness.total.variants, len(self.robustness.bypasses)
        unwritten = len(self.strategy_failures)
        if status == "finished":
            message = translate("LabAttack", "Attack finished: %n variant(s), {bypassed} got through.", None, total)
        else:
            message = translate(
                "LabAttack",
                "Attack cancelled after %n variant(s), {bypassed} got through; Resume goes on.",
                None,
                total,
            )
        message = message.format(bypassed=bypassed)
        if unwritten:
            first = self.strategy_failures[0]
            message += translate(
                "LabAttack", " The strategies wrote no variant %n time(s) ({error}).", None, unwritten
            ).format(error=first.error)
        self._events.status_message.emit(message)

    async def _workers(self, record: AttackRecord) -> tuple[WorkerPool | None, WorkerPool | None]:
        """The lab's warm workers when they are free, else a pool of the attack's own, started off the UI thread
        (``(pool, own pool to stop at the end)``)."""
        warm = self._live.pool if self._live is not None else None
        if warm is not None and not warm.lent:
            return warm, None
        size = max(1, min(2, record.concurrency))
        pool = WorkerPool(size, warm=record.mode == "model", niceness=WORKER_NICENESS)
        await asyncio.to_thread(pool.start)
        return pool, pool

    async def _tick(self, run: AttackRun) -> None:
        while True:
            await asyncio.sleep(FLUSH_INTERVAL)
            self._flush(run)

    def _flush(self, run: AttackRun) -> None:
        batch, self._pending = self._pending, []
        for found in batch:
            self.robustness.add(found)
        self.found.extend(batch)
        if batch:
            self.results_added.emit(batch)
        self.progress_changed.emit(run.done, run.total, run.phase)

    # ----------------------------------------------------------------------------------------- the bypasses
    def bypass(self, variant_id: str) -> VariantResult | None:
        return next((item for item in self.robustness.bypasses if item.id == variant_id), None)

    async def open_bypass(self, variant_id: str) -> str | None:
        """Run a found bypass again as an ordinary run on a new thread (the chat and the inspector show exactly
        what got through); returns the thread id."""
        found, record = self.bypass(variant_id), self.record
        if found is None or found.case is None or record is None or self._stored is None:
            return None
        recording = found.result.recording if record.mode == "model" else None
        thread_id = await self._stored.run_as_thread(record.design_json, found.case, record.mode, recording)
        if thread_id is not None:
            self._events.case_thread_ready.emit(thread_id)
        return thread_id

    async def add_to_found(self, variant_ids: list[str]) -> Path | None:
        """Append bypasses to the corpus of found bypasses (:data:`FOUND_BYPASSES` in the data folder, each variant
        once), listed among the Lab's corpora, unticked: run it after a fix to see they are stopped."""
        cases = [item.case for item in map(self.bypass, variant_ids) if item is not None and item.case is not None]
        if not cases:
            return None
        path = data_dir() / FOUND_BYPASSES

        def append() -> tuple[int, list[Case]]:
            known: set[str] = set()
            if path.exists():
                known = {case.id for case in load_corpus(path, skip_bad=True).cases}
            fresh = [case for case in cases if case.id not in known]
            with path.open("a", encoding="utf-8") as file:
                for case in fresh:
                    file.write(json.dumps(case.to_dict(), ensure_ascii=False) + "\n")
            return len(fresh), load_corpus(path, skip_bad=True).cases

        try:
            added, every = await asyncio.to_thread(append)
        except (OSError, CorpusError) as error:
            self._events.failed.emit(
                translate("LabAttack", "The bypasses were not added: {error}").format(error=error_text(error))
            )
            return None
        model = self._corpora.model
        ticked = any(source.checked for source in model.sources() if source.path == path)
        model.add_sources([CorpusSource(path, every, checked=ticked)])
        self._events.status_message.emit(
            translate("LabAttack", "Added %n bypass(es) to {name} ({total} in all).", None, added).format(
                name=path.name, total=len(every)
            )
        )
        return path

    async def export_test(self, variant_ids: list[str], path: Path) -> bool:
        """Write a pytest file that fails until the design stops every one of these bypasses (the design frozen as
        the attack ran it; re-export after fixing it)."""
        cases = [item.case for item in map(self.bypass, variant_ids) if item is not None and item.case is not None]
        record = self.record
        if not cases or record is None:
            self._events.failed.emit(translate("LabAttack", "Choose the bypasses to export first."))
            return False
        catalogue = self._agents.catalogue if self._agents is not None else None

        def write() -> None:
            design = AgentDesign.from_json(record.design_json)
            write_atomically(path, bypass_regression_test(design, cases, catalogue=catalogue))

        try:
            await asyncio.to_thread(write)
        except (OSError, DesignError, ValueError) as error:
            self._events.failed.emit(
                translate("LabAttack", "The test was not written: {error}").format(error=error_text(error))
            )
            return False
        self._events.status_message.emit(translate("LabController", "Wrote {name}").format(name=path.name))
        return True

    # ----------------------------------------------------------------------------------------- the panel's requests
    # The Attack tab asks and returns: each of these starts the work as a task of the lab (a failure goes to
    # ``failed``) and says how it ended through the signals, so no view keeps a coroutine of its own.
    def open_tab(self) -> None:
        """The Attack tab is seen for the first time: read the converters and look for an attack to resume (both
        off the UI thread)."""
        self._tasks.spawn(self.load_converters())
        self._tasks.spawn(self.find_resumable())

    def open_bypass_as_thread(self, variant_id: str) -> None:
        """:meth:`open_bypass` as a task; ``case_thread_ready`` brings the thread."""
        self._tasks.spawn(self.open_bypass(variant_id))

    def add_bypasses_to_found(self, variant_ids: list[str]) -> None:
        """:meth:`add_to_found` as a task."""
        self._tasks.spawn(self.add_to_found(variant_ids))

    def export_test_file(self, variant_ids: list[str], path: Path) -> None:
        """:meth:`export_test` as a task (a file not written is said with ``failed``)."""
        self._tasks.spawn(self.export_test(variant_ids, path))

    async def wait_tasks(self) -> None:
        """Wait until every task the lab started has ended (the previews among them)."""
        await self._tasks.wait_idle()


__all__ = ["DEFAULT_BUDGET", "DEFAULT_SEED", "LabAttack", "Preview", "attacked_text"]
