"""``processor-studio lab`` with a design whose tools come from an MCP server: a real subprocess, the MCP test server
run by the SDK, litellm over HTTP to the local OpenAI-compatible server.

A stdio server runs a program, so the command starts it only once allowed (in the studio, or ``--allow-mcp NAME``);
otherwise it exits 2 naming the server, its command line and both ways to allow it, and nothing runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.design.agent_design import McpServerConfig
from studio.mcp.approvals import CommandApprovals
from studio.system.paths import data_dir
from tests.studio.lab.test_cli import lab
from tests.support.mcp_lab import ToolCallingServer, corpus, corpus_file, mcp_design, new_tag, server_pids, tools_server


def design_file(tmp_path: Path, base_url: str, *servers: McpServerConfig) -> Path:
    path = tmp_path / "design.json"
    path.write_text(mcp_design(base_url, *servers).to_json(), encoding="utf-8")
    return path


def outcomes(report: Path) -> dict[str, str]:
    return {case["id"]: case["outcome"] for case in json.loads(report.read_text(encoding="utf-8"))["cases"]}


@pytest.mark.timeout(300)  # three runs of the command, one with two cold worker processes
def test_an_unallowed_stdio_server_stops_the_command_and_allowing_it_runs_the_designs_tools(tmp_path: Path) -> None:
    tag = new_tag()
    config = tools_server(tag)
    cases = corpus_file(tmp_path / "cases.jsonl", corpus(6))
    with ToolCallingServer() as server:
        design = design_file(tmp_path, server.base_url, config)

        refused = lab(design, "--corpus", cases, "--mode", "model", "--json", tmp_path / "refused.json")
        assert refused.returncode == 2
        assert f"MCP server 'test-tools' runs a program on this computer: {config.command_line()}" in refused.stderr
        assert "pass --allow-mcp test-tools to run it for this command, or allow it in the studio" in refused.stderr
        assert server.requests == [] and not (tmp_path / "refused.json").exists()

        allowed = lab(
            design, "--corpus", cases, "--mode", "model", "--allow-mcp", "test-tools", "--processes", "2",
            "--json", tmp_path / "two.json",
        )  # fmt: skip
        assert allowed.returncode == 0, allowed.stderr

        CommandApprovals(data_dir() / "mcp_commands.json").approve(config)  # as the studio's dialog does
        approved = lab(design, "--corpus", cases, "--mode", "model", "--json", tmp_path / "one.json")
        assert approved.returncode == 0, approved.stderr

    expected = {c.id: "blocked" if c.id.startswith("page") else "passed" for c in corpus(6)}
    assert outcomes(tmp_path / "two.json") == outcomes(tmp_path / "one.json") == expected
    assert server_pids(tag) == []  # every server the command started stopped with it


def test_guardrails_mode_starts_no_server_and_says_so(tmp_path: Path) -> None:
    tag = new_tag()
    cases = corpus_file(tmp_path / "cases.jsonl", corpus(3))
    with ToolCallingServer() as server:
        out = lab(design_file(tmp_path, server.base_url, tools_server(tag)), "--corpus", cases)
        assert server.requests == []
    assert out.returncode == 0, out.stderr
    assert (
        "lab: guardrails mode calls none of the design's tools: its MCP servers (test-tools) are not started"
        in out.stderr
    )


def test_a_server_that_cannot_start_stops_the_command_before_its_first_case(tmp_path: Path) -> None:
    ghost = McpServerConfig(name="ghost", command="/nonexistent/mcp-server", enabled_tools=["x"])
    cases = corpus_file(tmp_path / "cases.jsonl", corpus(30))
    with ToolCallingServer() as server:
        design = design_file(tmp_path, server.base_url, ghost)
        unknown = lab(design, "--corpus", cases, "--mode", "model", "--allow-mcp", "files")
        assert unknown.returncode == 2
        assert "--allow-mcp files: the design has no stdio MCP server of that name (it has: ghost)" in unknown.stderr

        out = lab(
            design, "--corpus", cases, "--mode", "model", "--allow-mcp", "ghost",
            "--results", tmp_path / "results.jsonl", "--json", tmp_path / "lab.json",
        )  # fmt: skip
        assert server.requests == []
    assert out.returncode == 2
    assert (
        out.stderr.strip()
        .splitlines()[-1]
        .startswith("processor-studio lab: error: MCP server 'ghost' (/nonexistent/mcp-server) could not be started")
    )
    assert not (tmp_path / "lab.json").exists()
    assert not (tmp_path / "results.jsonl").exists()  # the servers start before the results file is opened
