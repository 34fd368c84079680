"""Markdown into ``QTextDocument`` s, for chat messages: inserting it, keeping redaction masks literal, and splitting
streamed text into finished paragraphs and the one still growing.

Pure text-cursor helpers with no knowledge of chat items; the document writer (:mod:`studio.views.chat_document`) uses
them for every message, and :func:`split_markdown` is what lets a streamed reply re-render only its last paragraph.
"""

from __future__ import annotations

import re
import unicodedata

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


#: ``**…**`` or ``*…*`` on one line (not an escaped or longer run of asterisks), its inside not starting or ending
#: with a space.
_EMPHASIS = re.compile(r"(?<![\\*])(\*\*|\*)(?![\s*])(.+?)(?<![\s\\*])\1(?!\*)")
_CODE_SPAN = re.compile(r"(`+)(?:.*?[^`])?\1(?!`)")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def _punctuation(char: str) -> bool:
    return unicodedata.category(char)[0] in "PS"


def _touches_a_word(char: str) -> bool:
    """Whether a delimiter next to ``char`` needs its inner side free of punctuation to open or close."""
    return bool(char) and not char.isspace() and not _punctuation(char)


def _emphasis_outside_punctuation(segment: str) -> str:
    def move(match: re.Match[str]) -> str:
        delimiter, inner = match.group(1), match.group(2)
        before = segment[match.start() - 1] if match.start() > 0 else ""
        after = segment[match.end()] if match.end() < len(segment) else ""
        lead = trail = ""
        if _touches_a_word(before):
            while inner and _punctuation(inner[0]):
                lead, inner = lead + inner[0], inner[1:]
        if _touches_a_word(after):
            while inner and _punctuation(inner[-1]):
                inner, trail = inner[:-1], inner[-1] + trail
        if not inner.strip() or inner != inner.strip():
            return match.group(0)  # nothing but punctuation, or a space now at an edge: leave it as written
        return f"{lead}{delimiter}{inner}{delimiter}{trail}"

    return _EMPHASIS.sub(move, segment)


def emphasis_beside_words(markdown: str) -> str:
    """Let bold and italic that end in punctuation run straight into a word render as emphasis.

    CommonMark closes ``**`` after punctuation only before a space or more punctuation, so ``**注意：**请`` — how
    Chinese replies write a bold label — and ``**Note:**text`` show their asterisks. Moving the punctuation just
    outside the delimiters (``**注意**：请``) renders the same characters, only the colon not bold. Code is left alone.
    """
    if "*" not in markdown:
        return markdown
    lines = markdown.split("\n")
    fenced = False
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or "*" not in line:
            continue
        rebuilt, start = [], 0
        for span in _CODE_SPAN.finditer(line) if "`" in line else ():
            rebuilt += [_emphasis_outside_punctuation(line[start : span.start()]), span.group(0)]
            start = span.end()
        rebuilt.append(_emphasis_outside_punctuation(line[start:]))
        lines[number] = "".join(rebuilt)
    return "\n".join(lines)


def insert_markdown(cursor: QTextCursor, markdown: str) -> None:
    """Insert markdown at the cursor, which must be in an empty block, keeping the first block's own format.

    ``QTextCursor.insertMarkdown`` merges the first inserted block into the current one and loses its format (a
    heading or a list item would become a plain paragraph); a throw-away first paragraph avoids that.
    """
    if not markdown.strip():
        return
    markdown = emphasis_beside_words(escape_masks(markdown))
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
