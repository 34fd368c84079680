"""``InspectorView``: what the processors did in each run — timeline, details, tripwires, violations, chunks.

A thin view over :class:`~studio.models.trace_data.InspectorData` (passed in, or a fresh one): the timeline tree
(runs → Input / Step n / Output → hooks → processor calls, with duration and an outcome badge), the details
pane for the selected entry, and tabs for tripwires, violations, ``data-*`` chunks and the raw chunk log with a
type filter. The timeline follows the newest run unless the user is looking at an older one. Its slots match
``RunController``'s signals one to one, so the window connects them directly::

    controller.run_started.connect(inspector.on_run_started)
    controller.chunk_received.connect(inspector.on_chunk_received)
    controller.trace_event_received.connect(inspector.on_trace_event_received)
    controller.violation_recorded.connect(inspector.on_violation_recorded)
    controller.run_finished.connect(inspector.on_run_finished)
    controller.run_failed.connect(inspector.on_run_failed)
    chat.tripwire_clicked.connect(inspector.select_tripwire)

Chunks are the hot path (thousands a second): ``on_chunk_received`` only appends to a buffer, and a 50 ms timer
shows the buffered chunks with one row insert; the raw log keeps the last 20,000 chunks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFrame, QMenu, QScrollArea, QSplitter, QTreeView, QVBoxLayout, QWidget

from studio.i18n import translate
from studio.models.trace_data import InspectorData, RunHistory
from studio.models.trace_model import (
    ChunkLogModel,
    ChunkTypeFilterModel,
    DataChunkListModel,
    TraceTreeModel,
    TripwireListModel,
    ViolationListModel,
)
from studio.models.trace_nodes import Node, PhaseNode, RunNode
from studio.views.capped_width import CappedTabWidget
from studio.views.inspector_details import InspectorDetails
from studio.views.inspector_lists import ChunkLogPane, list_view
from studio.views.outcome_badge import OutcomeBadgeDelegate
from studio.views.splitter_shares import share_on_first_resize
from studio.views.timeline_names import TimelineNameDelegate

#: How often buffered chunks are shown (one row insert per tick).
FLUSH_INTERVAL_MS = 50

#: The default shares of the inspector's height: timeline, details, the tabs (the details pane shows a diff: it
#: needs room as much as the timeline does).
PANE_SHARES = (36, 36, 28)
#: The least height of each pane: a few rows of the timeline, a few lines of details, the tab bar and two rows.
#: Small, so that any one pane can be dragged tall on a laptop's screen.
MIN_PANE_HEIGHT = 90


class InspectorView(QWidget):
    """The inspector panel (object name ``inspector``)."""

    #: A timeline entry was selected (a node of ``studio.models.trace_nodes``), or None when the selection cleared.
    entry_selected = Signal(object)

    TRIPWIRES, VIOLATIONS, DATA_CHUNKS, RAW_CHUNKS = range(4)

    def __init__(self, data: InspectorData | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self._data = data if data is not None else InspectorData()
        self.trace_model = TraceTreeModel(self._data, self)
        self.tripwire_model = TripwireListModel(self._data, self)
        self.violation_model = ViolationListModel(self._data, self)
        self.data_chunk_model = DataChunkListModel(self._data, self)
        self.chunk_model = ChunkLogModel(self._data, self)
        self.chunk_proxy = ChunkTypeFilterModel(self.chunk_model, self)

        self.timeline = QTreeView(self)
        self.timeline.setObjectName("inspector_timeline")
        self.timeline.setModel(self.trace_model)
        self.timeline.setUniformRowHeights(True)
        self.timeline.setIndentation(14)
        self.timeline.setAlternatingRowColors(True)
        self.timeline.setItemDelegateForColumn(TraceTreeModel.OUTCOME, OutcomeBadgeDelegate(self.timeline))
        self.timeline.setItemDelegateForColumn(TraceTreeModel.NAME, TimelineNameDelegate(self.timeline))
        self._size_timeline_columns()

        self.details = InspectorDetails(self)
        self.tripwire_list = list_view(self.tripwire_model, "inspector_tripwires", (70, 120, 260, 50))
        self.violation_list = list_view(self.violation_model, "inspector_violations", (70, 120, 260))
        self.data_list = list_view(self.data_chunk_model, "inspector_data_chunks", (50, 70, 130, 60))
        self.chunk_pane = ChunkLogPane(self.chunk_model, self.chunk_proxy, self)

        self.tabs = CappedTabWidget(self)
        self.tabs.setObjectName("inspector_tabs")
        self.tabs.addTab(self.tripwire_list, translate("Inspector", "Tripwires"))
        self.tabs.addTab(self.violation_list, translate("Inspector", "Violations"))
        self.tabs.addTab(self.data_list, translate("Inspector", "Data"))
        self.tabs.addTab(self.chunk_pane, translate("Inspector", "Raw"))
        # Every tab's name shows whole: the tab bar's width is part of the inspector's minimum width, up to the
        # bar's width at 100 % text size (at 200 % the tabs scroll, so the window still fits a 1366 px screen).

        #: Timeline above details above the tabs; every pane can be dragged taller (none has a big minimum: a tab
        #: whose content needs height scrolls, see :meth:`add_tab`).
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("inspector_splitter")
        self.splitter.setChildrenCollapsible(False)
        for pane in (self.timeline, self.details, self.tabs):
            pane.setMinimumHeight(MIN_PANE_HEIGHT)
            self.splitter.addWidget(pane)
        share_on_first_resize(self.splitter, PANE_SHARES)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_INTERVAL_MS)
        self._flush_timer.timeout.connect(self.flush)
        self._flush_scheduled = False
        #: Whether the timeline follows the newest run (scrolls to it and opens it as it fills). It stops while
        #: the user looks at an older run (selects an entry in it) and resumes when they select in the newest.
        self.following = True

        #: Actions on the selected run, offered in the timeline's context menu (replay, say): set by the window.
        self.run_actions: list[QAction] = []
        self.timeline.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.timeline.customContextMenuRequested.connect(self._on_timeline_context_menu_requested)
        self.timeline.selectionModel().currentChanged.connect(self._on_timeline_current_changed)
        self.trace_model.rowsInserted.connect(self._on_trace_rows_inserted)
        self.trace_model.modelReset.connect(self._on_trace_model_reset)
        self.tripwire_list.clicked.connect(self._on_tripwire_clicked)
        self.violation_list.clicked.connect(self._on_violation_clicked)

    @property
    def inspector_data(self) -> InspectorData:
        return self._data

    def add_tab(self, widget: QWidget, title: str) -> None:
        """Add a tab whose content scrolls when the pane is short (its minimum height never holds the pane tall)."""
        scroll = QScrollArea()
        scroll.setObjectName(f"{widget.objectName()}_scroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(widget)
        self.tabs.addTab(scroll, title)

    def show_tab(self, widget: QWidget) -> None:
        """Bring forward the tab holding ``widget`` (added directly or through :meth:`add_tab`)."""
        for index in range(self.tabs.count()):
            page = self.tabs.widget(index)
            if page is not None and (page is widget or page.isAncestorOf(widget)):
                self.tabs.setCurrentIndex(index)
                return

    # ----------------------------------------------------------------------------------------- run slots
    @Slot(str, str)
    def on_run_started(self, run_id: str, thread_id: str) -> None:
        self._data.start_run(run_id, thread_id or None)

    @Slot(str, object)
    def on_chunk_received(self, run_id: str, chunk: Any) -> None:
        self._data.add_chunk(run_id, chunk)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self._flush_timer.start()

    @Slot(str, object)
    def on_trace_event_received(self, run_id: str, event: Any) -> None:
        self._data.add_event(event, run_id)

    @Slot(str, str, object)
    def on_violation_recorded(self, run_id: str, processor_id: str, violation: Any) -> None:
        self._data.add_violation(run_id, processor_id, violation)

    @Slot(str, object)
    def on_run_finished(self, run_id: str, result: Any) -> None:
        self._data.finish_run(run_id, result)
        self.chunk_pane.after_flush()
        self._refresh_details()

    @Slot(str, str)
    def on_run_failed(self, run_id: str, message: str) -> None:
        self._data.fail_run(run_id, message)
        self.chunk_pane.after_flush()
        self._refresh_details()

    @Slot()
    def flush(self) -> None:
        """Show the buffered chunks now (the timer does it every ``FLUSH_INTERVAL_MS``)."""
        self._flush_scheduled = False
        self._flush_timer.stop()
        if self._data.flush_chunks():
            self.chunk_pane.after_flush()

    # ----------------------------------------------------------------------------------------- history
    def load_history(self, runs: Iterable[RunHistory], *, replace: bool = True) -> None:
        """Show stored runs (a reopened thread); ``replace`` clears what is shown first."""
        if replace:
            self.clear()
        self._data.load_history(runs)
        self.chunk_pane.after_flush()
        if self._data.runs:
            self.following = True
            self._follow(self._data.runs[-1])

    @Slot()
    def clear(self) -> None:
        self._flush_scheduled = False
        self._flush_timer.stop()
        self._data.clear()
        self.chunk_pane.after_flush()

    # ----------------------------------------------------------------------------------------- selection
    def select_entry(self, node: Node | None) -> None:
        """Select a timeline entry, expanding its ancestors and scrolling it into view."""
        if node is None:
            self.timeline.clearSelection()
            return
        for ancestor in reversed(node.ancestors()):
            self.timeline.expand(self.trace_model.index_for(ancestor))
        index = self.trace_model.index_for(node)
        self.timeline.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.timeline.scrollTo(index)

    def selected_entry(self) -> Node | None:
        return self.trace_model.node(self.timeline.currentIndex())

    def run_menu(self) -> QMenu:
        """The timeline's context menu: :attr:`run_actions`, acting on :meth:`selected_run_id`."""
        menu = QMenu(self)
        menu.setObjectName("inspector.menu")
        for action in self.run_actions:
            menu.addAction(action)
        return menu

    @Slot(QPoint)
    def _on_timeline_context_menu_requested(self, position: QPoint) -> None:
        index = self.timeline.indexAt(position)
        if index.isValid():
            self.timeline.setCurrentIndex(index)
        if self.run_actions:
            menu = self.run_menu()
            menu.aboutToHide.connect(menu.deleteLater)
            menu.popup(self.timeline.viewport().mapToGlobal(position))  # never exec(): the UI keeps running

    def selected_run_id(self) -> str | None:
        """The run of the selected timeline entry; the newest run when nothing is selected; None when empty."""
        node = self.selected_entry()
        while node is not None and not isinstance(node, RunNode):
            node = node.parent
        if node is not None:
            return node.run_id
        runs = self._data.runs
        return runs[-1].run_id if runs else None

    @Slot(str, result=bool)
    def select_tripwire(self, run_id: str) -> bool:
        """Show a run's tripwire: select it in the Tripwires tab and its aborted call in the timeline."""
        self.flush()
        row = self._data.tripwire_index(run_id)
        if row is None:
            return False
        self.tabs.setCurrentIndex(self.TRIPWIRES)
        index = self.tripwire_model.index(row, 0)
        self.tripwire_list.setCurrentIndex(index)
        self.tripwire_list.scrollTo(index)
        call = self._data.call_for_tripwire(row)
        self.select_entry(call if call is not None else self._data.run(run_id))
        return True

    # ----------------------------------------------------------------------------------------- internals
    def _size_timeline_columns(self) -> None:
        header = self.timeline.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(TraceTreeModel.NAME, header.ResizeMode.Stretch)
        header.setSectionResizeMode(TraceTreeModel.DURATION, header.ResizeMode.Interactive)
        header.setSectionResizeMode(TraceTreeModel.OUTCOME, header.ResizeMode.Interactive)
        metrics = self.timeline.fontMetrics()
        header.resizeSection(TraceTreeModel.DURATION, metrics.horizontalAdvance("9,999.9") + 16)
        header.resizeSection(TraceTreeModel.OUTCOME, OutcomeBadgeDelegate.column_width(self.timeline.font()))

    def _refresh_details(self) -> None:
        self.details.show_entry(self.selected_entry())

    def _follow(self, run: RunNode) -> None:
        """Open the newest run down to its hooks and bring it into view, its header at the top."""
        index = self.trace_model.index_for(run)
        self.timeline.expand(index)
        for phase in run.children:
            self.timeline.expand(self.trace_model.index_for(phase))
        self.timeline.scrollTo(index, QTreeView.ScrollHint.PositionAtTop)

    @Slot(QModelIndex, QModelIndex)
    def _on_timeline_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        node = self.trace_model.node(current)
        if node is not None and self._data.runs:
            self.following = node.run is self._data.runs[-1]
        self.details.show_entry(node)
        self.entry_selected.emit(node)

    @Slot(QModelIndex, int, int)
    def _on_trace_rows_inserted(self, parent: QModelIndex, first: int, _last: int) -> None:
        """Follow the newest run while it fills (its newest entry in view), unless the user looks at an older one."""
        runs = self._data.runs
        node = self.trace_model.node(parent)
        if node is None:  # a new run: follow it if the user was on the one before (or on nothing)
            if first != len(runs) - 1:
                return
            current = self.selected_entry()
            self.following = current is None or len(runs) < 2 or current.run is runs[-2]
            if self.following:
                self._follow(runs[-1])
        elif self.following and isinstance(node, RunNode | PhaseNode) and node.run is runs[-1]:
            self.timeline.expand(parent)
            self.timeline.scrollTo(self.trace_model.index(first, 0, parent))

    @Slot()
    def _on_trace_model_reset(self) -> None:
        self.details.show_entry(None)
        self.entry_selected.emit(None)

    @Slot(QModelIndex)
    def _on_tripwire_clicked(self, index: QModelIndex) -> None:
        call = self._data.call_for_tripwire(index.row())
        if call is not None:
            self.select_entry(call)

    @Slot(QModelIndex)
    def _on_violation_clicked(self, index: QModelIndex) -> None:
        call = self._data.call_for_violation(index.row())
        if call is not None:
            self.select_entry(call)
