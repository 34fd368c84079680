"""``ReplayController``: replay a past run through the chain as it is now, fuzz its chunk boundaries, export it as a
regression test — off the UI thread, told as Qt signals.

    replays = ReplayController(store, catalogue, current_design=document.snapshot, live_model=workspace.live_model)
    replays.replay_finished.connect(view.show_comparison)
    replays.replay("run_…")                # both replays run on a worker thread; the UI keeps running
    replays.replay("run_…", live=True)     # after a divergence: the diverged steps go to the live model
    replays.replay_thread("thread_…")      # every run of a thread, in order, one comparison each
    replays.fuzz("run_…"); replays.cancel()

A replay reads the run's recording, the thread before it and the design it was made with from the store, then
replays the recording twice (:func:`studio.replays.chain_replay.replay_run`): through the design the run was made with
(which gives the original run back) and through the current design, stopping where the conversation diverged unless the
user chose to go on with the live model. Fuzzing re-cuts the recorded reply many ways through each output processor of
the current chain (:func:`processors.testing.split_fuzz.fuzz_splits`), with progress and Cancel. Both run in a thread of
their own with an asyncio loop of its own: a 10,000-chunk replay never streams through the UI's loop, and the UI thread
only receives the signals.

A whole thread is replayed run after run, each on top of the conversation as it was recorded (the thread's messages
before that run), with a comparison per run as it comes and progress; it stops at the run whose recording no longer
fits (the user may go on from there with the live model) or when cancelled. With breakpoints set
(``debugger_for_run``), the current chain's replay pauses at them just as a live run does: the pause waits on the
worker's loop and is answered from the UI's thread; :meth:`ReplayController.cancel` (Stop) ends it there at once.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from processors.models.base import LanguageModel
from processors.models.recording import Recording
from processors.pipeline.debugger import Debugger
from processors.testing.split_fuzz import SplitFinding, fuzz_splits
from studio import i18n
from studio.controllers.replay_worker import ReplayStopped, ReplayWorker
from studio.design.agent_design import AgentDesign, DesignError
from studio.design.build import build_chains
from studio.error_texts import error_text
from studio.replays.chain_replay import (
    DivergencePolicy,
    ReplayComparison,
    ReplaySource,
    ThreadReplay,
    ThreadRunReplay,
    history_before,
    replay_run,
)

logger = logging.getLogger(__name__)

translate = i18n.translate


class FuzzCancelled(Exception):
    """Raised in the fuzzing thread when the user pressed Cancel."""


@dataclass
class FuzzReport:
    """What fuzzing a run found: the text that was re-cut and every processor whose verdict changed with the cut."""

    run_id: str
    text: str
    findings: list[SplitFinding]
    processors: list[str]


class ReplayController(QObject):
    """Runs one replay or fuzzing at a time for the runs of a store."""

    #: A replay of a run began: (run_id).
    replay_started = Signal(str)
    #: Both replays finished: (run_id, ReplayComparison).
    replay_finished = Signal(str, object)
    #: The replay could not run (no recording, an unreadable one, a design that cannot be built): (run_id, message).
    replay_failed = Signal(str, str)
    #: Fuzzing went on: (run_id, cuts tried, cuts in all).
    fuzz_progress = Signal(str, int, int)
    #: Fuzzing finished: (run_id, FuzzReport).
    fuzz_finished = Signal(str, object)
    #: Fuzzing failed or was cancelled: (run_id, message).
    fuzz_failed = Signal(str, str)
    #: A thread's replay began: (thread_id, runs in all).
    thread_replay_started = Signal(str, int)
    #: One run of the thread was replayed (or could not be): (thread_id, index, ThreadRunReplay).
    thread_run_replayed = Signal(str, int, object)
    #: The thread's replay ended — all runs done, stopped at a divergence, or cancelled: (thread_id, ThreadReplay).
    thread_replay_finished = Signal(str, object)
    #: The thread could not be replayed at all (no runs, a store error): (thread_id, message).
    thread_replay_failed = Signal(str, str)
    #: Any replay or fuzzing ended, however (a pause at a breakpoint is over).
    work_ended = Signal()

    def __init__(
        self,
        store: Any,
        catalogue: Any,
        *,
        current_design: Callable[[], AgentDesign],
        live_model: Callable[[AgentDesign], LanguageModel] | None = None,
        debugger_for_run: Callable[[], Debugger | None] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._store = store
        self._catalogue = catalogue
        self._current_design = current_design
        self._live_model = live_model
        self._debugger_for_run = debugger_for_run
        self._task: asyncio.Task[None] | None = None
        self._cancel = threading.Event()
        self._worker = ReplayWorker()
        #: The last replay of each thread (the view shows it).
        self.thread_replays: dict[str, ThreadReplay] = {}
        #: The last comparison made for each run (the regression-test export reads it).
        self.comparisons: dict[str, ReplayComparison] = {}

    @property
    def is_busy(self) -> bool:
        return self._task is not None and not self._task.done()

    # ----------------------------------------------------------------------------------------- requests
    def replay(self, run_id: str, *, live: bool = False) -> bool:
        """Replay ``run_id`` through the current chain; False (and ``replay_failed``) when busy."""
        if self.is_busy:
            self.replay_failed.emit(
                run_id, translate("ReplayController", "A replay or fuzzing is still running: wait or cancel it.")
            )
            return False
        self._start(lambda _cancel: self._replay(run_id, live=live))
        return True

    def replay_thread(self, thread_id: str, *, live: bool = False, start: int = 0) -> bool:
        """Replay every run of ``thread_id`` in order through the current chain (from its ``start``-th run: after a
        divergence, the runs before it are kept); False (and ``thread_replay_failed``) when busy."""
        if self.is_busy:
            self.thread_replay_failed.emit(
                thread_id, translate("ReplayController", "A replay or fuzzing is still running: wait or cancel it.")
            )
            return False
        self._start(lambda cancel: self._replay_thread(thread_id, cancel, live=live, start=start))
        return True

    def fuzz(self, run_id: str) -> bool:
        """Fuzz the chunk boundaries of ``run_id``'s recorded reply through the current output chain."""
        if self.is_busy:
            self.fuzz_failed.emit(
                run_id, translate("ReplayController", "A replay or fuzzing is still running: wait or cancel it.")
            )
            return False
        self._start(lambda cancel: self._fuzz(run_id, cancel))
        return True

    def _start(self, work: Callable[[threading.Event], Coroutine[Any, Any, None]]) -> None:
        """Start ``work`` (given its own cancel flag, and a fresh worker) as the one task of this controller."""
        self._cancel = threading.Event()
        self._worker = ReplayWorker()
        self._task = asyncio.get_event_loop().create_task(self._ended(work(self._cancel)))

    async def _ended(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        finally:
            self.work_ended.emit()

    def cancel(self) -> None:
        """Stop the running replay where it is (paused at a breakpoint too) or fuzzing at its next cut."""
        self._cancel.set()
        self._worker.cancel()

    async def wait_idle(self) -> None:
        if self._task is not None:
            await asyncio.wait({self._task})

    # ----------------------------------------------------------------------------------------- loading
    async def source(self, run_id: str) -> ReplaySource:
        """What a replay of ``run_id`` needs, from the store. Raises ``LookupError``/``ValueError`` saying why not."""
        record = await self._store.get_run(run_id)
        if record is None:
            raise LookupError(translate("ReplayController", "No run {0} in the store.").format(run_id))
        data = await self._store.recordings.recording_bytes(run_id)
        if data is None:
            raise LookupError(
                translate("ReplayController", "This run has no recording (it was made before runs were recorded).")
            )
        if not record.input_text:
            raise LookupError(
                translate("ReplayController", "This run's message was not kept, so it cannot be replayed.")
            )
        history = []
        if record.thread_id is not None:
            messages = await self._store.memory.all_messages(record.thread_id)
            history = history_before(messages, record.started_at, record.input_text)
        design = None
        if record.design_json:
            try:
                design = AgentDesign.from_json(record.design_json)
            except DesignError:
                logger.warning("run %s: its design could not be read; the current one stands in", run_id)
        return ReplaySource(run_id, record.input_text, data, history, design)

    # ----------------------------------------------------------------------------------------- the work
    async def _replay(self, run_id: str, *, live: bool) -> None:
        self.replay_started.emit(run_id)
        try:
            source = await self.source(run_id)
            current = self._current_design()
            fallback = self._live_model(current) if live and self._live_model is not None else None
            debugger = self._debugger_for_run() if self._debugger_for_run is not None else None
            comparison = await asyncio.to_thread(self._worker.run, self._compare(source, current, fallback, debugger))
        except asyncio.CancelledError:
            self._worker.cancel()
            raise
        except ReplayStopped:
            self.replay_failed.emit(run_id, translate("ReplayController", "Replay stopped."))
            return
        except (LookupError, ValueError, DesignError) as error:
            self.replay_failed.emit(run_id, error_text(error))
            return
        except Exception as error:
            logger.exception("replay of %s failed", run_id)
            self.replay_failed.emit(run_id, f"{type(error).__name__}: {error}")
            return
        self.comparisons[run_id] = comparison
        self.replay_finished.emit(run_id, comparison)

    async def _compare(
        self,
        source: ReplaySource,
        current: AgentDesign,
        fallback: LanguageModel | None,
        debugger: Debugger | None = None,
    ) -> ReplayComparison:
        """The run through the design it was made with, then through ``current`` (the one the breakpoints are for)."""
        original = await replay_run(source.design or current, source, catalogue=self._catalogue)
        policy: DivergencePolicy = "live" if fallback is not None else "raise"
        now = await replay_run(
            current, source, catalogue=self._catalogue, on_divergence=policy, fallback=fallback, debugger=debugger
        )
        return ReplayComparison(original, now)

    async def _replay_thread(self, thread_id: str, cancel: threading.Event, *, live: bool, start: int) -> None:
        try:
            records = await self._store.runs_for_thread(thread_id)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            logger.exception("listing the runs of %s failed", thread_id)
            self.thread_replay_failed.emit(thread_id, f"{type(error).__name__}: {error}")
            return
        if not records:
            self.thread_replay_failed.emit(thread_id, translate("ReplayController", "This thread has no runs yet."))
            return
        kept = self.thread_replays.get(thread_id)
        report = ThreadReplay(thread_id, total=len(records))
        if kept is not None and start > 0:
            report.runs = kept.runs[:start]
        self.thread_replays[thread_id] = report
        self.thread_replay_started.emit(thread_id, len(records))
        current = self._current_design()
        fallback = self._live_model(current) if live and self._live_model is not None else None
        for index in range(len(report.runs), len(records)):
            if cancel.is_set():
                report.cancelled = True
                break
            record = records[index]
            item = ThreadRunReplay(record.id, record.input_text or "")
            try:
                source = await self.source(record.id)
                debugger = self._debugger_for_run() if self._debugger_for_run is not None else None
                comparison = await asyncio.to_thread(
                    self._worker.run, self._compare(source, current, fallback, debugger)
                )
                item.comparison = self.comparisons[record.id] = comparison
            except asyncio.CancelledError:
                self._worker.cancel()
                raise
            except ReplayStopped:
                report.cancelled = True
                break
            except (LookupError, ValueError, DesignError) as error:
                item.error = str(error)
            except Exception as error:
                logger.exception("replay of %s failed", record.id)
                item.error = f"{type(error).__name__}: {error}"
            report.runs.append(item)
            self.thread_run_replayed.emit(thread_id, index, item)
            if item.diverged:
                report.stopped_at = index
                break
        self.thread_replay_finished.emit(thread_id, report)

    async def _fuzz(self, run_id: str, cancel: threading.Event) -> None:
        try:
            source = await self.source(run_id)
            design = self._current_design()
            processors = self._output_factory(design)
            names = [str(getattr(p, "id", type(p).__name__)) for p in processors()]
            recording = Recording.from_bytes(source.recording)

            def progress(done: int, total: int) -> None:  # on the fuzzing thread: Qt queues the signal
                if cancel.is_set():
                    raise FuzzCancelled
                self.fuzz_progress.emit(run_id, done, total)

            findings = await asyncio.to_thread(
                _run_in_new_loop,
                fuzz_splits(
                    processors, recording, prompt=source.input_text, instructions=design.instructions,
                    progress=progress,
                ),
            )  # fmt: skip
        except asyncio.CancelledError:
            cancel.set()
            raise
        except FuzzCancelled:
            self.fuzz_failed.emit(run_id, translate("ReplayController", "Fuzzing cancelled."))
            return
        except (LookupError, ValueError, DesignError) as error:
            self.fuzz_failed.emit(run_id, error_text(error))
            return
        except Exception as error:
            logger.exception("fuzzing %s failed", run_id)
            self.fuzz_failed.emit(run_id, f"{type(error).__name__}: {error}")
            return
        from processors.testing.split_fuzz import reply_text

        self.fuzz_finished.emit(run_id, FuzzReport(run_id, reply_text(recording), findings, names))

    def _output_factory(self, design: AgentDesign) -> Callable[[], list[Any]]:
        catalogue = self._catalogue
        build_chains(design, catalogue)  # a design that cannot be built says so here, on the UI's side

        def fresh() -> list[Any]:
            return [item.processor for item in build_chains(design, catalogue)["output"]]

        return fresh


def _run_in_new_loop(coroutine: Any) -> Any:
    """Run ``coroutine`` to its end on a loop of this (worker) thread's own."""
    return asyncio.run(coroutine)


__all__ = ["FuzzCancelled", "FuzzReport", "ReplayController"]
