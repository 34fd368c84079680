"""``Agent``: what it sends to the model for its configuration, and what it refuses or warns about when built."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from processors import Agent, ModelAPIError, Processor, ProcessorLaneWarning
from processors.models import LiteLLMModel, ScriptedModel, Turn
from processors.testing import RecordingProcessor
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


# ---------------------------------------------------------------------------------------------- unreachable hooks
# Mastra 1.71 asks only ``errorProcessors`` about model API errors: the agent wraps the input and output lanes in
# workflows, and ``runProcessAPIError`` skips workflows (mastra-behaviour.md B-81; newer Mastra calls the hook from
# any lane, agent/__tests__/processor-lane-api-error.test.ts). The hook is dead there, so building says so.
class GuardWithErrorHook(Processor):
    id = "guard"

    def __init__(self) -> None:
        self.api_errors = 0

    def process_llm_request(self, args: Any) -> Any:
        return None

    def process_output_result(self, args: Any) -> Any:
        return None

    def process_api_error(self, args: Any) -> Any:
        self.api_errors += 1
        return {"retry": True}


@pytest.mark.parametrize("lane", ["input_processors", "output_processors"])
async def test_process_api_error_outside_the_error_lane_warns_and_is_never_called(lane: str) -> None:
    guard = GuardWithErrorHook()
    model = ScriptedModel([Turn(error=ModelAPIError(500, "boom")), "ok"])
    lane_name = lane.removesuffix("_processors")

    with pytest.warns(ProcessorLaneWarning, match=f"'guard' implements process_api_error.*{lane_name} lane") as seen:
        agent = Agent(id="a", model=model, **{lane: [guard]})
    assert seen[0].filename == __file__  # points at the line that built the agent

    result = await agent.generate("hi")
    assert guard.api_errors == 0
    assert result.finish_reason == "error"
    assert len(model.requests) == 1


async def test_the_same_instance_in_the_error_lane_is_not_warned_about_and_is_called() -> None:
    guard = GuardWithErrorHook()
    model = ScriptedModel([Turn(error=ModelAPIError(500, "boom")), "ok"])
    agent = Agent(id="a", model=model, input_processors=[guard], error_processors=[guard])  # warnings are errors here
    result = await agent.generate("hi")
    assert guard.api_errors == 1
    assert result.text == "ok"


async def test_lanes_given_per_call_or_by_a_callable_are_checked_when_the_call_starts() -> None:
    agent = Agent(id="a", model=ScriptedModel(["ok"]), output_processors=lambda ctx: [GuardWithErrorHook()])
    with pytest.warns(ProcessorLaneWarning, match="output lane"):
        await agent.generate("hi")
    plain = Agent(id="b", model=ScriptedModel(["ok"]))
    with pytest.warns(ProcessorLaneWarning, match="input lane"):
        await plain.generate("hi", input_processors=[GuardWithErrorHook()])


def test_the_test_kits_recorder_sits_in_any_lane_without_a_warning() -> None:
    recorder = RecordingProcessor()
    Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[recorder], output_processors=[recorder])


async def test_a_call_overriding_one_lane_does_not_warn_again_about_the_agents_other_lane() -> None:
    with pytest.warns(ProcessorLaneWarning, match="input lane"):
        agent = Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[GuardWithErrorHook()])
    result = await agent.generate("hi", output_processors=[RecordingProcessor()])  # warnings are errors here
    assert result.text == "ok"
