"""InspectorView: fed through its slots with real chunks and trace events of real agent runs."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QColor, QImage, QTextCursor
from PySide6.QtWidgets import QTextBrowser

from studio.models.trace_data import InspectorData, RunHistory
from studio.models.trace_model import ENTRY_ROLE, OUTCOME_COLORS, ChunkLogModel
from studio.models.trace_nodes import CallNode, ChangeNode, Node, RunNode
from studio.models.trace_rows import SEQ, TYPE
from studio.views.inspector import InspectorView
from tests.support.trace_runs import RecordedRun, full_run, tripwire_run

Runs = tuple[RecordedRun, RecordedRun]


@pytest.fixture(scope="module")
def runs() -> Runs:
    return asyncio.run(full_run()), asyncio.run(tripwire_run())


def feed(view: InspectorView, run: RecordedRun) -> None:
    view.on_run_started(run.run_id, "thread-1")
    for chunk in run.chunks:
        view.on_chunk_received(run.run_id, chunk)
    for event in run.events:
        view.on_trace_event_received(run.run_id, event)
    for violation in run.violations:
        view.on_violation_recorded(run.run_id, violation.processor_id, violation)
    view.on_run_finished(run.run_id, run.result)


@pytest.fixture
def view(qtbot: Any, runs: Runs) -> InspectorView:
    widget = InspectorView()
    qtbot.addWidget(widget)
    widget.resize(900, 1000)
    for run in runs:
        feed(widget, run)
    widget.show()
    return widget


def find_call(view: InspectorView, processor_id: str, hook: str, step: int | None = None) -> CallNode:
    return next(
        node
        for run in view.inspector_data.runs
        for node in run.calls()
        if node.event.processor_id == processor_id
        and node.event.hook == hook
        and (step is None or node.event.step_number == step)
    )


def dump(view: InspectorView, parent: QModelIndex | None = None) -> list[tuple[Any, ...]]:
    model = view.trace_model
    parent = parent or QModelIndex()
    rows: list[tuple[Any, ...]] = []
    for row in range(model.rowCount(parent)):
        rows.append(tuple(model.index(row, column, parent).data() for column in range(3)))
        rows.extend(dump(view, model.index(row, 0, parent)))
    return rows


def test_is_named_and_shows_the_runs(view: InspectorView) -> None:
    assert view.objectName() == "inspector"
    assert [view.trace_model.index(row, 0).data() for row in range(2)] == ["Run 1 (finished)", "Run 2 (tripwire)"]
    assert view.timeline.isExpanded(view.trace_model.index(1, 0))  # the newest run opens as it fills
    assert view.tripwire_model.rowCount() == 1
    assert view.violation_model.rowCount() == 1
    assert view.data_chunk_model.rowCount() == 2


def test_selecting_a_changed_call_shows_the_diff_and_state(view: InspectorView, qtbot: Any) -> None:
    node = find_call(view, "input-all", "process_input")
    with qtbot.waitSignal(view.entry_selected) as selected:
        view.select_entry(node)
    assert selected.args == [node]
    html = view.details.toHtml()
    text = view.details.toPlainText()
    assert "input-all — process_input" in text
    assert "\N{MINUS SIGN} 1 messages, 0 system" in text and "+ 1 messages, 1 system" in text  # a diff
    assert "#ffebee" in html and "#e8f5e9" in html  # removed lines red, added lines green
    assert '"inputs": 1' in text  # the state after the call, as JSON
    assert view.selected_entry() is node


def click_text(qtbot: Any, browser: QTextBrowser, text: str, occurrence: int = 1) -> None:
    """A real left click in the middle of the ``occurrence``-th ``text`` shown in ``browser`` (a link)."""
    cursor = QTextCursor(browser.document())
    for _ in range(occurrence):
        cursor = browser.document().find(text, cursor)
        assert not cursor.isNull(), text
    browser.setTextCursor(cursor)
    browser.ensureCursorVisible()
    start = QTextCursor(cursor)
    start.setPosition(cursor.selectionStart() + len(text) // 2)
    point = browser.cursorRect(start).center()
    browser.setTextCursor(QTextCursor(browser.document()))  # no selection: a click on a link follows it
    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_stream_summary_lists_each_change_as_text_with_its_chunk_json_one_click_away(
    view: InspectorView, qtbot: Any
) -> None:
    view.select_entry(find_call(view, "shout", "process_output_stream", 2))
    text = view.details.toPlainText()
    assert "3 changed" in text and "Chunk change 3" in text
    assert "\N{MINUS SIGN} ok" in text and "+ OK" in text  # the chunk's text, readable
    assert '"text": "ok "' not in text  # the JSON dump is not what the user reads first
    assert text.count("Show the chunk JSON") == 3
    assert '"shouted": 3' in text
    click_text(qtbot, view.details, "Show the chunk JSON")
    text = view.details.toPlainText()
    assert '"text": "ok "' in text and '"text": "OK "' in text  # that change's chunks as JSON, diffed
    assert "Hide the chunk JSON" in text and text.count("Show the chunk JSON") == 2
    click_text(qtbot, view.details, "Hide the chunk JSON")
    assert '"text": "ok "' not in view.details.toPlainText()
    change = next(child for child in find_call(view, "drop-bad", "process_output_stream", 2).children)
    assert isinstance(change, ChangeNode)
    view.select_entry(change)
    assert "the chunk went no further" in view.details.toPlainText()


def test_aborted_and_raised_calls_show_their_reason(view: InspectorView) -> None:
    view.select_entry(find_call(view, "block-secrets", "process_input"))
    text = view.details.toPlainText()
    assert "Reason: secret in input" in text and '"checked": true' in text
    view.select_entry(find_call(view, "fragile", "process_output_stream", 2))
    assert "ValueError: cannot handle FINE" in view.details.toPlainText()
    view.select_entry(view.inspector_data.runs[0])
    assert "Warning: Processor 'fragile' raised" in view.details.toPlainText()


def test_select_tripwire_selects_it_and_the_aborted_call(view: InspectorView, runs: Runs) -> None:
    view.tabs.setCurrentIndex(view.RAW_CHUNKS)
    view.timeline.collapseAll()
    view.select_entry(view.inspector_data.runs[0])
    assert view.select_tripwire(runs[1].run_id) is True
    assert view.tabs.currentWidget() is view.tripwire_list
    assert view.tripwire_list.currentIndex().row() == 0
    assert view.tripwire_list.selectionModel().isRowSelected(0, QModelIndex())
    selected = view.selected_entry()
    assert isinstance(selected, CallNode)
    assert (selected.event.processor_id, selected.event.outcome) == ("block-secrets", "aborted")
    index = view.trace_model.index_for(selected)
    assert view.timeline.selectionModel().isSelected(index)
    for ancestor in selected.ancestors():
        assert view.timeline.isExpanded(view.trace_model.index_for(ancestor))
    assert view.timeline.viewport().rect().intersects(view.timeline.visualRect(index))  # scrolled into view
    assert view.select_tripwire(runs[0].run_id) is False  # that run had no tripwire


def test_clicking_a_violation_selects_the_call_that_aborted(view: InspectorView, qtbot: Any) -> None:
    view.select_entry(view.inspector_data.runs[0])
    view.tabs.setCurrentIndex(view.VIOLATIONS)
    rect = view.violation_list.visualRect(view.violation_model.index(0, 1))
    qtbot.mouseClick(view.violation_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    selected = view.selected_entry()
    assert isinstance(selected, CallNode) and selected.event.processor_id == "block-secrets"


def test_chunks_show_on_the_timer_and_filter_by_type(qtbot: Any, runs: Runs) -> None:
    widget = InspectorView()
    qtbot.addWidget(widget)
    full = runs[0]
    widget.on_run_started(full.run_id, "t")
    for chunk in full.chunks:
        widget.on_chunk_received(full.run_id, chunk)
    assert widget.chunk_model.rowCount() == 0  # buffered, not one insert per chunk
    qtbot.waitUntil(lambda: widget.chunk_model.rowCount() == len(full.chunks), timeout=2000)
    combo = widget.chunk_pane.type_filter
    offered = [combo.itemText(i) for i in range(combo.count())]
    assert offered[0] == "" and "text-delta" in offered and "data-progress" in offered
    combo.setCurrentIndex(offered.index("text-delta"))
    proxy = widget.chunk_proxy
    assert [proxy.index(row, ChunkLogModel.TYPE).data() for row in range(proxy.rowCount())] == ["text-delta"] * 2
    combo.setEditText("tool-res")
    assert [proxy.index(row, ChunkLogModel.TYPE).data() for row in range(proxy.rowCount())] == ["tool-result"]
    combo.setEditText("")
    assert proxy.rowCount() == len(full.chunks)


def test_raw_log_notes_the_rows_the_cap_dropped(qtbot: Any, runs: Runs) -> None:
    widget = InspectorView(InspectorData(log_cap=10))
    qtbot.addWidget(widget)
    for _ in range(3):
        for chunk in runs[0].chunks:
            widget.on_chunk_received(runs[0].run_id, chunk)
        widget.flush()
    total = 3 * len(runs[0].chunks)
    shown = widget.chunk_model.rowCount()
    assert total > 11 and 10 <= shown <= 11  # the cap, with its 10 % slack
    assert widget.chunk_pane.note.text() == f"Showing the last {shown} chunks ({total - shown} older dropped)"
    # The rows kept are the newest ones, in order.
    seqs = [widget.chunk_model.index(row, 0).data(ENTRY_ROLE)[SEQ] for row in range(shown)]
    assert seqs == list(range(seqs[-1] - shown + 1, seqs[-1] + 1))
    assert widget.chunk_model.index(shown - 1, 0).data(ENTRY_ROLE)[TYPE] == runs[0].chunks[-1].type


def test_history_reproduces_the_live_tree(view: InspectorView, runs: Runs, qtbot: Any) -> None:
    histories = [
        RunHistory(
            run.run_id,
            [event.to_dict() for event in run.events],
            tripwire=run.result.tripwire.model_dump(by_alias=True) if run.result.tripwire else None,
            violations=[
                {"processorId": v.processor_id, "message": v.message, "detail": v.detail} for v in run.violations
            ],
            thread_id="thread-1",
        )
        for run in runs
    ]
    reopened = InspectorView()
    qtbot.addWidget(reopened)
    reopened.load_history(histories)
    assert dump(reopened) == dump(view)
    assert reopened.select_tripwire(runs[1].run_id)
    assert isinstance(reopened.selected_entry(), CallNode)
    reopened.load_history(histories[:1])  # replaces what was shown
    assert reopened.trace_model.rowCount() == 1 and reopened.tripwire_model.rowCount() == 0


def test_failed_run_and_clear(view: InspectorView, qtbot: Any) -> None:
    view.on_run_started("run_x", "thread-1")
    view.on_run_failed("run_x", "no API key")
    run = view.inspector_data.run("run_x")
    assert isinstance(run, RunNode) and run.label == "Run 3 (failed)"
    view.select_entry(run)
    with qtbot.waitSignal(view.entry_selected) as cleared:
        view.clear()
    assert cleared.args == [None]
    assert view.trace_model.rowCount() == 0 and view.chunk_model.rowCount() == 0
    assert "Select an entry" in view.details.toPlainText()


def test_screenshot_is_not_blank_and_shows_badges(view: InspectorView, runs: Runs, tmp_path: Path) -> None:
    view.select_tripwire(runs[1].run_id)
    path = tmp_path / "inspector.png"
    assert view.grab().save(str(path))
    image = QImage(str(path))
    assert image.width() >= 800 and image.height() >= 900
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 20
    for outcome in ("aborted", "passed", "changed", "raised"):
        assert QColor(OUTCOME_COLORS[outcome][0]).rgb() in colours or _near(image, OUTCOME_COLORS[outcome][0]), outcome


def _near(image: QImage, colour: str) -> bool:
    """Whether some pixel has the badge colour (a full scan: badges are small)."""
    wanted = QColor(colour).rgb()
    return any(
        image.pixel(x, y) == wanted for y in range(image.height()) for x in range(image.width() - 120, image.width())
    )


# -------------------------------------------------------------------------------------------- following
def feed_as(view: InspectorView, run: RecordedRun, run_id: str) -> None:
    """``run`` told again under another run id (a further message in the thread)."""
    view.on_run_started(run_id, "thread-1")
    for chunk in run.chunks:
        view.on_chunk_received(run_id, chunk)
    for event in run.events:
        view.on_trace_event_received(run_id, event)
    view.on_run_finished(run_id, run.result)


def shown(view: InspectorView, node: Node) -> bool:
    """Whether the node's row is inside the timeline's viewport."""
    rect = view.timeline.visualRect(view.trace_model.index_for(node))
    return rect.isValid() and view.timeline.viewport().rect().contains(rect.topLeft())


def tail(view: InspectorView, node: Node) -> Node:
    """The last row shown under ``node`` (its last child, down through the expanded ones)."""
    while node.children and view.timeline.isExpanded(view.trace_model.index_for(node)):
        node = node.children[-1]
    return node


def test_the_timeline_follows_new_runs(runs: Runs, qtbot: Any) -> None:
    view = InspectorView()
    qtbot.addWidget(view)
    view.resize(700, 700)
    view.show()
    for number in range(8):
        feed_as(view, runs[number % 2], f"run_{number}")
    data = view.inspector_data
    newest = data.runs[-1]
    assert view.following and shown(view, newest) and view.timeline.isExpanded(view.trace_model.index_for(newest))
    assert not shown(view, data.runs[0])  # the timeline is longer than the view: it scrolled
    # selecting in the newest run keeps following
    view.select_entry(newest.calls()[0])
    feed_as(view, runs[0], "run_8")
    assert view.following and shown(view, tail(view, data.runs[-1]))
    assert view.timeline.isExpanded(view.trace_model.index_for(data.runs[-1].children[0]))


def test_the_timeline_stays_on_an_older_run_the_user_looks_at(runs: Runs, qtbot: Any) -> None:
    view = InspectorView()
    qtbot.addWidget(view)
    view.resize(700, 700)
    view.show()
    for number in range(6):
        feed_as(view, runs[number % 2], f"run_{number}")
    data = view.inspector_data
    older = data.runs[1]
    view.select_entry(older.calls()[0])
    assert not view.following
    feed_as(view, runs[0], "run_6")
    assert shown(view, older.calls()[0]) and not shown(view, data.runs[-1])
    assert view.selected_entry() is older.calls()[0]
    assert not view.timeline.isExpanded(view.trace_model.index_for(data.runs[-1]))
    view.select_entry(data.runs[-1])  # back on the newest: following again
    feed_as(view, runs[1], "run_7")
    assert view.following and shown(view, tail(view, data.runs[-1]))
