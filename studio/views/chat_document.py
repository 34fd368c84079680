"""Writing chat items into their ``QTextDocument`` s, and keeping a streamed reply's document up to date in place.

:class:`DocumentWriter` builds an item's document from scratch, or, for a reply, touches only what changed: finished
paragraphs of the step being streamed are appended as markdown once, only the paragraph still growing is rendered
again, and a change of shape (a tool card, a retry) re-renders from that step on, never from the top.
:class:`ItemDocument` is a document plus what that takes. Kept apart from the renderer
(:mod:`studio.views.chat_render`), which caches the documents, measures, paints and hit-tests them.

Links in the documents: :data:`TOOL_HREF` + a tool call id (a card's header), :data:`TRIPWIRE_HREF` + a run id.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFrameFormat,
)

from studio.error_texts import coded_text, tripwire_text
from studio.i18n import translate
from studio.models.chat_items import (
    AssistantItem,
    ChatItem,
    DataBlock,
    ErrorItem,
    StepSegment,
    ToolCard,
    TripwireItem,
    UserItem,
    short_json,
)
from studio.texts.translator import QT_TRANSLATE_NOOP
from studio.views.chat_markdown import insert_markdown, new_block, split_markdown
from studio.views.chat_style import CARD_BG, CARD_BORDER, LINK, MUTED, NOTICE, RETRY, STRIKE, TEXT, char_format

TOOL_HREF = "tool:"
TRIPWIRE_HREF = "tripwire:"


@dataclass(eq=False)
class ItemDocument:
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
    #: Where the lines after the steps begin (the "writing…" placeholder, "Stopped", the run's figures), if any.
    trailer: int | None = None
    #: What those lines say (to rewrite them only when that changes).
    trailer_lines: tuple[str, ...] = ()
    #: The step whose text (or reasoning) is the document's growing end; None when nothing grows.
    live: StepSegment | None = None
    live_kind: str = ""
    #: How many of the growing block's deltas are in the document.
    seen: int = 0
    #: Growing markdown not committed yet; it is rendered from ``tail_pos`` to the end of the document.
    tail: str = ""
    tail_pos: int = 0


#: The placeholder of a reply that has shown nothing yet (a typing indicator).
WRITING = QT_TRANSLATE_NOOP("ChatDocument", "● ● ●  writing…")
STOPPED = QT_TRANSLATE_NOOP("ChatDocument", "■ Stopped")
#: Marks the figures line among the trailer lines (it is drawn smaller, not in italics).
STATS_PREFIX = "\x00stats:"
#: Marks a notice among the trailer lines (drawn as a warning: a guardrail's judge failed).
NOTICE_PREFIX = "\x00notice:"


def trailer_lines(item: AssistantItem) -> tuple[str, ...]:
    """What follows a reply's steps, as lines."""
    lines: list[str] = []
    if item.status == "streaming" and not item.has_content:
        lines.append(translate("ChatDocument", WRITING))
    if item.status == "stopped":
        lines.append(translate("ChatDocument", STOPPED))
    lines.extend(NOTICE_PREFIX + "⚠ " + notice for notice in item.notices)
    if item.stats is not None and item.stats.ended is not None:
        lines.append(STATS_PREFIX + item.stats.summary())
    return tuple(lines)


def _signature(step: StepSegment) -> tuple[Any, ...]:
    """What decides how a step looks, except its text and reasoning growing at the end."""
    cards = tuple((card.state, card.expanded, len(card.args_text), card.result_changed) for card in step.tool_cards)
    return id(step), bool(step.texts), bool(step.reasoning_parts), cards, len(step.data), step.retracted, step.feedback


class DocumentWriter:
    """Writes chat items into their documents; counts what it did (for tests and benchmarks)."""

    def __init__(self, font: QFont) -> None:
        self.mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.mono.setPointSizeF(max(7.0, font.pointSizeF() - 1))
        self.small = max(7.0, font.pointSizeF() - 1.5)
        self.renders = 0  # documents built from scratch
        self.partial_renders = 0  # replies re-rendered from a changed step on
        self.appends = 0  # streamed deltas appended in place

    def write(self, cached: ItemDocument, item: ChatItem) -> None:
        """Bring ``cached`` up to date with ``item``: a reply in place, anything else rebuilt."""
        if isinstance(item, AssistantItem) and cached.kind == "assistant":
            self._update_reply(cached, item)
        else:
            self._build(cached, item)

    def _build(self, cached: ItemDocument, item: ChatItem) -> None:
        self.renders += 1
        doc = cached.doc
        doc.clear()
        cached.kind, cached.status = item.kind, ""
        cached.signatures, cached.starts, cached.trailer, cached.trailer_lines = [], [], None, ()
        cached.live, cached.seen, cached.tail, cached.tail_pos = None, 0, "", 0
        cursor = QTextCursor(doc)
        first = [True]
        if isinstance(item, UserItem):
            self._label(cursor, first, translate("ChatDocument", "You"))
            new_block(cursor, first)
            insert_markdown(cursor, item.text)
        elif isinstance(item, AssistantItem):
            self._label(cursor, first, translate("ChatDocument", "Assistant"))
            self._render_steps(cached, cursor, first, item, 0)
            self._set_status(cached, item)
        elif isinstance(item, TripwireItem):
            self._build_tripwire(cursor, first, item)
        elif isinstance(item, ErrorItem):
            new_block(cursor, first)
            cursor.insertText(
                translate("ChatDocument", "✖ Error") + "  ", char_format(colour=QColor("#cf222e"), bold=True)
            )
            cursor.insertText(item.message, char_format(colour=TEXT))

    def _label(self, cursor: QTextCursor, first: list[bool], text: str) -> None:
        new_block(cursor, first)
        cursor.insertText(text, char_format(colour=MUTED, bold=True, size=self.small))

    def _update_reply(self, cached: ItemDocument, item: AssistantItem) -> None:
        """Bring a reply's document up to date, touching only what changed."""
        signatures = [_signature(step) for step in item.steps]
        old = cached.signatures
        changed = next(
            (n for n, (a, b) in enumerate(zip(signatures, old, strict=False)) if a != b), min(len(signatures), len(old))
        )
        if changed == len(signatures) == len(old):
            if cached.live is not None:  # only the growing text grew (or the reply ended)
                self._append_live(cached, final=item.status != "streaming")
        else:
            self.partial_renders += 1
            if cached.live is not None and cached.live in item.steps[:changed]:
                self._append_live(cached, final=True)  # it stopped growing: settle it before what follows
            cursor = QTextCursor(cached.doc)
            start = (
                cached.starts[changed]
                if changed < len(cached.starts)
                else (cached.trailer if cached.trailer is not None else cached.doc.characterCount() - 1)
            )
            cursor.setPosition(start)
            cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
            del cached.starts[changed:]
            cached.trailer, cached.trailer_lines, cached.live, cached.tail = None, (), None, ""
            self._render_steps(cached, cursor, [False], item, changed)
        self._set_status(cached, item)

    def _set_status(self, cached: ItemDocument, item: AssistantItem) -> None:
        """The lines after a reply's steps: "writing…" while nothing is visible yet, "Stopped", notices (a judge
        that failed), the run's figures."""
        if item.status != "streaming" and cached.live is not None:
            self._append_live(cached, final=True)
        lines = trailer_lines(item)
        if lines != cached.trailer_lines:
            cursor = QTextCursor(cached.doc)
            if cached.trailer is not None:
                cursor.setPosition(cached.trailer)
                cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
                cursor.removeSelectedText()
                cached.trailer = None
            if lines:
                cursor.movePosition(QTextCursor.MoveOperation.End)
                cached.trailer = cursor.position()
                for line in lines:
                    new_block(cursor, [False])
                    if line.startswith(STATS_PREFIX):
                        cursor.insertText(line[len(STATS_PREFIX) :], char_format(colour=MUTED, size=self.small))
                    elif line.startswith(NOTICE_PREFIX):
                        cursor.insertText(line[len(NOTICE_PREFIX) :], char_format(colour=NOTICE, bold=True))
                    else:
                        cursor.insertText(line, char_format(colour=MUTED, italic=True))
            cached.trailer_lines = lines
        cached.status = item.status
        _fold_end_after_frame(cached.doc)

    def _render_steps(
        self, cached: ItemDocument, cursor: QTextCursor, first: list[bool], item: AssistantItem, start: int
    ) -> None:
        cursor.movePosition(QTextCursor.MoveOperation.End)
        last = len(item.steps) - 1
        for number in range(start, len(item.steps)):
            step = item.steps[number]
            cached.starts.append(cursor.position())
            growing = (
                item.status == "streaming"
                and number == last
                and not step.retracted
                and not step.tool_cards
                and not step.data
            )
            self._render_step(cached, cursor, first, step, growing)
        cached.signatures = [_signature(step) for step in item.steps]

    def _render_step(
        self, cached: ItemDocument, cursor: QTextCursor, first: list[bool], step: StepSegment, growing: bool
    ) -> None:
        if step.reasoning_parts:
            new_block(cursor, first)
            cursor.insertText(
                translate("ChatDocument", "Thinking") + "  ", char_format(colour=MUTED, bold=True, size=self.small)
            )
            cursor.insertText(step.reasoning, char_format(colour=MUTED, italic=True))
            if growing and not step.texts:
                cached.live, cached.live_kind, cached.seen = step, "reasoning", len(step.reasoning_parts)
        if step.texts:
            new_block(cursor, first)
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
            new_block(cursor, first)
            feedback = (
                coded_text(step.feedback_code, step.feedback_params, step.feedback)
                if step.feedback
                else translate("ChatDocument", "a processor asked for another try")
            )
            cursor.insertText(translate("ChatDocument", "↻ Retried:") + " ", char_format(colour=RETRY, bold=True))
            cursor.insertText(feedback, char_format(colour=RETRY))
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
        fmt.setForeground(STRIKE)
        struck.mergeCharFormat(fmt)

    def _card(self, cursor: QTextCursor, first: list[bool], card: ToolCard, retracted: bool) -> None:
        if first[0]:
            first[0] = False
        frame_format = QTextFrameFormat()
        frame_format.setBorder(1)
        frame_format.setBorderBrush(CARD_BORDER)
        frame_format.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        frame_format.setBackground(CARD_BG)
        frame_format.setPadding(6)
        frame_format.setTopMargin(4)
        frame_format.setBottomMargin(4)
        cursor.insertFrame(frame_format)
        href = TOOL_HREF + card.tool_call_id
        state = {
            "input": "…",
            "call": translate("ChatDocument", "running…"),
            "result": translate("ChatDocument", "✔ done"),
            "error": translate("ChatDocument", "✖ failed"),
        }[card.state]
        if card.state == "error" and card.blocked_by is not None:  # a guardrail's tripwire, not the tool, failed it
            state = (
                translate("ChatDocument", "⊘ blocked by {0}").format(card.blocked_by)
                if card.blocked_by
                else translate("ChatDocument", "⊘ blocked by a processor")
            )
        colour = QColor("#cf222e") if card.state == "error" else QColor("#1a7f37") if card.state == "result" else MUTED
        cursor.insertText("▾ " if card.expanded else "▸ ", char_format(colour=LINK, href=href))
        cursor.insertText(card.tool_name, char_format(colour=LINK, bold=True, href=href))
        summary = _one_line(card.shown_args)
        if summary:
            cursor.insertText(f"  {summary}", char_format(colour=MUTED, family=self.mono, href=href))
        cursor.insertText(f"   {state}", char_format(colour=colour, size=self.small, href=href))
        if card.result_changed:
            cursor.insertText(
                "  · " + translate("ChatDocument", "changed for the model"),
                char_format(colour=MUTED, size=self.small, href=href),
            )
        if retracted:
            self._strike(cursor, cursor.block().position())
        if card.expanded:
            sections = [(translate("ChatDocument", "Arguments"), short_json(card.shown_args), TEXT)]
            if card.result_changed:  # a guardrail changed it: what the tool returned, then what the model got
                sections.append((translate("ChatDocument", "Tool returned"), short_json(card.returned), MUTED))
                sections.append(
                    (
                        translate("ChatDocument", "Given to the model (after process_tool_result)"),
                        short_json(card.result),
                        TEXT,
                    )
                )
            elif card.state == "result":  # the tool-result chunk is what the model got, after process_tool_result
                sections.append(
                    (translate("ChatDocument", "Result (given to the model)"), short_json(card.result), TEXT)
                )
            elif card.state == "error" and card.blocked_by is not None:
                if card.returned_known:  # what the guardrail kept from the model (the trace's, or the recording's)
                    sections.append(
                        (
                            translate("ChatDocument", "Tool returned (not given to the model)"),
                            short_json(card.returned),
                            MUTED,
                        )
                    )
                sections.append(
                    (
                        translate("ChatDocument", "Blocked"),
                        translate("ChatDocument", "A tripwire of {0} kept this result from the model.").format(
                            card.blocked_by or "?"
                        ),
                        QColor("#cf222e"),
                    )
                )
            elif card.state == "error":
                sections.append((translate("ChatDocument", "Error"), card.error or "", QColor("#cf222e")))
            for title, body, body_colour in sections:
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                cursor.insertText(title, char_format(colour=MUTED, bold=True, size=self.small))
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                cursor.insertText(body, char_format(colour=body_colour, family=self.mono))
        cursor.movePosition(QTextCursor.MoveOperation.End)

    def _data(self, cursor: QTextCursor, first: list[bool], block: DataBlock) -> None:
        new_block(cursor, first)
        cursor.insertText(f"{block.type}  ", char_format(colour=MUTED, bold=True, size=self.small))
        cursor.insertText(_one_line(block.data, 200), char_format(colour=MUTED, family=self.mono))

    def _build_tripwire(self, cursor: QTextCursor, first: list[bool], item: TripwireItem) -> None:
        href = TRIPWIRE_HREF + (item.run_id or "")
        red = QColor("#d1242f")
        new_block(cursor, first)
        cursor.insertText(translate("ChatDocument", "⚠ Tripwire"), char_format(colour=red, bold=True, href=href))
        if item.processor_id:
            cursor.insertText(
                "   " + translate("ChatDocument", "processor") + " ", char_format(colour=MUTED, href=href)
            )
            cursor.insertText(item.processor_id, char_format(colour=TEXT, family=self.mono, bold=True, href=href))
        if item.retry:
            cursor.insertText(
                "   " + translate("ChatDocument", "(retry asked)"),
                char_format(colour=MUTED, size=self.small, href=href),
            )
        new_block(cursor, first)
        cursor.insertText(translate("ChatDocument", "Reason:") + " ", char_format(colour=MUTED, bold=True, href=href))
        cursor.insertText(tripwire_text(item), char_format(colour=TEXT, href=href))
        if item.metadata is not None:
            new_block(cursor, first)
            cursor.insertText(
                translate("ChatDocument", "Metadata"), char_format(colour=MUTED, bold=True, size=self.small, href=href)
            )
            new_block(cursor, first)
            cursor.insertText(short_json(item.metadata, 1500), char_format(colour=TEXT, family=self.mono, href=href))

    def _append_live(self, cached: ItemDocument, *, final: bool = False) -> None:
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
                cursor.insertText(new, char_format(colour=MUTED, italic=True))
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


def _fold_end_after_frame(doc: QTextDocument) -> None:
    """The empty block Qt keeps after a frame, when a reply ends with a tool card: no height (it left a blank line
    under the card in the bubble). :func:`new_block` gives it back a plain format when text follows the card."""
    last = doc.lastBlock()
    previous = last.previous()
    if last.length() != 1 or not previous.isValid() or QTextCursor(previous).currentFrame() is doc.rootFrame():
        return
    folded = QTextBlockFormat()
    folded.setLineHeight(0, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
    cursor = QTextCursor(last)
    cursor.setBlockFormat(folded)


def _one_line(value: Any, limit: int = 90) -> str:
    """A value as one line of text (JSON for non-strings), cut at ``limit`` characters."""
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


__all__ = ["STOPPED", "TOOL_HREF", "TRIPWIRE_HREF", "WRITING", "DocumentWriter", "ItemDocument", "trailer_lines"]
