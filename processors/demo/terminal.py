"""A terminal demo: an offline agent with guardrails streams its replies as you type.

``python -m processors.demo`` (what ``./scripts/run`` starts until the studio lands). Type a message; try one
containing "password" to trip the input guardrail. ``--model openai/gpt-4o-mini`` uses a real model through
litellm (its API key from the provider's usual environment variable).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import Any

from processors import Agent, ProcessInputArgs, Processor, ProcessOutputStreamArgs, tool
from processors.chunks import ErrorChunk, TextDeltaChunk, ToolCallChunk, TripwireChunk
from processors.models import ScriptedModel, Turn


class BlockPasswords(Processor):
    """Refuses input that mentions a password (the demo's tripwire)."""

    id = "block-passwords"

    def process_input(self, args: ProcessInputArgs) -> Any:
        if "password" in args.messages[-1].text.lower():
            args.abort("Please do not share passwords with the assistant.", metadata={"rule": "password"})
        return args.messages


class CountWords(Processor):
    """Counts streamed words in its per-run state (shown at the end)."""

    id = "count-words"

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> Any:
        match args.part:
            case TextDeltaChunk(payload=payload):
                args.state["words"] = args.state.get("words", 0) + len(payload.text.split())
        return args.part


@tool
def get_time(city: str) -> str:
    """Tell the local time in a city.

    Args:
        city: The city's name.
    """
    return f"It is 12:00 in {city}."


def demo_model() -> ScriptedModel:
    def answer(request: Any) -> str | Turn:
        last = next((m for m in reversed(request.messages) if m["role"] in ("user", "tool")), {"content": ""})
        if last["role"] == "tool":
            return f"The tool says: {last['content']}"
        text = str(last.get("content") or "")
        if "time" in text.lower():
            from processors.models import ToolCall

            return Turn(tool_calls=[ToolCall("get_time", {"city": "Paris"})])
        return f"You said: {text}. (This is the offline demo model; ask for the time to see a tool call.)"

    return ScriptedModel([answer], repeat=True, model_id="demo")


async def chat(model: Any) -> None:
    agent = Agent(
        id="demo",
        instructions="You are a helpful assistant.",
        model=model,
        tools=[get_time],
        input_processors=[BlockPasswords()],
        output_processors=[CountWords()],
    )
    print("Processor Studio demo — type a message (Ctrl-D to quit).")
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        stream = agent.stream(line.strip())
        async for chunk in stream:
            match chunk:
                case TextDeltaChunk(payload=payload):
                    print(payload.text, end="", flush=True)
                case ToolCallChunk(payload=payload):
                    print(f"[tool {payload.tool_name}({payload.args})]", flush=True)
                case TripwireChunk(payload=payload):
                    print(f"[blocked by {payload.processor_id}: {payload.reason}]")
                case ErrorChunk(payload=payload):
                    print(f"[error: {payload.error}]")
        result = await stream.result()
        print(f"\n({result.finish_reason}; {result.usage.total_tokens} tokens)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a litellm model id, e.g. openai/gpt-4o-mini (default: offline demo)")
    options = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(chat(options.model or demo_model()))


if __name__ == "__main__":
    main()
