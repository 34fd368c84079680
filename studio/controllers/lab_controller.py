"""``LabController``: the guardrail lab's use cases in the studio — choose corpora, run them against the design,
cancel, resume, keep every lab run in the store, compare two, export reports, open a case as a thread.

The engine is :mod:`lab` (pure Python, the same as ``processor-studio lab``); this controller drives
:class:`lab.runner.LabRun` as a task on the qasync loop, so the window keeps painting while cases run. Results are
gathered for :data:`FLUSH_INTERVAL` and handed on in batches: one model insert, one figure refresh and one store
transaction per batch, however many cases finished in it. A crash loses at most the cases in flight and the last
batch; a resume (of a cancelled or interrupted run) runs only the cases without a result, on the design as it ran.

Clicking a case runs that case once more as an ordinary run on a new thread (``Lab: <case>``), with the design
as the lab run had it and the same answer (``guardrails`` mode's fixed reply, or the model's recorded reply of a
``model`` run): the thread and the inspector then show exactly what the lab's verdict came from.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from lab.corpus import Case, CorpusError, bundled_corpora, case_from_dict, load_corpus
from lab.metrics import Change, Confusion, compare, confusion, summary
from lab.reports import html_report, json_report, junit_report, write_atomically
from lab.runner import CaseResult, LabRun, case_messages, prepare_agent
from processors.messages import new_id
from studio.build import build_agent
from studio.controllers.run_controller import RunController
from studio.controllers.tasks import TaskKeeper
from studio.design import AgentDesign, DesignError
from studio.i18n import translate
from studio.lab_design import agent_factory, design_info
from studio.models.lab_lists import CorpusListModel, CorpusSource, LabRunsModel
from studio.secrets import NO_KEY, SecretStore, provider_of
from studio.store import LabCaseRecord, LabRunRecord

logger = logging.getLogger(__name__)

#: How long finished cases are gathered before they are shown and saved (seconds).
FLUSH_INTERVAL = 0.2
#: The modes the Lab view offers (``replay`` needs a model run's recordings: the command has it).
STUDIO_MODES = ("guardrails", "model")
REPORT_KINDS = ("json", "junit", "html")


@dataclass(frozen=True)
class Comparison:
    """A/B of two lab runs: their figures and the cases whose verdict changed."""

    a: LabRunRecord
    b: LabRunRecord
    before: Confusion
    after: Confusion
    changes: list[Change]


class LabController(QObject):
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
    #: A comparison of two lab runs is ready (a :class:`Comparison`).
    compared = Signal(object)

    def __init__(
        self,
        *,
        store: Any,
        catalogue: Any,
        secrets: SecretStore | None = None,
        design: Any = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.catalogue = catalogue
        self.secrets = secrets
        #: A callable returning the design to run (the studio's current one: ``document.snapshot``).
        self.design = design
        self.corpora = CorpusListModel(self)
        self.runs = LabRunsModel(self)
        #: The lab run on show (None before any) and its results so far.
        self.shown: LabRunRecord | None = None
        self.results: list[CaseResult] = []
        self._live: LabRun | None = None
        self._live_id: str | None = None
        self._cancel_requested = False
        self._task: asyncio.Task[Any] | None = None
        self._running = False
        self._tasks = TaskKeeper("lab", self.failed.emit)
        self._pending: list[CaseResult] = []
        self._started = 0.0

    # ----------------------------------------------------------------------------------------- state
    @property
    def is_running(self) -> bool:
        """A lab run is starting, running or saving its end (False from ``run_ended`` on)."""
        return self._running

    @property
    def live_id(self) -> str | None:
        return self._live_id

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a coroutine on the loop, keeping it referenced; a failure is said, never raised into Qt."""
        return self._tasks.spawn(coroutine)

    async def _owned(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        """The lab run's task: whatever ends it, it is no longer running (before a failure is said)."""
        try:
            return await coroutine
        finally:
            self._running = False

    async def wait_idle(self) -> None:
        while self._tasks.tasks or (self._task is not None and not self._task.done()):
            pending = [*self._tasks.tasks, *([self._task] if self._task is not None else [])]
            await asyncio.gather(*pending, return_exceptions=True)
            if self._task is not None and self._task.done():
                self._task = None

    # ----------------------------------------------------------------------------------------- corpora
    async def load(self) -> None:
        """Read the bundled corpora (off the UI thread) and the stored lab runs."""
        if not self.corpora.sources():
            sources = await asyncio.to_thread(_read_bundled)
            self.corpora.add_sources(sources)
        await self.refresh_runs()

    async def import_corpus(self, path: Path, *, label: str | None = None, skip_bad: bool = False) -> bool:
        """Read a corpus file (JSONL, CSV, text, promptfoo YAML) and add it, checked. A bad line is said (file
        and line) and nothing is added, unless ``skip_bad``: then the bad lines are listed and left out."""
        try:
            corpus = await asyncio.to_thread(load_corpus, path, label=label, category=None, skip_bad=skip_bad)
        except CorpusError as error:
            self.failed.emit(str(error))
            return False
        if not corpus.cases:
            self.failed.emit(translate("LabController", "{path}: no cases in this file").format(path=path))
            return False
        skipped = [str(problem) for problem in corpus.skipped]
        self.corpora.add_sources([CorpusSource(path, corpus.cases, checked=True, skipped=skipped)])
        message = translate("LabController", "Imported {count} cases from {name}").format(
            count=len(corpus.cases), name=path.name
        )
        if skipped:
            message += translate("LabController", "; {count} bad lines skipped: {first}").format(
                count=len(skipped), first=skipped[0]
            )
        self.status_message.emit(message)
        return True

    def chosen_cases(self) -> list[Case]:
        """The cases of the checked corpora, in order. Raises :class:`CorpusError` for an id used twice."""
        cases: list[Case] = []
        where: dict[str, str] = {}
        for source in self.corpora.checked():
            for case in source.cases:
                if case.id in where:
                    line = int(case.source.rsplit(":", 1)[1]) if ":" in case.source else None
                    raise CorpusError(
                        f"id {case.id!r} is already used in {where[case.id]}", path=source.path, line=line
                    )
                where[case.id] = case.source or source.name
                cases.append(case)
        return cases

    # ----------------------------------------------------------------------------------------- running
    def start(self, *, mode: str = "guardrails", concurrency: int = 4) -> str | None:
        """Run the checked corpora against the current design; returns the new lab run's id (None if it could
        not start, said through :attr:`failed`)."""
        if self.is_running:
            self.failed.emit(translate("LabController", "A lab run is already running: cancel it first."))
            return None
        if mode not in STUDIO_MODES:
            self.failed.emit(translate("LabController", "Unknown mode {mode!r}").format(mode=mode))
            return None
        try:
            cases = self.chosen_cases()
        except CorpusError as error:
            self.failed.emit(str(error))
            return None
        if not cases:
            self.failed.emit(translate("LabController", "Choose at least one corpus to run."))
            return None
        if self.design is None:
            self.failed.emit(translate("LabController", "There is no design to run."))
            return None
        design: AgentDesign = self.design()
        try:
            factory = self._factory(design, mode)
        except DesignError as error:
            self.failed.emit(translate("LabController", "The agent could not be built: {error}").format(error=error))
            return None
        if factory is None:
            return None
        lab_run_id = new_id("lab")
        corpora = [{"name": s.name, "path": str(s.path), "cases": len(s.cases)} for s in self.corpora.checked()]
        info = design_info(design)
        run = LabRun(cases, factory, mode=mode, concurrency=concurrency, design=info)  # type: ignore[arg-type]
        names = ", ".join(str(item["name"]) for item in corpora)
        name = translate("LabController", "{design} · {corpora}").format(design=design.name, corpora=names)
        self._begin(run, lab_run_id, [])
        self._running = True
        self._task = asyncio.get_event_loop().create_task(
            self._tasks.guarded(
                self._owned(
                    self._drive(
                        run,
                        create={
                            "name": name[:200],
                            "design_json": design.to_json(),
                            "design_id": design.id,
                            "design_fingerprint": info["fingerprint"],
                            "mode": mode,
                            "cases": [case.to_dict() for case in cases],
                            "corpus": corpora,
                            "settings": {"concurrency": concurrency},
                        },
                    )
                )
            ),
            name=f"lab {lab_run_id}",
        )
        return lab_run_id

    def resume(self, lab_run_id: str) -> None:
        """Run the cases of a cancelled or interrupted lab run that have no result yet (on its own design)."""
        if self.is_running:
            self.failed.emit(translate("LabController", "A lab run is already running: cancel it first."))
            return
        self._running = True
        self._task = asyncio.get_event_loop().create_task(
            self._tasks.guarded(self._owned(self._resume(lab_run_id))), name=f"lab {lab_run_id}"
        )

    async def _resume(self, lab_run_id: str) -> None:
        loaded = await self.store.load_lab_run(lab_run_id)
        if loaded is None:
            self._running = False
            self.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return
        record, rows = loaded
        try:
            design = AgentDesign.from_json(record.design_json)
            cases = [_case(row) for row in rows]
            factory = self._factory(design, record.mode)
        except (DesignError, ValueError) as error:
            self._running = False
            self.failed.emit(translate("LabController", "The lab run cannot be resumed: {error}").format(error=error))
            return
        if factory is None:
            self._running = False
            return
        concurrency = int(record.settings.get("concurrency", 4))
        run = LabRun(cases, factory, mode=record.mode, concurrency=concurrency, design=design_info(design))
        done = [result for result in map(_result_of, rows) if result is not None]
        run.finished = {result.id: result for result in done}
        run.resumed = len(done)
        self._begin(run, lab_run_id, done, record)
        await self._drive(run, resumed=True)

    def _begin(self, run: LabRun, lab_run_id: str, done: list[CaseResult], record: LabRunRecord | None = None) -> None:
        self._live, self._live_id = run, lab_run_id
        self._cancel_requested = False
        self._pending = []
        self._started = time.monotonic()
        self.results = list(done)
        self.shown = record
        self.results_reset.emit(list(done))
        self.progress_changed.emit(len(done), run.total, -1.0)

    def cancel(self) -> None:
        """Stop the live run now; the cases that finished are kept, and it can be resumed."""
        if self._live is not None and self.is_running:
            self._cancel_requested = True
            self._live.cancel()
            self.status_message.emit(translate("LabController", "Cancelling the lab run…"))

    def _api_key(self, design: AgentDesign, mode: str) -> tuple[bool, str | None]:
        """(may run, the key to send): as a chat run, a key goes only to the endpoint it was saved for."""
        if mode != "model" or design.model.is_demo or self.secrets is None:
            return True, None
        grant = self.secrets.key_for(provider_of(design.model.model), design.model.api_base)
        if grant.withheld:
            self.failed.emit(
                translate(
                    "LabController",
                    "Your {provider} key is not approved for {host}: allow it in Settings → API keys first.",
                ).format(provider=grant.provider, host=grant.host)
            )
            return False, None
        return True, grant.key or NO_KEY

    def _factory(self, design: AgentDesign, mode: str) -> Any:
        allowed, api_key = self._api_key(design, mode)
        if not allowed:
            return None
        return agent_factory(design, catalogue=self.catalogue, api_key=api_key)

    async def _drive(self, run: LabRun, *, create: dict[str, Any] | None = None, resumed: bool = False) -> None:
        lab_run_id = self._live_id
        assert lab_run_id is not None
        status = "cancelled"
        try:
            if create is not None:
                self.shown = await self.store.create_lab_run(lab_run_id, **create)
            else:
                self.shown = await self.store.set_lab_run_status(lab_run_id, "running", resumed=resumed)
            await self.refresh_runs()
            self.run_started.emit(lab_run_id)
            self.run_shown.emit(self.shown)
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
                self._live = None
                self._live_id = None
        self._running = False
        self.run_ended.emit(lab_run_id, status)

    async def _end(self, run: LabRun, lab_run_id: str, status: str) -> None:
        await self._flush(run)
        figures = summary(run.results_in_order())
        self.shown = await self.store.set_lab_run_status(lab_run_id, status, summary=_compact(figures))
        self._live_id = None
        await self.refresh_runs()
        if status == "cancelled":
            self.status_message.emit(
                translate(
                    "LabController", "Lab run cancelled after {done} of {total} cases; Resume runs the rest."
                ).format(done=run.done, total=run.total)
            )
        else:
            self.status_message.emit(
                translate("LabController", "Lab run finished: {total} cases.").format(total=run.total)
            )

    async def _flush_later(self, run: LabRun) -> None:
        await asyncio.sleep(FLUSH_INTERVAL)
        await self._flush(run)

    async def _flush(self, run: LabRun) -> None:
        batch, self._pending = self._pending, []
        if not batch or self._live_id is None:
            return
        self.results.extend(batch)
        self.results_added.emit(batch)
        fresh = run.done - run.resumed
        elapsed = time.monotonic() - self._started
        eta = elapsed / fresh * (run.total - run.done) if fresh else -1.0
        self.progress_changed.emit(run.done, run.total, eta)
        await self.store.save_lab_results(self._live_id, [result.to_dict() for result in batch])

    # ----------------------------------------------------------------------------------------- stored runs
    async def refresh_runs(self) -> None:
        self.runs.set_records(await self.store.list_lab_runs(), live=self._live_id)

    async def show_run(self, lab_run_id: str) -> None:
        """Show a stored lab run's results and figures (the live run keeps running and keeps being saved)."""
        if self.is_running and lab_run_id != self._live_id:
            self.failed.emit(
                translate(
                    "LabController", "A lab run is running: its results stay on show until it ends or is cancelled."
                )
            )
            return
        if lab_run_id == self._live_id:
            return
        loaded = await self.store.load_lab_run(lab_run_id)
        if loaded is None:
            self.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return
        record, rows = loaded
        self.shown = record
        self.results = [result for result in map(_result_of, rows) if result is not None]
        self.run_shown.emit(record)
        self.results_reset.emit(list(self.results))
        self.progress_changed.emit(record.done, record.total, -1.0)

    async def delete_run(self, lab_run_id: str) -> None:
        if lab_run_id == self._live_id:
            self.failed.emit(translate("LabController", "Cancel the running lab run before deleting it."))
            return
        await self.store.delete_lab_run(lab_run_id)
        if self.shown is not None and self.shown.id == lab_run_id:
            self.shown = None
            self.results = []
            self.run_shown.emit(None)
            self.results_reset.emit([])
        await self.refresh_runs()
        self.status_message.emit(translate("LabController", "Lab run deleted."))

    async def compare_runs(self, a_id: str, b_id: str) -> Comparison | None:
        """A/B: lab run ``a`` before, ``b`` after; the cases (by id, in both) whose verdict changed."""
        first, second = await self.store.load_lab_run(a_id), await self.store.load_lab_run(b_id)
        if first is None or second is None:
            self.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return None
        before = [result for result in map(_result_of, first[1]) if result is not None]
        after = [result for result in map(_result_of, second[1]) if result is not None]
        comparison = Comparison(first[0], second[0], confusion(before), confusion(after), compare(before, after))
        self.compared.emit(comparison)
        return comparison

    async def export(self, kind: str, path: Path) -> bool:
        """Write the shown lab run's report (``json``, ``junit`` or ``html``), off the UI thread, whole or not."""
        if self.shown is None or not self.results:
            self.failed.emit(translate("LabController", "There are no results to export yet."))
            return False
        record = self.shown
        loaded = await self.store.load_lab_run(record.id)
        positions = [row.case_id for row in loaded[1]] if loaded is not None else []
        order = {case_id: index for index, case_id in enumerate(positions)}
        results = sorted(self.results, key=lambda result: order.get(result.id, len(order)))
        info = _design_info_of(record)

        def write() -> None:
            if kind == "json":
                text = json.dumps(json_report(results, design=info, mode=record.mode), ensure_ascii=False, indent=1)
            elif kind == "junit":
                text = junit_report(results, name=f"guardrail lab: {info.get('name', '')}")
            elif kind == "html":
                text = html_report(results, design=info, mode=record.mode)
            else:
                raise ValueError(f"unknown report kind {kind!r}")
            write_atomically(path, text)

        try:
            await asyncio.to_thread(write)
        except (OSError, UnicodeError, ValueError) as error:
            self.failed.emit(translate("LabController", "The report was not written: {error}").format(error=error))
            return False
        self.status_message.emit(translate("LabController", "Wrote {name}").format(name=path.name))
        return True

    # ----------------------------------------------------------------------------------------- case → thread
    async def open_case(self, case_id: str) -> str | None:
        """Open one case of the shown lab run as a thread (run again, as the lab ran it); returns the thread id."""
        record = self.shown
        if record is None:
            return None
        loaded = await self.store.load_lab_run(record.id)
        if loaded is None:
            self.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return None
        row = next((item for item in loaded[1] if item.case_id == case_id), None)
        if row is None:
            return None
        if row.thread_id is not None and await self.store.memory.get_thread(row.thread_id) is not None:
            self.case_thread_ready.emit(row.thread_id)
            return str(row.thread_id)
        try:
            design = AgentDesign.from_json(record.design_json)
            case = _case(row)
            recording = (row.result or {}).get("recording")
            mode = "replay" if recording else ("model" if record.mode == "model" else "guardrails")
            runs = RunController(self.store, parent=self)
            allowed, api_key = self._api_key(design, mode)
            if not allowed:
                return None
            agent = build_agent(
                design,
                catalogue=self.catalogue,
                api_key=api_key,
                memory=self.store.memory,
                on_violation=runs.record_violation,
            )
            prepare_agent(agent, case, mode, recording)  # type: ignore[arg-type]
        except (DesignError, ValueError) as error:
            self.failed.emit(translate("LabController", "The case cannot be opened: {error}").format(error=error))
            return None
        title = translate("LabController", "Lab: {case}").format(case=case.id)
        thread = await self.store.memory.create_thread(title=title[:60])
        runs.start(
            agent,
            case_messages(case),
            thread_id=thread.id,
            design_id=design.id,
            design_json=record.design_json,
        )
        await runs.wait_finished()
        runs.deleteLater()
        await self.store.set_lab_case_thread(record.id, case_id, thread.id)
        self.case_thread_ready.emit(thread.id)
        return str(thread.id)

    async def aclose(self) -> None:
        """Cancel a live run and wait until its results are saved (the window is closing)."""
        self.cancel()
        await self.wait_idle()


def _read_bundled() -> list[CorpusSource]:
    sources = []
    for path in bundled_corpora():
        try:
            sources.append(CorpusSource(path, load_corpus(path).cases, bundled=True))
        except CorpusError:
            logger.exception("a bundled corpus could not be read")
    return sources


def _result_of(row: LabCaseRecord) -> CaseResult | None:
    """A stored result, None when there is none or it cannot be read (a damaged row: the case runs again)."""
    if row.result is None:
        return None
    try:
        return CaseResult.from_dict(row.result)
    except (TypeError, ValueError, AttributeError):
        logger.warning("the stored result of case %s could not be read", row.case_id)
        return None


def _case(row: LabCaseRecord) -> Case:
    return case_from_dict(row.case, default_id=row.case_id, source=str(row.case.get("source", "")))


def _design_info_of(record: LabRunRecord) -> dict[str, Any]:
    name = record.name
    with contextlib.suppress(DesignError):
        name = AgentDesign.from_json(record.design_json).name
    return {"id": record.design_id, "name": name, "fingerprint": record.design_fingerprint}


def _compact(figures: dict[str, Any]) -> dict[str, Any]:
    """The summary kept with a lab run in the list: the figures, not the per-case id lists."""
    return {key: value for key, value in figures.items() if key not in ("uncaught", "redundant")}


__all__ = ["REPORT_KINDS", "STUDIO_MODES", "Comparison", "LabController"]
