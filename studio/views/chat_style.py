"""The chat's look: bubble geometry, colours, and the character formats the message documents are written with.

One place for what the renderer (:mod:`studio.views.chat_render`), the document writer
(:mod:`studio.views.chat_document`) and the markdown helpers (:mod:`studio.views.chat_markdown`) share, so a colour
or a margin is changed once.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QTextCharFormat

GAP = 8  # between rows
SIDE = 12  # left/right margin of the list
INDENT = 56  # how far user bubbles sit from the left edge and assistant bubbles from the right one
PAD = 10  # inside a bubble
RADIUS = 8.0

TEXT = QColor("#1f2328")
MUTED = QColor("#656d76")
LINK = QColor("#0969da")
BUBBLE_COLOURS: dict[str, tuple[QColor, QColor]] = {  # kind → (background, border)
    "user": (QColor("#ddeeff"), QColor("#b6d4f2")),
    "assistant": (QColor("#f6f8fa"), QColor("#d8dee4")),
    "tripwire": (QColor("#fff1e5"), QColor("#d1242f")),
    "error": (QColor("#ffebe9"), QColor("#cf222e")),
}
CARD_BG = QColor("#ffffff")
CODE_BG = QColor("#eaeef2")
CARD_BORDER = QColor("#c9d1d9")
RETRY = QColor("#9a6700")
NOTICE = QColor("#9a6700")  # a notice under a reply: something the user must know (a guardrail's judge failed)
STRIKE = QColor("#8c959f")


def char_format(
    *,
    colour: QColor | None = None,
    bold: bool = False,
    italic: bool = False,
    size: float | None = None,
    family: QFont | None = None,
    href: str | None = None,
) -> QTextCharFormat:
    """A character format with only what is given set (a link when ``href`` is)."""
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
