"""Markdown into ``QTextDocument`` s, for chat messages: inserting it, keeping redaction masks literal, and splitting
streamed text into finished paragraphs and the one still growing.

Pure text-cursor helpers with no knowledge of chat items; the document writer (:mod:`studio.views.chat_document`) uses
them for every message, and :func:`split_markdown` is what lets a streamed reply re-render only its last paragraph.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor

from studio.views.chat_style import CODE_BG

#: A paragraph still growing is committed anyway once this long (a reply without blank lines).
_TAIL_LIMIT = 3000
_PLACEHOLDER = "\u2063"  # an invisible separator


def new_block(cursor: QTextCursor, first: list[bool]) -> None:
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
                fmt.setBackground(CODE_BG)
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


__all__ = ["escape_masks", "insert_markdown", "new_block", "split_markdown"]
