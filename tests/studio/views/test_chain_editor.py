"""ChainEditor: drops into each lane (model level and synthetic drag events), refused drops with a visible
reason, reordering, moving between lanes, the keyboard equivalents, and undo/redo restoring the exact design.

The offscreen platform cannot run a real drag (``QDrag.exec`` returns at once), so drags are simulated with
``QDragEnterEvent``/``QDragMoveEvent``/``QDropEvent`` sent to the chain's viewport; ``test_real_drag.py`` drives a
real mouse drag under Xvfb.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QLabel, QListView

from studio.design.agent_design import AgentDesign, ChainEntry
from studio.models.chain_model import MIME_TYPE, encode_payload
from studio.models.design_document import DesignDocument
from studio.models.palette_model import PaletteModel
from studio.views.chain_editor import ChainEditor
from studio.views.palette import PaletteView
from tests.studio.editor_catalogue import groups, make_catalogue

PII_IN_ERROR = (
    "PIIDetector cannot go in the error lane: it implements process_input, process_output_stream, "
    "process_output_result; the error lane runs process_api_error"
)


@pytest.fixture
def document(qapp: Any) -> DesignDocument:
    design = AgentDesign(
        input=[ChainEntry(uid="in-1", type="UnicodeNormalizer"), ChainEntry(uid="in-2", type="PIIDetector")],
        output=[ChainEntry(uid="out-1", type="BatchParts", options={"batch_size": 3})],
    )
    return DesignDocument(make_catalogue(), design)


@pytest.fixture
def editor(document: DesignDocument, qtbot: Any) -> ChainEditor:
    widget = ChainEditor(document)
    widget.addActions([widget.undo_action(), widget.redo_action()])  # what the window's Edit menu does
    qtbot.addWidget(widget)
    widget.resize(900, 400)
    widget.show()
    qtbot.waitExposed(widget)
    widget.activateWindow()
    return widget


def uids(document: DesignDocument, lane: str) -> list[str]:
    return [entry.uid for entry in document.chain(lane)]


def types(document: DesignDocument, lane: str) -> list[str]:
    return [entry.type for entry in document.chain(lane)]


def drop_point(view: QListView, row: int | None) -> QPoint:
    """Just inside the top edge of ``row`` (a drop *before* it), or the empty space under the last row."""
    model = view.model()
    if row is None or row >= model.rowCount():
        return QPoint(view.viewport().width() // 2, view.viewport().height() - 4)
    rect = view.visualRect(model.index(row, 0))
    return QPoint(rect.center().x(), rect.top() + 1)


def synthetic_drag(
    view: QListView, mime: QMimeData, row: int | None, action: Qt.DropAction = Qt.DropAction.CopyAction
) -> bool:
    """Send enter, move and drop events to the view's viewport; True when the view accepted the drag move (a
    platform delivers the drop only then; a refused one shows the "no drop" cursor). The drop is sent anyway."""
    viewport = view.viewport()
    point = drop_point(view, row)
    actions = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(point, actions, mime, buttons, modifiers)
    enter.setDropAction(action)
    QApplication.sendEvent(viewport, enter)
    move = QDragMoveEvent(point, actions, mime, buttons, modifiers)
    move.setDropAction(action)
    QApplication.sendEvent(viewport, move)
    drop = QDropEvent(QPointF(point), actions, mime, buttons, modifiers)
    drop.setDropAction(action)
    QApplication.sendEvent(viewport, drop)
    return move.isAccepted()


def palette(type_name: str) -> QMimeData:
    return encode_payload("palette", type_name, None, "input")


def chain_mime(editor: ChainEditor, lane: str, row: int) -> QMimeData:
    model = editor.model(lane)
    return model.mimeData([model.index(row, 0)])


# ---------------------------------------------------------------------------------------- drops
@pytest.mark.parametrize(
    ("lane", "type_name", "row", "expected"),
    [
        ("input", "RegexFilter", 1, ["UnicodeNormalizer", "RegexFilter", "PIIDetector"]),  # between two
        ("input", "UnicodeNormalizer", 0, ["UnicodeNormalizer", "UnicodeNormalizer", "PIIDetector"]),  # first
        ("output", "PIIDetector", None, ["BatchParts", "PIIDetector"]),  # under the last row: the end
        ("output", "Echo", 0, ["Echo", "BatchParts"]),
        ("error", "StreamErrorRetry", None, ["StreamErrorRetry"]),  # an empty lane
    ],
)
def test_a_palette_drop_inserts_at_the_drop_row_of_each_lane(
    editor: ChainEditor, document: DesignDocument, lane: str, type_name: str, row: int | None, expected: list[str]
) -> None:
    before = document.design().model_dump()
    mime = palette(type_name)
    assert synthetic_drag(editor.view(lane), mime, row)
    assert types(document, lane) == expected
    assert document.undo_stack().count() == 1
    assert editor.message_text() == ""
    document.undo_stack().undo()
    assert document.design().model_dump() == before


def test_a_refused_drop_shows_the_reason_and_changes_nothing(
    editor: ChainEditor, document: DesignDocument, qtbot: Any
) -> None:
    before = document.design().model_dump()
    mime = palette("PIIDetector")
    with qtbot.waitSignal(editor.status_message) as status:
        accepted = synthetic_drag(editor.view("error"), mime, None)
    assert not accepted  # the view refuses the drag while it hovers ("no drop" cursor)
    assert status.args == [PII_IN_ERROR]
    label = editor.findChild(QLabel, "chain.message")
    assert label is not None and label.isVisible() and label.text() == PII_IN_ERROR
    assert editor.message_text() == PII_IN_ERROR
    assert document.design().model_dump() == before
    assert document.undo_stack().count() == 0


def test_the_refusal_message_shows_under_the_lanes_covering_no_entry(editor: ChainEditor, qtbot: Any) -> None:
    tops = {lane: editor.view(lane).mapTo(editor, QPoint(0, 0)) for lane in ("input", "output", "error")}
    editor.show_message(PII_IN_ERROR + " " + PII_IN_ERROR)  # two lines' worth at this width
    label = editor.findChild(QLabel, "chain.message")
    assert label is not None and label.isVisible()
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()))  # the whole text shows
    for lane, top in tops.items():
        view = editor.view(lane)
        assert view.mapTo(editor, QPoint(0, 0)) == top, lane  # the lanes' tops stay put: no entry moves
        shown = QRect(view.mapTo(editor, QPoint(0, 0)), view.size())
        assert not shown.intersects(label.geometry()), lane  # painted over the entries before
    assert editor.rect().contains(label.geometry())
    editor.resize(600, 400)
    qtbot.waitUntil(lambda: label.width() > 500)
    assert editor.rect().contains(label.geometry())


def test_the_refusal_message_goes_away_after_a_while(editor: ChainEditor, qtbot: Any) -> None:
    editor.set_message_timeout(50)
    editor.show_message("nope")
    assert editor.message_text() == "nope"
    qtbot.waitUntil(lambda: editor.message_text() == "", timeout=2000)


def test_a_model_level_refusal_reaches_the_inline_message(editor: ChainEditor, document: DesignDocument) -> None:
    model = editor.model("error")
    assert not model.dropMimeData(palette("UnicodeNormalizer"), Qt.DropAction.CopyAction, 0, 0, model.index(-1, 0))
    assert editor.message_text().startswith("UnicodeNormalizer cannot go in the error lane")


def test_reorder_within_a_lane_by_dragging(editor: ChainEditor, document: DesignDocument) -> None:
    before = document.design().model_dump()
    assert synthetic_drag(editor.view("input"), chain_mime(editor, "input", 0), None, Qt.DropAction.MoveAction)
    assert uids(document, "input") == ["in-2", "in-1"]
    assert synthetic_drag(editor.view("input"), chain_mime(editor, "input", 1), 0, Qt.DropAction.MoveAction)
    assert uids(document, "input") == ["in-1", "in-2"]
    document.undo_stack().undo()
    assert uids(document, "input") == ["in-2", "in-1"]
    document.undo_stack().undo()
    assert document.design().model_dump() == before


def test_move_between_lanes_by_dragging_and_a_refused_move(editor: ChainEditor, document: DesignDocument) -> None:
    before = document.design().model_dump()
    assert synthetic_drag(editor.view("output"), chain_mime(editor, "input", 1), 1, Qt.DropAction.MoveAction)
    assert uids(document, "input") == ["in-1"]
    assert uids(document, "output") == ["out-1", "in-2"]
    assert not synthetic_drag(editor.view("error"), chain_mime(editor, "output", 0), None, Qt.DropAction.MoveAction)
    assert editor.message_text().startswith("BatchParts cannot go in the error lane")
    assert uids(document, "output") == ["out-1", "in-2"]
    document.undo_stack().undo()
    assert document.design().model_dump() == before


def test_ctrl_drag_copies_an_entry(editor: ChainEditor, document: DesignDocument) -> None:
    assert synthetic_drag(editor.view("output"), chain_mime(editor, "input", 1), None, Qt.DropAction.CopyAction)
    assert types(document, "input") == ["UnicodeNormalizer", "PIIDetector"]  # still there
    assert types(document, "output") == ["BatchParts", "PIIDetector"]
    assert document.chain("output")[1].uid != "in-2"


# ------------------------------------------------------------------------------------------ keyboard
def focus(editor: ChainEditor, uid: str, qtbot: Any) -> QListView:
    editor.select(uid)
    lane = document_lane(editor, uid)
    view = editor.view(lane)
    qtbot.waitUntil(view.hasFocus)
    return view


def document_lane(editor: ChainEditor, uid: str) -> str:
    found = editor._document.locate(uid)
    assert found is not None
    return found[0]


def test_space_toggles_and_delete_removes(editor: ChainEditor, document: DesignDocument, qtbot: Any) -> None:
    before = document.design().model_dump()
    view = focus(editor, "in-2", qtbot)
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert document.entry("in-2").enabled is False
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert document.entry("in-2").enabled is True
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert uids(document, "input") == ["in-1"]
    assert editor.selected_uid() == "in-1"  # the neighbour is selected, so Delete can repeat
    for _ in range(3):
        qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.design().model_dump() == before


def test_ctrl_up_and_down_reorder(editor: ChainEditor, document: DesignDocument, qtbot: Any) -> None:
    view = focus(editor, "in-1", qtbot)
    qtbot.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert uids(document, "input") == ["in-2", "in-1"]
    assert editor.selected_uid() == "in-1"
    qtbot.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # already last: nothing
    assert uids(document, "input") == ["in-2", "in-1"]
    qtbot.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert uids(document, "input") == ["in-1", "in-2"]
    assert document.undo_stack().count() == 2


def test_ctrl_left_and_right_move_between_lanes_or_say_why_not(
    editor: ChainEditor, document: DesignDocument, qtbot: Any
) -> None:
    before = document.design().model_dump()
    view = focus(editor, "in-2", qtbot)
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    assert uids(document, "output") == ["out-1", "in-2"]
    assert editor.selected_uid() == "in-2"
    output = editor.view("output")
    qtbot.waitUntil(output.hasFocus)
    qtbot.keyClick(output, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)  # PII detector: no error lane
    assert uids(document, "output") == ["out-1", "in-2"]
    assert editor.message_text() == PII_IN_ERROR
    qtbot.keyClick(output, Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier)
    assert uids(document, "input") == ["in-1", "in-2"]
    qtbot.keyClick(editor.view("input"), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor.view("input"), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.design().model_dump() == before
    redo = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(editor.view("input"), Qt.Key.Key_Z, redo)
    assert uids(document, "output") == ["out-1", "in-2"]


def test_undo_and_redo_actions_follow_the_stack(editor: ChainEditor, document: DesignDocument) -> None:
    assert not editor.undo_action().isEnabled()
    editor.toggle_selected()  # nothing selected: nothing happens
    assert document.undo_stack().count() == 0
    editor.select("out-1")
    editor.toggle_selected()
    assert editor.undo_action().isEnabled()
    assert editor.undo_action().text() == "&Undo Disable Batch Parts"
    editor.undo_action().trigger()
    assert editor.redo_action().isEnabled()


def test_each_keyboard_edit_undoes_and_redoes_exactly(
    editor: ChainEditor, document: DesignDocument, qtbot: Any
) -> None:
    states = [document.design().model_dump()]
    view = focus(editor, "in-1", qtbot)
    for key, modifier in (
        (Qt.Key.Key_Space, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_Delete, Qt.KeyboardModifier.NoModifier),
    ):
        qtbot.keyClick(view, key, modifier)
        states.append(document.design().model_dump())
    assert len({str(state) for state in states}) == 4
    stack = document.undo_stack()
    for state in reversed(states[:-1]):
        stack.undo()
        assert document.design().model_dump() == state
    for state in states[1:]:
        stack.redo()
        assert document.design().model_dump() == state


# ------------------------------------------------------------------------------------ selection
def test_selection_is_one_entry_across_the_three_chains(editor: ChainEditor, qtbot: Any) -> None:
    with qtbot.waitSignal(editor.entry_selected) as selected:
        editor.select("out-1")
    assert selected.args == ["out-1"]
    editor.select("in-1")
    assert not editor.view("output").selectionModel().hasSelection()
    assert editor.current_lane() == "input"


def test_a_dropped_entry_is_selected(editor: ChainEditor, document: DesignDocument) -> None:
    synthetic_drag(editor.view("error"), palette("StreamErrorRetry"), None)
    assert editor.selected_uid() == document.chain("error")[0].uid


# --------------------------------------------------------------------------------- palette wiring
def test_enter_in_the_palette_adds_to_the_lane_the_type_is_listed_under(
    editor: ChainEditor, document: DesignDocument, qtbot: Any
) -> None:
    view = PaletteView(PaletteModel(groups(make_catalogue())))
    qtbot.addWidget(view)
    view.add_requested.connect(editor.add_entry)
    view.show()
    qtbot.waitExposed(view)
    view.activateWindow()
    assert view.select_type("PIIDetector", "output")
    view.tree().setFocus()
    qtbot.waitUntil(view.tree().hasFocus)
    with qtbot.waitSignal(view.add_requested) as requested:
        qtbot.keyClick(view.tree(), Qt.Key.Key_Return)
    assert requested.args == ["PIIDetector", "output"]
    assert types(document, "output") == ["BatchParts", "PIIDetector"]


def test_search_then_enter_adds_the_first_match(editor: ChainEditor, document: DesignDocument, qtbot: Any) -> None:
    view = PaletteView(PaletteModel(groups(make_catalogue())))
    qtbot.addWidget(view)
    view.add_requested.connect(editor.add_entry)
    qtbot.keyClicks(view.search_box(), "stream error")
    assert view.filter_model().visible_type_count() == 1
    qtbot.keyClick(view.search_box(), Qt.Key.Key_Return)
    assert types(document, "error") == ["StreamErrorRetry"]
    view.search_box().clear()
    qtbot.keyClicks(view.search_box(), "no such thing")
    empty = view.findChild(QLabel, "palette.empty")
    assert empty is not None and not empty.isHidden()
    assert empty.text() == "No processor matches “no such thing”."


def test_add_entry_without_a_lane_uses_the_current_lane_or_the_first_that_fits(
    editor: ChainEditor, document: DesignDocument
) -> None:
    editor.select("out-1")
    editor.add_entry("PIIDetector")  # fits output, the current lane
    assert types(document, "output") == ["BatchParts", "PIIDetector"]
    editor.add_entry("StreamErrorRetry")  # does not fit output: the first lane it fits
    assert types(document, "error") == ["StreamErrorRetry"]
    editor.add_entry("PIIDetector", "error")
    assert editor.message_text() == PII_IN_ERROR


def test_no_reference_cycle_keeps_the_document(qapp: Any) -> None:
    """The editor, its models and the undo commands let the document go by reference counting alone (a document
    left to the cycle collector with dead widgets crashed Qt in QUndoStack::clear)."""
    gc.disable()
    try:
        document = DesignDocument(make_catalogue(), AgentDesign(input=[ChainEntry(uid="x", type="PIIDetector")]))
        editor = ChainEditor(document)
        palette_view = PaletteView(PaletteModel(groups(make_catalogue())))
        palette_view.add_requested.connect(editor.add_entry)
        editor.select("x")
        editor.move_selected_to_next_lane()
        editor.add_entry("StreamErrorRetry")
        assert document.undo_stack().count() == 2
        alive = weakref.ref(document)
        del editor, palette_view, document
        assert alive() is None
    finally:
        gc.enable()


def test_a_dragged_entry_shows_at_its_own_size_not_as_a_full_width_bar(editor: ChainEditor, qtbot: Any) -> None:
    from studio.views.drag_image import compact_drag

    editor.resize(1200, 400)
    view = editor.view("input")
    editor.select("in-1")
    index = view.currentIndex()
    drag = compact_drag(view)
    assert drag is not None and drag.mimeData().hasFormat(MIME_TYPE)
    pixmap = drag.pixmap()
    text_width = max(view.fontMetrics().horizontalAdvance(line) for line in str(index.data()).split("\n"))
    row = view.visualRect(index)
    assert text_width <= pixmap.width() < row.width() * 0.75  # the item, not the row across the view
    assert pixmap.height() == row.height()


def test_a_dragged_palette_type_shows_at_its_own_size(qtbot: Any) -> None:
    from studio.views.drag_image import compact_drag

    palette_view = PaletteView(PaletteModel(groups(make_catalogue())))
    qtbot.addWidget(palette_view)
    palette_view.resize(900, 500)
    palette_view.show()
    assert palette_view.select_type("PIIDetector", "input")
    tree = palette_view.tree()
    drag = compact_drag(tree)
    assert drag is not None and drag.mimeData().hasFormat(MIME_TYPE)
    assert drag.pixmap().width() < tree.visualRect(tree.currentIndex()).width() * 0.6
