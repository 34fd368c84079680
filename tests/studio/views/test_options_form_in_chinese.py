"""The options form in Chinese: every refusal it shows is translated by its code (issue 27 item 2), never Python's or
the runtime's English — a rule whose pattern only its flags break, a type the catalogue does not have."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit

from studio.design.agent_design import AgentDesign, ChainEntry
from studio.models.chain_model import ChainModel
from studio.models.design_document import DesignDocument
from studio.views.options_form import OptionsForm
from tests.studio.editor_catalogue import make_catalogue

#: Valid without flags (a group holding ``a#``); with the verbose flag ``#)`` is a comment, so the group is open.
FLAGS_BREAK_IT = [{"name": "order", "pattern": "(a#)", "flags": "x"}]


def _document(*entries: ChainEntry) -> DesignDocument:
    return DesignDocument(make_catalogue(), AgentDesign(input=list(entries)))


def _form(qtbot: Any, document: DesignDocument, uid: str) -> OptionsForm:
    form = OptionsForm(document)
    qtbot.addWidget(form)
    form.resize(420, 900)
    form.show()
    qtbot.waitExposed(form)
    form.show_entry(uid)
    return form


def test_a_pattern_its_flags_break_reads_in_english_as_the_runtime_wrote_it(qapp: Any) -> None:
    document = _document(ChainEntry(uid="regex", type="RegexFilter", options={"rules": FLAGS_BREAK_IT}))

    errors = document.option_errors("RegexFilter", {"rules": FLAGS_BREAK_IT})

    assert errors == {
        "rules.0.pattern": "invalid regular expression '(a#)' with flags 'x': "
        "missing ), unterminated subpattern at position 0"
    }


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_CN", "无效的正则表达式 '(a#)'（标志 'x'）：位置 0 处：缺少 )，子模式未闭合"),
        ("zh_TW", "無效的正規表示式 '(a#)'（旗標 'x'）："),
    ],
)
def test_a_pattern_its_flags_break_reads_in_chinese_in_the_form(
    qtbot: Any, in_language: Any, language: str, expected: str
) -> None:
    in_language(language)
    document = _document(ChainEntry(uid="regex", type="RegexFilter", options={"rules": FLAGS_BREAK_IT}))
    form = _form(qtbot, document, "regex")

    shown = form.error_text("rules")

    assert isinstance(form.editor("rules"), QPlainTextEdit)
    assert expected in shown, shown
    assert "invalid regular expression" not in shown
    assert "missing )" not in shown
    assert shown.startswith("第 1 项，pattern：" if language == "zh_CN" else "第 1 項，pattern：")  # the reader's marks


def test_the_chain_names_the_options_problem_in_the_readers_words(qapp: Any, in_language: Any) -> None:
    in_language("zh_CN")
    document = _document(ChainEntry(uid="regex", type="RegexFilter", options={"rules": FLAGS_BREAK_IT}))
    chain = ChainModel(document, "input")

    tooltip = chain.data(chain.index(0, 0), Qt.ItemDataRole.ToolTipRole)

    assert "rules.0.pattern：无效的正则表达式 '(a#)'（标志 'x'）" in tooltip, tooltip


def test_a_type_not_in_the_catalogue_is_one_translated_sentence(qapp: Any, in_language: Any) -> None:
    in_language("zh_CN")
    document = _document(ChainEntry(uid="gone", type="Vanished", options={"limit": 1}))

    errors = document.option_errors("Vanished", {"limit": 1})

    assert list(errors) == ["options"]
    assert errors["options"] == document.can_place("Vanished", "input")  # one text, wherever it is shown
    assert "is not in the catalogue" not in errors["options"]
    assert "Vanished" in errors["options"]
