"""A tool result a processor blocks, through the studio's store: the chat shown live, the thread reopened from the
SQLite file (the app restarted) and its export all show the tool call answered with the block, never waiting for
a result, and never the result itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors import Agent, tool
from processors.messages import ToolInvocationPart
from processors.models import ScriptedModel, ToolCall, Turn
from studio.models.chat_items import AssistantItem
from studio.models.chat_model import ChatModel
from studio.store.database import Store

BLOCKED = "The tool's result was blocked by processor 'secret-guard'"


@tool
def read_file(path: str) -> str:
    """Read a file.

    Args:
        path: The file.
    """
    return "password=hunter2"


class SecretGuard:
    id = "secret-guard"

    def process_tool_result(self, args: Any) -> None:
        if "password" in str(args.result):
            args.abort("a secret in a tool result")


def cards(chat: ChatModel) -> list[tuple[str, str, str | None, Any]]:
    return [
        (card.tool_call_id, card.state, card.error, card.result)
        for item in chat.items
        if isinstance(item, AssistantItem)
        for card in item.tool_cards
    ]


async def test_a_blocked_tool_result_reads_the_same_live_reopened_and_exported(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'studio.db'}"
    store = Store(url)
    model = ScriptedModel([Turn(text="Reading.", tool_calls=[ToolCall("read_file", {"path": "/etc/app"}, id="c1")])])
    agent = Agent(id="a", model=model, tools=[read_file], memory=store.memory, output_processors=[SecretGuard()])
    live = ChatModel()
    live.add_user_message("read it")
    stream = agent.stream("read it", thread_id="t1")
    async for chunk in stream:
        live.live.apply_chunk(stream.run_id, chunk)
    result = await stream.result()
    live.live.finish_run(stream.run_id, result)
    await store.close()
    assert result.tripwire.reason == "a secret in a tool result"
    assert cards(live) == [("c1", "error", BLOCKED, None)]

    reopened = Store(url)
    try:
        saved = await reopened.memory.all_messages("t1")
        exported = await reopened.export_thread("t1")
    finally:
        await reopened.close()
    shown = ChatModel()
    shown.history.load_messages(saved)
    assert cards(shown) == cards(live)
    [call] = [p.tool_invocation for m in saved for p in m.content.parts if isinstance(p, ToolInvocationPart)]
    assert (call.state, call.error_text, call.result) == ("output-error", BLOCKED, None)
    assert call.blocked_by == "secret-guard"  # the processor as data, for "blocked by …" in the user's language
    assert [card.blocked_by for item in shown.items if isinstance(item, AssistantItem) for card in item.tool_cards] == [
        "secret-guard"
    ]
    assert "hunter2" not in str(exported)
    assert BLOCKED in str(exported)
