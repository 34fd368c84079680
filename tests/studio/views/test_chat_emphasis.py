"""Bold and italic that end in punctuation and run straight into a word render as emphasis in the chat.

Chinese replies write bold labels as ``**注意：**请…``; CommonMark leaves those asterisks showing. The chat moves the
punctuation just outside the delimiters, so the characters shown are the model's, the labels bold.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextCursor, QTextDocument

from studio.views.chat_markdown import emphasis_beside_words, insert_markdown


def document_of(markdown: str) -> QTextDocument:
    document = QTextDocument()
    insert_markdown(QTextCursor(document), markdown)
    return document


def styled(document: QTextDocument) -> list[tuple[str, bool, bool]]:
    """(text, bold, italic) of each run of characters, in order."""
    runs = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            fmt = fragment.charFormat()
            runs.append((fragment.text(), fmt.fontWeight() > 500, fmt.fontItalic()))
            fragments += 1
        block = block.next()
    return runs


@pytest.mark.parametrize(
    ("markdown", "shown", "bold"),
    [
        ("**注意：**请先备份。", "注意：请先备份。", "注意"),
        ("- **简短回答：**我是离线模型。", "简短回答：我是离线模型。", "简短回答"),
        ("他说**“不要”**然后走了。", "他说“不要”然后走了。", "不要"),
        ("**Note:**read this first.", "Note:read this first.", "Note"),
        ("**步驟一。**打開設定", "步驟一。打開設定", "步驟一"),
    ],
)
def test_bold_ending_in_punctuation_before_a_word_renders_bold(
    qapp: object, markdown: str, shown: str, bold: str
) -> None:
    document = document_of(markdown)
    assert document.toPlainText() == shown
    assert [text for text, is_bold, _ in styled(document) if is_bold] == [bold]


def test_italic_ending_in_punctuation_before_a_word_renders_italic(qapp: object) -> None:
    document = document_of("这是*重点，*不要忘记")
    assert document.toPlainText() == "这是重点，不要忘记"
    assert [text for text, _, italic in styled(document) if italic] == ["重点"]


@pytest.mark.parametrize(
    "markdown",
    [
        "**bold** and *italic* as usual",
        "**注意**：已经写对的不动",
        "**注意：** 后面有空格",
        "a***e@*******.com or + *** *** 2042",
        "**：**",
        "use `**x：**y` as written",
        "```\n**注意：**请\n```",
        "no asterisks at all",
    ],
)
def test_markdown_that_already_renders_or_is_code_is_left_as_written(markdown: str) -> None:
    assert emphasis_beside_words(markdown) == markdown


def test_code_keeps_its_asterisks_while_the_text_beside_it_is_mended(qapp: object) -> None:
    document = document_of("`**x：**y` 然后 **注意：**请")
    assert document.toPlainText() == "**x：**y 然后 注意：请"
    assert [text for text, is_bold, _ in styled(document) if is_bold] == ["注意"]


def test_a_fenced_block_keeps_its_asterisks(qapp: object) -> None:
    document = document_of("前言\n\n```\n**注意：**请\n```\n\n**结论：**好")
    assert "**注意：**请" in document.toPlainText()
    assert document.toPlainText().endswith("结论：好")
