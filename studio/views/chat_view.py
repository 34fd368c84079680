"""The live chat: a virtualised message list over :class:`~studio.models.chat_model.ChatListModel`, and the input.

``ChatView`` (a ``QWidget``) is thin: it shows the model, and turns key presses and clicks into requests
(``send_requested``, ``stop_requested``, ``tripwire_clicked``). Object names for automation: ``chat.view`` (the
message list), ``chat.input``, ``chat.send``, ``chat.stop``.

The message list (:class:`ChatListView`, a ``QAbstractItemView``) creates no widget per message. It paints the
visible rows only, each from one cached ``QTextDocument`` per item (:class:`MessageRenderer`); rows it has not
painted yet have an estimated height, so a thread of 10,000 messages opens by measuring a screenful. Streamed text
arrives as batched ``dataChanged`` (at most one per 50 ms frame, see ``ChatListModel``), and the reply being
streamed is updated in place: finished paragraphs are appended as markdown once, only the paragraph still growing
is rendered again each frame, and when the reply ends that paragraph is settled. So a frame costs the same for a
long reply as for a short one. A reply is re-rendered only from a step whose shape changed (a tool card, a
retry), never from the top.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QRegion,
    QResizeEvent,
    QShortcut,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFrameFormat,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from studio.models.chat_model import (
    ITEM_ROLE,
    AssistantItem,
    ChatItem,
    ChatListModel,
    DataBlock,
    ErrorItem,
    StepSegment,
    ToolCard,
    TripwireItem,
    UserItem,
    short_json,
)

# ---------------------------------------------------------------------------------------------------- look
_GAP = 8  # between rows
_SIDE = 12  # left/right margin of the list
_INDENT = 56  # how far user bubbles sit from the left edge and assistant bubbles from the right one
_PAD = 10  # inside a bubble
_RADIUS = 8.0
#: A paragraph still growing is committed anyway once this long (a reply without blank lines).
_TAIL_LIMIT = 3000
_CACHE_SIZE = 256

_TEXT = QColor("#1f2328")
_MUTED = QColor("#656d76")
_LINK = QColor("#0969da")
_COLOURS: dict[str, tuple[QColor, QColor]] = {  # kind → (background, border)
    "user": (QColor("#ddeeff"), QColor("#b6d4f2")),
    "assistant": (QColor("#f6f8fa"), QColor("#d8dee4")),
    "tripwire": (QColor("#fff1e5"), QColor("#d1242f")),
    "error": (QColor("#ffebe9"), QColor("#cf222e")),
}
_CARD_BG = QColor("#ffffff")
_CODE_BG = QColor("#eaeef2")
_CARD_BORDER = QColor("#c9d1d9")
_RETRY = QColor("#9a6700")
_STRIKE = QColor("#8c959f")

_PLACEHOLDER = "\u2063"  # an invisible separator
_TOOL_HREF = "tool:"
_TRIPWIRE_HREF = "tripwire:"


def _fmt(
    *, colour: QColor | None = None, bold: bool = False, italic: bool = False, size: float | None = None,
    family: QFont | None = None, href: str | None = None,
) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if family is not None:
        fmt.setFont(family)
    if colour is not None:
        fmt.setForeground(colour)
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    if italic:
        fmt.setFontItalic(True)
    if size is not None:
        fmt.setFontPointSize(size)
    if href is not None:
        fmt.setAnchor(True)
        fmt.setAnchorHref(href)
    return fmt


def _new_block(cursor: QTextCursor, first: list[bool]) -> None:
    """Start a fresh, plainly formatted block at the cursor (an empty block there, e.g. after a frame, is reused)."""
    if first[0]:
        first[0] = False
        return
    if cursor.block().length() == 1 and cursor.currentFrame() is cursor.document().rootFrame():
        cursor.setBlockFormat(QTextBlockFormat())
        cursor.setCharFormat(QTextCharFormat())
        return
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())


_MASK_RUN = re.compile(r"(?<![\\*])\*{3,}")


def escape_masks(markdown: str) -> str:
    """Keep redaction masks (``j***n@*****.com``, ``*** *** 2042``) literal: three or more asterisks in a row are
    a mask, not emphasis. A line of asterisks alone is left to be a horizontal rule."""
    if "***" not in markdown:
        return markdown
    lines = []
    for line in markdown.split("\n"):
        if line.strip().strip("*") == "" or "***" not in line:
            lines.append(line)
        else:
            lines.append(_MASK_RUN.sub(lambda match: "\\*" * len(match.group(0)), line))
    return "\n".join(lines)


def insert_markdown(cursor: QTextCursor, markdown: str) -> None:
    """Insert markdown at the cursor, which must be in an empty block, keeping the first block's own format.

    ``QTextCursor.insertMarkdown`` merges the first inserted block into the current one and loses its format (a
    heading or a list item would become a plain paragraph); a throw-away first paragraph avoids that.
    """
    if not markdown.strip():
        return
    markdown = escape_masks(markdown)
    start = cursor.position()
    cursor.insertMarkdown(_PLACEHOLDER + "\n\n" + markdown)
    document = cursor.document()
    block = document.findBlock(start)
    while block.isValid() and block.position() <= cursor.position():
        if block.text().startswith(_PLACEHOLDER):
            placeholder = QTextCursor(block)
            following = block.next()
            if block.length() == 2 and following.isValid():  # its own paragraph: drop the whole block
                placeholder.setPosition(following.position(), QTextCursor.MoveMode.KeepAnchor)
            else:  # odd markdown (a bare list marker) put it elsewhere: drop the character
                placeholder.movePosition(QTextCursor.MoveOperation.NextCharacter, QTextCursor.MoveMode.KeepAnchor)
            placeholder.removeSelectedText()
            break
        block = block.next()
    if "```" in markdown or "~~~" in markdown or "\n    " in markdown:  # shade code blocks
        block = cursor.document().findBlock(start)
        end = cursor.block()
        while block.isValid():
            if block.blockFormat().nonBreakableLines():
                shade = QTextCursor(block)
                fmt = QTextBlockFormat()
                fmt.setBackground(_CODE_BG)
                shade.mergeBlockFormat(fmt)
            if block == end:
                break
            block = block.next()


def split_markdown(text: str) -> tuple[str, str]:
    """Split streamed markdown into the finished paragraphs and the part still growing.

    The cut is after the last blank line outside a code fence; a growing part longer than ``_TAIL_LIMIT`` without
    one is cut at its last line break (outside a fence).
    """
    lines = text.split("\n")
    offset = 0
    fence = False
    cut = 0
    soft = 0
    for line in lines[:-1]:  # the last piece is an unfinished line
        end = offset + len(line) + 1
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            fence = not fence
        elif not fence:
            if stripped:
                soft = end
            else:
                cut = end
        offset = end
    if len(text) - cut > _TAIL_LIMIT and soft > cut:
        cut = soft
    return text[:cut], text[cut:]


@dataclass(eq=False)
class _Doc:
    """An item's rendered document, and what is needed to update it in place.

    For replies: each step's signature and where its blocks begin, so a change re-renders from the first changed
    step on; and the growing tail of the step being streamed, so new deltas are appended without re-rendering.
    """

    doc: QTextDocument
    revision: int = -1
    kind: str = ""
    status: str = ""
    signatures: list[tuple[Any, ...]] = field(default_factory=list)
    #: Document position where each step's blocks begin (the end of what precedes them).
    starts: list[int] = field(default_factory=list)
    #: Where the "Stopped" line begins, when there is one.
    trailer: int | None = None
    #: The step whose text (or reasoning) is the document's growing end; None when nothing grows.
    live: StepSegment | None = None
    live_kind: str = ""
    #: How many of the growing block's deltas are in the document.
    seen: int = 0
    #: Growing markdown not committed yet; it is rendered from ``tail_pos`` to the end of the document.
    tail: str = ""
    tail_pos: int = 0


def _signature(step: StepSegment) -> tuple[Any, ...]:
    """What decides how a step looks, except its text and reasoning growing at the end."""
    cards = tuple((card.state, card.expanded, len(card.args_text)) for card in step.tool_cards)
    return id(step), bool(step.texts), bool(step.reasoning_parts), cards, len(step.data), step.retracted, step.feedback


class MessageRenderer:
    """Renders chat items with one cached ``QTextDocument`` each; measures, estimates, paints and hit-tests them."""

    def __init__(self, font: QFont) -> None:
        self.font = QFont(font)
        self.mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.mono.setPointSizeF(max(7.0, self.font.pointSizeF() - 1))
        self.small = max(7.0, self.font.pointSizeF() - 1.5)
        metrics = QFontMetricsF(self.font)
        self._line = metrics.lineSpacing()
        self._char = max(1.0, metrics.averageCharWidth())
        self._per_line: dict[tuple[str, int], float] = {}
        self._cache: OrderedDict[str, _Doc] = OrderedDict()
        self.renders = 0  # documents built from scratch (for tests and benchmarks)
        self.partial_renders = 0  # replies re-rendered from a changed step on
        self.appends = 0  # streamed deltas appended in place

    # ----------------------------------------------------------------------------------------- geometry
    @staticmethod
    def bubble_rect(item: ChatItem, row: QRect) -> QRect:
        """Where the item's bubble sits in its row."""
        left, right = _SIDE, _SIDE
        if isinstance(item, UserItem):
            left += _INDENT
        elif isinstance(item, AssistantItem):
            right += _INDENT
        return QRect(row.left() + left, row.top(), max(40, row.width() - left - right), row.height() - _GAP)

    @staticmethod
    def _edge(item: ChatItem) -> int:
        """Extra left inset of the text (the tripwire banner's thick edge)."""
        return 6 if isinstance(item, TripwireItem) else 0

    def _text_width(self, item: ChatItem, width: int) -> float:
        return float(self.bubble_rect(item, QRect(0, 0, width, 100)).width() - 2 * _PAD - self._edge(item))

    def height(self, item: ChatItem, width: int) -> int:
        """The exact height of the item's row at this view width."""
        doc = self.document(item, width)
        return int(doc.size().height() + 0.999) + 2 * _PAD + _GAP

    def estimate(self, item: ChatItem, width: int) -> int:
        """A cheap guess of the row height (no layout): for rows not painted yet."""
        key = (item.kind, width)
        per_line = self._per_line.get(key)
        if per_line is None:
            per_line = self._per_line[key] = max(8.0, self._text_width(item, width) / self._char)
        lines = 1.0
        extra = 0.0
        if isinstance(item, UserItem):
            chars, breaks = len(item.text), item.text.count("\n")
        elif isinstance(item, AssistantItem):
            chars = breaks = 0
            for step in item.steps:
                for part in step.texts:
                    chars += len(part)
                    breaks += part.count("\n")
                for part in step.reasoning_parts:
                    chars += len(part)
                if step.tool_cards or step.data or step.retracted:
                    extra += len(step.tool_cards) * (self._line + 14) + len(step.data) * self._line
                    lines += step.retracted
        elif isinstance(item, TripwireItem):
            meta = short_json(item.metadata, 400) if item.metadata is not None else ""
            chars, breaks = len(item.reason) + len(meta), meta.count("\n")
            lines += 2
        else:
            message = getattr(item, "message", "")
            chars, breaks = len(message), message.count("\n")
        lines += chars / per_line + breaks * 0.75
        return int(lines * self._line * 1.15 + extra) + 2 * _PAD + _GAP

    # ----------------------------------------------------------------------------------------- documents
    def document(self, item: ChatItem, width: int, *, refresh: bool = True) -> QTextDocument:
        """The item's document, laid out at ``width`` and brought up to date with the item.

        ``refresh=False`` gives the document as it was last brought up to date (what the row was measured with), if
        there is one: painting uses it, so a row never shows more than its measured height holds.
        """
        cached = self._cache.get(item.key)
        if cached is None:
            doc = QTextDocument()
            doc.setDefaultFont(self.font)
            doc.setDocumentMargin(0)
            doc.setUndoRedoEnabled(False)
            cached = self._cache[item.key] = _Doc(doc)
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(item.key)
        text_width = self._text_width(item, width)
        if cached.doc.textWidth() != text_width:
            cached.doc.setTextWidth(text_width)
        if cached.revision != item.revision and (refresh or cached.revision < 0):
            if isinstance(item, AssistantItem) and cached.kind == "assistant":
                self._update_reply(cached, item)
            else:
                self._build(cached, item)
            cached.revision = item.revision
        return cached.doc

    def forget(self, item: ChatItem | None = None) -> None:
        """Drop one item's cached document, or all of them."""
        if item is None:
            self._cache.clear()
        else:
            self._cache.pop(item.key, None)

    def _build(self, cached: _Doc, item: ChatItem) -> None:
        self.renders += 1
        doc = cached.doc
        doc.clear()
        cached.kind, cached.status = item.kind, ""
        cached.signatures, cached.starts, cached.trailer = [], [], None
        cached.live, cached.seen, cached.tail, cached.tail_pos = None, 0, "", 0
        cursor = QTextCursor(doc)
        first = [True]
        if isinstance(item, UserItem):
            self._label(cursor, first, "You")
            _new_block(cursor, first)
            insert_markdown(cursor, item.text)
        elif isinstance(item, AssistantItem):
            self._label(cursor, first, "Assistant")
            self._render_steps(cached, cursor, first, item, 0)
            self._set_status(cached, item)
        elif isinstance(item, TripwireItem):
            self._build_tripwire(cursor, first, item)
        elif isinstance(item, ErrorItem):
            _new_block(cursor, first)
            cursor.insertText("✖ Error  ", _fmt(colour=QColor("#cf222e"), bold=True))
            cursor.insertText(item.message, _fmt(colour=_TEXT))

    def _label(self, cursor: QTextCursor, first: list[bool], text: str) -> None:
        _new_block(cursor, first)
        cursor.insertText(text, _fmt(colour=_MUTED, bold=True, size=self.small))

    def _update_reply(self, cached: _Doc, item: AssistantItem) -> None:
        """Bring a reply's document up to date, touching only what changed."""
        signatures = [_signature(step) for step in item.steps]
        old = cached.signatures
        changed = next((n for n, (a, b) in enumerate(zip(signatures, old, strict=False)) if a != b),
                       min(len(signatures), len(old)))
        if changed == len(signatures) == len(old):
            if cached.live is not None:  # only the growing text grew (or the reply ended)
                self._append_live(cached, final=item.status != "streaming")
        else:
            self.partial_renders += 1
            if cached.live is not None and cached.live in item.steps[:changed]:
                self._append_live(cached, final=True)  # it stopped growing: settle it before what follows
            cursor = QTextCursor(cached.doc)
            start = cached.starts[changed] if changed < len(cached.starts) else (
                cached.trailer if cached.trailer is not None else cached.doc.characterCount() - 1)
            cursor.setPosition(start)
            cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
            del cached.starts[changed:]
            cached.trailer, cached.live, cached.tail = None, None, ""
            self._render_steps(cached, cursor, [False], item, changed)
        self._set_status(cached, item)

    def _set_status(self, cached: _Doc, item: AssistantItem) -> None:
        """The "Stopped" line at the end of a stopped reply."""
        if item.status != "streaming" and cached.live is not None:
            self._append_live(cached, final=True)
        stopped = item.status == "stopped"
        if stopped and cached.trailer is None:
            cursor = QTextCursor(cached.doc)
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cached.trailer = cursor.position()
            _new_block(cursor, [False])
            cursor.insertText("■ Stopped", _fmt(colour=_MUTED, italic=True))
        elif not stopped and cached.trailer is not None:
            cursor = QTextCursor(cached.doc)
            cursor.setPosition(cached.trailer)
            cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
            cached.trailer = None
        cached.status = item.status

    def _render_steps(self, cached: _Doc, cursor: QTextCursor, first: list[bool], item: AssistantItem,
                      start: int) -> None:
        cursor.movePosition(QTextCursor.MoveOperation.End)
        last = len(item.steps) - 1
        for number in range(start, len(item.steps)):
            step = item.steps[number]
            cached.starts.append(cursor.position())
            growing = (item.status == "streaming" and number == last and not step.retracted
                       and not step.tool_cards and not step.data)
            self._render_step(cached, cursor, first, step, growing)
        cached.signatures = [_signature(step) for step in item.steps]

    def _render_step(self, cached: _Doc, cursor: QTextCursor, first: list[bool], step: StepSegment,
                     growing: bool) -> None:
        if step.reasoning_parts:
            _new_block(cursor, first)
            cursor.insertText("Thinking  ", _fmt(colour=_MUTED, bold=True, size=self.small))
            cursor.insertText(step.reasoning, _fmt(colour=_MUTED, italic=True))
            if growing and not step.texts:
                cached.live, cached.live_kind, cached.seen = step, "reasoning", len(step.reasoning_parts)
        if step.texts:
            _new_block(cursor, first)
            if growing:
                cached.live, cached.live_kind, cached.seen = step, "text", len(step.texts)
                stable, cached.tail = split_markdown(step.text)
                if stable:
                    insert_markdown(cursor, stable)
                    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                cached.tail_pos = cursor.position()
                insert_markdown(cursor, cached.tail)
            else:
                begin = cursor.position()
                insert_markdown(cursor, step.text)
                if step.retracted:
                    self._strike(cursor, begin)
        if step.retracted:
            _new_block(cursor, first)
            feedback = step.feedback or "a processor asked for another try"
            cursor.insertText("↻ Retried: ", _fmt(colour=_RETRY, bold=True))
            cursor.insertText(feedback, _fmt(colour=_RETRY))
        for card in step.tool_cards:
            self._card(cursor, first, card, step.retracted)
        for block in step.data:
            self._data(cursor, first, block)

    def _strike(self, cursor: QTextCursor, start: int) -> None:
        struck = QTextCursor(cursor.document())
        struck.setPosition(start)
        struck.setPosition(cursor.position(), QTextCursor.MoveMode.KeepAnchor)
        fmt = QTextCharFormat()
        fmt.setFontStrikeOut(True)
        fmt.setForeground(_STRIKE)
        struck.mergeCharFormat(fmt)

    def _card(self, cursor: QTextCursor, first: list[bool], card: ToolCard, retracted: bool) -> None:
        if first[0]:
            first[0] = False
        frame_format = QTextFrameFormat()
        frame_format.setBorder(1)
        frame_format.setBorderBrush(_CARD_BORDER)
        frame_format.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        frame_format.setBackground(_CARD_BG)
        frame_format.setPadding(6)
        frame_format.setTopMargin(4)
        frame_format.setBottomMargin(4)
        cursor.insertFrame(frame_format)
        href = _TOOL_HREF + card.tool_call_id
        state = {"input": "…", "call": "running…", "result": "✔ done", "error": "✖ failed"}[card.state]
        colour = QColor("#cf222e") if card.state == "error" else QColor("#1a7f37") if card.state == "result" else _MUTED
        cursor.insertText("▾ " if card.expanded else "▸ ", _fmt(colour=_LINK, href=href))
        cursor.insertText(card.tool_name, _fmt(colour=_LINK, bold=True, href=href))
        summary = _one_line(card.shown_args)
        if summary:
            cursor.insertText(f"  {summary}", _fmt(colour=_MUTED, family=self.mono, href=href))
        cursor.insertText(f"   {state}", _fmt(colour=colour, size=self.small, href=href))
        if retracted:
            self._strike(cursor, cursor.block().position())
        if card.expanded:
            sections = [("Arguments", short_json(card.shown_args), _TEXT)]
            if card.state == "result":
                sections.append(("Result", short_json(card.result), _TEXT))
            elif card.state == "error":
                sections.append(("Error", card.error or "", QColor("#cf222e")))
            for title, body, body_colour in sections:
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                cursor.insertText(title, _fmt(colour=_MUTED, bold=True, size=self.small))
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                cursor.insertText(body, _fmt(colour=body_colour, family=self.mono))
        cursor.movePosition(QTextCursor.MoveOperation.End)

    def _data(self, cursor: QTextCursor, first: list[bool], block: DataBlock) -> None:
        _new_block(cursor, first)
        cursor.insertText(f"{block.type}  ", _fmt(colour=_MUTED, bold=True, size=self.small))
        cursor.insertText(_one_line(block.data, 200), _fmt(colour=_MUTED, family=self.mono))

    def _build_tripwire(self, cursor: QTextCursor, first: list[bool], item: TripwireItem) -> None:
        href = _TRIPWIRE_HREF + (item.run_id or "")
        red = QColor("#d1242f")
        _new_block(cursor, first)
        cursor.insertText("⚠ Tripwire", _fmt(colour=red, bold=True, href=href))
        if item.processor_id:
            cursor.insertText("   processor ", _fmt(colour=_MUTED, href=href))
            cursor.insertText(item.processor_id, _fmt(colour=_TEXT, family=self.mono, bold=True, href=href))
        if item.retry:
            cursor.insertText("   (retry asked)", _fmt(colour=_MUTED, size=self.small, href=href))
        _new_block(cursor, first)
        cursor.insertText("Reason: ", _fmt(colour=_MUTED, bold=True, href=href))
        cursor.insertText(item.reason, _fmt(colour=_TEXT, href=href))
        if item.metadata is not None:
            _new_block(cursor, first)
            cursor.insertText("Metadata", _fmt(colour=_MUTED, bold=True, size=self.small, href=href))
            _new_block(cursor, first)
            cursor.insertText(short_json(item.metadata, 1500), _fmt(colour=_TEXT, family=self.mono, href=href))

    def _append_live(self, cached: _Doc, *, final: bool = False) -> None:
        """The streamed step got more deltas: append them; only the paragraph still open is rendered again.

        ``final``: the reply ended; the open paragraph is committed and nothing grows any more.
        """
        self.appends += 1
        step = cached.live
        assert step is not None
        cursor = QTextCursor(cached.doc)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if cached.live_kind == "reasoning":
            parts = step.reasoning_parts
            new = "".join(itertools.islice(parts, cached.seen, None))
            cached.seen = len(parts)
            if new:
                cursor.insertText(new, _fmt(colour=_MUTED, italic=True))
        else:
            parts = step.texts
            added = "".join(itertools.islice(parts, cached.seen, None))
            cached.seen = len(parts)
            if added or final:
                cached.tail += added
                cursor.setPosition(cached.tail_pos)
                cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
                cursor.removeSelectedText()
                cursor.setBlockFormat(QTextBlockFormat())
                cursor.setBlockCharFormat(QTextCharFormat())
                cursor.setCharFormat(QTextCharFormat())
                listed = cursor.block().textList()
                if listed is not None:
                    listed.remove(cursor.block())
                if final:
                    if cached.tail:
                        insert_markdown(cursor, cached.tail)
                    elif cursor.block().length() == 1 and cursor.position() > 0:
                        cursor.deletePreviousChar()  # the empty block that waited for more text
                else:
                    stable, cached.tail = split_markdown(cached.tail)
                    if stable:
                        insert_markdown(cursor, stable)
                        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                        cached.tail_pos = cursor.position()
                    insert_markdown(cursor, cached.tail)
        if final:
            cached.live, cached.tail = None, ""

    # ----------------------------------------------------------------------------------------- painting
    def paint(self, painter: QPainter, item: ChatItem, row: QRect, clip: QRect) -> None:
        bubble = self.bubble_rect(item, row)
        background, border = _COLOURS[item.kind]
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(border, 1))
        painter.setBrush(background)
        painter.drawRoundedRect(QRectF(bubble).adjusted(0.5, 0.5, -0.5, -0.5), _RADIUS, _RADIUS)
        if isinstance(item, TripwireItem):  # a thick red edge: the banner reads as an alert, not a message
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(border)
            painter.drawRoundedRect(QRectF(bubble.left(), bubble.top(), 5, bubble.height()), 2, 2)
        elif isinstance(item, AssistantItem) and item.status == "streaming":
            painter.setPen(_MUTED)
            painter.drawText(QRect(bubble.right() - 110, bubble.top() + 4, 100, 18),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), "● streaming")
        doc = self.document(item, row.width(), refresh=False)
        origin = QPointF(bubble.left() + _PAD + self._edge(item), bubble.top() + _PAD)
        painter.save()
        painter.translate(origin)
        context = QAbstractTextDocumentLayout.PaintContext()
        visible = QRectF(clip.intersected(bubble)).translated(-origin)
        context.clip = visible
        painter.setClipRect(visible)
        context.palette.setColor(QPalette.ColorRole.Text, _TEXT)
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def hit(self, item: ChatItem, row: QRect, point: QPoint) -> str | None:
        """What a click at ``point`` (view coordinates) in the item's row activates: an href, or None."""
        bubble = self.bubble_rect(item, row)
        if not bubble.contains(point):
            return None
        if isinstance(item, TripwireItem):
            return _TRIPWIRE_HREF + (item.run_id or "")
        doc = self.document(item, row.width(), refresh=False)
        local = QPointF(point.x() - bubble.left() - _PAD - self._edge(item), point.y() - bubble.top() - _PAD)
        href = doc.documentLayout().anchorAt(local)
        return href or None


def _one_line(value: Any, limit: int = 90) -> str:
    if value is None or value == {} or value == "":
        return ""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except (TypeError, ValueError):
            text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------------------- the list
class ChatListView(QAbstractItemView):
    """A virtualised, per-pixel scrolled list of chat items: paints only visible rows, no widget per message.

    Keeps to the bottom while new content arrives, unless the user scrolled up (scrolling back to the bottom, or
    End, resumes it).
    """

    #: A tool card's header was clicked: (row, tool_call_id).
    tool_card_toggle_requested = Signal(int, str)
    #: A tripwire banner was clicked: (run_id).
    tripwire_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None, renderer: MessageRenderer | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer or MessageRenderer(self.font())
        self._heights: list[int] = []
        self._measured: list[int] = []  # the width each height was measured at; 0 = an estimate
        self._offsets: list[int] = [0]  # top of each row, plus the total height at the end
        self._valid = 0  # offsets of rows up to this one are right
        self._laid_out_width = 0  # the width the heights were estimated or measured at
        self._reestimate = QTimer(self)
        self._reestimate.setSingleShot(True)
        self._reestimate.setInterval(120)
        self._reestimate.timeout.connect(self._on_reestimate_timeout)
        self._stick = True
        self._programmatic = 0
        self._laying_out = False
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setMouseTracking(True)
        self.viewport().setAutoFillBackground(True)
        palette = self.viewport().palette()
        palette.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
        self.viewport().setPalette(palette)

    # ----------------------------------------------------------------------------------------- model wiring
    def setModel(self, model: Any) -> None:
        old = self.model()
        if old is not None:
            old.rowsRemoved.disconnect(self._on_model_rows_removed)
            old.layoutChanged.disconnect(self._on_model_layout_changed)
        super().setModel(model)
        if model is not None:
            model.rowsRemoved.connect(self._on_model_rows_removed)
            model.layoutChanged.connect(self._on_model_layout_changed)
        self._rebuild()

    def _item(self, row: int) -> ChatItem:
        model = self.model()
        if isinstance(model, ChatListModel):
            return model.item(row)
        item: ChatItem = model.index(row, 0).data(ITEM_ROLE)
        return item

    def rowsInserted(self, parent: QModelIndex | QPersistentModelIndex, start: int, end: int) -> None:
        super().rowsInserted(parent, start, end)
        if parent.isValid():
            return
        width = self._width()
        new = [self.renderer.estimate(self._item(row), width) for row in range(start, end + 1)]
        self._heights[start:start] = new
        self._measured[start:start] = [0] * len(new)
        self._offsets[start + 1:start + 1] = [0] * len(new)
        self._valid = min(self._valid, start)
        self._relayout()

    def dataChanged(
        self, top_left: QModelIndex | QPersistentModelIndex, bottom_right: QModelIndex | QPersistentModelIndex,
        roles: Any = (),
    ) -> None:
        first, last = top_left.row(), bottom_right.row()
        if first < 0 or last >= len(self._heights):
            return
        for row in range(first, last + 1):
            self._measured[row] = 0  # re-measured when laid out, if visible
        self._relayout(changed=(first, last))

    def reset(self) -> None:
        super().reset()
        self._rebuild()

    @Slot(QModelIndex, int, int)
    def _on_model_rows_removed(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        self._rebuild()

    @Slot()
    def _on_model_layout_changed(self) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        model = self.model()
        count = model.rowCount() if model is not None else 0
        width = self._laid_out_width = self._width()
        self._heights = [self.renderer.estimate(self._item(row), width) for row in range(count)]
        self._measured = [0] * count
        self._offsets = [0] * (count + 1)
        self._valid = 0
        self._stick = True
        self._relayout()

    # ----------------------------------------------------------------------------------------- layout
    def _width(self) -> int:
        return max(120, self.viewport().width())

    def _fix_offsets(self) -> None:
        start, count = self._valid, len(self._heights)
        if start < count:
            self._offsets[start:] = itertools.accumulate(self._heights[start:], initial=self._offsets[start])
        self._valid = count

    def _row_at(self, y: int) -> int:
        """The row covering content coordinate ``y`` (clamped to the rows there are)."""
        row = bisect.bisect_right(self._offsets, y, 0, len(self._heights)) - 1
        return max(0, min(row, len(self._heights) - 1))

    def _total(self) -> int:
        return self._offsets[len(self._heights)] if self._heights else 0

    def _measure(self, first: int, last: int, width: int) -> bool:
        changed = False
        for row in range(first, last + 1):
            if self._measured[row] == width:
                continue
            height = self.renderer.height(self._item(row), width)
            self._measured[row] = width
            if height != self._heights[row]:
                self._heights[row] = height
                self._valid = min(self._valid, row)
                changed = True
        return changed

    def _relayout(self, changed: tuple[int, int] | None = None) -> None:
        """Measure what is visible (and what changed), fix offsets, scroll ranges and the stick-to-bottom."""
        if self._laying_out:
            return
        self._laying_out = True
        try:
            self._fix_offsets()
            bar = self.verticalScrollBar()
            count = len(self._heights)
            anchor_row = self._row_at(bar.value()) if count else 0
            anchor_delta = bar.value() - self._offsets[anchor_row] if count else 0
            width = self._width()
            if changed is not None and count:
                first, last = changed
                if last >= count - 3 or self._overlaps(first, last):
                    self._measure(first, min(last, count - 1), width)
                    self._fix_offsets()
            for _ in range(6):  # measuring can move what is visible; a few passes settle it
                if not count:
                    break
                top = max(0, self._total() - self.viewport().height()) if self._stick else (
                    self._offsets[anchor_row] + anchor_delta)
                first = self._row_at(top)
                last = self._row_at(top + self.viewport().height())
                if not self._measure(first, last, width):
                    break
                self._fix_offsets()
            target = None if self._stick or not count else self._offsets[anchor_row] + anchor_delta
            self._apply_scroll(target)
        finally:
            self._laying_out = False
        self.viewport().update()

    def _overlaps(self, first: int, last: int) -> bool:
        top = self.verticalScrollBar().value()
        bottom = top + self.viewport().height()
        return self._offsets[first] < bottom and self._offsets[last] + self._heights[last] > top

    def _apply_scroll(self, target: int | None) -> None:
        bar = self.verticalScrollBar()
        view = self.viewport().height()
        maximum = max(0, self._total() - view)
        self._programmatic += 1
        try:
            bar.setRange(0, maximum)
            bar.setPageStep(max(1, view))
            bar.setSingleStep(max(8, int(self.renderer._line * 2)))
            if self._stick:
                value = maximum
            elif target is not None:
                value = min(maximum, max(0, target))
            else:
                value = min(bar.value(), maximum)
            bar.setValue(value)
        finally:
            self._programmatic -= 1

    def updateGeometries(self) -> None:
        if not self._laying_out:
            self._apply_scroll(None)
        super().updateGeometries()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        if not self._programmatic:
            bar = self.verticalScrollBar()
            self._stick = bar.value() >= bar.maximum() - 2
            self._relayout()
        self.viewport().update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        width = self._width()
        if width != self._laid_out_width and self._heights:
            # Text reflows: every height is an estimate again until its row is measured (visible rows at once,
            # just below); the others are estimated afresh for the new width once resizing pauses.
            self._measured = [0] * len(self._heights)
            self._reestimate.start()
        self._laid_out_width = width
        self._relayout()

    @Slot()
    def _on_reestimate_timeout(self) -> None:
        width = self._width()
        for row, measured in enumerate(self._measured):
            if measured != width:
                self._heights[row] = self.renderer.estimate(self._item(row), width)
        self._valid = 0
        self._relayout()

    @property
    def sticks_to_bottom(self) -> bool:
        return self._stick

    def scroll_to_bottom(self) -> None:
        """Show the last message and keep to the bottom as new content arrives."""
        self._stick = True
        self._relayout()

    # ----------------------------------------------------------------------------------------- painting
    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._heights:
            return
        painter = QPainter(self.viewport())
        scroll = self.verticalScrollBar().value()
        width = self._width()
        area = event.rect()
        row = self._row_at(scroll + area.top())
        count = len(self._heights)
        while row < count and self._offsets[row] - scroll <= area.bottom():
            rect = QRect(0, self._offsets[row] - scroll, width, self._heights[row])
            self.renderer.paint(painter, self._item(row), rect, area)
            row += 1
        painter.end()

    # ----------------------------------------------------------------------------------------- QAbstractItemView
    def visualRect(self, index: QModelIndex | QPersistentModelIndex) -> QRect:
        if not index.isValid() or index.row() >= len(self._heights):
            return QRect()
        row = index.row()
        return QRect(0, self._offsets[row] - self.verticalScrollBar().value(), self._width(), self._heights[row])

    def indexAt(self, point: QPoint) -> QModelIndex:
        if not self._heights or self.model() is None:
            return QModelIndex()
        y = point.y() + self.verticalScrollBar().value()
        if y < 0 or y >= self._total():
            return QModelIndex()
        return self.model().index(self._row_at(y), 0)

    def scrollTo(
        self, index: QModelIndex | QPersistentModelIndex,
        hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.EnsureVisible,
    ) -> None:
        if not index.isValid() or index.row() >= len(self._heights):
            return
        row = index.row()
        bar = self.verticalScrollBar()
        top, height, view = self._offsets[row], self._heights[row], self.viewport().height()
        if hint == QAbstractItemView.ScrollHint.PositionAtBottom:
            target = top + height - view
        elif hint == QAbstractItemView.ScrollHint.PositionAtCenter:
            target = top + (height - view) // 2
        elif hint == QAbstractItemView.ScrollHint.EnsureVisible and bar.value() <= top <= bar.value() + view - height:
            return
        else:
            target = top
        self._stick = False
        self._apply_scroll(max(0, target))
        self._stick = bar.value() >= bar.maximum() - 2
        self._relayout()

    def moveCursor(self, action: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier) -> QModelIndex:
        model = self.model()
        if model is None or not self._heights:
            return QModelIndex()
        current = self.currentIndex().row() if self.currentIndex().isValid() else len(self._heights) - 1
        step = {
            QAbstractItemView.CursorAction.MoveUp: -1, QAbstractItemView.CursorAction.MovePrevious: -1,
            QAbstractItemView.CursorAction.MoveDown: 1, QAbstractItemView.CursorAction.MoveNext: 1,
        }.get(action)
        if action == QAbstractItemView.CursorAction.MoveHome:
            return model.index(0, 0)
        if action == QAbstractItemView.CursorAction.MoveEnd:
            return model.index(len(self._heights) - 1, 0)
        if step is None:
            return self.currentIndex()
        return model.index(max(0, min(len(self._heights) - 1, current + step)), 0)

    def horizontalOffset(self) -> int:
        return 0

    def verticalOffset(self) -> int:
        return self.verticalScrollBar().value()

    def isIndexHidden(self, index: QModelIndex | QPersistentModelIndex) -> bool:
        return False

    def setSelection(self, rect: QRect, flags: QItemSelectionModel.SelectionFlag) -> None:
        model = self.model()
        if model is None or not self._heights or self.selectionModel() is None:
            return
        scroll = self.verticalScrollBar().value()
        first = self._row_at(rect.top() + scroll)
        last = self._row_at(rect.bottom() + scroll)
        selection = QItemSelection(model.index(first, 0), model.index(last, 0))
        self.selectionModel().select(selection, flags)

    def visualRegionForSelection(self, selection: QItemSelection) -> QRegion:
        region = QRegion()
        for index in selection.indexes():
            region = region.united(QRegion(self.visualRect(index)))
        return region

    # ----------------------------------------------------------------------------------------- input
    def keyPressEvent(self, event: QKeyEvent) -> None:
        bar = self.verticalScrollBar()
        key = event.key()
        if key == Qt.Key.Key_End:
            self.scroll_to_bottom()
        elif key == Qt.Key.Key_Home:
            bar.setValue(0)
        elif key == Qt.Key.Key_PageDown:
            bar.triggerAction(bar.SliderAction.SliderPageStepAdd)
        elif key == Qt.Key.Key_PageUp:
            bar.triggerAction(bar.SliderAction.SliderPageStepSub)
        elif key == Qt.Key.Key_Down:
            bar.triggerAction(bar.SliderAction.SliderSingleStepAdd)
        elif key == Qt.Key.Key_Up:
            bar.triggerAction(bar.SliderAction.SliderSingleStepSub)
        else:
            super().keyPressEvent(event)

    def _hit(self, point: QPoint) -> tuple[int, str | None]:
        index = self.indexAt(point)
        if not index.isValid():
            return -1, None
        row = index.row()
        return row, self.renderer.hit(self._item(row), self.visualRect(index), point)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        _row, href = self._hit(event.position().toPoint())
        cursor = Qt.CursorShape.PointingHandCursor if href else Qt.CursorShape.ArrowCursor
        if self.viewport().cursor().shape() != cursor:
            self.viewport().setCursor(cursor)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        row, href = self._hit(event.position().toPoint())
        if href is None:
            return
        if href.startswith(_TOOL_HREF):
            self.tool_card_toggle_requested.emit(row, href[len(_TOOL_HREF):])
        elif href.startswith(_TRIPWIRE_HREF):
            self.tripwire_clicked.emit(href[len(_TRIPWIRE_HREF):])

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            _row, href = self._hit(event.pos())  # type: ignore[attr-defined]
            if href and href.startswith(_TRIPWIRE_HREF):
                QToolTip.showText(event.globalPos(), "Show this tripwire in the inspector", self)  # type: ignore[attr-defined]
            elif href:
                QToolTip.showText(event.globalPos(), "Show or hide the call's details", self)  # type: ignore[attr-defined]
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(480, 400)


# ---------------------------------------------------------------------------------------------------- the input
class ChatInput(QPlainTextEdit):
    """The message box: Enter or Ctrl+Enter submits, Shift+Enter starts a new line."""

    #: Enter (or Ctrl+Enter) was pressed.
    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
            else:
                self.submitted.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class EmptyChat(QWidget):
    """What an empty conversation shows: a line on what to do, and suggestions that send themselves."""

    #: A suggestion was clicked (its text).
    suggestion_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chat.empty")
        self._layout = QVBoxLayout(self)
        self._layout.addStretch(1)
        title = QLabel("<h3>Start the conversation</h3>Type below, or try one of these:", self)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._layout.addWidget(title)
        self._buttons: list[QPushButton] = []
        self._layout.addStretch(2)

    def set_suggestions(self, suggestions: Sequence[str]) -> None:
        for button in self._buttons:
            button.deleteLater()
        self._buttons = []
        for index, text in enumerate(suggestions):
            button = QPushButton(text, self)
            button.setObjectName(f"chat.suggestion.{index}")
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.clicked.connect(lambda _checked=False, text=text: self.suggestion_clicked.emit(text))
            self._layout.insertWidget(2 + index, button, 0, Qt.AlignmentFlag.AlignHCenter)
            self._buttons.append(button)

    @property
    def buttons(self) -> list[QPushButton]:
        return list(self._buttons)


class ChatView(QWidget):
    """The chat: the message list over a :class:`ChatListModel`, a message box, Send and Stop."""

    #: The user asked to send this text (Enter, Ctrl+Enter or Send).
    send_requested = Signal(str)
    #: The user asked to stop the running reply (Stop or Esc).
    stop_requested = Signal()
    #: A tripwire banner was clicked: (run_id).
    tripwire_clicked = Signal(str)

    def __init__(self, model: ChatListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._running = False

        self._list = ChatListView(self)
        self._list.setObjectName("chat.view")
        self._list.setModel(model)
        self._input = ChatInput(self)
        self._input.setObjectName("chat.input")
        self._input.setPlaceholderText("Message the agent — Enter sends, Shift+Enter adds a line")
        self._input.setTabChangesFocus(True)
        line = QFontMetricsF(self._input.font()).lineSpacing()
        self._input.setFixedHeight(int(line * 3 + 16))
        self._send = QPushButton("Send", self)
        self._send.setObjectName("chat.send")
        self._send.setToolTip("Send (Enter)")
        self._stop = QPushButton("Stop", self)
        self._stop.setObjectName("chat.stop")
        self._stop.setToolTip("Stop the reply (Esc)")

        buttons = QVBoxLayout()
        buttons.addWidget(self._send)
        buttons.addWidget(self._stop)
        buttons.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addWidget(self._input, 1)
        bottom.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self._empty = EmptyChat(self)
        self._pages = QStackedWidget(self)
        self._pages.addWidget(self._empty)
        self._pages.addWidget(self._list)
        layout.addWidget(self._pages, 1)
        self._empty.suggestion_clicked.connect(self._on_empty_suggestion_clicked)
        model.rowsInserted.connect(self._update_page)
        model.rowsRemoved.connect(self._update_page)
        model.modelReset.connect(self._update_page)
        self._update_page()
        layout.addLayout(bottom)

        self._input.submitted.connect(self._on_input_submitted)
        self._input.textChanged.connect(self._on_input_text_changed)
        self._send.clicked.connect(self._on_send_clicked)
        self._stop.clicked.connect(self._on_stop_clicked)
        self._list.tool_card_toggle_requested.connect(self._on_list_tool_card_toggle_requested)
        self._list.tripwire_clicked.connect(self._on_list_tripwire_clicked)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(self._on_escape_activated)
        self._update_buttons()

    # ----------------------------------------------------------------------------------------- public
    def set_suggestions(self, suggestions: Sequence[str]) -> None:
        """What an empty conversation offers to send with one click."""
        self._empty.set_suggestions(suggestions)

    @property
    def empty_state(self) -> EmptyChat:
        return self._empty

    @Slot()
    def _update_page(self) -> None:
        self._pages.setCurrentWidget(self._list if self._model.rowCount() else self._empty)

    @Slot(str)
    def _on_empty_suggestion_clicked(self, text: str) -> None:
        if self._running:
            return
        self._input.setPlainText(text)
        self._submit()

    @property
    def model(self) -> ChatListModel:
        return self._model

    @property
    def list_view(self) -> ChatListView:
        return self._list

    @property
    def input(self) -> ChatInput:
        return self._input

    @property
    def is_running(self) -> bool:
        return self._running

    def set_running(self, running: bool) -> None:
        """Whether a reply is running: Stop is enabled only then, Send only when not."""
        self._running = running
        self._update_buttons()

    def follow(self, controller: Any) -> None:
        """Track a :class:`~studio.controllers.run_controller.RunController`'s running state."""
        controller.run_started.connect(self._on_controller_run_started)
        controller.run_finished.connect(self._on_controller_run_finished)
        controller.run_failed.connect(self._on_controller_run_failed)

    # ----------------------------------------------------------------------------------------- slots
    def _update_buttons(self) -> None:
        self._stop.setEnabled(self._running)
        self._send.setEnabled(not self._running and bool(self._input.toPlainText().strip()))

    def _submit(self) -> None:
        text = self._input.toPlainText().strip()
        if not text or self._running:
            return
        self._input.clear()
        self._list.scroll_to_bottom()
        self.send_requested.emit(text)

    @Slot()
    def _on_input_submitted(self) -> None:
        self._submit()

    @Slot()
    def _on_input_text_changed(self) -> None:
        self._update_buttons()

    @Slot()
    def _on_send_clicked(self) -> None:
        self._submit()

    @Slot()
    def _on_stop_clicked(self) -> None:
        if self._running:
            self.stop_requested.emit()

    @Slot()
    def _on_escape_activated(self) -> None:
        if self._running:
            self.stop_requested.emit()

    @Slot(int, str)
    def _on_list_tool_card_toggle_requested(self, row: int, tool_call_id: str) -> None:
        item = self._model.item(row)
        if isinstance(item, AssistantItem):
            self._model.chat.toggle_tool_card(item, tool_call_id)

    @Slot(str)
    def _on_list_tripwire_clicked(self, run_id: str) -> None:
        self.tripwire_clicked.emit(run_id)

    @Slot(str, str)
    def _on_controller_run_started(self, _run_id: str, _thread_id: str) -> None:
        self.set_running(True)

    @Slot(str, object)
    def _on_controller_run_finished(self, _run_id: str, _result: object) -> None:
        self.set_running(False)

    @Slot(str, str)
    def _on_controller_run_failed(self, _run_id: str, _message: str) -> None:
        self.set_running(False)


__all__ = ["ChatInput", "ChatListView", "ChatView", "MessageRenderer", "insert_markdown", "split_markdown"]
