"""DesignDocument: the mutation API, its signals, the lane check, and undo/redo of every command."""

from __future__ import annotations

from typing import Any

import pytest

from studio.design.agent_design import AgentDesign, ChainEntry
from studio.models.design_document import DesignDocument
from studio.models.editor_commands import (
    AddEntry,
    EditOptions,
    EditSetting,
    MoveEntry,
    RemoveEntry,
    ReplaceDesign,
    ToggleEntry,
)
from tests.studio.editor_catalogue import make_catalogue


@pytest.fixture
def document(qapp: Any) -> DesignDocument:
    design = AgentDesign(
        name="Support",
        input=[ChainEntry(uid="in-1", type="UnicodeNormalizer"), ChainEntry(uid="in-2", type="PIIDetector")],
        output=[ChainEntry(uid="out-1", type="BatchParts", options={"batch_size": 50})],
        error=[ChainEntry(uid="err-1", type="StreamErrorRetry")],
    )
    return DesignDocument(make_catalogue(), design)


def uids(document: DesignDocument, lane: str) -> list[str]:
    return [entry.uid for entry in document.chain(lane)]


def record_signals(document: DesignDocument) -> list[tuple[Any, ...]]:
    seen: list[tuple[Any, ...]] = []
    for name in (
        "entry_about_to_be_inserted",
        "entry_inserted",
        "entry_about_to_be_removed",
        "entry_removed",
        "entry_about_to_be_moved",
        "entry_moved",
        "entry_changed",
        "settings_changed",
        "design_replaced",
    ):
        getattr(document, name).connect(lambda *args, name=name: seen.append((name, *args)))
    return seen


# ------------------------------------------------------------------------------------------ lane check
def test_can_place_accepts_fitting_lanes_and_explains_refusals(document: DesignDocument) -> None:
    assert document.can_place("PIIDetector", "input") is None
    assert document.can_place("PIIDetector", "output") is None
    assert document.can_place("PIIDetector", "error") == (
        "PIIDetector cannot go in the error lane: it implements process_input, process_output_stream, "
        "process_output_result; the error lane runs process_api_error"
    )
    assert document.can_place("StreamErrorRetry", "input") == (
        "StreamErrorRetry cannot go in the input lane: it implements process_api_error; the input lane runs "
        "process_input, process_input_step, process_llm_request or process_llm_response"
    )
    assert "not in the catalogue" in (document.can_place("Nope", "input") or "")
    assert document.fitting_lanes("PIIDetector") == ("input", "output")
    assert document.fitting_lanes("Nope") == ()


def test_option_defaults_include_factory_defaults(document: DesignDocument) -> None:
    defaults = document.option_defaults("PIIDetector")
    assert defaults["strategy"] == "redact"
    assert isinstance(defaults["detection_types"], list) and defaults["detection_types"]
    assert document.option_defaults("Echo") == {}  # a plain Processor has no Options model
    assert document.option_errors("Echo", {}) == {}


def test_option_errors_name_the_field(document: DesignDocument) -> None:
    assert document.option_errors("BatchParts", {"batch_size": 10}) == {}
    errors = document.option_errors("BatchParts", {"batch_size": -1})
    assert list(errors) == ["batch_size"]
    assert "greater than or equal to 1" in errors["batch_size"]
    errors = document.option_errors(
        "RegexFilter", {"rules": [{"name": "x", "pattern": "(unclosed"}], "presets": ["pii"]}
    )
    assert list(errors) == ["rules.0.pattern"]
    assert "invalid regular expression" in errors["rules.0.pattern"]


# -------------------------------------------------------------------------------------------- mutation
def test_insert_remove_move_emit_about_to_and_done(document: DesignDocument) -> None:
    seen = record_signals(document)
    document.insert_entry("output", 0, ChainEntry(uid="new", type="PIIDetector"))
    assert uids(document, "output") == ["new", "out-1"]
    document.move_entry("new", "input", 1)
    assert uids(document, "input") == ["in-1", "new", "in-2"]
    assert document.remove_entry("new").type == "PIIDetector"
    assert seen == [
        ("entry_about_to_be_inserted", "output", 0),
        ("entry_inserted", "output", 0),
        ("entry_about_to_be_moved", "output", 0, "input", 1),
        ("entry_moved", "output", 0, "input", 1),
        ("entry_about_to_be_removed", "input", 1),
        ("entry_removed", "input", 1),
    ]


def test_move_to_the_same_place_is_silent_and_bad_indexes_raise(document: DesignDocument) -> None:
    seen = record_signals(document)
    document.move_entry("in-1", "input", 0)
    assert seen == []
    with pytest.raises(IndexError):
        document.move_entry("in-1", "input", 2)  # two entries: final positions 0..1
    with pytest.raises(IndexError):
        document.insert_entry("error", 5, ChainEntry(type="StreamErrorRetry"))
    with pytest.raises(ValueError, match="already in the design"):
        document.insert_entry("error", 0, ChainEntry(uid="err-1", type="StreamErrorRetry"))
    with pytest.raises(KeyError):
        document.remove_entry("missing")


def test_settings_are_validated_and_nested_model_fields_work(document: DesignDocument) -> None:
    seen = record_signals(document)
    document.set_setting("model.temperature", 0.3)
    document.set_setting("name", "Desk")
    assert document.design().model.temperature == 0.3
    assert document.setting("name") == "Desk"
    assert seen == [("settings_changed", "model.temperature"), ("settings_changed", "name")]
    assert "less than or equal to 2" in (document.setting_error("model.temperature", 3) or "")
    assert document.setting_error("max_steps", 0) is not None
    assert document.setting_error("max_steps", 7) is None
    with pytest.raises(ValueError, match="less than or equal to 2"):
        document.set_setting("model.temperature", 3)
    with pytest.raises(KeyError):
        document.set_setting("input", [])  # chains change through the entry methods only


def test_document_keeps_its_own_copy(qapp: Any) -> None:
    design = AgentDesign(input=[ChainEntry(uid="a", type="UnicodeNormalizer")])
    document = DesignDocument(make_catalogue(), design)
    design.input.clear()
    assert uids(document, "input") == ["a"]
    snapshot = document.snapshot()
    snapshot.input.clear()
    assert uids(document, "input") == ["a"]


# ---------------------------------------------------------------------------------------- undo / redo
def _push_and_check(document: DesignDocument, command: Any, check: Any) -> None:
    """Push ``command``; undo restores the exact design before it; redo the exact design after it."""
    before = document.design().model_dump()
    document.undo_stack().push(command)
    after = document.design().model_dump()
    assert after != before
    check()
    document.undo_stack().undo()
    assert document.design().model_dump() == before
    document.undo_stack().redo()
    assert document.design().model_dump() == after


def test_every_command_undoes_and_redoes_exactly(document: DesignDocument) -> None:
    new = ChainEntry(uid="new", type="RegexFilter", options={"presets": ["pii"]})
    _push_and_check(
        document, AddEntry(document, "output", 1, new), lambda: uids(document, "output") == ["out-1", "new"]
    )
    _push_and_check(document, RemoveEntry(document, "in-1"), lambda: uids(document, "input") == ["in-2"])
    _push_and_check(document, MoveEntry(document, "new", "input", 0), lambda: uids(document, "input")[0] == "new")
    _push_and_check(document, MoveEntry(document, "new", "input", 1), lambda: uids(document, "input")[1] == "new")
    _push_and_check(document, ToggleEntry(document, "out-1", False), lambda: not document.entry("out-1").enabled)
    _push_and_check(
        document,
        EditOptions(document, "out-1", {"batch_size": 99}, field="batch_size"),
        lambda: document.entry("out-1").options == {"batch_size": 99},
    )
    _push_and_check(document, EditSetting(document, "model.model", "ollama/llama3.1"), lambda: None)
    _push_and_check(document, EditSetting(document, "tools", ["get_weather"]), lambda: None)
    _push_and_check(document, ReplaceDesign(document, AgentDesign(name="Blank")), lambda: None)
    assert document.undo_stack().count() == 9


def test_consecutive_edits_of_one_field_merge_into_one_step(document: DesignDocument) -> None:
    stack = document.undo_stack()
    for value in (1, 12, 120):
        stack.push(EditOptions(document, "out-1", {"batch_size": value}, field="batch_size"))
    assert stack.count() == 1
    assert document.entry("out-1").options == {"batch_size": 120}
    stack.push(EditOptions(document, "out-1", {"batch_size": 120, "x": 1}, field="other"))
    assert stack.count() == 2  # another field: a new step
    stack.undo()
    stack.undo()
    assert document.entry("out-1").options == {"batch_size": 50}


def test_a_merged_edit_back_to_the_start_drops_out(document: DesignDocument) -> None:
    stack = document.undo_stack()
    stack.push(EditSetting(document, "name", "Supp"))
    stack.push(EditSetting(document, "name", "Support"))
    assert stack.count() == 0
    assert not document.is_modified()


def test_setting_edits_merge_per_setting(document: DesignDocument) -> None:
    stack = document.undo_stack()
    stack.push(EditSetting(document, "name", "A"))
    stack.push(EditSetting(document, "name", "AB"))
    stack.push(EditSetting(document, "instructions", "Be brief"))
    assert stack.count() == 2
    assert stack.undoText() == "Change instructions"


def test_modified_follows_the_clean_state(document: DesignDocument, qtbot: Any) -> None:
    with qtbot.waitSignal(document.modified_changed) as blocker:
        document.undo_stack().push(ToggleEntry(document, "in-1", False))
    assert blocker.args == [True]
    assert document.is_modified()
    document.mark_saved()
    assert not document.is_modified()
    with qtbot.waitSignal(document.modified_changed) as blocker:
        document.undo_stack().undo()
    assert blocker.args == [True]


def test_open_design_clears_history(document: DesignDocument) -> None:
    document.undo_stack().push(RemoveEntry(document, "in-1"))
    document.open_design(AgentDesign(name="Other"))
    assert document.design().name == "Other"
    assert document.undo_stack().count() == 0
    assert not document.is_modified()


def test_command_texts_name_the_processor(document: DesignDocument) -> None:
    stack = document.undo_stack()
    stack.push(AddEntry(document, "output", 0, ChainEntry(type="PIIDetector")))
    assert stack.undoText() == "Add PII detector to output"
    stack.push(MoveEntry(document, "in-1", "input", 1))
    assert stack.undoText() == "Move Unicode Normalizer"
    stack.push(RemoveEntry(document, "err-1"))
    assert stack.undoText() == "Remove Stream Error Retry from error"
