"""``Agent``: what it sends to the model for its configuration, and what it refuses or warns about when built."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from processors import Agent
from processors.models import LiteLLMModel, ScriptedModel
from tests.processors.helpers import system, user
from tests.support.openai_server import OpenAIServer


# ---------------------------------------------------------------------------------------------- instructions
# Mastra's agent adds its instructions with ``messageList.addSystem(instructions)``, whose first line is
# ``if (!messages) return this``: empty instructions add nothing, and the prompt starts with the conversation.
@pytest.mark.parametrize("instructions", ["", [], [""], ["", ""]])
async def test_no_or_empty_instructions_send_no_system_message(instructions: str | Sequence[str]) -> None:
    model = ScriptedModel(["ok"])
    agent = Agent(id="a", model=model, instructions=instructions)

    await agent.generate("hi")

    assert model.requests[0].messages == [user("hi")]


async def test_an_agent_built_without_instructions_sends_no_system_message() -> None:
    model = ScriptedModel(["ok"])
    await Agent(id="a", model=model).generate("hi")
    assert model.requests[0].messages == [user("hi")]


async def test_empty_entries_are_skipped_and_the_others_kept() -> None:
    model = ScriptedModel(["ok"])
    await Agent(id="a", model=model, instructions=["Be brief.", "", "Be kind."]).generate("hi")
    assert model.requests[0].messages == [system("Be brief."), system("Be kind."), user("hi")]


async def test_an_empty_per_call_instruction_replaces_the_agents_with_none() -> None:
    model = ScriptedModel(["ok"])
    agent = Agent(id="a", model=model, instructions="Be brief.")
    await agent.generate("hi", instructions="")
    assert model.requests[0].messages == [user("hi")]


async def test_litellm_receives_no_system_message_without_instructions(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("ok")
    model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")
    result = await Agent(id="a", model=model, instructions="").generate("hi")
    assert result.text == "ok"
    assert openai_server.requests[0]["messages"] == [{"role": "user", "content": "hi"}]
