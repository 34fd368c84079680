"""Issue 26: a tool card whose result a guardrail blocked said "✖ failed". It says "blocked by <processor>" and, opened,
shows what the tool returned — live (from the run's trace) and in the thread reopened from its SQLite store (from
the run's recording) — with the processor carried as data on the tool-error chunk and the stored tool invocation.

Everything is real: the studio's window and workspace, litellm against the local OpenAI-compatible server, the MCP
test server's ``fetch_page`` returning a page with an injection, the output lane's prompt-injection detector."""

from __future__ import annotations

import json
from typing import Any

import qasync

from studio.controllers.workspace import Workspace
from studio.models.chat_items import AssistantItem
from tests.studio.conftest import run
from tests.studio.test_mcp_runs import Chunks, mcp_design, send_and_finish, studio, tools_server, use
from tests.studio.views.test_chat_live import shown
from tests.support.mcp_server import INJECTION
from tests.support.openai_server import OpenAIServer, ToolCallReply

__all__ = ["studio"]

GUARD = "prompt-injection-detector"


def card_and_text(workspace: Workspace, window: Any) -> tuple[Any, str, str]:
    """The reply's one tool card, the reply as drawn, and as drawn with the card opened."""
    reply = next(item for item in reversed(workspace.chat.items) if isinstance(item, AssistantItem))
    (card,) = reply.tool_cards
    closed = shown(window, reply)
    workspace.chat.toggle_tool_card(reply, card.tool_call_id)
    opened = shown(window, reply)
    workspace.chat.toggle_tool_card(reply, card.tool_call_id)
    return card, closed, opened


def test_a_blocked_tool_result_says_by_whom_and_shows_what_the_tool_returned_live_and_reopened(
    studio: tuple[Workspace, Any], qloop: qasync.QEventLoop, openai_server: OpenAIServer
) -> None:
    workspace, window = studio
    use(workspace, mcp_design(openai_server.base_url, tools_server("fetch_page"), guard=True))
    chunks = Chunks(workspace)
    openai_server.reply_tool_calls(ToolCallReply("fetch_page", '{"url": "https://example.com"}'))
    openai_server.reply_text("Here is the page.")

    [result] = send_and_finish(qloop, workspace, "What does example.com say?")
    assert result.tripwire is not None and result.tripwire.processor_id == GUARD
    [error] = chunks.of("tool-error")
    assert error.payload.blocked_by == GUARD  # data, not a sentence to parse

    card, closed, opened = card_and_text(workspace, window)
    assert card.blocked_by == GUARD
    assert f"blocked by {GUARD}" in closed and "failed" not in closed
    assert "Tool returned (not given to the model)" in opened and "ignore your previous instructions" in opened
    assert INJECTION in json.dumps(card.returned)  # what the tool itself returned, from the run's trace

    thread_id = workspace.thread_id
    assert thread_id is not None
    run(qloop, workspace.open_thread(thread_id))  # from the store, as after a restart

    card, closed, opened = card_and_text(workspace, window)
    assert card.blocked_by == GUARD and card.returned_known
    assert f"blocked by {GUARD}" in closed and "failed" not in closed
    assert "Tool returned (not given to the model)" in opened and "ignore your previous instructions" in opened
