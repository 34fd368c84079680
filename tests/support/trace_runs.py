"""Real agent runs recorded for the inspector's tests: real processors, a ScriptedModel and a RecordingTracer.

``full_run()`` exercises all nine hooks with every outcome but "aborted": an API error retried by an error
processor, a tool call, a stream processor that changes chunks, one that drops them, one that raises, and a
``data-*`` chunk. ``tripwire_run()`` is stopped by an input processor's abort (its ``on_violation`` reported).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from processors import Agent, ModelAPIError, Processor, RecordingTracer, TraceEvent, Violation, tool
from processors.models.scripted import ScriptedModel, ToolCall, Turn
from processors.result import GenerateResult


class InputAll(Processor):
    """Every input-lane hook: changes the input (adds a system message), counts the steps it saw."""

    id = "input-all"

    def process_input(self, args: Any) -> Any:
        args.state["inputs"] = len(args.messages)
        args.message_list.add_system("Answer in English.")
        return args.message_list

    def process_input_step(self, args: Any) -> Any:
        args.state.setdefault("steps", []).append(args.step_number)

    def process_llm_request(self, args: Any) -> Any:
        args.state["prompt_size"] = len(args.prompt)

    def process_llm_response(self, args: Any) -> Any:
        args.state["chunks"] = len(args.chunks)


class Shout(Processor):
    """Upper-cases text deltas (outcome "changed")."""

    id = "shout"

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        if part.type == "text-delta":
            args.state["shouted"] = args.state.get("shouted", 0) + 1
            return part.with_payload(text=part.payload.text.upper())
        return part


class DropBad(Processor):
    """Drops the delta that says "bad" (outcome "dropped")."""

    id = "drop-bad"

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        if part.type == "text-delta" and "BAD" in part.payload.text:
            args.state["dropped"] = args.state.get("dropped", 0) + 1
            return None
        return part


class Fragile(Processor):
    """Raises on the delta that says "fine" (outcome "raised"; the chunk goes on unchanged)."""

    id = "fragile"

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type == "text-delta" and "FINE" in args.part.payload.text:
            raise ValueError("cannot handle FINE")
        return args.part


class OutputAll(Processor):
    """The other output-lane hooks; writes a ``data-progress`` chunk after each step."""

    id = "output-all"

    def process_output_step(self, args: Any) -> Any:
        args.state["steps"] = args.state.get("steps", 0) + 1
        args.writer.custom({"type": "data-progress", "data": {"step": args.step_number}, "id": f"p{args.step_number}"})

    def process_tool_result(self, args: Any) -> Any:
        args.state["tool"] = args.tool_name

    def process_output_result(self, args: Any) -> Any:
        args.state["final_text"] = args.result.text


class RetryErrors(Processor):
    id = "retry-errors"

    def process_api_error(self, args: Any) -> Any:
        args.state["retried"] = args.retry_count + 1
        return {"retry": True}


class BlockSecrets(Processor):
    """Aborts when the input mentions a secret (outcome "aborted", a tripwire ends the run)."""

    id = "block-secrets"

    def __init__(self) -> None:
        self.violations: list[Violation] = []

    def process_input(self, args: Any) -> Any:
        args.state["checked"] = True
        if "secret" in args.messages[-1].text:
            args.abort("secret in input", metadata={"word": "secret"})
        return args.messages

    def on_violation(self, violation: Violation) -> None:
        self.violations.append(violation)


@tool
def forecast(city: str) -> dict[str, Any]:
    """Forecast for a city."""
    return {"city": city, "sky": "clear"}


@dataclass
class RecordedRun:
    run_id: str
    events: list[TraceEvent]
    chunks: list[Any]
    result: GenerateResult
    violations: list[Violation] = field(default_factory=list)


async def _record(agent: Agent, message: str) -> RecordedRun:
    tracer = RecordingTracer()
    stream = agent.stream(message, tracers=[tracer])
    chunks = [chunk async for chunk in stream]
    result = await stream.result()
    return RecordedRun(result.run_id, tracer.events, chunks, result)


async def full_run() -> RecordedRun:
    model = ScriptedModel(
        [
            Turn(error=ModelAPIError(500, "x", True)),
            Turn(tool_calls=[ToolCall("forecast", {"city": "Oslo"}, id="c1")]),
            "ok bad fine",
        ]
    )
    agent = Agent(
        id="full",
        model=model,
        tools=[forecast],
        input_processors=[InputAll()],
        output_processors=[Shout(), DropBad(), Fragile(), OutputAll()],
        error_processors=[RetryErrors()],
    )
    return await _record(agent, "weather in Oslo?")


async def tripwire_run() -> RecordedRun:
    blocker = BlockSecrets()
    agent = Agent(id="guarded", model=ScriptedModel(["never"]), input_processors=[blocker])
    run = await _record(agent, "my secret is 42")
    run.violations = list(blocker.violations)
    return run
