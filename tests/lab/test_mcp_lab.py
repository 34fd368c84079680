"""Lab runs of a design whose tools come from an MCP server: the engine starts the design's servers once per lab
process (in this process, or in each of 2 workers) and stops them when the run ends or is cancelled, leaving no
process behind; a server that cannot start stops the run before its first case; one that crashes makes the cases it
failed errors naming it and is started again for the next; model and replay runs give the same verdicts.

Everything is real: the MCP test server (tests/support/mcp_server.py) run by the SDK as a subprocess, litellm over
HTTP to the local OpenAI-compatible server, spawned worker processes."""

from __future__ import annotations

import asyncio
import base64
import sys
from pathlib import Path
from typing import Any

import pytest

from lab.corpus import Case
from lab.process_run import ProcessLabRun, open_run
from lab.results import read_results
from lab.runner import LabError, LabRun
from processors.builtin.registry import load_catalogue
from processors.models.recording import Recording
from studio.design.agent_design import McpServerConfig
from studio.lab.design import MAX_RESTARTS, agent_recipe, needs_mcp_servers
from tests.support.mcp_lab import (
    SERVER,
    SUMMARY,
    ToolCallingServer,
    alive,
    case,
    corpus,
    mcp_design,
    new_tag,
    server_pids,
    tools_server,
)


def recipe(design: Any) -> Any:
    return agent_recipe(design, catalogue=load_catalogue(), api_key="sk-lab-test", mcp_credentials={})


def tool_results(result: Any) -> list[Any]:
    """What the case's MCP tools returned, as the lab recorded it."""
    assert result.recording is not None, result
    return [call.result for call in Recording.from_bytes(base64.b64decode(result.recording)).tool_calls]


async def drain(run: LabRun, tag: str) -> set[int]:
    """Run to the end; the MCP server processes seen while results came in."""
    seen: set[int] = set()
    async for _ in run.results():
        seen.update(server_pids(tag))
    return seen


def verdicts(run: LabRun) -> dict[str, tuple[str, list[str]]]:
    return {result.id: (result.outcome, result.tripped) for result in run.results_in_order()}


@pytest.mark.timeout(300)  # cold workers on a loaded machine: litellm and the SDK imported in each
@pytest.mark.parametrize("processes", [1, 2])
async def test_a_model_run_starts_the_designs_servers_once_per_process_and_stops_them_at_its_end(
    processes: int,
) -> None:
    tag = new_tag()
    cases = corpus(9)
    with ToolCallingServer() as server:
        design = mcp_design(server.base_url, tools_server(tag))
        run = open_run(cases, recipe(design), processes=processes, mode="model", concurrency=4)
        seen = await drain(run, tag)

    assert isinstance(run, ProcessLabRun) == (processes == 2)
    expected = {
        c.id: (("blocked", ["prompt-injection-detector"]) if c.id.startswith("page") else ("passed", [])) for c in cases
    }
    assert verdicts(run) == expected  # the injection came from the MCP tool and the output guard caught it
    answered = {tool_results(run.finished[c.id])[0] for c in cases if c.id.startswith("pid")}
    assert len(seen) == processes  # one server per lab process for the whole run, not one per case
    assert answered <= seen
    assert all(run.finished[c.id].reply == SUMMARY for c in cases if c.id.startswith("pid"))
    assert server_pids(tag) == []
    assert not any(alive(pid) for pid in seen)  # stopped and reaped: no zombie either
    if isinstance(run, ProcessLabRun):
        assert not any(alive(pid) for pid in run.pids)


def test_only_the_modes_that_may_call_a_tool_start_the_servers() -> None:
    design = mcp_design("http://127.0.0.1:9/v1", tools_server("tag"))
    assert [mode for mode in ("guardrails", "model", "replay") if needs_mcp_servers(design, mode)] == [
        "model",
        "replay",
    ]  # guardrails mode answers with a fixed reply: no tool of the design is ever called
    idle = design.model_copy(update={"mcp_servers": [tools_server("tag").model_copy(update={"enabled_tools": []})]})
    assert not needs_mcp_servers(idle, "model")


@pytest.mark.parametrize("processes", [1, 2])
async def test_a_server_that_cannot_start_stops_the_run_before_its_first_case(processes: int, tmp_path: Path) -> None:
    ghost = McpServerConfig(name="ghost", command="/nonexistent/mcp-server", enabled_tools=["x"])
    results = tmp_path / "results.jsonl"
    with ToolCallingServer() as server:
        design = mcp_design(server.base_url, ghost)
        run = open_run(
            corpus(30), recipe(design), processes=processes, mode="model", concurrency=4, results_path=results
        )
        with pytest.raises(LabError, match=r"MCP server 'ghost' \(/nonexistent/mcp-server\) could not be started"):
            async for _ in run.results():
                pass
        assert server.requests == []
    assert run.done == 0
    assert read_results(results)[1] == {}


async def test_a_tool_the_server_does_not_offer_stops_the_run_before_its_first_case() -> None:
    tag = new_tag()
    with ToolCallingServer() as server:
        config = tools_server(tag, "fetch_page", "renamed_tool")
        run = open_run(corpus(3), recipe(mcp_design(server.base_url, config)), mode="model")
        with pytest.raises(LabError, match="MCP server 'test-tools' does not offer the tool\\(s\\) renamed_tool"):
            await drain(run, tag)
    assert run.done == 0 and server_pids(tag) == []


async def test_a_crashed_server_makes_its_case_an_error_naming_it_and_the_run_goes_on_with_a_new_one() -> None:
    tag = new_tag()
    cases = [case("pid-0", "TOOL:pid"), case("crash-1", "TOOL:crash"), case("pid-2", "TOOL:pid")]
    with ToolCallingServer() as server:
        run = open_run(cases, recipe(mcp_design(server.base_url, tools_server(tag))), mode="model", concurrency=1)
        seen = await drain(run, tag)
    first, crashed, after = run.results_in_order()
    assert (first.outcome, after.outcome) == ("passed", "passed")
    assert crashed.outcome == "error"
    assert crashed.reason == crashed.error
    assert crashed.reason is not None and crashed.reason.startswith(
        "the tool's MCP server failed during this case: MCP server 'test-tools', tool 'crash': "
    )
    assert crashed.recording is None  # an answer made with a broken tool is not replayed
    assert tool_results(after) != tool_results(first)  # a fresh server process answered the next case
    assert set(tool_results(first) + tool_results(after)) <= seen
    assert not any(alive(pid) for pid in seen)


RESTART_ONCE = """
import os, runpy, sys
marker, server, tag = sys.argv[1:4]
if os.path.exists(marker):
    sys.exit("this server starts only once")
open(marker, "w").close()
sys.argv = [server, "stdio", tag]
runpy.run_path(server, run_name="__main__")
"""


async def test_a_server_that_does_not_start_again_after_a_crash_stops_the_run_naming_it(tmp_path: Path) -> None:
    tag = new_tag()
    once = McpServerConfig(
        name="once",
        command=sys.executable,
        args=["-c", RESTART_ONCE, str(tmp_path / "started"), SERVER, tag],
        enabled_tools=["pid", "crash"],
    )
    cases = [case("pid-0", "TOOL:pid"), case("crash-1", "TOOL:crash"), case("pid-2", "TOOL:pid"), case("p-3", "hi")]
    with ToolCallingServer() as server:
        run = open_run(cases, recipe(mcp_design(server.base_url, once)), mode="model", concurrency=1)
        with pytest.raises(LabError, match=r"(?s)MCP server 'once' \(.*\) could not be started: .*did not start again"):
            await drain(run, tag)
    assert [(result.id, result.outcome) for result in run.results_in_order()] == [
        ("pid-0", "passed"),
        ("crash-1", "error"),
    ]  # the rest did not run: not two more errors
    assert server_pids(tag) == []


@pytest.mark.timeout(300)  # a server start and a crash per case
async def test_a_server_crashing_on_every_case_stops_the_run_after_its_restarts() -> None:
    tag = new_tag()
    cases = [case(f"crash-{n}", "TOOL:crash") for n in range(MAX_RESTARTS + 3)]
    with ToolCallingServer() as server:
        run = open_run(cases, recipe(mcp_design(server.base_url, tools_server(tag))), mode="model", concurrency=1)
        with pytest.raises(LabError, match=f"MCP server 'test-tools' stopped again after {MAX_RESTARTS} restarts"):
            await drain(run, tag)
    assert [result.outcome for result in run.results_in_order()] == ["error"] * (MAX_RESTARTS + 1)
    assert server_pids(tag) == []


@pytest.mark.timeout(300)
async def test_a_cancelled_run_in_two_workers_leaves_no_server_and_no_worker() -> None:
    tag = new_tag()
    cases = [case(f"hang-{n}", "TOOL:hang") for n in range(8)]
    with ToolCallingServer() as server:
        design = mcp_design(server.base_url, tools_server(tag, "hang"))
        run = ProcessLabRun(cases, recipe(design), processes=2, mode="model", concurrency=4)
        seen: set[int] = set()

        async def watch() -> None:
            async for _ in run.results():
                pass

        task = asyncio.ensure_future(watch())
        # every case in flight has called the hanging tool: both workers' servers are up and busy
        assert await server.async_wait_until(lambda s: len(s.requests) >= 4, within=240)
        seen.update(server_pids(tag))
        run.cancel()
        await task
    assert len(seen) == 2
    assert run.done == 0
    assert not any(alive(pid) for pid in seen)
    assert not any(alive(pid) for pid in run.pids)


@pytest.mark.timeout(300)
async def test_model_and_replay_runs_give_the_same_verdicts_in_this_process_and_in_two_workers(
    tmp_path: Path,
) -> None:
    tag = new_tag()
    cases: list[Case] = corpus(12)
    results = tmp_path / "model.jsonl"
    with ToolCallingServer() as server:
        design = mcp_design(server.base_url, tools_server(tag))
        model = open_run(cases, recipe(design), mode="model", concurrency=4, results_path=results)
        await drain(model, tag)
        again = open_run(cases, recipe(design), processes=2, mode="model", concurrency=4)
        await drain(again, tag)
        calls = len(server.requests)
        recordings = {key: r.recording for key, r in read_results(results)[1].items() if r.recording}
        replay = open_run(cases, recipe(design), processes=2, mode="replay", concurrency=4, recordings=recordings)
        await drain(replay, tag)
        assert len(server.requests) == calls  # the replay called no model
    assert verdicts(model) == verdicts(again) == verdicts(replay)
    assert {outcome for outcome, _ in verdicts(model).values()} == {"blocked", "passed"}
    assert server_pids(tag) == []
