"""Redaction masks stay literal in the chat's markdown (``a***e@*****.com`` is not emphasis)."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextDocument

from studio.views.chat_markdown import escape_masks, insert_markdown


def rendered(markdown: str) -> str:
    document = QTextDocument()
    insert_markdown(QTextCursor(document), markdown)
    return document.toPlainText()


def test_masks_render_as_written(qapp: object) -> None:
    text = "Reach them at a***e@*******.com or + *** *** 2042."
    assert rendered(text) == text


def test_real_markdown_still_renders(qapp: object) -> None:
    assert rendered("**bold** and *italic*") == "bold and italic"
    assert escape_masks("***") == "***"  # a horizontal rule alone on its line
    assert escape_masks("no masks here") == "no masks here"
