"""Drawing chat items: :class:`MessageRenderer` measures, estimates, paints and hit-tests one row per item.

Each item is drawn from one cached ``QTextDocument`` (written and kept up to date by
:class:`~studio.views.chat_document.DocumentWriter`), inside a bubble whose place and colours depend on its kind. The
list view (:mod:`studio.views.chat_list_view`) asks the renderer for exact heights of the rows it shows, and cheap
estimates (no layout) for the rest, so a long thread opens by measuring a screenful.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QFontMetricsF,
    QPainter,
    QPalette,
    QPen,
    QTextDocument,
)

from studio.models.chat_items import AssistantItem, ChatItem, TripwireItem, UserItem, short_json
from studio.views.chat_document import TRIPWIRE_HREF, DocumentWriter, ItemDocument
from studio.views.chat_style import BUBBLE_COLOURS, GAP, INDENT, MUTED, PAD, RADIUS, SIDE, TEXT

_CACHE_SIZE = 256


class MessageRenderer:
    """Renders chat items with one cached ``QTextDocument`` each; measures, estimates, paints and hit-tests them."""

    def __init__(self, font: QFont) -> None:
        self.font = QFont(font)
        self.writer = DocumentWriter(self.font)
        metrics = QFontMetricsF(self.font)
        self._line = metrics.lineSpacing()
        self._char = max(1.0, metrics.averageCharWidth())
        self._per_line: dict[tuple[str, int], float] = {}
        self._cache: OrderedDict[str, ItemDocument] = OrderedDict()

    # ----------------------------------------------------------------------------------------- counters
    @property
    def renders(self) -> int:
        """Documents built from scratch (for tests and benchmarks)."""
        return self.writer.renders

    @property
    def partial_renders(self) -> int:
        """Replies re-rendered from a changed step on."""
        return self.writer.partial_renders

    @property
    def appends(self) -> int:
        """Streamed deltas appended in place."""
        return self.writer.appends

    @property
    def mono(self) -> QFont:
        """The monospace font of tool arguments, results and metadata."""
        return self.writer.mono

    @property
    def small(self) -> float:
        """The point size of labels."""
        return self.writer.small

    # ----------------------------------------------------------------------------------------- geometry
    @staticmethod
    def bubble_rect(item: ChatItem, row: QRect) -> QRect:
        """Where the item's bubble sits in its row."""
        left, right = SIDE, SIDE
        if isinstance(item, UserItem):
            left += INDENT
        elif isinstance(item, AssistantItem):
            right += INDENT
        return QRect(row.left() + left, row.top(), max(40, row.width() - left - right), row.height() - GAP)

    @staticmethod
    def _edge(item: ChatItem) -> int:
        """Extra left inset of the text (the tripwire banner's thick edge)."""
        return 6 if isinstance(item, TripwireItem) else 0

    def _text_width(self, item: ChatItem, width: int) -> float:
        return float(self.bubble_rect(item, QRect(0, 0, width, 100)).width() - 2 * PAD - self._edge(item))

    def height(self, item: ChatItem, width: int) -> int:
        """The exact height of the item's row at this view width."""
        doc = self.document(item, width)
        return int(doc.size().height() + 0.999) + 2 * PAD + GAP

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
        return int(lines * self._line * 1.15 + extra) + 2 * PAD + GAP

    # ----------------------------------------------------------------------------------------- documents
    def measure(self, item: ChatItem, width: int) -> int:
        """:meth:`height`, without keeping the document of an item that has none cached: the rows a list measures
        in the background would push the ones on screen out of the cache."""
        if item.key in self._cache:
            return self.height(item, width)
        written = ItemDocument(self._new_document())
        written.doc.setTextWidth(self._text_width(item, width))
        self.writer.write(written, item)
        return int(written.doc.size().height() + 0.999) + 2 * PAD + GAP

    def _new_document(self) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(self.font)
        doc.setDocumentMargin(0)
        doc.setUndoRedoEnabled(False)
        return doc

    def document(self, item: ChatItem, width: int, *, refresh: bool = True) -> QTextDocument:
        """The item's document, laid out at ``width`` and brought up to date with the item.

        ``refresh=False`` gives the document as it was last brought up to date (what the row was measured with), if
        there is one: painting uses it, so a row never shows more than its measured height holds.
        """
        cached = self._cache.get(item.key)
        if cached is None:
            cached = self._cache[item.key] = ItemDocument(self._new_document())
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(item.key)
        text_width = self._text_width(item, width)
        if cached.doc.textWidth() != text_width:
            cached.doc.setTextWidth(text_width)
        if cached.revision != item.revision and (refresh or cached.revision < 0):
            self.writer.write(cached, item)
            cached.revision = item.revision
        return cached.doc

    def forget(self, item: ChatItem | None = None) -> None:
        """Drop one item's cached document, or all of them."""
        if item is None:
            self._cache.clear()
        else:
            self._cache.pop(item.key, None)

    # ----------------------------------------------------------------------------------------- painting
    def paint(self, painter: QPainter, item: ChatItem, row: QRect, clip: QRect) -> None:
        bubble = self.bubble_rect(item, row)
        background, border = BUBBLE_COLOURS[item.kind]
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(border, 1))
        painter.setBrush(background)
        painter.drawRoundedRect(QRectF(bubble).adjusted(0.5, 0.5, -0.5, -0.5), RADIUS, RADIUS)
        if isinstance(item, TripwireItem):  # a thick red edge: the banner reads as an alert, not a message
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(border)
            painter.drawRoundedRect(QRectF(bubble.left(), bubble.top(), 5, bubble.height()), 2, 2)
        elif isinstance(item, AssistantItem) and item.status == "streaming":
            painter.setPen(MUTED)
            painter.drawText(
                QRect(bubble.right() - 110, bubble.top() + 4, 100, 18),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                "● streaming",
            )
        doc = self.document(item, row.width(), refresh=False)
        origin = QPointF(bubble.left() + PAD + self._edge(item), bubble.top() + PAD)
        painter.save()
        painter.translate(origin)
        context = QAbstractTextDocumentLayout.PaintContext()
        visible = QRectF(clip.intersected(bubble)).translated(-origin)
        context.clip = visible
        painter.setClipRect(visible)
        context.palette.setColor(QPalette.ColorRole.Text, TEXT)
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def hit(self, item: ChatItem, row: QRect, point: QPoint) -> str | None:
        """What a click at ``point`` (view coordinates) in the item's row activates: an href, or None."""
        bubble = self.bubble_rect(item, row)
        if not bubble.contains(point):
            return None
        if isinstance(item, TripwireItem):
            return TRIPWIRE_HREF + (item.run_id or "")
        doc = self.document(item, row.width(), refresh=False)
        local = QPointF(point.x() - bubble.left() - PAD - self._edge(item), point.y() - bubble.top() - PAD)
        href = doc.documentLayout().anchorAt(local)
        return href or None


__all__ = ["MessageRenderer"]
