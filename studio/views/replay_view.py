"""The replay diff view: a past run replayed through the current chain, side by side with the original.

A non-modal window over a :class:`~studio.controllers.replay_controller.ReplayController` and one run: the final
texts with the words that differ highlighted, the tripwires, each processor's outcome on both sides (rows that
differ highlighted), tool calls whose arguments changed, and — when the conversation diverged — the step where it
did with a choice: stop there, or continue with the live model. Below, chunk-boundary fuzzing of the run's reply
(progress and Cancel) and the export of the run as a regression test. It shows what the controller says and asks
it for work; it holds no logic of its own.

Object names for automation: ``replay.status``, ``replay.original``, ``replay.current``, ``replay.processors``,
``replay.tools``, ``replay.divergence``, ``replay.continue_live``, ``replay.stop``, ``replay.fuzz``,
``replay.fuzz_progress``, ``replay.fuzz_cancel``, ``replay.fuzz_results``, ``replay.export_test``,
``replay.reexport_test``.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio import i18n
from studio.controllers.replay_controller import FuzzReport, ReplayController
from studio.regression_exports import exported_path
from studio.replays.chain_replay import ReplayComparison
from studio.views.divergence_bar import DivergenceBar
from studio.views.replay_comparison import ComparisonPane, difference_text

translate = i18n.translate


class ReplayView(QDialog):
    """One run's replay comparison, fuzzing and export (``open()`` it; it never blocks)."""

    #: The user asked to export this run as a pytest file: (run_id).
    export_test_requested = Signal(str)
    #: The user asked to export it again, over the file it was last exported to: (run_id).
    reexport_test_requested = Signal(str)

    def __init__(self, controller: ReplayController, run_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("replay_view")
        self.controller = controller
        self.run_id = run_id
        self.comparison: ReplayComparison | None = None
        #: Export the test again over its last file as soon as this replay is shown (the thread menu's one action).
        self.reexport_when_replayed = False
        self.setWindowTitle(translate("ReplayView", "Replay of a run — Processor Studio"))
        self.resize(1100, 720)

        self.status = QLabel(translate("ReplayView", "Replaying the recorded run through the current chain…"))
        self.status.setObjectName("replay.status")
        self.status.setWordWrap(True)
        #: Stops the replay where it is (also while it is paused at a breakpoint).
        self.stop_replay = QPushButton(translate("ReplayView", "Stop the replay"))
        self.stop_replay.setObjectName("replay.stop_replay")
        self.stop_replay.hide()
        # Where the conversation diverged, with stop here or continue live (``divergence`` is its text).
        self.divergence_bar = DivergenceBar("replay")
        self.divergence = self.divergence_bar.text
        self.stop_here = self.divergence_bar.stop_here
        self.continue_live = self.divergence_bar.continue_live

        #: The two replays side by side (``original``, ``current``, ``processors`` and ``tools`` are its parts).
        self.pane = ComparisonPane()
        self.original = self.pane.original
        self.current = self.pane.current
        self.processors = self.pane.processors
        self.tools = self.pane.tools

        self.fuzz_button = QPushButton(translate("ReplayView", "Fuzz chunk boundaries"))
        self.fuzz_button.setObjectName("replay.fuzz")
        self.fuzz_button.setToolTip(
            translate(
                "ReplayView",
                "Re-cut the recorded reply many ways and list every output processor whose verdict changes",
            )
        )
        self.fuzz_progress = QProgressBar()
        self.fuzz_progress.setObjectName("replay.fuzz_progress")
        self.fuzz_progress.hide()
        self.fuzz_cancel = QPushButton(translate("ReplayView", "Cancel"))
        self.fuzz_cancel.setObjectName("replay.fuzz_cancel")
        self.fuzz_cancel.hide()
        self.fuzz_results = QListWidget()
        self.fuzz_results.setObjectName("replay.fuzz_results")
        self.fuzz_results.setMaximumHeight(90)
        self.export_test = QPushButton(translate("ReplayView", "Export as regression test…"))
        self.export_test.setObjectName("replay.export_test")
        self.export_test.setEnabled(False)
        self.reexport_test = QPushButton()
        self.reexport_test.setObjectName("replay.reexport_test")
        self.reexport_test.setEnabled(False)
        self.refresh_reexport()
        actions = QHBoxLayout()
        actions.addWidget(self.fuzz_button)
        actions.addWidget(self.fuzz_progress, 1)
        actions.addWidget(self.fuzz_cancel)
        actions.addStretch(0)
        actions.addWidget(self.export_test)
        actions.addWidget(self.reexport_test)

        top = QHBoxLayout()
        top.addWidget(self.status, 1)
        top.addWidget(self.stop_replay)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.divergence_bar)
        layout.addWidget(self.pane, 1)
        layout.addLayout(actions)
        layout.addWidget(self.fuzz_results)

        self.divergence_bar.continue_live_requested.connect(self._on_divergence_bar_continue_live_requested)
        self.fuzz_button.clicked.connect(self._on_fuzz_clicked)
        self.fuzz_cancel.clicked.connect(controller.cancel)
        self.stop_replay.clicked.connect(controller.cancel)
        controller.replay_started.connect(self._on_controller_replay_started)
        self.export_test.clicked.connect(lambda: self.export_test_requested.emit(self.run_id))
        self.reexport_test.clicked.connect(lambda: self.reexport_test_requested.emit(self.run_id))
        controller.replay_finished.connect(self._on_controller_replay_finished)
        controller.replay_failed.connect(self._on_controller_replay_failed)
        controller.fuzz_progress.connect(self._on_controller_fuzz_progress)
        controller.fuzz_finished.connect(self._on_controller_fuzz_finished)
        controller.fuzz_failed.connect(self._on_controller_fuzz_failed)

    # ----------------------------------------------------------------------------------------- replay
    @Slot(str)
    def _on_controller_replay_started(self, run_id: str) -> None:
        if run_id == self.run_id:
            self.stop_replay.show()

    @Slot(str, object)
    def _on_controller_replay_finished(self, run_id: str, comparison: ReplayComparison) -> None:
        if run_id == self.run_id:
            self.stop_replay.hide()
            self.show_comparison(comparison)

    def show_comparison(self, comparison: ReplayComparison) -> None:
        self.comparison = comparison
        self.pane.show_comparison(comparison)
        step = comparison.current.diverged_at
        live = comparison.current.divergences and comparison.current.divergences[0].action == "live"
        if step is not None and not live:
            self.divergence_bar.show_divergence(
                translate(
                    "ReplayView",
                    "The conversation diverged at step {0}: the chain now asks the model something the recording "
                    "does not have, so the replay stopped there.",
                ).format(step)
            )
        else:
            self.divergence_bar.hide()
        self.status.setText(self._status_text(comparison))
        self.export_test.setEnabled(True)
        self.reexport_test.setEnabled(True)
        self.refresh_reexport()
        if self.reexport_when_replayed:
            self.reexport_when_replayed = False
            self.reexport_test_requested.emit(self.run_id)

    def refresh_reexport(self) -> None:
        """Offer "Export again" while the run's test was exported before and its file is still there."""
        path = exported_path(self.run_id)
        self.reexport_test.setVisible(path is not None)
        if path is not None:
            self.reexport_test.setText(translate("ReplayView", "Export again to {0}").format(path.name))
            self.reexport_test.setToolTip(
                translate(
                    "ReplayView",
                    "Rewrite {0} with this replay and the design as it is now (the file holds a frozen copy of the "
                    "design from its last export)",
                ).format(str(path))
            )

    def _status_text(self, comparison: ReplayComparison) -> str:
        divergences = comparison.current.divergences
        if divergences and divergences[0].action == "live":
            step = divergences[0].step + 1
            if comparison.identical:
                return translate(
                    "ReplayView",
                    "Continued with the live model from step {0}: the current chain gives the same result as the "
                    "original.",
                ).format(step)
            return translate("ReplayView", "Continued with the live model from step {0}: {1}.").format(
                step, difference_text(comparison)
            )
        if comparison.identical:
            return translate(
                "ReplayView", "Replayed with no model call: the current chain gives the same result as the original."
            )
        return translate("ReplayView", "Replayed with no model call: {0}.").format(difference_text(comparison))

    @Slot(str, str)
    def _on_controller_replay_failed(self, run_id: str, message: str) -> None:
        if run_id == self.run_id:
            self.stop_replay.hide()
            self.status.setText(translate("ReplayView", "The run could not be replayed: {0}").format(message))

    @Slot()
    def _on_divergence_bar_continue_live_requested(self) -> None:
        self.status.setText(translate("ReplayView", "Continuing with the live model from the step that diverged…"))
        self.controller.replay(self.run_id, live=True)

    # ----------------------------------------------------------------------------------------- fuzzing
    @Slot()
    def _on_fuzz_clicked(self) -> None:
        if self.controller.fuzz(self.run_id):
            self.fuzz_results.clear()
            self.fuzz_button.setEnabled(False)
            self.fuzz_progress.setRange(0, 0)
            self.fuzz_progress.show()
            self.fuzz_cancel.show()

    @Slot(str, int, int)
    def _on_controller_fuzz_progress(self, run_id: str, done: int, total: int) -> None:
        if run_id == self.run_id:
            self.fuzz_progress.setRange(0, max(total, 1))
            self.fuzz_progress.setValue(done)

    @Slot(str, object)
    def _on_controller_fuzz_finished(self, run_id: str, report: FuzzReport) -> None:
        if run_id != self.run_id:
            return
        self._fuzz_done()
        if not report.findings:
            self.fuzz_results.addItem(
                translate("ReplayView", "No output processor changes its verdict with the cut ({0} checked).").format(
                    len(report.processors)
                )
            )
        for finding in report.findings:
            self.fuzz_results.addItem(
                translate(
                    "ReplayView", "{0} changes with the cut; the smallest cut found: {1} — {2} instead of {3}"
                ).format(
                    finding.processor_id,
                    " | ".join(json.dumps(piece, ensure_ascii=False) for piece in finding.deltas),
                    self._verdict(finding.outcome),
                    self._verdict(finding.baseline),
                )
            )

    @Slot(str, str)
    def _on_controller_fuzz_failed(self, run_id: str, message: str) -> None:
        if run_id == self.run_id:
            self._fuzz_done()
            self.fuzz_results.addItem(message)

    def _verdict(self, outcome: Any) -> str:
        if outcome.tripwire is not None:
            return translate("ReplayView", "a tripwire ({0}: {1})").format(*outcome.tripwire)
        return translate("ReplayView", "the text {0}").format(json.dumps(outcome.text[:80], ensure_ascii=False))

    def _fuzz_done(self) -> None:
        self.fuzz_button.setEnabled(True)
        self.fuzz_progress.hide()
        self.fuzz_cancel.hide()


__all__ = ["ReplayView"]
