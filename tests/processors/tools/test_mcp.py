"""MCP servers as tool sources, against real servers written with the SDK (tests/support/mcp_server.py): a stdio
one launched with this interpreter and a Streamable HTTP one on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from processors import Agent
from processors.builtin.prompt_injection_detector import PromptInjectionDetector
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tools.mcp import HttpServer, McpServerError, McpToolError, McpToolSource, StdioServer
from tests.support.local_servers import free_port

SERVER = str(Path(__file__).parents[2] / "support" / "mcp_server.py")


def stdio(**env: str) -> StdioServer:
    return StdioServer("test-tools", sys.executable, (SERVER, "stdio"), env=env)


@pytest.fixture(scope="module")
def http_server() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, SERVER, "http", str(port)], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        for _ in range(600):  # until it accepts connections (or has died)
            if process.poll() is not None:
                pytest.fail("the MCP test server exited")
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=0.5, trust_env=False)
                break
            except httpx.TransportError:
                with pytest.raises(subprocess.TimeoutExpired):
                    process.wait(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)


async def test_stdio_tools_come_with_their_schemas_and_answer() -> None:
    async with McpToolSource(stdio()) as source:
        tools = {tool.name: tool for tool in source.tools}
        assert set(tools) >= {"add", "fetch_page", "fail", "hang", "crash", "show_env"}
        assert tools["add"].to_openai()["function"]["parameters"]["properties"].keys() == {"a", "b"}
        assert tools["add"].to_openai()["function"]["description"] == "Add two integers."
        assert await tools["add"].call('{"a": 2, "b": 40}') == 42


async def test_stdio_env_reaches_the_server() -> None:
    async with McpToolSource(stdio(MCP_TEST_VALUE="from-the-design")) as source:
        show = next(tool for tool in source.tools if tool.name == "show_env")
        assert await show.call('{"name": "MCP_TEST_VALUE"}') == "from-the-design"


async def test_errors_time_outs_and_crashes_are_attributed_tool_errors() -> None:
    async with McpToolSource(stdio(), call_seconds=2.0) as source:
        tools = {tool.name: tool for tool in source.tools}
        with pytest.raises(McpToolError, match=r"^MCP server 'test-tools', tool 'fail': .*out of paper$"):
            await tools["fail"].call('{"message": "out of paper"}')
        with pytest.raises(McpToolError, match=r"^MCP server 'test-tools', tool 'hang': no answer within 2 s$"):
            await tools["hang"].call("{}")
        assert await tools["add"].call('{"a": 1, "b": 1}') == 2  # still usable after a time-out
        with pytest.raises(McpToolError, match=r"^MCP server 'test-tools', tool 'crash': "):
            await tools["crash"].call("{}")
        with pytest.raises(McpToolError, match=r"^MCP server 'test-tools', tool 'add': "):
            await tools["add"].call('{"a": 1, "b": 1}')  # the server is gone: an error, not a hang


async def test_a_server_that_cannot_start_is_one_clear_error() -> None:
    missing = StdioServer("ghost", "/nonexistent/mcp-server", ("--flag",))
    with pytest.raises(McpServerError, match=r"^MCP server 'ghost' \(/nonexistent/mcp-server --flag\) could not"):
        await McpToolSource(missing).__aenter__()
    exits = StdioServer("quits", sys.executable, ("-c", "pass"))
    with pytest.raises(McpServerError, match=r"^MCP server 'quits' "):
        await McpToolSource(exits, start_seconds=20).__aenter__()
    silent = StdioServer("silent", sys.executable, ("-c", "import time; time.sleep(60)"))
    with pytest.raises(McpServerError, match=r"^MCP server 'silent' .* did not start within 1 s$"):
        await McpToolSource(silent, start_seconds=1).__aenter__()


async def test_streamable_http_server_with_headers(http_server: str) -> None:
    async with McpToolSource(HttpServer("remote", http_server, {"Authorization": "Bearer test"})) as source:
        add = next(tool for tool in source.tools if tool.name == "add")
        assert await add.call('{"a": 3, "b": 4}') == 7
    with pytest.raises(McpServerError, match=r"^MCP server 'nobody' "):
        await McpToolSource(HttpServer("nobody", f"http://127.0.0.1:{free_port()}/mcp"), start_seconds=10).__aenter__()


async def test_an_injection_in_an_mcp_tool_result_is_caught_by_the_output_guard() -> None:
    async with McpToolSource(stdio()) as source:
        model = ScriptedModel(
            [
                Turn(tool_calls=[ToolCall("fetch_page", {"url": "https://example.com"}, id="c1")]),
                Turn(text="Here is the page."),
            ]
        )
        agent = Agent(
            id="a", instructions="Help.", model=model, tools=source.tools, output_processors=[PromptInjectionDetector()]
        )
        result = await agent.generate("What does example.com say?")
    assert result.tripwire is not None
    assert result.tripwire.processor_id == "prompt-injection-detector"
    assert "fetch_page" in result.tripwire.reason
    assert len(model.requests) == 1  # the model never read the injected page


async def test_bad_nested_arguments_to_an_mcp_tool_go_back_to_the_model_every_problem_named() -> None:
    """The tool's schema comes from the server; jsonschema checks all of it before the server is asked."""
    bad = {"query": "", "limit": 5000, "filter": {"state": "x"}}
    good = {"query": "crash", "limit": 5, "filter": {"owner": "ann"}}
    async with McpToolSource(stdio()) as source:
        model = ScriptedModel(
            [
                Turn(tool_calls=[ToolCall("search_issues", bad, id="c1")]),
                Turn(tool_calls=[ToolCall("search_issues", good, id="c2")]),
                Turn(text="Found them."),
            ]
        )
        agent = Agent(id="a", instructions="Help.", model=model, tools=source.tools)
        result = await agent.generate("Any crash issues of Ann's?")
    told = next(m for m in model.requests[1].messages if m["role"] == "tool")["content"]
    assert told.endswith(
        "Invalid arguments for tool 'search_issues':\n"
        "- filter.owner: Field required\n"
        "- query: '' should be non-empty\n"
        "- limit: 5000 is greater than the maximum of 100\n"
        "- filter.state: Extra inputs are not permitted"
    )
    answered = [m for m in model.requests[2].messages if m["role"] == "tool"][-1]["content"]
    assert "crash 5 ann open" in answered
    assert result.text == "Found them."
