"""What a design leaves unguarded, read from the design alone: the hints the editor shows (no Qt here).

::

    from studio.models.design_hints import tool_results_unchecked, output_guard_for

    if tool_results_unchecked(design):          # tools, and a prompt-injection detector only in the input lane
        entry = output_guard_for(design)        # the fix: the same detector for the output lane

Why the input lane's detector is not enough: a tool's result (a web page, an e-mail, a README) reaches the model
through ``process_tool_result``, which only output processors implement (as in Mastra 1.71). An instruction hidden in
what a tool returns (indirect prompt injection) is read by the model and never by the input lane's detector.
"""

from __future__ import annotations

from studio.design.agent_design import AgentDesign, ChainEntry

__all__ = ["INJECTION_DETECTOR", "has_tools", "output_guard_for", "tool_results_unchecked"]

#: The catalogue type whose place the hint is about.
INJECTION_DETECTOR = "PromptInjectionDetector"


def has_tools(design: AgentDesign) -> bool:
    """Whether the agent gets any tool: its own, or an MCP server's enabled ones (only those are given to it)."""
    return bool(design.tools) or any(server.enabled_tools for server in design.mcp_servers)


def _detectors(chain: list[ChainEntry]) -> list[ChainEntry]:
    return [entry for entry in chain if entry.type == INJECTION_DETECTOR and entry.enabled]


def _checks_tool_results(entry: ChainEntry) -> bool:
    return entry.options.get("check_tool_results", True) is not False


def tool_results_unchecked(design: AgentDesign) -> bool:
    """True when the agent has tools and an enabled prompt-injection detector in the input lane, but none in the
    output lane that checks tool results: the user meant to guard against injection, and the tools' results are
    the one way in it leaves open. A design with no detector at all gets no hint (it guards nothing on purpose or
    by omission, and other hints are not this one's job)."""
    if not has_tools(design) or not _detectors(design.input):
        return False
    return not any(_checks_tool_results(entry) for entry in _detectors(design.output))


def output_guard_for(design: AgentDesign) -> ChainEntry:
    """A new output-lane detector with the input lane's first detector's options, checking tool results."""
    first = _detectors(design.input)[0] if _detectors(design.input) else None
    options = dict(first.options) if first is not None else {}
    options["check_tool_results"] = True
    return ChainEntry(type=INJECTION_DETECTOR, options=options)
