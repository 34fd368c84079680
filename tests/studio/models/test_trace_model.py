"""The inspector's data and Qt models, fed with trace events and chunks recorded from real agent runs."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QAbstractItemModelTester

from processors import HOOKS, DataChunk
from processors.chunks import TextDeltaChunk, TextDeltaPayload
from studio.models.trace_data import InspectorData, RunHistory, event_from_dict
from studio.models.trace_model import (
    ENTRY_ROLE,
    OUTCOME_COLORS,
    OUTCOME_ROLE,
    ChunkLogModel,
    ChunkTypeFilterModel,
    DataChunkListModel,
    TraceTreeModel,
    TripwireListModel,
    ViolationListModel,
)
from studio.models.trace_nodes import CallNode, ChangeNode, HookNode, Node, RunNode, worst
from studio.models.trace_rows import chunk_summary, diff_lines
from tests.support.trace_runs import RecordedRun, full_run, tripwire_run

Runs = tuple[RecordedRun, RecordedRun]


@pytest.fixture(scope="module")
def runs() -> Runs:
    return asyncio.run(full_run()), asyncio.run(tripwire_run())


def feed(data: InspectorData, run: RecordedRun, thread_id: str = "t1") -> None:
    """What the controller's signals deliver, in the order they arrive."""
    data.start_run(run.run_id, thread_id)
    for chunk in run.chunks:
        data.add_chunk(run.run_id, chunk)
    for event in run.events:
        data.add_event(event, run.run_id)
    for violation in run.violations:
        data.add_violation(run.run_id, violation.processor_id, violation)
    data.finish_run(run.run_id, run.result)


@pytest.fixture
def live(runs: Runs) -> InspectorData:
    data = InspectorData()
    for run in runs:
        feed(data, run)
    return data


def watch(model: Any) -> QAbstractItemModelTester:
    """Qt's own model checker, kept alive by the model: any broken invariant is a Qt warning, failing the test."""
    return QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning, model)


def dump(model: TraceTreeModel, parent: QModelIndex | None = None, depth: int = 0) -> list[tuple[Any, ...]]:
    parent = parent or QModelIndex()
    rows: list[tuple[Any, ...]] = []
    for row in range(model.rowCount(parent)):
        cells = tuple(model.index(row, column, parent).data() for column in range(model.columnCount(parent)))
        rows.append((depth, *cells))
        rows.extend(dump(model, model.index(row, 0, parent), depth + 1))
    return rows


def calls(data: InspectorData) -> list[CallNode]:
    return [call for run in data.runs for call in run.calls()]


def call(data: InspectorData, processor_id: str, hook: str, step: int | None = None) -> CallNode:
    return next(
        node
        for node in calls(data)
        if node.event.processor_id == processor_id
        and node.event.hook == hook
        and (step is None or node.event.step_number == step)
    )


# -------------------------------------------------------------------------------------------- the tree
def test_every_hook_appears_with_its_outcome(live: InspectorData) -> None:
    hooks = {node.event.hook for node in calls(live)}
    assert hooks == set(HOOKS)
    outcomes = {(node.event.processor_id, node.event.hook): node.event.outcome for node in calls(live)}
    assert outcomes[("input-all", "process_input")] == "changed"
    assert outcomes[("retry-errors", "process_api_error")] == "changed"  # asked for a retry
    assert outcomes[("block-secrets", "process_input")] == "aborted"
    assert outcomes[("output-all", "process_output_result")] == "passed"
    assert call(live, "shout", "process_output_stream", 2).event.outcome == "changed"
    assert call(live, "drop-bad", "process_output_stream", 2).event.outcome == "dropped"
    assert call(live, "fragile", "process_output_stream", 2).event.outcome == "raised"
    assert {node.event.outcome for node in calls(live)} == {"passed", "changed", "dropped", "aborted", "raised"}


def test_runs_group_into_input_steps_and_output(live: InspectorData) -> None:
    full, blocked = live.runs
    assert [phase.label for phase in full.children] == ["Input", "Step 0", "Step 1", "Step 2", "Output"]
    assert [hook.hook for hook in full.children[0].children] == ["process_input"]  # type: ignore[attr-defined]
    assert [hook.hook for hook in full.children[-1].children] == ["process_output_result"]  # type: ignore[attr-defined]
    # Within a step, hooks show in the order the loop runs them: the stream runs before process_llm_response.
    assert [hook.hook for hook in full.children[3].children] == [  # type: ignore[attr-defined]
        "process_input_step",
        "process_llm_request",
        "process_output_stream",
        "process_llm_response",
        "process_output_step",
    ]
    assert "process_api_error" in [hook.hook for hook in full.children[1].children]  # type: ignore[attr-defined]
    assert [phase.label for phase in blocked.children] == ["Input"]
    assert (full.label, blocked.label) == ("Run 1 (finished)", "Run 2 (tripwire)")
    assert full.thread_id == "t1"


def test_outcomes_and_durations_roll_up(live: InspectorData) -> None:
    full, blocked = live.runs
    assert (full.outcome, blocked.outcome) == ("finished", "tripwire")  # a run's badge: how it ended
    assert (full.children[-2].outcome, blocked.children[0].outcome) == ("raised", "aborted")  # phases: worst call
    for node in _walk(full):
        if isinstance(node, HookNode):
            assert node.seconds == pytest.approx(sum(child.seconds for child in node.children))
            assert node.outcome == worst(child.outcome for child in node.children)  # type: ignore[misc]
    assert sum(full.counts.values()) == len(full.calls())
    assert worst(["passed", "dropped", "changed"]) == "dropped"


def test_stream_summaries_show_counts_and_each_change(live: InspectorData) -> None:
    shout = call(live, "shout", "process_output_stream", 2)
    stats = shout.event.chunk_stats
    assert stats is not None and stats["changed"] == 3
    assert shout.label == f"shout #0 · {stats['count']} chunks (3 changed)"
    assert shout.seconds == pytest.approx(stats["seconds"])  # time in the calls, not the step's length
    changes = [child for child in shout.children if isinstance(child, ChangeNode)]
    assert len(changes) == 3
    assert changes[0].change["before"]["payload"]["text"] == "ok "
    assert changes[0].change["after"]["payload"]["text"] == "OK "
    dropped = call(live, "drop-bad", "process_output_stream", 2).children[0]
    assert isinstance(dropped, ChangeNode) and dropped.change["after"] is None and dropped.outcome == "dropped"
    raised = call(live, "fragile", "process_output_stream", 2)
    assert raised.children[0].change["detail"] == "ValueError: cannot handle FINE"  # type: ignore[attr-defined]


def test_tree_model_shows_name_duration_and_badge(live: InspectorData) -> None:
    model = TraceTreeModel(live)
    watch(model)
    assert model.rowCount() == 2 and model.columnCount() == 3
    run_index = model.index(0, 0)
    assert run_index.data() == "Run 1 (finished)"
    assert isinstance(run_index.data(ENTRY_ROLE), RunNode)
    aborted = model.index_for(live.aborted_call(live.runs[1].run_id))
    assert aborted.data() == "block-secrets #0"
    badge = aborted.siblingAtColumn(TraceTreeModel.OUTCOME)
    assert badge.data() == "aborted" and badge.data(OUTCOME_ROLE) == "aborted"
    assert badge.data(Qt.ItemDataRole.BackgroundRole) == QColor(OUTCOME_COLORS["aborted"][1])
    duration = aborted.siblingAtColumn(TraceTreeModel.DURATION).data()
    assert float(duration.replace(",", "")) == pytest.approx(aborted.data(ENTRY_ROLE).seconds * 1000, abs=0.001)
    assert model.parent(aborted).data() == "process_input"
    assert model.parent(model.parent(model.parent(aborted))) == model.index(1, 0)
    assert model.headerData(1, Qt.Orientation.Horizontal) == "ms"


def test_tree_model_follows_a_live_run(runs: Runs, qtbot: Any) -> None:
    data = InspectorData()
    model = TraceTreeModel(data)
    watch(model)
    inserted: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda parent, first, last: inserted.append((first, last)))
    feed(data, runs[0])
    assert model.rowCount() == 1
    assert (
        len(inserted)
        == len(runs[0].events)
        + sum(len(run.children) for run in data.runs)
        + sum(len(phase.children) for phase in data.runs[0].children)
        + 1
    )  # one insert per run, phase, hook and call
    assert dump(model)[0][1] == "Run 1 (finished)"
    data.clear()
    assert model.rowCount() == 0


# -------------------------------------------------------------------------------------------- history
def test_history_from_stored_dicts_rebuilds_the_same_tree(runs: Runs, live: InspectorData) -> None:
    stored = InspectorData()
    for run in runs:
        events = json.loads(json.dumps([event.to_dict() for event in run.events]))  # as the store keeps them
        tripwire = run.result.tripwire.model_dump(by_alias=True) if run.result.tripwire else None
        violations = [{"processorId": v.processor_id, "message": v.message, "detail": v.detail} for v in run.violations]
        stored.load_run(run.run_id, events, tripwire, violations, thread_id="t1")
    assert dump(TraceTreeModel(stored)) == dump(TraceTreeModel(live))
    assert list(stored.tripwires) == list(live.tripwires)
    assert list(stored.violations) == list(live.violations)
    assert stored.tripwires[0].processor_id == "block-secrets"


def test_load_history_accepts_run_histories_and_chunks(runs: Runs) -> None:
    data = InspectorData()
    full = runs[0]
    data.load_history(
        [
            RunHistory(
                full.run_id,
                [e.to_dict() for e in full.events],
                status="finished",
                chunks=[chunk.to_wire() for chunk in full.chunks],
            )
        ]
    )
    assert data.runs[0].status == "finished"
    assert len(data.chunks) == len(full.chunks)
    assert [row.chunk.type for row in data.data_chunks] == ["data-progress", "data-progress"]


def test_event_from_dict_round_trips(runs: Runs) -> None:
    for event in runs[0].events:  # what the tool returned is for live observers only: it is not saved
        assert event_from_dict(event.to_dict()) == dataclasses.replace(event, tool_result=None)


# -------------------------------------------------------------------------------------------- side lists
def test_tripwires_and_violations_are_listed_once(live: InspectorData, runs: Runs) -> None:
    tripwires, violations = TripwireListModel(live), ViolationListModel(live)
    watch(tripwires)
    assert tripwires.rowCount() == 1  # the tripwire chunk and result.tripwire are the same tripwire
    assert [tripwires.index(0, column).data() for column in range(5)] == [
        "Run 2",
        "block-secrets",
        "secret in input",
        "no",
        '{"word": "secret"}',
    ]
    assert tripwires.row_of(runs[1].run_id) == 0 and tripwires.row_of(runs[0].run_id) is None
    assert [violations.index(0, column).data() for column in range(3)] == ["Run 2", "block-secrets", "secret in input"]
    assert live.call_for_violation(0) is live.call_for_tripwire(0) is live.aborted_call(runs[1].run_id)


def test_data_chunks_are_listed(live: InspectorData) -> None:
    model = DataChunkListModel(live)
    assert model.rowCount() == 2
    assert [model.index(0, column).data() for column in range(1, 5)] == ["Run 1", "data-progress", "p1", '{"step": 1}']
    assert isinstance(model.index(1, 0).data(ENTRY_ROLE).chunk, DataChunk)


def test_chunks_are_buffered_and_shown_in_one_insert(runs: Runs, qapp: Any) -> None:
    data = InspectorData()
    model = ChunkLogModel(data)
    watch(model)
    inserts: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda parent, first, last: inserts.append((first, last)))
    for chunk in runs[0].chunks:
        data.add_chunk(runs[0].run_id, chunk)
    assert model.rowCount() == 0 and not inserts  # nothing per chunk
    assert data.flush_chunks() == len(runs[0].chunks)
    assert inserts == [(0, len(runs[0].chunks) - 1)]
    assert model.index(0, ChunkLogModel.TYPE).data() == "start"
    deltas = [row for row in range(model.rowCount()) if model.index(row, ChunkLogModel.TYPE).data() == "text-delta"]
    assert [model.index(row, ChunkLogModel.SUMMARY).data() for row in deltas] == ["'OK '", "'FINE'"]
    assert model.index(0, ChunkLogModel.SEQ).data() == 1
    assert len(model.index(0, ChunkLogModel.TIME).data()) == len("12:00:00.000")
    assert data.flush_chunks() == 0


def test_type_filter_matches_exact_types_or_parts(runs: Runs, qapp: Any) -> None:
    data = InspectorData()
    feed(data, runs[0])
    source = ChunkLogModel(data)
    proxy = ChunkTypeFilterModel(source)
    watch(proxy)

    def shown() -> list[str]:
        return [proxy.index(row, ChunkLogModel.TYPE).data() for row in range(proxy.rowCount())]

    assert len(shown()) == len(runs[0].chunks)
    proxy.set_type_filter("tool-call")  # a known type: exactly that type, not tool-call-delta
    assert shown() == ["tool-call"]
    proxy.set_type_filter("tool")
    assert set(shown()) == {
        "tool-call",
        "tool-result",
        "tool-call-delta",
        "tool-call-input-streaming-start",
        "tool-call-input-streaming-end",
    }
    proxy.set_type_filter("text-delta")
    assert shown() == ["text-delta", "text-delta"]
    proxy.set_type_filter("")
    assert len(shown()) == len(runs[0].chunks)
    assert source.known_types()[:2] == ["start", "step-start"]


def test_raw_log_is_capped_and_counts_what_it_dropped(qapp: Any) -> None:
    data = InspectorData(log_cap=100)
    model = ChunkLogModel(data)
    watch(model)
    for number in range(1, 501):
        data.add_chunk("r", TextDeltaChunk(run_id="r", payload=TextDeltaPayload(id="t", text=str(number))))
        if number % 50 == 0:
            data.flush_chunks()
    assert 100 <= model.rowCount() <= 110
    assert data.chunks.dropped == 500 - model.rowCount()
    assert model.index(model.rowCount() - 1, ChunkLogModel.SEQ).data() == 500
    assert model.index(0, ChunkLogModel.SEQ).data() == 500 - model.rowCount() + 1


def test_clear_forgets_everything(live: InspectorData) -> None:
    log = ChunkLogModel(live)
    live.clear()
    assert live.runs == [] and len(live.tripwires) == len(live.violations) == len(live.chunks) == 0
    assert log.rowCount() == 0 and live.chunk_types == {}


def test_failed_run_is_marked(qapp: Any) -> None:
    data = InspectorData()
    data.start_run("r1", "t")
    data.fail_run("r1", "the design has no model")
    assert data.runs[0].status == "failed" and data.runs[0].error == "the design has no model"


# -------------------------------------------------------------------------------------------- text helpers
def test_summaries_and_diffs() -> None:
    assert diff_lines("a\nb", "a\nc") == [(" ", "a"), ("-", "b"), ("+", "c")]
    assert chunk_summary({"type": "tripwire", "payload": {"reason": "no", "processorId": "p"}}) == "p: no"
    assert chunk_summary(DataChunk(type="data-x", data={"k": 1})) == '{"k": 1}'
    assert chunk_summary({"type": "finish", "payload": {"stepResult": {"reason": "stop"}}}) == "reason: stop"


def _walk(node: Node) -> list[Node]:
    nodes = [node]
    for child in node.children:
        nodes.extend(_walk(child))
    return nodes
