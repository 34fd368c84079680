"""design_hints: when a design's tools return text no prompt-injection detector checks, and the entry that fixes it."""

from __future__ import annotations

import pytest

from studio.design.agent_design import AgentDesign, ChainEntry, McpServerConfig
from studio.design.sample import sample_design
from studio.models.design_hints import has_tools, output_guard_for, tool_results_unchecked

DETECTOR = "PromptInjectionDetector"


def design(
    *,
    tools: list[str] | None = None,
    mcp_tools: list[str] | None = None,
    input_detector: ChainEntry | None = None,
    output: list[ChainEntry] | None = None,
) -> AgentDesign:
    servers = [] if mcp_tools is None else [McpServerConfig(name="docs", command="mcp-docs", enabled_tools=mcp_tools)]
    return AgentDesign(
        tools=tools or [],
        mcp_servers=servers,
        input=[ChainEntry(type="UnicodeNormalizer")] + ([input_detector] if input_detector else []),
        output=output or [],
    )


GUARD = ChainEntry(type=DETECTOR, options={"strategy": "warn", "threshold": 0.6})


def test_tools_and_a_detector_only_in_the_input_lane_leave_tool_results_unchecked() -> None:
    assert tool_results_unchecked(design(tools=["get_weather"], input_detector=GUARD))
    assert tool_results_unchecked(design(mcp_tools=["search"], input_detector=GUARD))


@pytest.mark.parametrize(
    "case",
    [
        design(input_detector=GUARD),  # no tools
        design(mcp_tools=[], input_detector=GUARD),  # an MCP server with no tool enabled gives the agent none
        design(tools=["get_weather"]),  # no detector at all: not this hint's business
        design(tools=["get_weather"], input_detector=GUARD.model_copy(update={"enabled": False})),
        design(tools=["get_weather"], input_detector=GUARD, output=[ChainEntry(type=DETECTOR)]),
        design(
            tools=["get_weather"],
            input_detector=GUARD,
            output=[ChainEntry(type=DETECTOR, options={"check_tool_results": True})],
        ),
        sample_design(),
    ],
    ids=["no-tools", "mcp-none-enabled", "no-detector", "input-disabled", "output-default", "output-checks", "sample"],
)
def test_no_hint_when_tool_results_are_checked_or_nothing_asks_for_it(case: AgentDesign) -> None:
    assert not tool_results_unchecked(case)


@pytest.mark.parametrize(
    "output",
    [
        [ChainEntry(type=DETECTOR, enabled=False)],
        [ChainEntry(type=DETECTOR, options={"check_tool_results": False})],
        [ChainEntry(type="PIIDetector")],
    ],
    ids=["disabled", "not-checking-tools", "another-processor"],
)
def test_an_output_lane_that_does_not_check_tool_results_still_gets_the_hint(output: list[ChainEntry]) -> None:
    assert tool_results_unchecked(design(tools=["get_weather"], input_detector=GUARD, output=output))


def test_has_tools_counts_own_tools_and_enabled_mcp_tools_only() -> None:
    assert (has_tools(design(tools=["a"])), has_tools(design(mcp_tools=["b"])), has_tools(design(mcp_tools=[]))) == (
        True,
        True,
        False,
    )


def test_the_fix_copies_the_input_detectors_options_and_checks_tool_results() -> None:
    entry = output_guard_for(design(tools=["get_weather"], input_detector=GUARD))
    assert (entry.type, entry.options, entry.enabled) == (
        DETECTOR,
        {"strategy": "warn", "threshold": 0.6, "check_tool_results": True},
        True,
    )
    assert entry.uid != GUARD.uid
    assert GUARD.options == {"strategy": "warn", "threshold": 0.6}  # the input entry is not touched
