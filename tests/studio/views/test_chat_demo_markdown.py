"""The offline demo model's sentences, in every language, render in the chat with no markdown left showing.

CommonMark (Qt's markdown) does not close ``**`` between a full-width punctuation mark and a Han character
(``**简短回答：**我是`` stays literal), a trap English text never meets, so each Chinese sentence is rendered here.
"""

from __future__ import annotations

import string

import pytest
from PySide6.QtGui import QTextCursor, QTextDocument

from processors.demo import offline
from studio.views.chat_markdown import insert_markdown


def rendered(markdown: str) -> str:
    document = QTextDocument()
    insert_markdown(QTextCursor(document), markdown)
    return document.toPlainText()


def filled(template: str) -> str:
    """The template with each ``{field}`` given a plain value, as the demo fills it."""
    fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return template.format(**{name: "Ada" for name in fields})


SENTENCES = [(language, key) for language, sentences in offline._CHINESE.items() for key in sentences]


@pytest.mark.parametrize(("language", "key"), SENTENCES)
def test_each_chinese_sentence_renders_without_literal_markdown(qapp: object, language: str, key: str) -> None:
    text = rendered(filled(offline._CHINESE[language][key]))
    assert "**" not in text and "`" not in text, text


def test_the_general_answer_shows_its_three_headings_in_bold(qapp: object) -> None:
    document = QTextDocument()
    insert_markdown(QTextCursor(document), filled(offline._CHINESE["zh_CN"]["general"]))
    bold = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            if fragment.charFormat().fontWeight() > 500:
                bold.append(fragment.text())
            fragments += 1
        block = block.next()
    assert bold == ["简短回答", "试试工具", "触发护栏"]
