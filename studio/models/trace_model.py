"""Qt item models over :class:`~studio.models.trace_data.InspectorData`: the timeline tree and the side lists.

Each model listens to the pure data and forwards its notifications as Qt's insert/remove/reset calls; none
holds state of its own beyond the data it wraps. ``EntryRole`` gives a row's node (or row value), and
``OutcomeRole`` the outcome a badge shows.

    data = InspectorData()
    tree = TraceTreeModel(data)            # runs → phases → hooks → processor calls → changed chunks
    log = ChunkLogModel(data)              # #, time, type, summary (capped; see ``data.chunks.dropped``)
    only_deltas = ChunkTypeFilterModel(log); only_deltas.set_type_filter("text-delta")
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRegularExpression,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QFont

from studio.error_texts import tripwire_text
from studio.i18n import translate
from studio.models import trace_rows
from studio.models.outcome_words import outcome_label
from studio.models.trace_data import InspectorData, RunHistory, event_from_dict
from studio.models.trace_nodes import OUTCOMES, RUN_STATUSES, CallNode, Node, RunNode
from studio.models.trace_rows import LogRow, RowLog, TripwireRow, ViolationRow, chunk_summary, chunk_type, short_text
from studio.texts.problems import shown_problem
from studio.texts.translator import QT_TRANSLATE_NOOP, number

__all__ = [
    "ENTRY_ROLE",
    "OUTCOME_COLORS",
    "OUTCOME_ROLE",
    "ChunkLogModel",
    "ChunkTypeFilterModel",
    "DataChunkListModel",
    "InspectorData",
    "RunHistory",
    "TraceTreeModel",
    "TripwireListModel",
    "ViolationListModel",
    "event_from_dict",
]

#: The node (tree) or row value (lists) behind an index.
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
#: The outcome string a badge shows (tree rows).
OUTCOME_ROLE = Qt.ItemDataRole.UserRole + 2

#: Badge colours: strong (text on white) and light (row tint), for call outcomes and for how runs ended.
OUTCOME_COLORS: dict[str, tuple[str, str]] = {
    "passed": ("#2e7d32", "#e8f5e9"),
    "held": ("#546e7a", "#eceff1"),
    "changed": ("#1565c0", "#e3f2fd"),
    "dropped": ("#b45309", "#fff3e0"),
    "aborted": ("#c62828", "#ffebee"),
    "raised": ("#6a1b9a", "#f3e5f5"),
    "running": ("#0277bd", "#e1f5fe"),
    "finished": ("#2e7d32", "#e8f5e9"),
    "tripwire": ("#c62828", "#ffebee"),
    "error": ("#ad1457", "#fce4ec"),
    "stopped": ("#616161", "#eeeeee"),
    "failed": ("#6a1b9a", "#f3e5f5"),
}
assert set(OUTCOME_COLORS) == set(OUTCOMES) | set(RUN_STATUSES)

AnyIndex = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole


def format_ms(seconds: float) -> str:
    """Milliseconds as the studio's locale writes numbers: 0.042, 3.5, 1,250."""
    ms = seconds * 1000
    if ms < 1:
        return number(ms, 3)
    if ms < 100:
        return number(ms, 1)
    return number(ms)


def format_clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at * 1000) % 1000:03d}"


# --------------------------------------------------------------------------------------------- the tree
class TraceTreeModel(QAbstractItemModel):
    """Runs → phases (Input, Step n, Output) → hooks → processor calls → chunk changes. Columns: name, ms, outcome."""

    NAME, DURATION, OUTCOME = range(3)
    HEADERS = (
        QT_TRANSLATE_NOOP("Inspector", "Entry"),
        QT_TRANSLATE_NOOP("Inspector", "ms"),
        QT_TRANSLATE_NOOP("Inspector", "Outcome"),
    )

    def __init__(self, data: InspectorData, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._data = data
        data.tree_listeners.append(self)
        self._bold = QFont()
        self._bold.setBold(True)

    @property
    def inspector_data(self) -> InspectorData:
        return self._data

    # ----------------------------------------------------------------------------------------- structure
    def _children(self, parent: AnyIndex) -> Sequence[Node]:
        if not parent.isValid():
            return self._data.runs
        node: Node = parent.internalPointer()
        return node.children

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        children = self._children(parent)
        if 0 <= row < len(children) and 0 <= column < len(self.HEADERS):
            return self.createIndex(row, column, children[row])
        return QModelIndex()

    def parent(self, index: AnyIndex | None = None) -> Any:
        if index is None:  # QObject.parent()
            return super().parent()
        if not index.isValid():
            return QModelIndex()
        node: Node = index.internalPointer()
        up = node.parent
        return QModelIndex() if up is None else self.createIndex(up.row, 0, up)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._children(parent))

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return len(self.HEADERS)

    def index_for(self, node: Node | None, column: int = 0) -> QModelIndex:
        """The index of a node (the invalid root index for None)."""
        return QModelIndex() if node is None else self.createIndex(node.row, column, node)

    def node(self, index: AnyIndex) -> Node | None:
        return index.internalPointer() if index.isValid() else None

    # ----------------------------------------------------------------------------------------- data
    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == _DISPLAY:
            return translate("Inspector", self.HEADERS[section])
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.TextAlignmentRole and section == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole and section == 1:
            return translate(
                "Inspector",
                "Milliseconds spent in processor calls (for a stream summary: its per-chunk calls added up)",
            )
        return None

    def data(self, index: AnyIndex, role: int = _DISPLAY) -> Any:
        if not index.isValid():
            return None
        node: Node = index.internalPointer()
        column = index.column()
        if role == _DISPLAY:
            if column == self.NAME:
                return node.label
            if column == self.DURATION:
                return "" if node.kind == "change" else format_ms(node.seconds)
            return outcome_label(node.outcome)
        if role == ENTRY_ROLE:
            return node
        if role == OUTCOME_ROLE:
            return node.outcome
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.DURATION:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole and column == self.OUTCOME and node.outcome:
            return QColor(OUTCOME_COLORS[node.outcome][1])
        if role == Qt.ItemDataRole.ForegroundRole and column == self.OUTCOME and node.outcome:
            return QColor(OUTCOME_COLORS[node.outcome][0])
        if role == Qt.ItemDataRole.FontRole and isinstance(node, RunNode) and column == self.NAME:
            return self._bold
        if role == Qt.ItemDataRole.ToolTipRole and column == self.NAME:
            return _tooltip(node)
        return None

    # ----------------------------------------------------------------------------------------- listener
    def nodes_inserting(self, parent: Node | None, first: int, last: int) -> None:
        self.beginInsertRows(self.index_for(parent), first, last)

    def nodes_inserted(self) -> None:
        self.endInsertRows()

    def nodes_changed(self, nodes: Sequence[Node]) -> None:
        for node in nodes:
            self.dataChanged.emit(self.index_for(node, 0), self.index_for(node, len(self.HEADERS) - 1))

    def tree_resetting(self) -> None:
        self.beginResetModel()

    def tree_reset(self) -> None:
        self.endResetModel()


def _tooltip(node: Node) -> str:
    if isinstance(node, RunNode):
        wall = node.wall_seconds
        lines = [translate("Inspector", "run {id}").format(id=node.run_id)]
        if node.thread_id:
            lines.append(translate("Inspector", "thread {id}").format(id=node.thread_id))
        if wall is not None:
            lines.append(translate("Inspector", "{seconds} s wall time").format(seconds=number(wall, 2)))
        lines.extend(failure.text for failure in node.judge_failures)
        return "\n".join(lines)
    if isinstance(node, CallNode):
        event = node.event
        judge = f"\n{node.judge_failure.text}" if node.judge_failure is not None else ""
        return (
            translate("Inspector", "{processor} in {hook}").format(processor=event.processor_id, hook=event.hook)
            + "\n{} → {}".format(*summaries(event))
            + judge
        )
    return node.label


# --------------------------------------------------------------------------------------------- the lists
Column = tuple[str, Callable[[Any], Any]]


class RowLogModel(QAbstractTableModel):
    """A read-only table over a :class:`~studio.models.trace_rows.RowLog`; subclasses name the columns."""

    COLUMNS: tuple[Column, ...] = ()

    def __init__(self, data: InspectorData, log: RowLog[Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._data = data
        self._log = log
        log.listeners.append(self)

    @property
    def log(self) -> RowLog[Any]:
        return self._log

    def run_label(self, run_id: str) -> str:
        run = self._data.run(run_id)
        return translate("Inspector", "Run {number}").format(number=run.number) if run is not None else run_id

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._log)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == _DISPLAY:
            return translate("Inspector", self.COLUMNS[section][0])
        return None

    def data(self, index: AnyIndex, role: int = _DISPLAY) -> Any:
        if not index.isValid():
            return None
        row = self._log[index.row()]
        if role == _DISPLAY:
            return self.COLUMNS[index.column()][1](row)
        if role == ENTRY_ROLE:
            return row
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(row, index.column())
        return None

    def tooltip(self, row: Any, column: int) -> str | None:
        return None

    # ----------------------------------------------------------------------------------------- listener
    def rows_inserting(self, first: int, last: int) -> None:
        self.beginInsertRows(QModelIndex(), first, last)

    def rows_inserted(self) -> None:
        self.endInsertRows()

    def rows_removing(self, first: int, last: int) -> None:
        self.beginRemoveRows(QModelIndex(), first, last)

    def rows_removed(self) -> None:
        self.endRemoveRows()

    def rows_resetting(self) -> None:
        self.beginResetModel()

    def rows_reset(self) -> None:
        self.endResetModel()


def _text(value: Any) -> str:
    return "" if value is None else short_text(value)


class ChunkLogModel(RowLogModel):
    """The raw chunk log: every chunk of every run, newest last, capped (``log.dropped`` counts the rest)."""

    SEQ, TIME, TYPE, SUMMARY = range(4)

    def __init__(self, data: InspectorData, parent: QObject | None = None) -> None:
        super().__init__(data, data.chunks, parent)
        self.COLUMNS: tuple[Column, ...] = (
            ("#", lambda row: row[trace_rows.SEQ]),
            (QT_TRANSLATE_NOOP("Inspector", "Time"), lambda row: format_clock(row[trace_rows.AT])),
            (QT_TRANSLATE_NOOP("Inspector", "Type"), lambda row: row[trace_rows.TYPE]),
            (QT_TRANSLATE_NOOP("Inspector", "Summary"), lambda row: row[trace_rows.SUMMARY]),
        )

    def known_types(self) -> list[str]:
        """Every chunk type seen so far, in first-seen order (what the type filter offers)."""
        return list(self._data.chunk_types)

    def tooltip(self, row: LogRow, column: int) -> str | None:
        run_id = str(row[trace_rows.RUN_ID])
        return f"{self.run_label(run_id)} ({run_id})"


class DataChunkListModel(RowLogModel):
    """Custom ``data-*`` chunks: #, run, type, id, data."""

    def __init__(self, data: InspectorData, parent: QObject | None = None) -> None:
        super().__init__(data, data.data_chunks, parent)
        self.COLUMNS = (
            ("#", lambda row: row.seq),
            (QT_TRANSLATE_NOOP("Inspector", "Run"), lambda row: self.run_label(row.run_id)),
            (QT_TRANSLATE_NOOP("Inspector", "Type"), lambda row: chunk_type(row.chunk)),
            (QT_TRANSLATE_NOOP("Inspector", "Id"), lambda row: getattr(row.chunk, "id", None) or ""),
            (QT_TRANSLATE_NOOP("Inspector", "Data"), lambda row: chunk_summary(row.chunk)),
        )


class TripwireListModel(RowLogModel):
    """Tripwires that ended runs: run, processor, reason, retry, metadata."""

    def __init__(self, data: InspectorData, parent: QObject | None = None) -> None:
        super().__init__(data, data.tripwires, parent)
        self.COLUMNS = (
            (QT_TRANSLATE_NOOP("Inspector", "Run"), lambda row: self.run_label(row.run_id)),
            (QT_TRANSLATE_NOOP("Inspector", "Processor"), lambda row: row.processor_id or ""),
            (QT_TRANSLATE_NOOP("Inspector", "Reason"), tripwire_text),
            (
                QT_TRANSLATE_NOOP("Inspector", "Retry"),
                lambda row: translate("Inspector", "yes") if row.retry else translate("Inspector", "no"),
            ),
            (QT_TRANSLATE_NOOP("Inspector", "Metadata"), lambda row: _text(row.metadata)),
        )

    def row_of(self, run_id: str) -> int | None:
        return self._data.tripwire_index(run_id)

    def tooltip(self, row: TripwireRow, column: int) -> str | None:
        return tripwire_text(row)


class ViolationListModel(RowLogModel):
    """``on_violation`` reports (aborts, including ones a retry recovered from): run, processor, message, detail."""

    def __init__(self, data: InspectorData, parent: QObject | None = None) -> None:
        super().__init__(data, data.violations, parent)
        self.COLUMNS = (
            (QT_TRANSLATE_NOOP("Inspector", "Run"), lambda row: self.run_label(row.run_id)),
            (QT_TRANSLATE_NOOP("Inspector", "Processor"), lambda row: row.processor_id),
            (QT_TRANSLATE_NOOP("Inspector", "Message"), self.message_text),
            (QT_TRANSLATE_NOOP("Inspector", "Detail"), lambda row: _text(row.detail)),
        )

    def message_text(self, row: ViolationRow) -> str:
        """The report's message: the run's tripwire translated by its code when this report is that abort (same
        processor, same text), else as the processor wrote it."""
        index = self._data.tripwire_index(row.run_id)
        tripwire = self._data.tripwires[index] if index is not None else None
        same = tripwire is not None and tripwire.processor_id in (None, row.processor_id)
        if tripwire is not None and same and tripwire.reason == row.message:
            return tripwire_text(tripwire)
        return tripwire_text({"reason": row.message, "code": row.code, "params": row.params})  # by its code, if any

    def tooltip(self, row: ViolationRow, column: int) -> str | None:
        return self.message_text(row)


# --------------------------------------------------------------------------------------------- filtering
class ChunkTypeFilterModel(QSortFilterProxyModel):
    """The raw log filtered by chunk type: a known type matches exactly, other text matches as a substring."""

    def __init__(self, source: ChunkLogModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self.setSourceModel(source)
        self.setFilterKeyColumn(ChunkLogModel.TYPE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._type_filter = ""

    @property
    def type_filter(self) -> str:
        return self._type_filter

    def set_type_filter(self, text: str) -> None:
        text = text.strip()
        self._type_filter = text
        if not text:
            pattern = ""
        elif text in self._source.known_types():
            pattern = f"^{QRegularExpression.escape(text)}$"
        else:
            pattern = QRegularExpression.escape(text)
        self.setFilterRegularExpression(pattern)


def summaries(event: Any) -> tuple[str, str]:
    """What went into a hook call and came out, in the studio's language: a stream step's from its chunk counts
    (``chunk_stats``), a message list's summary by its code (an event stored before codes: as written)."""
    stats = getattr(event, "chunk_stats", None)
    if isinstance(stats, dict) and "count" in stats:
        before = translate("RuntimeText", "{count} chunks").format(count=stats.get("count", 0))
        after = translate("RuntimeText", "{changed} changed, {held} held, {dropped} dropped").format(
            **{key: stats.get(key, 0) for key in ("changed", "held", "dropped")}
        )
        return before, after
    return shown_problem(event.before), shown_problem(event.after)
