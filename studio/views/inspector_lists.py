"""The inspector's list tabs: flat views over the side-list models, and the raw chunk log with its type filter."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.models.trace_model import ChunkLogModel, ChunkTypeFilterModel
from studio.texts.translator import number
from studio.views.capped_width import CappedComboBox

ALL_TYPES = ""


def list_view(model: QAbstractItemModel, object_name: str, widths: Sequence[int] = ()) -> QTableView:
    """A flat, fast list: a table with fixed row heights (nothing is measured per row), whole-row selection."""
    view = QTableView()
    view.setObjectName(object_name)
    view.setModel(model)
    view.setShowGrid(False)
    view.setWordWrap(False)
    view.setAlternatingRowColors(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    rows = view.verticalHeader()
    rows.setVisible(False)
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(view.fontMetrics().height() + 4)
    columns = view.horizontalHeader()
    columns.setStretchLastSection(True)
    columns.setHighlightSections(False)
    columns.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    scale = max(1.0, view.fontMetrics().horizontalAdvance("M") / 10)
    for column, width in enumerate(widths):
        columns.resizeSection(column, int(width * scale))
    return view


class ChunkLogPane(QWidget):
    """The raw chunk log: a type filter (pick a seen type, or type part of one), a note when rows were dropped."""

    def __init__(self, model: ChunkLogModel, proxy: ChunkTypeFilterModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._proxy = proxy
        self.type_filter = CappedComboBox(self)  # 22 characters, but no wider a minimum than at 100 % text size
        self.type_filter.setObjectName("inspector_chunk_type_filter")
        self.type_filter.setEditable(True)
        self.type_filter.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        editor = self.type_filter.lineEdit()
        if editor is not None:
            editor.setPlaceholderText(translate("Inspector", "All types"))
        self.type_filter.setMinimumContentsLength(22)
        self.type_filter.addItem(ALL_TYPES)
        self.note = QLabel(self)
        self.note.setObjectName("inspector_chunk_note")
        self.note.setStyleSheet("color: #777")
        self.view = list_view(proxy, "inspector_raw_chunks", (60, 100))
        type_width = self.view.fontMetrics().horizontalAdvance("tool-call-input-streaming-start") + 16
        self.view.horizontalHeader().resizeSection(ChunkLogModel.TYPE, type_width)

        bar = QHBoxLayout()
        bar.addWidget(QLabel(translate("Inspector", "Type:"), self))
        bar.addWidget(self.type_filter)
        bar.addStretch(1)
        bar.addWidget(self.note)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addLayout(bar)
        layout.addWidget(self.view)

        self._follow = True
        self.type_filter.currentTextChanged.connect(self._on_type_filter_text_changed)
        proxy.rowsAboutToBeInserted.connect(self._on_proxy_rows_about_to_be_inserted)
        proxy.rowsInserted.connect(self._on_proxy_rows_inserted)

    def after_flush(self) -> None:
        """Offer newly seen types in the filter and say how many old rows the cap dropped."""
        known = self._model.known_types()
        if len(known) != self.type_filter.count() - 1:
            offered = {self.type_filter.itemText(i) for i in range(1, self.type_filter.count())}
            if len(offered) > len(known):  # cleared
                text = self.type_filter.currentText()
                self.type_filter.clear()
                self.type_filter.addItem(ALL_TYPES)
                self.type_filter.setEditText(text)
                offered = set()
            self.type_filter.addItems([kind for kind in known if kind not in offered])
        log = self._model.log
        dropped = translate("Inspector", "Showing the last {shown} chunks ({dropped} older dropped)").format(
            shown=number(len(log)), dropped=number(log.dropped)
        )
        self.note.setText(dropped if log.dropped else "")

    @Slot(str)
    def _on_type_filter_text_changed(self, text: str) -> None:
        self._proxy.set_type_filter(text)

    @Slot(QModelIndex, int, int)
    def _on_proxy_rows_about_to_be_inserted(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        bar = self.view.verticalScrollBar()
        self._follow = bar.value() >= bar.maximum()

    @Slot(QModelIndex, int, int)
    def _on_proxy_rows_inserted(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        if self._follow:
            self.view.scrollToBottom()
