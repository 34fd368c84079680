"""The thread replay view: every run of a thread replayed through the current chain, each beside its original.

A non-modal window over a :class:`~studio.controllers.replay_controller.ReplayController` and one thread: a table of
the thread's runs in the order of the conversation (the message, and what the replay found: the same, what differs,
where it diverged, or why it could not be replayed), rows that differ highlighted, filled in as each run is replayed
with a progress bar and Cancel; below it the selected run's two replays side by side
(:class:`~studio.views.replay_comparison.ComparisonPane`). When a run's conversation diverged the replay stops there
and says so at that run and step, with the choice: stop, or continue with the live model. It shows what the
controller says and asks it for work; it holds no logic of its own.

Object names for automation: ``thread_replay.status``, ``thread_replay.progress``, ``thread_replay.cancel``,
``thread_replay.runs``, ``thread_replay.divergence``, ``thread_replay.continue_live``, ``thread_replay.stop``, and the
pane's ``replay.original``, ``replay.current``, ``replay.processors``, ``replay.tools``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio import i18n
from studio.controllers.replay_controller import ReplayController
from studio.replays.chain_replay import ThreadReplay, ThreadRunReplay
from studio.views.divergence_bar import DivergenceBar
from studio.views.replay_comparison import DIFFERS, ComparisonPane, difference_text

translate = i18n.translate


class ThreadReplayView(QDialog):
    """A whole thread's replay (``open()`` or ``show()`` it; it never blocks)."""

    def __init__(self, controller: ReplayController, thread_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("thread_replay_view")
        self.controller = controller
        self.thread_id = thread_id
        #: The replayed runs so far, by row.
        self.results: list[ThreadRunReplay] = []
        self.report: ThreadReplay | None = None
        self.setWindowTitle(translate("ThreadReplayView", "Replay of a thread — Processor Studio"))
        self.resize(1100, 760)

        self.status = QLabel(translate("ThreadReplayView", "Replaying the thread's runs through the current chain…"))
        self.status.setObjectName("thread_replay.status")
        self.status.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setObjectName("thread_replay.progress")
        self.progress.setRange(0, 0)
        self.cancel = QPushButton(translate("ThreadReplayView", "Cancel"))
        self.cancel.setObjectName("thread_replay.cancel")
        top = QHBoxLayout()
        top.addWidget(self.status, 1)
        top.addWidget(self.progress)
        top.addWidget(self.cancel)

        # Where the conversation diverged, with stop here or continue live (``divergence`` is its text).
        self.divergence_bar = DivergenceBar("thread_replay")
        self.divergence = self.divergence_bar.text
        self.stop_here = self.divergence_bar.stop_here
        self.continue_live = self.divergence_bar.continue_live

        self.runs = QTableWidget(0, 3)
        self.runs.setObjectName("thread_replay.runs")
        self.runs.setHorizontalHeaderLabels(
            [
                translate("ThreadReplayView", "Run"),
                translate("ThreadReplayView", "Message"),
                translate("ThreadReplayView", "Replay"),
            ]
        )
        header = self.runs.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.runs.verticalHeader().hide()
        self.runs.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.runs.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.runs.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        #: The selected run's two replays side by side.
        self.pane = ComparisonPane()

        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(self.runs)
        body.addWidget(self.pane)
        body.setSizes([220, 480])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.divergence_bar)
        layout.addWidget(body, 1)

        self.cancel.clicked.connect(controller.cancel)
        self.divergence_bar.continue_live_requested.connect(self._on_divergence_bar_continue_live_requested)
        self.runs.currentCellChanged.connect(self._on_runs_current_cell_changed)
        controller.thread_replay_started.connect(self._on_controller_thread_replay_started)
        controller.thread_run_replayed.connect(self._on_controller_thread_run_replayed)
        controller.thread_replay_finished.connect(self._on_controller_thread_replay_finished)
        controller.thread_replay_failed.connect(self._on_controller_thread_replay_failed)

    # ----------------------------------------------------------------------------------------- progress
    @Slot(str, int)
    def _on_controller_thread_replay_started(self, thread_id: str, total: int) -> None:
        if thread_id != self.thread_id:
            return
        self.runs.setRowCount(total)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(len(self.results))
        self.progress.show()
        self.cancel.show()

    @Slot(str, int, object)
    def _on_controller_thread_run_replayed(self, thread_id: str, index: int, item: ThreadRunReplay) -> None:
        if thread_id != self.thread_id:
            return
        del self.results[index:]
        self.results.append(item)
        self._fill_row(index, item)
        self.progress.setValue(index + 1)
        self.status.setText(
            translate("ThreadReplayView", "Replayed {0} of {1} runs…").format(index + 1, self.runs.rowCount())
        )
        if self.runs.currentRow() < 0 or self.runs.currentRow() == index:
            self.runs.setCurrentCell(index, 1)
            self._show_row(index)

    def _fill_row(self, row: int, item: ThreadRunReplay) -> None:
        texts = (str(row + 1), item.input_text, self._result_text(item))
        differs = item.error is not None or item.diverged or not item.comparison or not item.comparison.identical
        for column, text in enumerate(texts):
            cell = QTableWidgetItem(text)
            if differs:
                cell.setBackground(QBrush(DIFFERS))
            self.runs.setItem(row, column, cell)

    @staticmethod
    def _result_text(item: ThreadRunReplay) -> str:
        comparison = item.comparison
        if comparison is None:
            return translate("ThreadReplayView", "not replayed: {0}").format(item.error or "")
        if item.diverged:
            return translate("ThreadReplayView", "diverged at step {0}").format(comparison.current.diverged_at)
        if comparison.identical:
            return translate("ThreadReplayView", "same result")
        return difference_text(comparison)

    @Slot(int, int, int, int)
    def _on_runs_current_cell_changed(self, row: int, _column: int, _old_row: int, _old_column: int) -> None:
        self._show_row(row)

    def _show_row(self, row: int) -> None:
        comparison = self.results[row].comparison if 0 <= row < len(self.results) else None
        if comparison is None:
            self.pane.clear()
        else:
            self.pane.show_comparison(comparison)

    # ----------------------------------------------------------------------------------------- the end
    @Slot(str, object)
    def _on_controller_thread_replay_finished(self, thread_id: str, report: ThreadReplay) -> None:
        if thread_id != self.thread_id:
            return
        self.report = report
        self.progress.hide()
        self.cancel.hide()
        done = len(report.runs)
        if report.stopped_at is not None:
            item = report.runs[report.stopped_at]
            step = item.comparison.current.diverged_at if item.comparison is not None else None
            self.divergence_bar.show_divergence(
                translate(
                    "ThreadReplayView",
                    "The conversation diverged at run {0}, step {1}: the chain now asks the model something the "
                    "recording does not have, so the replay stopped there.",
                ).format(report.stopped_at + 1, step)
            )
            self.runs.setCurrentCell(report.stopped_at, 1)
        else:
            self.divergence_bar.hide()
        live = report.live_from
        if report.cancelled:
            text = translate("ThreadReplayView", "Cancelled after {0} of {1} runs.").format(done, report.total)
        elif live is not None:
            text = translate(
                "ThreadReplayView",
                "Replayed {0} of {1} runs, continued with the live model from run {2}, step {3}: {4} differ.",
            ).format(done, report.total, live[0] + 1, live[1] + 1, len(report.differing))
        elif report.differing:
            text = translate("ThreadReplayView", "Replayed {0} of {1} runs with no model call: {2} differ.").format(
                done, report.total, len(report.differing)
            )
        else:
            text = translate(
                "ThreadReplayView",
                "Replayed {0} of {1} runs with no model call: the current chain gives the same results.",
            ).format(done, report.total)
        self.status.setText(text)

    @Slot(str, str)
    def _on_controller_thread_replay_failed(self, thread_id: str, message: str) -> None:
        if thread_id == self.thread_id:
            self.progress.hide()
            self.cancel.hide()
            self.status.setText(translate("ThreadReplayView", "The thread could not be replayed: {0}").format(message))

    @Slot()
    def _on_divergence_bar_continue_live_requested(self) -> None:
        if self.report is None or self.report.stopped_at is None:
            return
        self.status.setText(translate("ThreadReplayView", "Continuing with the live model from the run that diverged…"))
        self.controller.replay_thread(self.thread_id, live=True, start=self.report.stopped_at)


__all__ = ["ThreadReplayView"]
