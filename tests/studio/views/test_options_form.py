"""OptionsForm: generated from the type's options schema, validated as you type with the message next to the
field, invalid values kept as typed (so the chain marks the entry), a valid edit one undo step."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QPlainTextEdit

from studio.design.agent_design import AgentDesign, ChainEntry
from studio.models.design_document import DesignDocument
from studio.views.option_fields import field_specs
from studio.views.options_form import OptionsForm
from tests.studio.editor_catalogue import make_catalogue


@pytest.fixture
def document(qapp: Any) -> DesignDocument:
    design = AgentDesign(
        input=[
            ChainEntry(uid="regex", type="RegexFilter", options={"presets": ["pii"]}),
            ChainEntry(uid="pii", type="PIIDetector"),
        ],
        output=[
            ChainEntry(uid="batch", type="BatchParts", options={"batch_size": 3}),
            ChainEntry(uid="echo", type="Echo"),
        ],
        error=[ChainEntry(uid="retry", type="StreamErrorRetry")],
    )
    return DesignDocument(make_catalogue(), design)


@pytest.fixture
def form(document: DesignDocument, qtbot: Any) -> OptionsForm:
    widget = OptionsForm(document)
    qtbot.addWidget(widget)
    widget.resize(420, 900)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def retype(qtbot: Any, edit: QLineEdit, text: str) -> None:
    """Select everything in ``edit`` and type ``text`` over it, as a user would."""
    edit.setFocus()
    edit.selectAll()
    if text:
        qtbot.keyClicks(edit, text)
    else:
        qtbot.keyClick(edit, Qt.Key.Key_Delete)


def error_label(form: OptionsForm, name: str) -> QLabel:
    label = form.findChild(QLabel, f"options.{name}.error")
    assert label is not None
    return label


# ------------------------------------------------------------------------------------------- schema
def test_each_schema_shape_gets_its_editor(document: DesignDocument) -> None:
    catalogue = make_catalogue()
    kinds = {
        type_name: {spec.name: spec.kind for spec in field_specs(catalogue.get(type_name).options_schema)}
        for type_name in ("RegexFilter", "PIIDetector", "StreamErrorRetry", "StructuredOutput")
    }
    assert kinds["RegexFilter"] == {
        "rules": "json",
        "presets": "enum_list",
        "strategy": "enum",
        "phase": "enum",
        "include_redacted_values": "bool",
        "stream_carryover_size": "int",
    }
    assert kinds["PIIDetector"]["model"] == "any"
    assert kinds["PIIDetector"]["threshold"] == "number"
    assert kinds["PIIDetector"]["instructions"] == "multiline"
    assert kinds["PIIDetector"]["detection_types"] == "enum_list"
    assert kinds["StreamErrorRetry"]["matchers"] == "string_list"
    assert kinds["StructuredOutput"]["schema"] == "any_text"
    instructions = next(s for s in field_specs(catalogue.get("PIIDetector").options_schema) if s.name == "instructions")
    assert instructions.nullable and instructions.has_default and instructions.default is None


def test_the_form_shows_the_entry_with_defaults_filled_in(form: OptionsForm) -> None:
    form.show_entry("regex")
    assert form.uid() == "regex"
    assert isinstance(form.editor("strategy"), QComboBox) and form.editor("strategy").currentText() == "block"
    assert form.findChild(QCheckBox, "options.presets.pii").isChecked()
    assert not form.findChild(QCheckBox, "options.presets.urls").isChecked()
    assert form.editor("stream_carryover_size").text() == "128"
    assert not form.has_errors()
    form.show_entry("pii")
    assert isinstance(form.editor("instructions"), QPlainTextEdit)
    assert form.findChild(QCheckBox, "options.detection_types.email").isChecked()  # a factory default
    form.show_entry("echo")
    assert "no options" in " ".join(label.text() for label in form.findChildren(QLabel))
    form.show_entry("")
    assert form.uid() == ""


def test_stored_problems_show_on_load(document: DesignDocument, form: OptionsForm) -> None:
    document.insert_entry("input", 0, ChainEntry(uid="bare", type="RegexFilter"))
    form.show_entry("bare")
    assert form.error_text("presets") == "RegexFilter needs at least one rule or preset"
    assert error_label(form, "presets").isVisible()


# --------------------------------------------------------------------------------------- validation
def test_a_negative_number_shows_the_message_under_the_field_and_is_kept_as_typed(
    document: DesignDocument, form: OptionsForm, qtbot: Any
) -> None:
    form.show_entry("batch")
    retype(qtbot, form.editor("batch_size"), "-3")
    assert form.error_text("batch_size") == "Input should be greater than or equal to 1"
    label = error_label(form, "batch_size")
    assert label.isVisible()
    # right under its field
    field = form.editor("batch_size")
    assert (
        label.mapTo(form.widget(), label.rect().topLeft()).y()
        > field.mapTo(form.widget(), field.rect().bottomLeft()).y() - 1
    )
    qtbot.waitUntil(lambda: document.entry("batch").options == {"batch_size": -3})  # the design says what was typed
    assert document.undo_stack().count() == 1
    assert document.option_errors("BatchParts", document.entry("batch").options)  # ... and that it is invalid
    document.undo_stack().undo()
    assert document.entry("batch").options == {"batch_size": 3}
    assert form.editor("batch_size").text() == "3" and not form.has_errors()


def test_text_that_is_no_number_is_explained(form: OptionsForm, document: DesignDocument, qtbot: Any) -> None:
    form.show_entry("batch")
    retype(qtbot, form.editor("batch_size"), "ten")
    assert form.error_text("batch_size") == "Enter a whole number"
    form.show_entry("pii")  # commits the pending edit: the text is kept as it is
    assert document.entry("batch").options == {"batch_size": "ten"}
    retype(qtbot, form.editor("threshold"), "1.5")
    assert form.error_text("threshold") == "Input should be less than or equal to 1"
    form.flush()
    assert document.entry("pii").options == {"threshold": 1.5}
    form.show_entry("batch")  # shown back as typed, with the reason
    assert form.editor("batch_size").text() == "ten"
    assert form.error_text("batch_size").startswith("Input should be a valid integer")


def test_a_bad_regex_is_named_and_json_that_is_no_json_is_kept_as_typed(
    form: OptionsForm, document: DesignDocument, qtbot: Any
) -> None:
    form.show_entry("regex")
    rules = form.editor("rules")
    assert isinstance(rules, QPlainTextEdit)
    rules.setPlainText('[{"name": "order id", "pattern": "ORD-(\\\\d+"}]')
    assert form.error_text("rules").startswith("item 1, pattern: invalid regular expression 'ORD-(\\\\d+'")
    broken = '[{"name": "order id", "pattern": '
    rules.setPlainText(broken)
    assert form.error_text("rules").startswith("Not valid JSON")
    form.flush()  # what the pause in typing would do now
    # kept as typed, so the saved design says what the form says and the entry can be marked invalid
    assert document.entry("regex").options == {"presets": ["pii"], "rules": broken}
    assert document.option_errors("RegexFilter", document.entry("regex").options) == {
        "rules": "Not valid JSON: Expecting value: line 1 column 34 (char 33)"
    }
    form.show_entry("batch")
    form.show_entry("regex")  # shown back as typed, with the reason
    assert form.editor("rules").toPlainText() == broken
    assert form.error_text("rules").startswith("Not valid JSON")
    form.editor("rules").setPlainText('[{"name": "order id", "pattern": "ORD-\\\\d+"}]')
    assert not form.has_errors()
    qtbot.waitUntil(lambda: document.entry("regex").options.get("rules") != broken)
    assert document.entry("regex").options == {
        "presets": ["pii"],
        "rules": [{"name": "order id", "pattern": "ORD-\\d+"}],
    }
    assert document.option_errors("RegexFilter", document.entry("regex").options) == {}


def test_a_valid_edit_is_one_undo_step(form: OptionsForm, document: DesignDocument, qtbot: Any) -> None:
    form.show_entry("batch")
    retype(qtbot, form.editor("batch_size"), "120")  # three keystrokes, three valid values on the way
    qtbot.waitUntil(lambda: document.undo_stack().count() == 1)
    form.flush()  # nothing is left waiting to be committed as a second step
    assert document.undo_stack().count() == 1
    assert document.entry("batch").options == {"batch_size": 120}
    assert document.undo_stack().undoText() == "Change batch_size of Batch Parts"
    document.undo_stack().undo()
    assert document.entry("batch").options == {"batch_size": 3}
    assert form.editor("batch_size").text() == "3"  # the form follows undo
    document.undo_stack().redo()
    assert form.editor("batch_size").text() == "120"


def test_an_invalid_value_on_the_way_is_skipped_not_committed(
    form: OptionsForm, document: DesignDocument, qtbot: Any
) -> None:
    form.show_entry("batch")
    retype(qtbot, form.editor("batch_size"), "0")
    assert form.error_text("batch_size")
    qtbot.keyClicks(form.editor("batch_size"), "7")  # "07" is 7
    assert form.error_text("batch_size") == ""
    form.flush()
    assert document.entry("batch").options == {"batch_size": 7}
    assert document.undo_stack().count() == 1


def test_choices_commit_at_once_and_defaults_are_not_stored(
    form: OptionsForm, document: DesignDocument, qtbot: Any
) -> None:
    form.show_entry("regex")
    form.editor("strategy").setCurrentText("redact")
    assert document.entry("regex").options == {"presets": ["pii"], "strategy": "redact"}
    form.findChild(QCheckBox, "options.presets.urls").setChecked(True)
    assert document.entry("regex").options["presets"] == ["pii", "urls"]
    form.editor("strategy").setCurrentText("block")  # the default again: the key goes
    assert document.entry("regex").options == {"presets": ["pii", "urls"]}
    assert document.undo_stack().count() == 3


def test_clearing_a_number_means_its_default(form: OptionsForm, document: DesignDocument, qtbot: Any) -> None:
    form.show_entry("batch")
    retype(qtbot, form.editor("batch_size"), "")
    form.flush()
    assert document.entry("batch").options == {}


def test_lists_one_per_line_and_untyped_model_ids(form: OptionsForm, document: DesignDocument, qtbot: Any) -> None:
    form.show_entry("retry")
    form.editor("matchers").setPlainText("overloaded\n\n  quota  \n")
    form.flush()
    assert document.entry("retry").options == {"matchers": ["overloaded", "quota"]}
    form.show_entry("pii")
    retype(qtbot, form.editor("model"), "ollama/llama3.1")
    form.flush()
    assert document.entry("pii").options == {"model": "ollama/llama3.1"}


def test_switching_entries_commits_a_pending_edit(form: OptionsForm, document: DesignDocument, qtbot: Any) -> None:
    form.show_entry("batch")
    retype(qtbot, form.editor("batch_size"), "9")
    form.show_entry("regex")
    assert document.entry("batch").options == {"batch_size": 9}


def test_removing_the_shown_entry_clears_the_form(form: OptionsForm, document: DesignDocument) -> None:
    form.show_entry("batch")
    document.remove_entry("batch")
    assert form.uid() == ""


def test_no_reference_cycle_keeps_the_document(qapp: Any) -> None:
    """A document left to Python's cycle collector together with dead widgets crashed Qt (QUndoStack::clear)
    at exit: the form, its editors and the undo commands must let it go by reference counting alone."""
    gc.disable()
    try:
        document = DesignDocument(make_catalogue(), AgentDesign(input=[ChainEntry(uid="x", type="BatchParts")]))
        form = OptionsForm(document)
        form.show_entry("x")
        form.editor("batch_size").setText("4")
        form.editor("emit_on_non_text").setChecked(False)  # an undo command on the stack
        assert document.undo_stack().count() == 1
        alive = weakref.ref(document)
        del form, document
        assert alive() is None
    finally:
        gc.enable()


# ------------------------------------------------------------------------------------------- languages
@pytest.mark.parametrize(
    ("language", "block", "redact", "pii"),
    [("zh_CN", "阻止", "遮盖", "个人信息"), ("zh_TW", "阻擋", "遮蔽", "個人資料")],
)
def test_option_values_read_translated_and_save_their_wire_values(
    form: OptionsForm,
    document: DesignDocument,
    qtbot: Any,
    in_language: Any,
    language: str,
    block: str,
    redact: str,
    pii: str,
) -> None:
    in_language(language)
    form.show_entry("regex")
    strategy = form.editor("strategy")
    assert isinstance(strategy, QComboBox)
    labels = [strategy.itemText(row) for row in range(strategy.count())]
    assert labels[:2] == [block, redact] and strategy.currentText() == block
    assert [strategy.itemData(row) for row in range(strategy.count())] == ["block", "redact", "warn"]
    assert strategy.itemData(1, Qt.ItemDataRole.ToolTipRole) == "redact"  # the value a design file holds
    preset = form.findChild(QCheckBox, "options.presets.pii")
    assert preset.text() == pii and preset.toolTip() == "pii"
    strategy.setCurrentIndex(1)  # the user picks the translated "redact"
    qtbot.waitUntil(lambda: document.entry("regex").options.get("strategy") == "redact")
    form.findChild(QCheckBox, "options.presets.urls").click()
    qtbot.waitUntil(lambda: document.entry("regex").options.get("presets") == ["pii", "urls"])


def test_a_value_without_a_translation_is_shown_as_it_is(form: OptionsForm, in_language: Any) -> None:
    """Judge presets are names of models and servers: they stay as written in every language."""
    in_language("zh_CN")
    form.show_entry("pii")
    preset = form.editor("judge_preset")
    assert isinstance(preset, QComboBox)
    shown = {preset.itemText(row) for row in range(preset.count())}
    assert "llama-guard-ollama" in shown
