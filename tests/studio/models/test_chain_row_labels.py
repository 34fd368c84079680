"""A chain row's short text names a refused option as the options form names it — the field's label, then the place
inside it ("Rules, item 1, pattern"), in the reader's language — not by the design file's path ("rules.0.pattern"),
which the tooltip keeps (it is what the build's refusal and the design file say)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from studio.design.agent_design import AgentDesign, ChainEntry
from studio.models.chain_model import ChainModel
from studio.models.design_document import DesignDocument
from studio.views.options_form import OptionsForm
from tests.studio.editor_catalogue import make_catalogue

#: A rule whose pattern can backtrack catastrophically: refused at ``rules.0.pattern``.
BACKTRACKS = [{"name": "words", "pattern": r"(\w+\s?)+$"}]


def _shown(qtbot: Any, entry: ChainEntry) -> tuple[str, str, str]:
    """(the row's second line, its tooltip, the label the options form gives the refused field's editor)."""
    document = DesignDocument(make_catalogue(), AgentDesign(input=[entry]))
    chain = ChainModel(document, "input")
    row = chain.index(0, 0)
    form = OptionsForm(document)
    qtbot.addWidget(form)
    form.show_entry(entry.uid)
    field = next(iter(entry.options))
    label = next(label for label in form.findChildren(QLabel) if label.buddy() is form.editor(field))
    return row.data().splitlines()[1], row.data(Qt.ItemDataRole.ToolTipRole), label.text()


@pytest.mark.parametrize(
    ("language", "invalid", "place"),
    [
        ("en", "Invalid: ", "{label}, item 1, pattern: "),
        ("zh_CN", "无效：", "{label}，第 1 项，pattern："),
        ("zh_TW", "無效：", "{label}，第 1 項，pattern："),
    ],
)
def test_a_refused_rule_is_named_by_its_label_and_place(
    qtbot: Any, in_language: Any, language: str, invalid: str, place: str
) -> None:
    in_language(language)

    second_line, tooltip, label = _shown(
        qtbot, ChainEntry(uid="regex", type="RegexFilter", options={"rules": BACKTRACKS})
    )

    assert label and label != "rules"
    assert second_line.startswith(invalid + place.format(label=label)), second_line
    assert "rules.0.pattern" not in second_line
    assert "rules.0.pattern" in tooltip  # the design file's path, as the build's refusal has it


def test_a_refused_top_level_option_is_named_by_its_label(qtbot: Any) -> None:
    second_line, _tooltip, label = _shown(qtbot, ChainEntry(uid="limit", type="TokenLimiter", options={"limit": -5}))

    assert label == "Limit"
    assert second_line == "Invalid: Limit: Input should be greater than or equal to 1"


def test_an_option_the_type_does_not_have_keeps_its_name(qapp: Any) -> None:
    entry = ChainEntry(uid="limit", type="TokenLimiter", options={"limt": 5})
    chain = ChainModel(DesignDocument(make_catalogue(), AgentDesign(input=[entry])), "input")

    assert chain.index(0, 0).data().splitlines()[1].startswith("Invalid: limt: ")
