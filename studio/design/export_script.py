"""The fixed parts of an exported script (:mod:`studio.design.export`): helpers that load user files, the chat loop on
standard input, and the MCP servers' start-up; ``_Script`` adds them as the design needs them.
"""

from __future__ import annotations

__all__ = ["AS_TOOL", "BUILD_LOCALS", "CHAT", "LOAD_FROM_FILE", "OPEN_MCP_TOOLS"]

LOAD_FROM_FILE = '''
def load_from_file(path: Path, name: str) -> Any:
    """Import ``name`` from a Python file by its path (user processor and tool files are not packages)."""
    spec = importlib.util.spec_from_file_location(f"exported_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return getattr(module, name)
'''

AS_TOOL = '''
def as_tool(found: Any) -> Tool:
    """A ``@tool`` object as it is; a plain function wrapped with ``tool``."""
    return found if isinstance(found, Tool) else tool(found)
'''

CHAT = '''
async def chat(agent: Agent) -> None:
    """Answer each line read from standard input, streaming the reply to standard output."""
    loop = asyncio.get_running_loop()
    while True:
        if sys.stdin.isatty():
            print("> ", end="", flush=True)
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        if not line.strip():
            continue
        stream = agent.stream(line.strip())
        async for chunk in stream:
            match chunk:
                case TextDeltaChunk():
                    print(chunk.payload.text, end="", flush=True)
                case ToolCallChunk():
                    print(f"[tool {chunk.payload.tool_name}({chunk.payload.args})]", flush=True)
                case TripwireChunk():
                    print(f"[blocked by {chunk.payload.processor_id}: {chunk.payload.reason}]", flush=True)
                case ErrorChunk():
                    print(f"[error: {chunk.payload.error}]", flush=True)
        print(flush=True)


def main() -> None:
    try:
        asyncio.run(chat(build_agent()))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
'''

#: Local names of ``build_agent()`` that a renamed processor's variable must not take.
BUILD_LOCALS = frozenset({"model", "tools", "mcp_tools", "input_processors", "output_processors", "error_processors"})

OPEN_MCP_TOOLS = '''
async def open_mcp_tools(stack: contextlib.AsyncExitStack) -> list[Tool]:
    """Start the MCP servers (each stops when ``stack`` closes) and return the tools the design enables."""
    tools: list[Tool] = []
    for server, enabled in MCP_SERVERS:
        source = await stack.enter_async_context(McpToolSource(server))
        offered = {found.name: found for found in source.tools}
        missing = [name for name in enabled if name not in offered]
        if missing:
            raise SystemExit(f"MCP server {server.name!r} does not offer {', '.join(missing)}")
        tools.extend(offered[name] for name in enabled)
    return tools


async def chat_with_mcp() -> None:
    async with contextlib.AsyncExitStack() as stack:
        await chat(build_agent(await open_mcp_tools(stack)))
'''
