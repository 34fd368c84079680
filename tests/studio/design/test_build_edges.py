"""Building an agent at its edges: which catalogue, processors without ids, the violation listener's wrapper, the
model, tool names and files, the key variable an export reads, the tool list. Each pins a behaviour mutation
testing found unchecked (issue 16; see tests/README.md)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from processors import Processor, Violation
from processors.builtin.registry import Catalogue, describe_class, load_catalogue
from processors.demo.offline import DEMO_TOOLS
from processors.models import LiteLLMModel
from processors.testing import ScriptedModel
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError, ModelConfig
from studio.design.build import (
    available_tools,
    build_agent,
    build_chains,
    build_model,
    build_processor,
    entry_label,
    processor_entries,
    resolve_tool,
    resolve_tools,
    tool_file,
)

POLITE_FILE = '''
from processors import Processor


class Polite(Processor):
    """Adds a "please" to the last user message."""

    id = "polite"

    def process_input(self, args):
        args.messages[-1].content.parts[0].text += " please"
        return args.messages


class Quiet(Processor):
    """Aborts on "stop"; has no on_violation of its own."""

    id = "quiet"
    on_violation = None

    def process_input(self, args):
        if args.messages[-1].text == "stop":
            args.abort("stopped")
        return None
'''

ECHO_FILE = '''
from processors import tool


@tool
def echo(text: str) -> str:
    """Echo a text."""
    return text


def plain(text: str) -> str:
    """A plain function: made a tool when a design names it."""
    return text.upper()


def _private(text: str) -> str:
    return text


@tool
def _hidden(text: str) -> str:
    """A tool whose name says it is not for the list."""
    return text


def positional(text, /):
    """Positional-only: a tool takes keywords."""
    return text


NUMBER = 3
'''


@pytest.fixture
def own_catalogue(tmp_path: Path) -> Catalogue:
    folder = tmp_path / "processors"
    folder.mkdir()
    (folder / "polite.py").write_text(POLITE_FILE, encoding="utf-8")
    loaded = load_catalogue(folder)
    assert "Polite" in loaded and "Quiet" in loaded, loaded.errors
    return loaded


@pytest.fixture
def tools(tmp_path: Path) -> Path:
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "echo.py").write_text(ECHO_FILE, encoding="utf-8")
    return folder


# ------------------------------------------------------------------------------------------------- catalogue
async def test_the_catalogue_given_is_used_and_the_studios_otherwise(own_catalogue: Catalogue, tools: Path) -> None:
    design = AgentDesign(id="d1", name="Polite", tools=["echo.py:echo"], input=[ChainEntry(type="Polite")])
    agent = build_agent(design, catalogue=own_catalogue, tool_folder=tools)
    assert (agent.id, agent.name) == ("d1", "Polite")
    assert list(agent.tools) == ["echo"]
    assert [p.id for p in agent.input_processors] == ["polite"]  # type: ignore[union-attr]
    agent.model = ScriptedModel(["ok"])
    await agent.generate("help")
    assert agent.model.requests[0].messages[-1]["content"] == "help please"
    with pytest.raises(DesignError, match=r"^Input chain, #1 \(Polite\): unknown processor type 'Polite'"):
        build_agent(design, tool_folder=tools)  # the studio's catalogue has no Polite
    assert [p.id for p in build_agent(AgentDesign(input=[ChainEntry(type="UnicodeNormalizer")])).input_processors] == [
        "unicode-normalizer"
    ]  # type: ignore[union-attr]


# ------------------------------------------------------------------------------------------------- chains
def test_built_entries_name_their_lane_position_entry_and_first_id(own_catalogue: Catalogue) -> None:
    design = AgentDesign(
        input=[
            ChainEntry(uid="off", type="Polite", enabled=False),
            ChainEntry(uid="a", type="Polite"),
            ChainEntry(uid="b", type="Polite"),
            ChainEntry(uid="c", type="Quiet"),
        ],
        output=[ChainEntry(uid="e", type="PIIDetector")],
    )
    chains = build_chains(design, own_catalogue)
    rows = [(b.lane, b.index, b.entry.uid, b.default_id, b.processor.id) for b in chains["input"]]
    assert rows == [
        ("input", 1, "a", "polite", "polite"),
        ("input", 2, "b", "polite", "polite-2"),
        ("input", 3, "c", "quiet", "quiet"),
    ]
    assert [(b.lane, b.index, b.processor.id) for b in chains["output"]] == [("output", 0, "pii-detector")]
    assert chains["error"] == []


def test_an_entry_that_cannot_be_built_is_named_by_lane_position_and_type(own_catalogue: Catalogue) -> None:
    entry = ChainEntry(uid="x1", type="Polite", options={"loud": True})
    with pytest.raises(DesignError) as caught:
        build_processor(own_catalogue, "output", 2, entry)
    assert caught.value.message.startswith("Output chain, #3 (Polite): ")
    assert (caught.value.path, caught.value.lane, caught.value.index, caught.value.uid) == (
        "output[2]",
        "output",
        2,
        "x1",
    )
    assert entry_label("error", 0, ChainEntry(type="StreamErrorRetry")) == "Error chain, #1 (StreamErrorRetry)"


def test_processor_entries_skip_disabled_entries_in_every_lane(own_catalogue: Catalogue) -> None:
    design = AgentDesign(
        input=[ChainEntry(type="Polite", enabled=False), ChainEntry(type="Polite")],
        output=[ChainEntry(type="PIIDetector")],
        error=[ChainEntry(type="StreamErrorRetry", enabled=False), ChainEntry(type="StreamErrorRetry")],
    )
    agent = build_agent(design, catalogue=own_catalogue)
    mapping = processor_entries(design, agent)
    assert mapping == {
        "polite": design.input[1],
        "pii-detector": design.output[0],
        "stream-error-retry-processor": design.error[1],
    }


# ------------------------------------------------------------------------------------------------- violations
async def test_the_listener_hears_a_processor_without_its_own_on_violation(own_catalogue: Catalogue) -> None:
    heard: list[tuple[str, str]] = []
    design = AgentDesign(input=[ChainEntry(type="Quiet")])
    agent = build_agent(
        design, catalogue=own_catalogue, on_violation=lambda pid, violation: heard.append((pid, violation.message))
    )
    agent.model = ScriptedModel(["ok"], repeat=True)
    result = await agent.generate("stop")
    assert result.tripwire is not None and result.tripwire.reason == "stopped"
    assert heard == [("quiet", "stopped")]
    quiet: Any = agent.input_processors[0]  # type: ignore[index]
    assert quiet.on_violation(Violation(processor_id="quiet", message="again")) is None
    assert heard[-1] == ("quiet", "again")


def test_the_listener_is_told_the_unique_id_and_the_processors_own_callback_still_runs() -> None:
    told: list[str] = []

    class Recording(Processor):
        id = "recording"

        def __init__(self) -> None:
            self.seen: list[str] = []

        def process_input(self, args: Any) -> None:
            return None

        def on_violation(self, violation: Violation) -> str:
            self.seen.append(violation.message)
            return "own answer"

    catalogue = Catalogue()
    catalogue.add(describe_class(Recording, source="test"))
    design = AgentDesign(input=[ChainEntry(type="Recording"), ChainEntry(type="Recording")])
    agent = build_agent(design, catalogue=catalogue, on_violation=lambda pid, _v: told.append(pid))
    second: Any = agent.input_processors[1]  # type: ignore[index]
    assert second.on_violation(Violation(processor_id=second.id, message="m")) == "own answer"
    assert told == ["recording-2"]
    assert second.seen == ["m"]


# ------------------------------------------------------------------------------------------------- model
def test_the_demo_model_and_litellm_models() -> None:
    assert build_model(ModelConfig()).model_id == "demo"
    model = build_model(ModelConfig(model=" openai/gpt-4o-mini ", api_base="", top_p=0.5), api_key="sk-x")
    assert isinstance(model, LiteLLMModel)
    assert (model.model_id, model.api_base, model.api_key) == ("openai/gpt-4o-mini", None, "sk-x")
    assert model.default_settings == {"top_p": 0.5}
    with pytest.raises(DesignError) as caught:
        build_model(ModelConfig(model="   "))
    assert caught.value.message == "model.model: choose a model (a litellm id such as 'openai/gpt-4o-mini', or 'demo')"
    assert caught.value.path == "model.model"


# ------------------------------------------------------------------------------------------------- tools
def test_tool_names_resolve_to_demo_tools_file_tools_and_plain_functions(tools: Path) -> None:
    assert resolve_tool("calculator") is DEMO_TOOLS["calculator"]
    echo = resolve_tool("echo.py:echo", tool_folder=tools)
    assert (echo.name, echo.execute(text="hi")) == ("echo", "hi")
    plain = resolve_tool("echo.py:plain", tool_folder=tools)
    assert (plain.name, plain.execute(text="hi")) == ("plain", "HI")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "nope",
            "Tool 'nope': no such demo tool (demo tools: " + ", ".join(sorted(DEMO_TOOLS)) + "; a tool from a file is "
            "written 'file.py:function')",
        ),
        ("echo.py:missing", "Tool 'echo.py:missing': echo.py has no function named 'missing'"),
        ("echo.py:NUMBER", "Tool 'echo.py:NUMBER': 'NUMBER' in echo.py is not a function"),
        ("echo.txt:echo", "Tool 'echo.txt:echo': 'echo.txt' is not a Python file (file.py:function)"),
    ],
)
def test_tool_names_that_do_not_resolve_say_why(tools: Path, name: str, message: str) -> None:
    with pytest.raises(DesignError) as caught:
        resolve_tool(name, tool_folder=tools)
    assert caught.value.message == message
    assert caught.value.path == "tools"


def test_a_function_that_cannot_be_a_tool_is_refused(tools: Path) -> None:
    with pytest.raises(DesignError) as caught:
        resolve_tool("echo.py:positional", tool_folder=tools)
    assert caught.value.message.startswith("Tool 'echo.py:positional': ")
    assert caught.value.path == "tools"
    assert isinstance(caught.value.__cause__, TypeError | ValueError)


def test_a_missing_tool_file_names_the_folder(tools: Path) -> None:
    with pytest.raises(DesignError) as caught:
        tool_file("gone.py:f", "gone.py", tools)
    assert caught.value.message == f"Tool 'gone.py:f': the file gone.py is not in the tools folder ({tools})"
    assert caught.value.path == "tools"
    assert tool_file("echo.py:echo", "echo.py", tools) == (tools / "echo.py").resolve()


def test_a_file_name_with_a_colon_keeps_the_last_part_as_the_function(tools: Path) -> None:
    (tools / "a:b.py").write_text("def f() -> int:\n    '''F.'''\n    return 1\n", encoding="utf-8")
    assert resolve_tool("a:b.py:f", tool_folder=tools).execute() == 1


def test_two_tools_with_one_name_name_both(tools: Path) -> None:
    (tools / "more.py").write_text("def echo(text: str) -> str:\n    '''Echo.'''\n    return text\n", encoding="utf-8")
    assert [t.name for t in resolve_tools(["echo.py:echo", "calculator"], tool_folder=tools)] == ["echo", "calculator"]
    with pytest.raises(DesignError) as caught:
        resolve_tools(["calculator", "echo.py:echo", "more.py:echo"], tool_folder=tools)
    assert caught.value.message == "Tool 'more.py:echo': its name 'echo' is already used by 'echo.py:echo'"
    assert caught.value.path == "tools"


# ------------------------------------------------------------------------------------------------- tool list
def test_the_tool_list_offers_public_tools_sorted_after_the_demo_set(tools: Path) -> None:
    (tools / "a_first.py").write_text(
        "from processors import tool\n\n@tool\ndef zeta() -> str:\n    '''Z.'''\n    return 'z'\n\n"
        "@tool\ndef alpha() -> str:\n    '''A.'''\n    return 'a'\n",
        encoding="utf-8",
    )
    (tools / "notes.txt").write_text("not python", encoding="utf-8")
    names, problems = available_tools(tools)
    assert names == [*sorted(DEMO_TOOLS), "a_first.py:alpha", "a_first.py:zeta", "echo.py:echo"]
    assert problems == []


def test_a_missing_tools_folder_offers_the_demo_set(tmp_path: Path) -> None:
    assert available_tools(tmp_path / "nowhere") == (sorted(DEMO_TOOLS), [])


def test_a_tool_file_that_fails_to_import_is_reported_with_its_error(tools: Path) -> None:
    (tools / "raises.py").write_text("raise RuntimeError('no network here')\n", encoding="utf-8")
    names, problems = available_tools(tools)
    assert problems == ["raises.py: RuntimeError: no network here"]
    assert names[-1] == "echo.py:echo"


def test_a_reused_processor_keeps_its_own_callback_under_one_listener() -> None:
    """Rebuilding replaces the listener's wrapper instead of wrapping it again, and the processor's own
    ``on_violation`` still runs once."""

    class Recording(Processor):
        id = "recording"

        def __init__(self) -> None:
            self.seen: list[str] = []

        def process_input(self, args: Any) -> None:
            return None

        def on_violation(self, violation: Violation) -> None:
            self.seen.append(violation.message)

    catalogue = Catalogue()
    catalogue.add(describe_class(Recording, source="test"))
    design = AgentDesign(input=[ChainEntry(type="Recording")])
    kept: dict[tuple[str, ...], Any] = {}
    told: list[str] = []
    agents = [
        build_agent(design, catalogue=catalogue, reuse=kept, on_violation=lambda pid, _v: told.append(pid))
        for _ in range(3)
    ]
    processor: Any = agents[2].input_processors[0]  # type: ignore[index]
    assert processor is agents[0].input_processors[0]  # type: ignore[index]
    processor.on_violation(Violation(processor_id="recording", message="m"))
    assert told == ["recording"]
    assert processor.seen == ["m"]


def test_a_processor_without_on_violation_gets_only_the_listener() -> None:
    """A duck-typed processor (hooks, no ``Processor`` base, no ``on_violation``) builds and is listened to."""

    class Duck:
        id = "duck"

        def process_input(self, args: Any) -> None:
            return None

    catalogue = Catalogue()
    catalogue.add(describe_class(Duck, source="test"))
    told: list[str] = []
    agent = build_agent(
        AgentDesign(input=[ChainEntry(type="Duck")]), catalogue=catalogue, on_violation=lambda pid, _v: told.append(pid)
    )
    duck: Any = agent.input_processors[0]  # type: ignore[index]
    assert duck.on_violation(Violation(processor_id="duck", message="m")) is None
    assert told == ["duck"]


async def test_a_failing_listener_is_logged_and_the_guardrail_still_aborts(
    own_catalogue: Catalogue, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(processor_id: str, violation: Violation) -> None:
        raise RuntimeError("listener bug")

    agent = build_agent(AgentDesign(input=[ChainEntry(type="Quiet")]), catalogue=own_catalogue, on_violation=broken)
    agent.model = ScriptedModel(["ok"])
    with caplog.at_level(logging.WARNING, logger="studio.design.build"):
        result = await agent.generate("stop")
    assert result.tripwire is not None and result.tripwire.reason == "stopped"
    (record,) = caplog.records
    assert record.getMessage() == "violation listener failed for processor quiet"
    assert record.exc_info is not None and str(record.exc_info[1]) == "listener bug"


def test_entries_added_after_the_build_do_not_break_the_mapping(own_catalogue: Catalogue) -> None:
    """The inspector maps a running agent's processors back to the design while the user edits it."""
    design = AgentDesign(input=[ChainEntry(type="Polite")])
    agent = build_agent(design, catalogue=own_catalogue)
    design.input.append(ChainEntry(type="Quiet"))
    assert processor_entries(design, agent) == {"polite": design.input[0]}


def test_a_tool_file_name_that_cannot_be_resolved_is_refused(tools: Path) -> None:
    with pytest.raises(DesignError) as caught:
        tool_file("a\x00.py:f", "a\x00.py", tools)
    assert caught.value.message == "Tool 'a\x00.py:f': cannot resolve 'a\x00.py': embedded null byte"
    assert caught.value.path == "tools"


def test_without_a_folder_the_users_tools_folder_is_used() -> None:
    from studio.system.paths import tools_folder

    (tools_folder() / "mine.py").write_text(ECHO_FILE, encoding="utf-8")  # the test's private data folder
    assert resolve_tool("mine.py:echo").name == "echo"
    names, problems = available_tools()
    assert names[len(DEMO_TOOLS) :] == ["mine.py:echo"] and problems == []


def test_invalid_options_list_every_problem_as_the_form_names_them() -> None:
    entry = ChainEntry(uid="u", type="PIIDetector", options={"threshold": 5, "detection_types": '["email"'})
    with pytest.raises(DesignError) as caught:
        build_processor(load_catalogue(), "input", 0, entry)
    assert caught.value.message == (
        "Input chain, #1 (PIIDetector): Invalid options for PIIDetector: threshold: Input should be less than or equal "
        "to 1; detection_types: Not valid JSON: Expecting ',' delimiter: line 1 column 9 (char 8)"
    )
    assert (caught.value.path, caught.value.lane, caught.value.index, caught.value.uid) == ("input[0]", "input", 0, "u")


def test_a_tool_file_that_fails_to_import_is_refused_for_the_tools(tools: Path) -> None:
    (tools / "broken.py").write_text("def oops(:\n", encoding="utf-8")
    with pytest.raises(DesignError) as caught:
        resolve_tool("broken.py:oops", tool_folder=tools)
    assert caught.value.message.startswith("Tool 'broken.py:oops': cannot import broken.py: SyntaxError: ")
    assert caught.value.path == "tools"


def test_reuse_reads_options_by_value_whatever_their_order_or_type() -> None:
    from processors.memory import InMemoryMemory

    catalogue = load_catalogue()
    entry = ChainEntry(type="PIIDetector", options={"strategy": "block", "detection_types": {"email"}})
    design = AgentDesign(input=[entry])
    kept: dict[tuple[str, ...], Any] = {}
    memory = InMemoryMemory()
    first = build_agent(design, catalogue=catalogue, reuse=kept, memory=memory)
    entry.options = {"detection_types": {"email"}, "strategy": "block"}  # the same options, written the other way
    second = build_agent(design, catalogue=catalogue, reuse=kept)
    assert second.input_processors[0] is first.input_processors[0]  # type: ignore[index]
    assert first.memory is memory and second.memory is None
