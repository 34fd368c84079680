"""Issue 26, replay texts: a processor the run never reached because an earlier tripwire ended it says so (not "not
in the chain"), and after "Continue with the live model" the header says the replay went live, from which step."""

from __future__ import annotations

from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot

from studio.design.agent_design import ChainEntry
from studio.models.editor_commands import AddEntry
from tests.studio.conftest import open_studio, run
from tests.studio.views.test_replay_view import replay, send, swap_customer_42_for_43
from tests.studio.views.test_thread_replay_view import from_threads_menu, thread_of_three


def table(view: object) -> dict[str, tuple[str, str]]:
    processors = view.processors  # type: ignore[attr-defined]
    return {
        processors.item(row, 0).text(): (processors.item(row, 1).text(), processors.item(row, 2).text())
        for row in range(processors.rowCount())
    }


def test_processors_after_a_new_tripwire_read_not_reached_and_the_new_guard_not_in_the_original_chain(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    rule = {"name": "forty-two", "pattern": r"\b42\b"}
    entry = ChainEntry(type="RegexFilter", options={"rules": [rule], "strategy": "block", "phase": "input"})
    workspace.document.undo_stack().push(AddEntry(workspace.document, "input", 0, entry))

    view, comparison = replay(qloop, window, run_id)

    assert comparison.current.tripwire is not None
    blocker = comparison.current.tripwire[0]
    rows = table(view)
    assert rows[blocker][0] == "not in the chain" and rows[blocker][1].startswith("aborted")
    assert rows["pii-detector-2"][0].startswith("changed")
    assert rows["pii-detector-2"][1] == f"not reached (the run stopped at {blocker})"
    assert all(now != "not in the chain" for name, (_, now) in rows.items() if name != blocker)
    run(qloop, workspace.shutdown())


def test_after_continuing_live_the_header_says_so_and_from_which_step(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    swap_customer_42_for_43(workspace)
    view, _comparison = replay(qloop, window, run_id)

    view.continue_live.click()
    run(qloop, workspace.replays.wait_idle())

    status = view.status.text()
    assert "no model call" not in status
    assert "Continued with the live model from step 1" in status
    run(qloop, workspace.shutdown())


def test_a_thread_continued_live_says_from_which_run_and_step(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window, _run_ids = thread_of_three(qtbot, qloop, tmp_path)
    swap_customer_42_for_43(workspace)
    view = from_threads_menu(qloop, window)

    view.continue_live.click()
    run(qloop, workspace.replays.wait_idle())

    status = view.status.text()
    assert "no model call" not in status
    assert "continued with the live model from run 2, step 1" in status
    run(qloop, workspace.shutdown())


def test_a_divergence_shows_what_the_recording_was_asked_against_what_is_asked_now(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    swap_customer_42_for_43(workspace)

    view, comparison = replay(qloop, window, run_id)

    divergence = comparison.current.divergences[0]
    assert "Please look up customer 43" in str(divergence.request["messages"])  # data, not only a sentence
    assert divergence.recorded_request is not None
    assert "Please look up customer 42" in str(divergence.recorded_request["messages"])
    diff = view.pane.request_diff
    assert diff.isVisibleTo(view)
    text = diff.toPlainText()
    assert "Step 1: what the recording was asked (-) and what the chain asks now (+)" in text
    assert "- user: Please look up customer 42" in text and "+ user: Please look up customer 43" in text
    run(qloop, workspace.shutdown())


def test_a_long_request_difference_is_capped(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    many = "\n".join(f"line {i} about customer 42" for i in range(200))
    run_id = send(qloop, workspace, many)
    swap_customer_42_for_43(workspace)

    view, comparison = replay(qloop, window, run_id)

    diff = comparison.request_diff()
    assert diff is not None and len(diff.lines) == 40 and diff.more > 300
    text = view.pane.request_diff.toPlainText()
    assert f"… and {diff.more} more lines" in text and "line 199" not in text
    run(qloop, workspace.shutdown())


def test_a_thread_replay_that_stopped_shows_what_differed(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window, _run_ids = thread_of_three(qtbot, qloop, tmp_path)
    swap_customer_42_for_43(workspace)

    view = from_threads_menu(qloop, window)

    assert view.runs.currentRow() == 1 and view.pane.request_diff.isVisibleTo(view)
    text = view.pane.request_diff.toPlainText()
    assert "- user: Please look up customer 42" in text and "+ user: Please look up customer 43" in text
    assert "tools: calculator" in text  # unchanged lines next to a change show as context
    run(qloop, workspace.shutdown())
