"""Building the runtime agent from a design: chains in order, unique ids, violations, the model, tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors import Tool, Violation
from processors.builtin.registry import Catalogue, load_catalogue
from processors.models import LiteLLMModel, ScriptedModel
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError, ModelConfig
from studio.design.build import build_agent, processor_entries, resolve_tool
from tests.support.openai_server import OpenAIServer


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


# -------------------------------------------------------------------------------------------- build_agent


def test_builds_the_chains_in_order_skipping_disabled_entries(catalogue: Catalogue) -> None:
    design = AgentDesign(
        input=[ChainEntry(type="UnicodeNormalizer"), ChainEntry(type="RegexFilter", options={"bad": 1}, enabled=False)],
        output=[ChainEntry(type="RegexFilter", options={"presets": ["pii"], "strategy": "redact"})],
        error=[ChainEntry(type="StreamErrorRetry")],
        max_processor_retries=4,
        max_steps=3,
    )
    agent = build_agent(design, catalogue=catalogue)
    assert [p.id for p in agent.input_processors] == ["unicode-normalizer"]  # type: ignore[union-attr]
    assert [p.id for p in agent.output_processors] == ["regex-filter"]  # type: ignore[union-attr]
    assert [type(p).__name__ for p in agent.error_processors] == ["StreamErrorRetry"]  # type: ignore[union-attr]
    assert (agent.max_processor_retries, agent.max_steps, agent.id) == (4, 3, design.id)
    assert isinstance(agent.model, ScriptedModel) and agent.model.model_id == "demo"
    assert processor_entries(design, agent)["regex-filter"] is design.output[0]


def test_invalid_options_name_the_chain_position_and_type(catalogue: Catalogue) -> None:
    design = AgentDesign(
        output=[
            ChainEntry(type="UnicodeNormalizer", enabled=False),
            ChainEntry(type="RegexFilter", options={"rules": [{"pattern": "(unclosed"}]}),
        ]
    )
    with pytest.raises(DesignError) as caught:
        build_agent(design, catalogue=catalogue)
    message = str(caught.value)
    assert message.startswith("Output chain, #2 (RegexFilter): Invalid options for RegexFilter: rules.0")
    assert (caught.value.lane, caught.value.index, caught.value.uid) == ("output", 1, design.output[1].uid)


def test_unknown_types_and_wrong_lanes_are_refused(catalogue: Catalogue) -> None:
    with pytest.raises(DesignError, match=r"^Input chain, #1 \(NoSuchGuard\): unknown processor type 'NoSuchGuard'"):
        build_agent(AgentDesign(input=[ChainEntry(type="NoSuchGuard")]), catalogue=catalogue)
    with pytest.raises(DesignError, match=r"^Input chain, #1 \(StreamErrorRetry\): .*cannot go in the input lane"):
        build_agent(AgentDesign(input=[ChainEntry(type="StreamErrorRetry")]), catalogue=catalogue)


def test_processor_ids_are_unique_across_the_agent(catalogue: Catalogue) -> None:
    design = AgentDesign(
        input=[ChainEntry(type="PIIDetector")],
        output=[ChainEntry(type="PIIDetector"), ChainEntry(type="PIIDetector", options={"strategy": "block"})],
    )
    agent = build_agent(design, catalogue=catalogue)
    ids = [p.id for p in [*agent.input_processors, *agent.output_processors]]  # type: ignore[misc]
    assert ids == ["pii-detector", "pii-detector-2", "pii-detector-3"]
    assert processor_entries(design, agent)["pii-detector-3"] is design.output[1]


async def test_violations_reach_the_listener_and_the_processor(user_catalogue: Catalogue) -> None:
    blocker_class = user_catalogue["ShoutBlocker"].cls
    blocker_class.seen.clear()
    design = AgentDesign(input=[ChainEntry(type="ShoutBlocker")])
    heard: list[tuple[str, Violation]] = []
    agent = build_agent(design, catalogue=user_catalogue, on_violation=lambda pid, v: heard.append((pid, v)))
    agent.model = ScriptedModel(["fine"], repeat=True)
    assert (await agent.generate("hello")).tripwire is None
    result = await agent.generate("HELLO")
    assert result.tripwire is not None and result.tripwire.processor_id == "shout-blocker"
    assert [(pid, v.message, v.detail) for pid, v in heard] == [("shout-blocker", "no shouting", {"rule": "caps"})]
    assert processor_entries(design, agent)[heard[0][0]] is design.input[0]
    assert blocker_class.seen == ["no shouting"], "the processor's own on_violation still runs"


async def test_a_failing_listener_does_not_break_the_guardrail(user_catalogue: Catalogue) -> None:
    def broken(processor_id: str, violation: Violation) -> None:
        raise RuntimeError("listener bug")

    design = AgentDesign(input=[ChainEntry(type="ShoutBlocker")])
    agent = build_agent(design, catalogue=user_catalogue, on_violation=broken)
    result = await agent.generate("STOP")
    assert result.tripwire is not None and result.tripwire.reason == "no shouting"


# ------------------------------------------------------------------------------------------------- models


def test_litellm_model_gets_settings_and_the_key(catalogue: Catalogue) -> None:
    config = ModelConfig(
        model="ollama/llama3.2", api_base="http://localhost:11434", temperature=0.2, top_p=0.9, extra={"seed": 7}
    )
    agent = build_agent(AgentDesign(model=config), catalogue=catalogue, api_key="sk-local")
    model = agent.model
    assert isinstance(model, LiteLLMModel)
    assert (model.model_id, model.api_base, model.api_key) == ("ollama/llama3.2", "http://localhost:11434", "sk-local")
    assert model.default_settings == {"seed": 7, "temperature": 0.2, "top_p": 0.9}


@pytest.mark.parametrize(
    ("config", "fragment"),
    [
        (ModelConfig(model="openai/gpt-4o", extra={"api_key": "sk-123"}), "model.extra.api_key: API keys must not"),
        (ModelConfig(model="openai/gpt-4o", extra={"api_base": "http://x"}), "model.extra.api_base: 'api_base' is set"),
        (ModelConfig(model="  "), "model.model: choose a model"),
    ],
)
def test_bad_model_settings_are_refused(catalogue: Catalogue, config: ModelConfig, fragment: str) -> None:
    with pytest.raises(DesignError, match=fragment):
        build_agent(AgentDesign(model=config), catalogue=catalogue)


async def test_a_litellm_design_talks_to_a_local_server(catalogue: Catalogue, openai_server: OpenAIServer) -> None:
    openai_server.reply_text("Hi ", "there")
    config = ModelConfig(model="openai/test-model", api_base=openai_server.base_url, temperature=0.3, max_tokens=50)
    agent = build_agent(AgentDesign(instructions="Be kind.", model=config), catalogue=catalogue, api_key="sk-abc")
    result = await agent.generate("hello")
    assert result.text == "Hi there"
    body = openai_server.requests[0]
    assert (body["model"], body["temperature"], body["max_tokens"]) == ("test-model", 0.3, 50)
    assert body["messages"][0] == {"role": "system", "content": "Be kind."}
    assert openai_server.request_headers[0]["authorization"] == "Bearer sk-abc"


# -------------------------------------------------------------------------------------------------- tools


def test_demo_and_file_tools(tool_folder: Path, catalogue: Catalogue) -> None:
    design = AgentDesign(tools=["calculator", "text_tools.py:shout", "text_tools.py:reverse"])
    agent = build_agent(design, catalogue=catalogue, tool_folder=tool_folder)
    assert sorted(agent.tools) == ["calculator", "reverse", "shout"]
    assert all(isinstance(t, Tool) for t in agent.tools.values())
    assert agent.tools["reverse"].parameters["properties"]["text"]["type"] == "string"


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("get_wether", "Tool 'get_wether': no such demo tool"),
        ("missing.py:f", "Tool 'missing.py:f': the file missing.py is not in the tools folder"),
        ("text_tools.py:nothing", "text_tools.py has no function named 'nothing'"),
        ("text_tools.py:NOT_A_FUNCTION", "'NOT_A_FUNCTION' in text_tools.py is not a function"),
        ("broken.py:oops", "Tool 'broken.py:oops': cannot import broken.py: SyntaxError"),
    ],
)
def test_missing_or_broken_tools_are_refused(tool_folder: Path, name: str, fragment: str) -> None:
    with pytest.raises(DesignError, match=fragment.replace(".", r"\.").replace("(", r"\(")):
        resolve_tool(name, tool_folder=tool_folder)


def test_two_tools_with_one_name_are_refused(tool_folder: Path, catalogue: Catalogue) -> None:
    (tool_folder / "more.py").write_text("def calculator(expression: str) -> str:\n    return expression\n")
    design = AgentDesign(tools=["calculator", "more.py:calculator"])
    with pytest.raises(DesignError, match="its name 'calculator' is already used by 'calculator'"):
        build_agent(design, catalogue=catalogue, tool_folder=tool_folder)


def test_an_edited_tool_file_is_read_again(tool_folder: Path) -> None:
    path = tool_folder / "answer.py"
    path.write_text("def answer() -> int:\n    return 1\n", encoding="utf-8")
    assert resolve_tool("answer.py:answer", tool_folder=tool_folder).execute() == 1
    path.write_text("def answer() -> int:\n    return 2\n", encoding="utf-8")
    assert resolve_tool("answer.py:answer", tool_folder=tool_folder).execute() == 2
