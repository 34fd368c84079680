"""ChainModel: rows over the document, check state as an undo command, and drops that insert (or are refused)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import QByteArray, QMimeData, QModelIndex, Qt

from studio.design.agent_design import AgentDesign, ChainEntry
from studio.models.chain_model import INVALID_ROLE, MIME_TYPE, UID_ROLE, ChainModel, decode_payload, encode_payload
from studio.models.design_document import DesignDocument
from tests.studio.editor_catalogue import make_catalogue


@pytest.fixture
def document(qapp: Any) -> DesignDocument:
    design = AgentDesign(
        input=[ChainEntry(uid="in-1", type="UnicodeNormalizer"), ChainEntry(uid="in-2", type="PIIDetector")],
        output=[ChainEntry(uid="out-1", type="BatchParts", options={"batch_size": 50})],
    )
    return DesignDocument(make_catalogue(), design)


@pytest.fixture
def models(document: DesignDocument, qtmodeltester: Any) -> dict[str, ChainModel]:
    result = {lane: ChainModel(document, lane) for lane in ("input", "output", "error")}
    for model in result.values():
        qtmodeltester.check(model)  # keeps checking every change the tests make
    return result


def uids(document: DesignDocument, lane: str) -> list[str]:
    return [entry.uid for entry in document.chain(lane)]


def palette_mime(type_name: str, lane: str = "input") -> QMimeData:
    return encode_payload("palette", type_name, None, lane)


# -------------------------------------------------------------------------------------------- reading
def test_rows_show_name_options_check_state_and_tooltip(models: dict[str, ChainModel]) -> None:
    output = models["output"]
    index = output.index(0, 0)
    assert output.rowCount() == 1
    assert index.data() == "Batch Parts\nbatch_size=50"
    assert index.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert index.data(Qt.ItemDataRole.ToolTipRole).startswith("Combines streamed text deltas")
    assert index.data(Qt.ItemDataRole.DecorationRole) is None
    assert index.data(UID_ROLE) == "out-1"
    assert models["input"].index(0, 0).data() == "Unicode Normalizer"
    assert models["error"].rowCount() == 0


def test_entries_that_cannot_run_show_a_warning_and_say_why(document: DesignDocument) -> None:
    document.insert_entry("input", 0, ChainEntry(type="RegexFilter"))  # needs a rule or a preset
    document.insert_entry("output", 0, ChainEntry(type="GoneType"))
    input_model, output_model = ChainModel(document, "input"), ChainModel(document, "output")  # keep them alive
    regex = input_model.index(0, 0)
    gone = output_model.index(0, 0)
    assert regex.data(Qt.ItemDataRole.DecorationRole) is not None
    assert "presets: RegexFilter needs at least one rule or preset" in regex.data(Qt.ItemDataRole.ToolTipRole)
    assert gone.data() == "GoneType\nNot installed: cannot run"
    name = document.display_name("RegexFilter")
    assert regex.data().startswith(f"{name}\nInvalid: Presets: RegexFilter needs at least one rule")
    assert "needs at least one rule" in regex.data(INVALID_ROLE)
    assert input_model.index(1, 0).data(INVALID_ROLE) == ""  # a valid entry
    assert "not in the catalogue" in gone.data(Qt.ItemDataRole.ToolTipRole)


def test_a_rule_that_backtracks_catastrophically_is_flagged_when_the_design_opens(qapp: Any) -> None:
    """A shared design's ``(\\w+\\s?)+$`` froze the window for seconds per message; now it is refused on sight."""
    rule = {"name": "words", "pattern": r"(\w+\s?)+$"}
    design = AgentDesign(input=[ChainEntry(uid="in-1", type="RegexFilter", options={"rules": [rule]})])
    document = DesignDocument(make_catalogue(), design)
    model = ChainModel(document, "input")  # kept alive while its index is read
    entry = model.index(0, 0)
    assert entry.data(Qt.ItemDataRole.DecorationRole) is not None
    shown = f"rules.0.pattern: the regular expression {rule['pattern']!r} can backtrack catastrophically"
    assert shown in entry.data(INVALID_ROLE)


def test_unchecking_pushes_a_toggle_command(document: DesignDocument, models: dict[str, ChainModel]) -> None:
    index = models["input"].index(1, 0)
    assert models["input"].setData(index, Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    assert document.entry("in-2").enabled is False
    assert index.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert document.undo_stack().undoText() == "Disable PII detector"
    document.undo_stack().undo()
    assert document.entry("in-2").enabled is True


# ------------------------------------------------------------------------------------------------ drops
@pytest.mark.parametrize(
    ("type_name", "lane"),
    [
        ("UnicodeNormalizer", "input"),
        ("PIIDetector", "output"),
        ("BatchParts", "output"),
        ("StreamErrorRetry", "error"),
    ],
)
def test_palette_drop_into_each_lane_inserts_at_the_row(
    document: DesignDocument, models: dict[str, ChainModel], type_name: str, lane: str
) -> None:
    model = models[lane]
    before = document.design().model_dump()
    count = model.rowCount()
    row = 0
    assert model.canDropMimeData(palette_mime(type_name), Qt.DropAction.CopyAction, row, 0, QModelIndex())
    assert model.dropMimeData(palette_mime(type_name), Qt.DropAction.CopyAction, row, 0, QModelIndex())
    assert model.rowCount() == count + 1
    assert document.chain(lane)[0].type == type_name  # inserted, not overwriting
    assert document.undo_stack().count() == 1
    document.undo_stack().undo()
    assert document.design().model_dump() == before


def test_a_drop_on_a_row_goes_before_it_and_nowhere_means_the_end(
    document: DesignDocument, models: dict[str, ChainModel]
) -> None:
    model = models["input"]
    on_second = model.index(1, 0)
    assert model.dropMimeData(palette_mime("RegexFilter"), Qt.DropAction.CopyAction, -1, -1, on_second)
    assert [e.type for e in document.chain("input")] == ["UnicodeNormalizer", "RegexFilter", "PIIDetector"]
    assert model.dropMimeData(palette_mime("UnicodeNormalizer"), Qt.DropAction.CopyAction, -1, -1, QModelIndex())
    assert [e.type for e in document.chain("input")][-1] == "UnicodeNormalizer"
    assert uids(document, "input")[:1] == ["in-1"] and "in-2" in uids(document, "input")


def test_a_drop_into_a_lane_the_type_does_not_fit_is_refused_with_the_reason(
    document: DesignDocument, models: dict[str, ChainModel], qtbot: Any
) -> None:
    model = models["error"]
    mime = palette_mime("PIIDetector")
    before = document.design().model_dump()
    assert not model.canDropMimeData(mime, Qt.DropAction.CopyAction, 0, 0, QModelIndex())
    with qtbot.waitSignal(model.drop_refused) as blocker:
        assert not model.dropMimeData(mime, Qt.DropAction.CopyAction, 0, 0, QModelIndex())
    assert blocker.args == [
        "PIIDetector cannot go in the error lane: it implements process_input, process_output_stream, "
        "process_output_result; the error lane runs process_api_error"
    ]
    assert document.design().model_dump() == before
    assert document.undo_stack().count() == 0


def test_foreign_or_broken_payloads_are_refused(models: dict[str, ChainModel], qtbot: Any) -> None:
    text = QMimeData()
    text.setText("hello")
    broken = QMimeData()
    broken.setData(MIME_TYPE, QByteArray(b"{not json"))
    for mime in (text, broken):
        assert not models["input"].canDropMimeData(mime, Qt.DropAction.CopyAction, 0, 0, QModelIndex())
        with qtbot.waitSignal(models["input"].drop_refused):
            assert not models["input"].dropMimeData(mime, Qt.DropAction.CopyAction, 0, 0, QModelIndex())


def test_chain_mime_round_trip(models: dict[str, ChainModel]) -> None:
    mime = models["output"].mimeData([models["output"].index(0, 0)])
    assert mime.formats() == [MIME_TYPE]
    assert json.loads(bytes(mime.data(MIME_TYPE).data())) == {
        "source": "chain",
        "type": "BatchParts",
        "uid": "out-1",
        "lane": "output",
        "options": {"batch_size": 50},
    }
    assert decode_payload(mime)["uid"] == "out-1"


# ------------------------------------------------------------------------------------- moves by drops
def test_reorder_within_a_lane_by_drop(document: DesignDocument, models: dict[str, ChainModel]) -> None:
    model = models["input"]
    before = document.design().model_dump()
    mime = model.mimeData([model.index(0, 0)])
    # Dropped at the end (row 2, counted before the move): in-1 ends last.
    assert model.dropMimeData(mime, Qt.DropAction.MoveAction, 2, 0, QModelIndex())
    assert uids(document, "input") == ["in-2", "in-1"]
    mime = model.mimeData([model.index(1, 0)])
    assert model.dropMimeData(mime, Qt.DropAction.MoveAction, 0, 0, QModelIndex())
    assert uids(document, "input") == ["in-1", "in-2"]
    document.undo_stack().undo()
    document.undo_stack().undo()
    assert document.design().model_dump() == before


def test_dropping_an_entry_where_it_already_is_changes_nothing(
    document: DesignDocument, models: dict[str, ChainModel]
) -> None:
    model = models["input"]
    for row in (0, 1):  # before itself, or just after itself
        assert model.dropMimeData(model.mimeData([model.index(0, 0)]), Qt.DropAction.MoveAction, row, 0, QModelIndex())
    assert uids(document, "input") == ["in-1", "in-2"]
    assert document.undo_stack().count() == 0


def test_move_between_lanes_by_drop_and_refused_move(
    document: DesignDocument, models: dict[str, ChainModel], qtbot: Any
) -> None:
    mime = models["input"].mimeData([models["input"].index(1, 0)])  # PIIDetector fits output
    assert models["output"].dropMimeData(mime, Qt.DropAction.MoveAction, 0, 0, QModelIndex())
    assert uids(document, "input") == ["in-1"]
    assert uids(document, "output") == ["in-2", "out-1"]
    mime = models["input"].mimeData([models["input"].index(0, 0)])  # UnicodeNormalizer is input-only
    with qtbot.waitSignal(models["output"].drop_refused):
        assert not models["output"].dropMimeData(mime, Qt.DropAction.MoveAction, 0, 0, QModelIndex())
    assert uids(document, "input") == ["in-1"]
    document.undo_stack().undo()
    assert uids(document, "input") == ["in-1", "in-2"]


def test_copy_action_duplicates_an_entry_with_its_options(
    document: DesignDocument, models: dict[str, ChainModel]
) -> None:
    mime = models["output"].mimeData([models["output"].index(0, 0)])
    assert models["output"].dropMimeData(mime, Qt.DropAction.CopyAction, 1, 0, QModelIndex())
    copies = document.chain("output")
    assert [e.type for e in copies] == ["BatchParts", "BatchParts"]
    assert copies[1].options == {"batch_size": 50} and copies[1].uid != "out-1"


def test_model_follows_undo_and_replace(document: DesignDocument, models: dict[str, ChainModel]) -> None:
    document.open_design(AgentDesign(error=[ChainEntry(type="StreamErrorRetry")]))
    assert [m.rowCount() for m in models.values()] == [0, 0, 1]


def test_the_summary_lists_options_in_the_form_order_before_and_after_a_restart(qapp: Any) -> None:
    from studio.design.agent_design import AgentDesign as Design
    from studio.views.option_fields import field_specs

    typed = {"threshold": 0.8, "strategy": "redact", "redaction_method": "mask"}  # the order they were set in
    design = Design(input=[ChainEntry(uid="p", type="PIIDetector", options=typed)])
    document = DesignDocument(make_catalogue(), design)
    model = ChainModel(document, "input")  # kept alive while its index is read
    before = model.index(0, 0).data()
    reopened = DesignDocument(make_catalogue(), Design.from_json(design.to_json()))  # saved: keys sorted
    assert list(reopened.chain("input")[0].options) != list(typed)
    reopened_model = ChainModel(reopened, "input")
    after = reopened_model.index(0, 0).data()
    assert before == after
    record = document.record("PIIDetector")
    assert record is not None
    form_order = [spec.name for spec in field_specs(record.options_schema, {}) if spec.name in typed]
    summary = before.split("\n")[1]
    assert [part.split("=")[0] for part in summary.split(", ")] == form_order
