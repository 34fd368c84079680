"""Lab runs of a design whose tools come from the MCP test server (tests/support/mcp_server.py): the design, a
corpus, and an OpenAI-compatible server whose answer depends on the request, not on the order requests arrive in
(a lab run's cases reach it concurrently, from several processes).

A case whose text holds ``TOOL:<name>`` makes the model call that MCP tool (``fetch_page`` with a URL, the others
with no arguments); once the tool's result (or error) is in the conversation the model answers ``SUMMARY``; any
other case gets ``PLAIN``. Each server process the design starts carries ``tag`` on its command line, so a test
can list every process a run started (:func:`server_pids`) and check that none is left (:func:`alive`).
"""

from __future__ import annotations

import json
import os
import re
import sys
import uuid
from pathlib import Path
from typing import Any

from lab.corpus import Case
from studio.design.agent_design import AgentDesign, ChainEntry, McpServerConfig, ModelConfig
from tests.support.openai_server import OpenAIServer, Reply, StreamReply, ToolCallReply

SERVER = str(Path(__file__).parent / "mcp_server.py")
SUMMARY = "Here is what the tool said."
PLAIN = "Sure, happy to help."
TOOLS = ("fetch_page", "pid", "crash", "add")


class ToolCallingServer(OpenAIServer):
    """Answers each request from what it asks (see the module docstring); scripted replies queued with
    :meth:`reply` still come first."""

    def _record(self, body: dict[str, Any], headers: dict[str, str]) -> Reply | None:
        queued = super()._record(body, headers)
        if queued is not None:
            return queued
        messages = body.get("messages", [])
        if messages and messages[-1].get("role") == "tool":
            return StreamReply(content=(SUMMARY,))
        user = next((m for m in reversed(messages) if m.get("role") == "user"), {})
        content = user.get("content")
        text = content if isinstance(content, str) else json.dumps(content)
        wanted = re.search(r"TOOL:(\w+)", text)
        if wanted is None:
            return StreamReply(content=(PLAIN,))
        name = wanted.group(1)
        arguments = '{"url": "https://example.com"}' if name == "fetch_page" else "{}"
        return StreamReply(tool_calls=(ToolCallReply(name, arguments),))


def new_tag() -> str:
    return f"lab-mcp-{uuid.uuid4().hex[:12]}"


def tools_server(tag: str, *enabled: str, name: str = "test-tools") -> McpServerConfig:
    return McpServerConfig(
        name=name, command=sys.executable, args=[SERVER, "stdio", tag], enabled_tools=list(enabled or TOOLS)
    )


def mcp_design(base_url: str, *servers: McpServerConfig, guard: bool = True) -> AgentDesign:
    """A design whose only tools are its MCP servers', with an output guard that blocks an injected tool result."""
    return AgentDesign(
        name="MCP lab agent",
        instructions="Help, using the tools.",
        model=ModelConfig(model="openai/lab-model", api_base=base_url),
        mcp_servers=list(servers),
        output=[ChainEntry(type="PromptInjectionDetector", options={"strategy": "block"})] if guard else [],
    )


def case(case_id: str, text: str, label: str = "benign") -> Case:
    return Case(id=case_id, text=text, label=label, category="indirect" if "fetch_page" in text else "plain")


def corpus(count: int = 8) -> list[Case]:
    """Pages with an injection (attacks, caught only once the tool ran), the server's pid, plain questions."""
    kinds = [
        ("page", "Summarise TOOL:fetch_page for me", "attack"),
        ("pid", "Which process? TOOL:pid", "benign"),
        ("plain", "What are your opening hours?", "benign"),
    ]
    return [case(f"{kinds[n % 3][0]}-{n}", kinds[n % 3][1], kinds[n % 3][2]) for n in range(count)]


def corpus_file(path: Path, cases: list[Case]) -> Path:
    path.write_text("".join(json.dumps(c.to_dict()) + "\n" for c in cases), encoding="utf-8")
    return path


def server_pids(tag: str) -> list[int]:
    """The processes now running whose command line carries ``tag`` (the MCP servers a run started)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                cmdline = file.read()
        except OSError:
            continue
        if tag.encode() in cmdline:
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is still a process (a zombie, exited and not reaped, counts: it is left behind)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            stat.read()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return True
