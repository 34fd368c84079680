"""Replay in the studio: a past run replayed through the edited chain with no model call, side by side with the
original; divergence at its step with stop or continue-live; a litellm run replayed with no network; the menus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from studio.controllers.workspace import Workspace
from studio.design.agent_design import ChainEntry
from studio.models.chat_items import UserItem
from studio.models.editor_commands import AddEntry, EditSetting, RemoveEntry
from studio.replays.chain_replay import ReplayComparison
from studio.views.main_window import MainWindow
from studio.views.replay_comparison import activity_text
from studio.views.replay_view import ReplayView
from tests.studio.conftest import open_studio, run
from tests.support.openai_server import OpenAIServer, ToolCallReply


def send(qloop: qasync.QEventLoop, workspace: Workspace, text: str) -> str:
    async def go() -> str | None:
        run_id = workspace.send(text)
        await workspace.runs.wait_finished()
        return run_id

    run_id = run(qloop, go())
    assert run_id is not None
    return run_id


def replay(qloop: qasync.QEventLoop, window: MainWindow, run_id: str | None = None) -> tuple[ReplayView, Any]:
    """Open the replay view (the Ctrl+R action, or a given run) and wait for the comparison."""
    view = window.open_replay(run_id) if run_id is not None else None
    if view is None:
        window.replay_action.trigger()
        view = window.replay_view
    assert view is not None
    run(qloop, window.workspace.replays.wait_idle())
    return view, view.comparison


def swap_customer_42_for_43(workspace: Workspace) -> None:
    """The chain changes so that the model is asked something the recording lacks: an input RegexFilter, first in
    the chain, rewrites customer 42 as 43 (one undo step)."""
    rule = {"name": "swap", "pattern": r"\b42\b", "replacement": "43"}
    entry = ChainEntry(type="RegexFilter", options={"rules": [rule], "strategy": "redact", "phase": "input"})
    workspace.document.undo_stack().push(AddEntry(workspace.document, "input", 0, entry))


def output_pii_uid(workspace: Workspace) -> str:
    return next(entry.uid for entry in workspace.document.chain("output") if entry.type == "PIIDetector")


def test_replay_through_the_unchanged_chain_gives_the_original_run_back(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    send(qloop, workspace, "Please look up customer 42")
    reply = workspace.chat.items[-1].plain_text

    view, comparison = replay(qloop, window)  # Ctrl+R: the newest run

    assert isinstance(comparison, ReplayComparison) and comparison.identical
    assert " ".join(comparison.current.text.split()) in " ".join(reply.split())  # the chat parts steps with a blank
    assert "a***e@" in comparison.current.text
    assert comparison.current.divergences == [] and comparison.current.changed_tool_calls == []
    assert "same result" in view.status.text()
    assert not view.divergence_bar.isVisibleTo(view)
    run(qloop, workspace.shutdown())


def test_a_guard_that_only_held_text_back_reads_held_in_the_replay(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """Issue 26 §7: the replay said "system-prompt-scrubber changed (chunks changed: 8)" when nothing was scrubbed."""
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    send(qloop, workspace, "Please look up customer 42")

    _view, comparison = replay(qloop, window)

    activities = comparison.current.processors
    assert activity_text(activities["system-prompt-scrubber"]) == "held"
    assert activity_text(activities["pii-detector-2"]) == "changed (chunks changed: 2)"  # the e-mail and the phone
    run(qloop, workspace.shutdown())


def test_a_removed_output_guard_shows_the_unmasked_text_highlighted_and_its_row_marked(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db", size=(1280, 800))
    run_id = send(qloop, workspace, "Please look up customer 42")
    document = workspace.document
    document.undo_stack().push(RemoveEntry(document, output_pii_uid(workspace)))

    view, comparison = replay(qloop, window, run_id)

    assert comparison.text_differs and not comparison.tripwire_differs
    assert "ada.lovelace@example.com" in comparison.current.text
    assert "ada.lovelace@example.com" not in comparison.original.text
    left, right = comparison.text_spans()
    assert ("ada.lovelace@example.com ", True) in right and ("a***e@*******.com ", True) in left
    assert "ada.lovelace@example.com" in view.current.toPlainText()
    assert "background-color:#ccf2d1" in view.current.toHtml().replace(" ", "")
    rows = {
        view.processors.item(row, 0).text(): (view.processors.item(row, 1).text(), view.processors.item(row, 2).text())
        for row in range(view.processors.rowCount())
    }
    assert rows["pii-detector-2"][0].startswith("changed") and rows["pii-detector-2"][1] == "not in the chain"
    assert view.processors.item(0, 0).background().color().name() != "#fff3bf"  # unchanged rows stay plain
    assert "final text differs" in view.status.text() and "pii-detector-2" in view.status.text()
    view.resize(1100, 720)
    assert view.grab().save(str(tmp_path / "replay.png"))
    run(qloop, workspace.shutdown())


def test_a_divergence_is_shown_at_its_step_and_continues_with_the_live_model_marking_changed_tool_arguments(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """An input rule turns 42 into 43: step 1 is asked something the recording does not have. The replay stops
    there and says so; "Continue with the live model" hands the rest to the (offline demo) model, whose tool call
    now has other arguments: it gets the recorded result, and the call is marked."""
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    swap_customer_42_for_43(workspace)

    view, comparison = replay(qloop, window, run_id)

    assert comparison.current.diverged_at == 1
    assert view.divergence_bar.isVisibleTo(view) and "diverged at step 1" in view.divergence.text()
    assert comparison.current.finish_reason == "error"

    view.continue_live.click()
    run(qloop, workspace.replays.wait_idle())

    live = view.comparison
    assert live is not None and live is not comparison
    assert live.current.divergences[0].action == "live" and live.current.error is None
    assert live.current.changed_tool_calls == [("lookup_customer", {"customer_id": 42}, {"customer_id": 43})]
    assert view.tools.isVisibleTo(view) and "lookup_customer" in view.tools.text() and "43" in view.tools.text()
    assert not view.divergence_bar.isVisibleTo(view)
    run(qloop, workspace.shutdown())


def test_stop_here_keeps_the_replay_stopped_at_the_divergence(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Please look up customer 42")
    swap_customer_42_for_43(workspace)
    view, comparison = replay(qloop, window, run_id)

    view.stop_here.click()
    run(qloop, workspace.replays.wait_idle())

    assert view.comparison is comparison, "nothing else ran"
    assert not view.divergence_bar.isVisibleTo(view)
    run(qloop, workspace.shutdown())


def test_a_recorded_litellm_run_replays_with_no_network(
    qtbot: QtBot,
    qloop: qasync.QEventLoop,
    tmp_path: Path,
    openai_server: OpenAIServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    document = workspace.document
    document.undo_stack().push(EditSetting(document, "model.model", "openai/test-model"))
    document.undo_stack().push(EditSetting(document, "model.api_base", openai_server.base_url))
    openai_server.reply_tool_calls(ToolCallReply("lookup_customer", ['{"customer', '_id": 42}'], id="call_1"))
    openai_server.reply_text("Customer 42 writes from ", "ada.lovelace@example.com", ".")
    run_id = send(qloop, workspace, "Please look up customer 42")
    assert len(openai_server.requests) == 2
    openai_server.stop()  # no server any more: a replay that tried to reach it would fail
    document.undo_stack().push(RemoveEntry(document, output_pii_uid(workspace)))

    _view, comparison = replay(qloop, window, run_id)

    assert comparison.original.error is None and comparison.current.error is None
    assert comparison.current.text == "Customer 42 writes from ada.lovelace@example.com."
    assert "ada.lovelace@example.com" not in comparison.original.text
    assert comparison.current.divergences == [] and comparison.original.divergences == []
    assert len(openai_server.requests) == 2, "no model call"
    run(qloop, workspace.shutdown())


def test_the_messages_of_a_reopened_thread_offer_to_replay_their_run(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    run_id = send(qloop, workspace, "Hello!")
    thread_id = workspace.thread_id
    assert thread_id is not None
    run(qloop, workspace.open_thread(thread_id))  # from the store, as after a restart

    row = next(i for i, item in enumerate(workspace.chat.items) if isinstance(item, UserItem))
    menu = window.chat.message_menu(row)
    action = next(a for a in menu.actions() if a.objectName() == "chat.menu.replay")
    assert action.shortcut().toString() == "Ctrl+R"
    action.trigger()
    view = window.replay_view
    assert view is not None and view.run_id == run_id
    run(qloop, workspace.replays.wait_idle())
    assert view.comparison is not None and view.comparison.identical
    assert [a.objectName() for a in window.inspector.run_menu().actions()] == ["action.replay_run"]
    run(qloop, workspace.shutdown())
