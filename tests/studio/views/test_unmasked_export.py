"""The question before a regression test holds masked values unmasked names their kinds in the reader's words —
"card numbers and e-mail addresses", "信用卡号和电子邮件" — never the detector's ids (``credit-card``); a
RegexFilter's rule by the name the user gave it. The real box over a real widget, in English and in Chinese."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from processors.builtin.pii_detector import PIIType
from studio.design.agent_design import DEMO_MODEL, AgentDesign, ChainEntry, ModelConfig
from studio.regression_exports import masked_kinds
from studio.views.option_values import value_label
from studio.views.unmasked_export import ask_to_export_unmasked, kind_label

#: What the run's regression test would hold raw: a card number typed by the user, an e-mail address in the answer.
TEXTS = ["my card is 4111 1111 1111 1111", "I wrote to ada.test@example.org for you"]


def cards_and_mails() -> list[str]:
    """The kinds a design hiding cards and e-mail addresses finds in :data:`TEXTS`, as the export passes them."""
    pii = ChainEntry(type="PIIDetector", options={"strategy": "redact", "detection_types": ["email", "credit-card"]})
    design = AgentDesign(name="d", model=ModelConfig(model=DEMO_MODEL), input=[pii], output=[pii])
    return masked_kinds(design, TEXTS)


def question(qtbot: QtBot, kinds: list[str]) -> str:
    parent = QWidget()
    qtbot.addWidget(parent)
    box = ask_to_export_unmasked(parent, kinds, accept=lambda: None)
    text = f"{box.windowTitle()}\n{box.text()}"
    box.close()
    return text


def test_the_question_names_the_kinds_in_words(qtbot: QtBot) -> None:
    kinds = cards_and_mails()
    assert kinds == ["credit-card", "email"]
    text = question(qtbot, kinds)
    assert "values the guardrails hid in the chat: card numbers and e-mail addresses." in text
    assert "credit-card" not in text and "email" not in text
    named = question(qtbot, [*kinds, "customer-ref"])  # a RegexFilter's rule, as the user named it
    assert "card numbers, e-mail addresses, and customer-ref." in named


@pytest.mark.parametrize(
    ("language", "named"), [("zh_CN", "信用卡号和电子邮件"), ("zh_TW", "信用卡號和電子郵件")]
)  # fmt: skip
def test_the_question_names_the_kinds_in_chinese_as_the_options_pane_does(
    qtbot: QtBot, in_language: Callable[[str], None], language: str, named: str
) -> None:
    in_language(language)
    text = question(qtbot, cards_and_mails())
    assert named in text and "credit-card" not in text and "email" not in text
    for kind in get_args(PIIType):  # the words of the detector's options, where the user chose what to hide
        assert kind_label(kind) == value_label(kind) != kind, kind


def test_every_detection_type_has_a_label() -> None:
    """A type the detector gains is named in words here too (this fails until it has its label)."""
    unnamed = [kind for kind in get_args(PIIType) if kind_label(kind) == kind]
    assert unnamed == []
    assert kind_label("customer-ref") == "customer-ref"
