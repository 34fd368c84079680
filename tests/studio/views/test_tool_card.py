"""The tool card shows what the tool returned and what the model was given after ``process_tool_result``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import qasync
from pytestqt.qtbot import QtBot

from processors import Agent, Processor
from processors.models.scripted import ScriptedModel, ToolCall, Turn
from studio.controllers.run_controller import RunController
from studio.models.chat_items import AssistantItem
from studio.views.chat_view import ChatView
from tests.studio.conftest import run
from tests.studio.test_app import open_studio, reply
from tests.studio.views.test_chat_view import chat, get_weather, text_of, wire

__all__ = ["chat"]


class HideCity(Processor):
    """Replaces a tool's result before the model sees it (as a redacting guardrail does)."""

    id = "hide-city"

    def process_tool_result(self, args: Any) -> Any:
        args.message_list.update_tool_invocation(
            {
                "type": "tool-invocation",
                "toolInvocation": {
                    "state": "result",
                    "toolCallId": args.tool_call_id,
                    "toolName": args.tool_name,
                    "args": args.args,
                    "result": {"city": "[REDACTED]", "temperature": 21},
                },
            }
        )


def test_a_changed_result_shows_both_what_the_tool_returned_and_what_the_model_got(
    chat: ChatView, loop: qasync.QEventLoop
) -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), "It is 21."])
    agent = Agent(id="a", model=model, tools=[get_weather], output_processors=[HideCity()])
    controller = RunController()
    wire(chat, controller, agent)

    async def go() -> None:
        chat.model.chat.add_user_message("weather?")
        controller.start(agent, "weather?", thread_id="t1")
        await controller.wait_finished()
        await asyncio.sleep(0.05)

    loop.run_until_complete(go())
    answer = chat.model.chat.items[1]
    assert isinstance(answer, AssistantItem)
    (card,) = answer.tool_cards
    assert card.returned == {"city": "Paris", "temperature": 21} and card.result["city"] == "[REDACTED]"
    assert "changed for the model" in text_of(chat, answer)  # said on the collapsed header too
    chat.model.chat.toggle_tool_card(answer, card.tool_call_id)
    text = text_of(chat, answer)
    returned_at, given_at = text.index("Tool returned"), text.index("Given to the model (after process_tool_result)")
    assert returned_at < text.index('"Paris"', returned_at) < given_at < text.index('"[REDACTED]"')
    assert model.requests[1].messages[-1]["content"].count("[REDACTED]") == 1  # the model did get the changed one


def test_the_sample_tool_card_shows_the_result_the_model_was_given(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    reply(qloop, workspace, "Please look up customer 42.")
    answer = next(item for item in reversed(workspace.chat.items) if isinstance(item, AssistantItem))
    (card,) = answer.tool_cards
    assert not card.result_changed  # no process_tool_result in the sample chain: the model got it unchanged
    workspace.chat.toggle_tool_card(answer, card.tool_call_id)
    text = text_of(window.chat, answer)
    assert "Result (given to the model)" in text and "ada.lovelace@example.com" in text  # the e-mail in full
    assert "a***e@" in answer.plain_text  # ... while the answer's text is masked by the output PII detector
    run(qloop, workspace.shutdown())


def test_a_reopened_thread_s_tool_card_still_knows_what_the_tool_returned(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """What the tool returned lives in the run's recording, so the card shows it after the thread is reopened as it
    did live (before, a reopened card knew only what the model was given)."""
    workspace, _window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    reply(qloop, workspace, "Please look up customer 42.")
    live = next(item for item in reversed(workspace.chat.items) if isinstance(item, AssistantItem))
    (live_card,) = live.tool_cards  # no process_tool_result in the sample chain: nothing traced about it live
    thread_id = workspace.thread_id
    assert thread_id is not None

    workspace.chat.clear()
    run(qloop, workspace.open_thread(thread_id))

    reopened = next(item for item in reversed(workspace.chat.items) if isinstance(item, AssistantItem))
    (card,) = reopened.tool_cards
    assert card.tool_call_id == live_card.tool_call_id
    assert card.returned_known and card.returned == live_card.result  # unchanged by the chain, as live
    assert card.returned["email"] == "ada.lovelace@example.com" and not card.result_changed
    run(qloop, workspace.shutdown())
