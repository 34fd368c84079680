"""The prompt-injection detector's options as a newcomer meets them in the sample design (issue 28, the user side):
the threshold says what its number means (the learned model's score is a calibrated chance), in every language, and
a value out of range is refused with a message while what was typed stays."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QLabel, QLineEdit

from studio.design.sample import sample_design
from studio.models.design_document import DesignDocument
from studio.views.options_form import OptionsForm
from tests.studio.editor_catalogue import make_catalogue


def _form(qtbot: Any) -> tuple[OptionsForm, DesignDocument, str]:
    design = sample_design()
    document = DesignDocument(make_catalogue(), design)
    form = OptionsForm(document)
    qtbot.addWidget(form)
    form.resize(420, 900)
    form.show()
    qtbot.waitExposed(form)
    uid = next(entry.uid for entry in design.input if entry.type == "PromptInjectionDetector")
    form.show_entry(uid)
    return form, document, uid


def _texts(form: OptionsForm) -> list[str]:
    return [label.text() for label in form.widget().findChildren(QLabel) if label.isVisible()]


@pytest.mark.parametrize(
    ("language", "calibrated"),
    [("en", "The learned model's score is calibrated"), ("zh_CN", "经过校准"), ("zh_TW", "經過校準")],
)
def test_the_threshold_says_what_its_number_means(qtbot: Any, in_language: Any, language: str, calibrated: str) -> None:
    in_language(language)
    form, _document, _uid = _form(qtbot)
    shown = [text for text in _texts(form) if calibrated in text]
    assert len(shown) == 1, _texts(form)
    assert "0.7" in shown[0] and "70" in shown[0]


def test_a_threshold_out_of_range_is_refused_and_kept_as_typed(qtbot: Any) -> None:
    form, document, uid = _form(qtbot)
    field = form.editor("threshold")
    assert isinstance(field, QLineEdit)
    field.selectAll()
    qtbot.keyClicks(field, "1.5")
    qtbot.waitUntil(lambda: form.error_text("threshold") != "")
    assert "1" in form.error_text("threshold")
    assert field.text() == "1.5"
    qtbot.waitUntil(lambda: document.entry(uid).options.get("threshold") == 1.5)  # kept: the chain marks it invalid
