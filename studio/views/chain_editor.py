"""``ChainEditor``: the three processor chains of a design (Input, Output, Error), side by side.

Each chain is a ``QListView`` (object names ``chain.input``, ``chain.output``, ``chain.error``) over a
:class:`~studio.models.chain_model.ChainModel`. A lane is never narrower than an entry's name needs to be read
(:data:`LANE_CHARACTERS` characters and its check box); where the three do not fit side by side (200 % text size on
a laptop) they scroll sideways (``chain.lanes``), and a lane scrolls into sight when it takes the keyboard or a drag
nears the edge. Drop processors from the palette, drag entries to reorder them or
to move them to another lane (hold Ctrl to copy). A drop the lane refuses shows its reason in an inline message
(``chain.message``, under the lanes: it covers no entry) for a few seconds and in
:attr:`ChainEditor.status_message`. Under the lanes, a hint bar
(:class:`~studio.views.design_hint_bar.DesignHintBar`) says when the agent's tools return text no detector checks.

Keyboard, in a chain: Space enables/disables, Delete removes, Ctrl+Up/Down reorders, Ctrl+Left/Right moves to
the previous/next lane. Undo and redo are the window's: :meth:`ChainEditor.undo_action` and
:meth:`ChainEditor.redo_action` (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y) — put them in the Edit menu.

Wiring in a window::

    chains = ChainEditor(document)
    palette.add_requested.connect(chains.add_entry)          # Enter / double-click in the palette
    chains.entry_selected.connect(options_form.show_entry)   # the selected entry's options
    chains.status_message.connect(status_bar.showMessage)
    edit_menu.addActions([chains.undo_action(), chains.redo_action()])
"""

from __future__ import annotations

import math

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QDragEnterEvent,
    QDragMoveEvent,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListView,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from processors.pipeline.processor import LANE_HOOKS
from studio.design.agent_design import LANES, ChainEntry
from studio.i18n import translate
from studio.models.chain_model import UID_ROLE, ChainModel
from studio.models.design_document import DesignDocument
from studio.models.editor_commands import AddEntry, MoveEntry, RemoveEntry, ToggleEntry
from studio.models.palette_model import lane_title
from studio.texts.translator import QT_TRANSLATE_NOOP
from studio.views.design_hint_bar import DesignHintBar
from studio.views.drag_image import exec_compact_drag

__all__ = [
    "LANE_CHARACTERS",
    "MESSAGE_TIMEOUT_MS",
    "NAME_LINES",
    "ChainEditor",
    "ChainListView",
    "entry_tooltip",
    "wrap_name",
]

#: How long a refused-drop reason stays on screen.
MESSAGE_TIMEOUT_MS = 6000

_MIN_ROW_WIDTH = 80

#: How a delegate's display text breaks its lines (Qt turns the model's "\n" into it).
_LINE_SEPARATOR = "\u2028"

#: Characters of an entry's name a lane always has room for, beside its check box. At 200 % text size the three
#: lanes shared ~430 px and each showed two or three letters of a name ("U…"); at 100 % this is under the lanes'
#: 120 px floor, so the layout there is unchanged.
LANE_CHARACTERS = 12

#: Lines an entry's name may take in a lane before it is elided: the longest built-in name ("Prompt injection
#: detector") takes three at a lane's narrowest.
NAME_LINES = 3

#: The lanes' minimum width at 100 % text size: three fit a 1280-pixel window beside the chat and inspector.
_LANE_FLOOR = 120

#: How near a lane's edge a drag scrolls the lanes sideways (px), and by how much a move there.
_DRAG_SCROLL_MARGIN, _DRAG_SCROLL_STEP = 24, 24

_EMPTY_HINTS = {
    "input": QT_TRANSLATE_NOOP("ChainEditor", "Drop input processors here"),
    "output": QT_TRANSLATE_NOOP("ChainEditor", "Drop output processors here"),
    "error": QT_TRANSLATE_NOOP("ChainEditor", "Drop error processors here"),
}


def text_height(text: str, font: QFont) -> int:
    """The height ``text``'s lines take when laid out, fallback fonts included: Chinese glyphs come from a CJK font
    taller than the widget's, so ``QFontMetrics.height()`` per line falls short and the second line was cut off."""
    total = 0.0
    for line_text in text.split("\n"):
        layout = QTextLayout(line_text, font)
        layout.beginLayout()
        line = layout.createLine()
        line.setLineWidth(1_000_000)
        layout.endLayout()
        total += line.height()
    return math.ceil(total)


class _FitWidthDelegate(QStyledItemDelegate):
    """Rows as wide as the chain instead of a horizontal scroll bar for a long summary: an entry's name wraps onto
    up to :data:`NAME_LINES` lines (at 100 % on a laptop a lane showed "Prompt inject…", at 200 % "Unicode Nor…"),
    its options summary stays one line, elided; each row as tall as its lines really are, in every script. The
    tooltip starts with the whole name and summary, then the model's (the type's description, problems)."""

    def __init__(self, parent: QListView) -> None:
        super().__init__(parent)
        self._forced_row_width: int | None = None  # set by height_at

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        lines = str(option.text).split(_LINE_SEPARATOR)  # the delegate's display text breaks lines with U+2028
        width = self._text_width(option)
        if width > 0 and lines[0]:
            lines[:1] = wrap_name(lines[0], option.font, width)
        option.text = _LINE_SEPARATOR.join(lines)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        shown = QStyleOptionViewItem(option)
        self.initStyleOption(shown, index)
        text = str(shown.text).replace(_LINE_SEPARATOR, "\n")
        margin = hint.height() - (text.count("\n") + 1) * option.fontMetrics.height()  # the style's own padding
        return QSize(min(hint.width(), _MIN_ROW_WIDTH), max(hint.height(), text_height(text, option.font) + margin))

    def helpEvent(
        self,
        event: QHelpEvent,
        view: QAbstractItemView,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> bool:
        if event.type() != QEvent.Type.ToolTip or not index.isValid():
            return super().helpEvent(event, view, option, index)
        QToolTip.showText(event.globalPos(), entry_tooltip(index), view)
        return True

    def height_at(self, option: QStyleOptionViewItem, index: QModelIndex, row_width: int) -> int:
        """The row's height were it ``row_width`` pixels wide (its name wraps onto more lines when narrower)."""
        self._forced_row_width = row_width
        try:
            return self.sizeHint(option, index).height()
        finally:
            self._forced_row_width = None

    def _text_width(self, option: QStyleOptionViewItem) -> int:
        """The width the style gives a row's text: the row (the list's viewport, as wide as its rows) less the check
        box, the icon and the text's margins."""
        view = self.parent()
        row = QStyleOptionViewItem(option)
        if self._forced_row_width is not None:
            row.rect = QRect(0, 0, self._forced_row_width, 1_000)
        elif isinstance(view, QListView):
            row.rect = QRect(0, 0, view.viewport().width() - 2 * view.spacing(), 1_000)
        if row.rect.width() <= 0:
            return 0
        widget = view if isinstance(view, QWidget) else None
        style = widget.style() if widget is not None else QApplication.style()
        text = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, row, widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        return text.width() - 2 * margin - 1  # a pixel spare: the style elides a line a rounding wider


def wrap_name(name: str, font: QFont, width: int, most: int | None = None) -> list[str]:
    """``name`` in lines at most ``width`` pixels wide, broken between words where it can (anywhere in a word longer
    than the width, and between Chinese characters); past ``most`` lines (default :data:`NAME_LINES`) the last shown
    line ends in an ellipsis."""
    most = NAME_LINES if most is None else most
    layout = QTextLayout(name, font)
    text_option = QTextOption()
    text_option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(text_option)
    layout.beginLayout()
    spans: list[tuple[int, int]] = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        spans.append((line.textStart(), line.textLength()))
    layout.endLayout()
    lines = [name[start : start + length].strip() for start, length in spans] or [name]
    if len(lines) > most:
        rest = name[spans[most - 1][0] :].strip()
        lines = [*lines[: most - 1], QFontMetrics(font).elidedText(rest, Qt.TextElideMode.ElideRight, width)]
    return lines


def entry_tooltip(index: QModelIndex | QPersistentModelIndex) -> str:
    """A chain row's tooltip: its whole name and options summary, then what the model says of it."""
    shown = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
    more = str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
    return f"{shown}\n\n{more}" if more and more != shown else shown


class ChainListView(QListView):
    """A chain's list: drag source and drop target, with a hint painted while the chain is empty."""

    def __init__(self, lane: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._lane = lane
        self.setObjectName(f"chain.{lane}")
        self.setAccessibleName(translate("ChainEditor", "{lane} chain").format(lane=lane_title(lane)))
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDragDropOverwriteMode(False)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setItemDelegate(_FitWidthDelegate(self))
        self.setSpacing(1)

    def lane(self) -> str:
        return self._lane

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is not None:  # the minimum is one whole entry: it changes with the first entry's lines
            for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved, model.rowsMoved, model.dataChanged):
                signal.connect(self.updateGeometry)

    def minimumSizeHint(self) -> QSize:
        """At least one whole entry (its lines, its name wrapped as it is at this minimum width): at large text on a
        short screen the list was squeezed to part of one, nothing to read or to drag; and wide enough to read
        :data:`LANE_CHARACTERS` of its name."""
        hint = super().minimumSizeHint()
        width = max(_LANE_FLOOR, self.readable_width())
        model = self.model()
        delegate = self.itemDelegate()
        if model is not None and model.rowCount() and isinstance(delegate, _FitWidthDelegate):
            option = QStyleOptionViewItem()
            self.initViewItemOption(option)
            scroll_bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
            row_width = width - 2 * (self.frameWidth() + self.spacing()) - scroll_bar
            row = delegate.height_at(option, model.index(0, 0), row_width)
        else:
            row = 2 * self.fontMetrics().height()
        return QSize(width, max(hint.height(), row + 2 * (self.frameWidth() + self.spacing())))

    def readable_width(self) -> int:
        """The width that shows :data:`LANE_CHARACTERS` characters of an entry beside its check box and the list's
        scroll bar."""
        style = self.style()
        check = style.pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth, None, self)
        gaps = 4 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1) + 2 * self.spacing()
        scroll_bar = style.pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        text = LANE_CHARACTERS * self.fontMetrics().averageCharWidth()
        return text + check + gaps + scroll_bar + 2 * self.frameWidth()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.scheduleDelayedItemsLayout()  # the names wrap again, the rows take their new heights

    def startDrag(self, supportedActions: Qt.DropAction) -> None:
        exec_compact_drag(self, supportedActions)  # the entry at its own size, not a full-width bar

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        model = self.model()
        if model is not None and model.rowCount() == 0:
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().placeholderText().color())
            rect = self.viewport().rect().adjusted(8, 8, -8, -8)
            flags = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap
            painter.drawText(rect, flags, translate("ChainEditor", _EMPTY_HINTS[self._lane]))
            painter.end()


class _LanesScroll(QScrollArea):
    """The lanes side by side, scrolling sideways where the editor is narrower than their minimum."""

    def __init__(self, lanes: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chain.lanes")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a frame around the lanes: Tab goes to the lanes themselves
        self.setWidgetResizable(True)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the lanes scroll their entries
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWidget(lanes)
        self.viewport().setAutoFillBackground(False)
        lanes.setAutoFillBackground(False)

    def minimumSizeHint(self) -> QSize:
        """As wide as three lanes at their 100 % minimum (wider lanes scroll instead of widening the window), and as
        tall as the lanes' minimum with the sideways scroll bar under them."""
        content = self.widget()
        if content is None:
            return super().minimumSizeHint()
        least = content.minimumSizeHint()
        layout = content.layout()
        spacing = layout.spacing() if layout is not None else 0
        width = min(least.width(), len(LANES) * _LANE_FLOOR + (len(LANES) - 1) * spacing)
        return QSize(width, least.height() + self.horizontalScrollBar().sizeHint().height())

    def sizeHint(self) -> QSize:
        content = self.widget()
        return super().sizeHint() if content is None else content.sizeHint()

    def scroll_near_edge(self, x: int) -> None:
        """A drag at ``x`` (this area's viewport coordinates): near an edge, scroll the lanes that way."""
        bar = self.horizontalScrollBar()
        if x < _DRAG_SCROLL_MARGIN:
            bar.setValue(bar.value() - _DRAG_SCROLL_STEP)
        elif x > self.viewport().width() - _DRAG_SCROLL_MARGIN:
            bar.setValue(bar.value() + _DRAG_SCROLL_STEP)


class ChainEditor(QWidget):
    """The Input, Output and Error chains of a :class:`DesignDocument`; every edit is an undo command."""

    #: The selected entry changed: its uid, or "" when nothing is selected.
    entry_selected = Signal(str)
    #: A message for the window's status bar (a refused drop's reason, ...).
    status_message = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chain_editor")
        self._document = document
        self._models: dict[str, ChainModel] = {}
        self._views: dict[str, ChainListView] = {}
        self._current_lane: str = LANES[0]

        stack = document.undo_stack()
        self._undo_action = stack.createUndoAction(self, translate("ChainEditor", "&Undo"))
        self._undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self._redo_action = stack.createRedoAction(self, translate("ChainEditor", "&Redo"))
        redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        if QKeySequence("Ctrl+Shift+Z") not in redo_keys:  # the platform's Redo may be Ctrl+Y only
            redo_keys.insert(0, QKeySequence("Ctrl+Shift+Z"))
        self._redo_action.setShortcuts(redo_keys)

        self._message = QLabel(self)
        self._message.setObjectName("chain.message")
        self._message.setWordWrap(True)
        self._message.setAccessibleName(translate("ChainEditor", "Chain editor message"))
        self._message.setStyleSheet(
            "QLabel { background: palette(tool-tip-base); color: palette(tool-tip-text);"
            " border: 1px solid #c0392b; border-radius: 3px; padding: 4px 6px; }"
        )
        self._message.hide()
        self._message_timer = QTimer(self)
        self._message_timer.setSingleShot(True)
        self._message_timer.setInterval(MESSAGE_TIMEOUT_MS)
        self._message_timer.timeout.connect(self._on_message_timer_timeout)

        lanes = QWidget(self)
        lanes_row = QHBoxLayout(lanes)
        lanes_row.setContentsMargins(0, 0, 0, 0)
        lanes_row.setSpacing(8)
        for lane in LANES:
            lanes_row.addLayout(self._build_lane(lane), 1)
        #: The lanes, scrolling sideways when the editor is too narrow for them.
        self.lanes_area = _LanesScroll(lanes, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.lanes_area, 1)
        # Under the lanes, not over them: painted over the lanes it hid their last entries. Their tops stay put
        # while it shows (the lanes only get shorter), so the entry under a dragging pointer does not move.
        layout.addWidget(self._message)
        #: The design's hint (tools whose results no detector checks), under the lanes; hidden when there is none.
        self.hint_bar = DesignHintBar(document, self)
        layout.addWidget(self.hint_bar)

        document.entry_inserted.connect(self._on_document_entry_inserted)
        document.entry_moved.connect(self._on_document_entry_moved)

    # ------------------------------------------------------------------------------------------- public
    def undo_action(self) -> QAction:
        """The document's undo action (Ctrl+Z), for the window's Edit menu and toolbar."""
        return self._undo_action

    def redo_action(self) -> QAction:
        """The document's redo action (Ctrl+Shift+Z, Ctrl+Y), for the window's Edit menu and toolbar."""
        return self._redo_action

    def view(self, lane: str) -> ChainListView:
        return self._views[lane]

    def model(self, lane: str) -> ChainModel:
        return self._models[lane]

    def current_lane(self) -> str:
        """The lane whose chain was focused or selected last (where :meth:`add_entry` adds without a lane)."""
        return self._current_lane

    def selected_uid(self) -> str:
        view = self._views[self._current_lane]
        index = view.currentIndex()
        return index.data(UID_ROLE) if index.isValid() and view.selectionModel().isSelected(index) else ""

    def message_text(self) -> str:
        """The inline message on screen, or "" when none is."""
        return self._message.text() if not self._message.isHidden() else ""

    def set_message_timeout(self, milliseconds: int) -> None:
        """How long an inline message stays (default :data:`MESSAGE_TIMEOUT_MS`)."""
        self._message_timer.setInterval(milliseconds)

    @Slot(str)
    def show_message(self, text: str) -> None:
        """Show ``text`` inline for a few seconds, and send it to the status bar."""
        self._message.setText(text)
        self._message.show()
        self._message_timer.start()
        self.status_message.emit(text)

    @Slot(str, str)
    def add_entry(self, type_name: str, lane: str = "") -> None:
        """Add ``type_name`` at the end of ``lane`` (default: the current lane, else the first lane it fits)."""
        fitting = self._document.fitting_lanes(type_name)
        if not lane:
            lane = self._current_lane if self._current_lane in fitting else (fitting[0] if fitting else "")
        reason = self._document.can_place(type_name, lane or self._current_lane)
        if reason is not None:
            self.show_message(reason)
            return
        entry = ChainEntry(type=type_name)
        self._document.undo_stack().push(AddEntry(self._document, lane, len(self._document.chain(lane)), entry))

    def select(self, uid: str, *, focus: bool = True) -> None:
        """Select the entry ``uid`` in its chain (and give that chain the keyboard focus)."""
        found = self._document.locate(uid)
        if found is None:
            return
        lane, row = found
        view = self._views[lane]
        index = self._models[lane].index(row, 0)
        view.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        view.scrollTo(index)
        if focus:
            view.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------------------------------ actions
    @Slot()
    def toggle_selected(self) -> None:
        entry = self._selected_entry()
        if entry is not None:
            self._document.undo_stack().push(ToggleEntry(self._document, entry.uid, not entry.enabled))

    @Slot()
    def remove_selected(self) -> None:
        entry = self._selected_entry()
        if entry is None:
            return
        lane, row = self._document.locate(entry.uid) or (self._current_lane, 0)
        self._document.undo_stack().push(RemoveEntry(self._document, entry.uid))
        remaining = self._models[lane].rowCount()
        if remaining:
            self.select(self._models[lane].entry_at(min(row, remaining - 1)).uid)  # type: ignore[union-attr]

    @Slot()
    def move_selected_up(self) -> None:
        self._move_selected_within(-1)

    @Slot()
    def move_selected_down(self) -> None:
        self._move_selected_within(+1)

    @Slot()
    def move_selected_to_previous_lane(self) -> None:
        self._move_selected_across(-1)

    @Slot()
    def move_selected_to_next_lane(self) -> None:
        self._move_selected_across(+1)

    # ---------------------------------------------------------------------------------------- internals
    def _build_lane(self, lane: str) -> QVBoxLayout:
        title = QLabel(f"<b>{lane_title(lane)}</b>", self)
        title.setObjectName(f"chain.{lane}.title")
        hooks = ", ".join(LANE_HOOKS[lane])  # type: ignore[index]
        title.setToolTip(translate("ChainEditor", "Hooks run from this lane: {hooks}").format(hooks=hooks))
        model = ChainModel(self._document, lane, self)
        view = ChainListView(lane, self)
        view.setModel(model)
        view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        title.setBuddy(view)
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)
        model.drop_refused.connect(self.show_message)
        view.selectionModel().currentChanged.connect(self._on_view_current_changed)
        view.selectionModel().selectionChanged.connect(self._on_view_selection_changed)
        for text, keys, slot in (
            (translate("ChainEditor", "Enable/Disable"), [QKeySequence(Qt.Key.Key_Space)], self.toggle_selected),
            (translate("ChainEditor", "Remove"),
             [QKeySequence(QKeySequence.StandardKey.Delete), QKeySequence(Qt.Key.Key_Backspace)], self.remove_selected),
            (translate("ChainEditor", "Move Up"), [QKeySequence("Ctrl+Up")], self.move_selected_up),
            (translate("ChainEditor", "Move Down"), [QKeySequence("Ctrl+Down")], self.move_selected_down),
            (translate("ChainEditor", "Move to Previous Lane"), [QKeySequence("Ctrl+Left")],
             self.move_selected_to_previous_lane),
            (translate("ChainEditor", "Move to Next Lane"), [QKeySequence("Ctrl+Right")],
             self.move_selected_to_next_lane),
        ):  # fmt: skip
            action = QAction(text, view)
            action.setShortcuts(keys)
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            action.triggered.connect(slot)
            view.addAction(action)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._models[lane] = model
        self._views[lane] = view
        column = QVBoxLayout()
        column.setSpacing(2)
        column.addWidget(title)
        column.addWidget(view, 1)
        return column

    def _selected_entry(self) -> ChainEntry | None:
        uid = self.selected_uid()
        return self._document.entry(uid) if uid else None

    def _move_selected_within(self, step: int) -> None:
        entry = self._selected_entry()
        found = self._document.locate(entry.uid) if entry else None
        if entry is None or found is None:
            return
        lane, row = found
        target = row + step
        if 0 <= target < len(self._document.chain(lane)):
            self._document.undo_stack().push(MoveEntry(self._document, entry.uid, lane, target))

    def _move_selected_across(self, step: int) -> None:
        entry = self._selected_entry()
        found = self._document.locate(entry.uid) if entry else None
        if entry is None or found is None:
            return
        lane, row = found
        position = LANES.index(lane) + step
        if not 0 <= position < len(LANES):
            return
        target = LANES[position]
        reason = self._document.can_place(entry.type, target)
        if reason is not None:
            self.show_message(reason)
            return
        index = min(row, len(self._document.chain(target)))
        self._document.undo_stack().push(MoveEntry(self._document, entry.uid, target, index))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and isinstance(
            event, QDragEnterEvent | QDragMoveEvent
        ):
            lane = self._lane_of(watched)
            if lane is not None:  # say why before the drop, while the "no drop" cursor shows
                reason = self._models[lane].refusal(event.mimeData())
                if reason is not None and reason != self.message_text():
                    self.show_message(reason)
                if isinstance(watched, QWidget):  # near the edge of the lanes in sight: the next lane scrolls in
                    where = watched.mapTo(self.lanes_area.viewport(), event.position().toPoint())
                    self.lanes_area.scroll_near_edge(where.x())
        elif kind == QEvent.Type.FocusIn:
            lane = self._lane_of(watched)
            if lane is not None:
                self._current_lane = lane
                self.lanes_area.ensureWidgetVisible(self._views[lane], 0, 0)
        return super().eventFilter(watched, event)

    def _lane_of(self, watched: QObject) -> str | None:
        for lane, view in self._views.items():
            if watched is view or watched is view.viewport():
                return lane
        return None

    @Slot(QModelIndex, QModelIndex)
    def _on_view_current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        if current.isValid():
            model = current.model()
            lane = model.lane() if isinstance(model, ChainModel) else self._current_lane
            self._current_lane = lane

    @Slot()
    def _on_view_selection_changed(self) -> None:
        sender_lane = next((lane for lane, view in self._views.items() if view.selectionModel() is self.sender()), None)
        if sender_lane is not None and self._views[sender_lane].selectionModel().hasSelection():
            self._current_lane = sender_lane
            for lane, view in self._views.items():  # one selection across the three chains
                if lane != sender_lane and view.selectionModel().hasSelection():
                    view.selectionModel().clearSelection()
        self.entry_selected.emit(self.selected_uid())

    @Slot(str, int)
    def _on_document_entry_inserted(self, lane: str, index: int) -> None:
        entry = self._models[lane].entry_at(index)
        if entry is not None:  # a new (or restored) entry is selected, so its options show
            self.select(entry.uid, focus=self._chain_has_focus())

    @Slot(str, int, str, int)
    def _on_document_entry_moved(self, from_lane: str, from_index: int, to_lane: str, to_index: int) -> None:
        entry = self._models[to_lane].entry_at(to_index)
        if entry is not None:  # the moved entry stays selected, so keyboard moves can repeat
            self.select(entry.uid, focus=self._chain_has_focus())

    def _chain_has_focus(self) -> bool:
        return any(view.hasFocus() for view in self._views.values())

    @Slot()
    def _on_message_timer_timeout(self) -> None:
        self._message.hide()
