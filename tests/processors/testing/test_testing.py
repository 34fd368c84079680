"""The user-facing test kit: ScriptedModel re-exported and a RecordingProcessor that sees every hook in order."""

from __future__ import annotations

from processors import Agent, tool
from processors.testing import ModelAPIError, RecordingProcessor, ScriptedModel, ToolCall, Turn


@tool
def ping(host: str) -> str:
    """Ping a host.

    Args:
        host: Where to.
    """
    return f"pong from {host}"


async def test_recorder_sees_the_reference_order_across_lanes() -> None:
    model = ScriptedModel(
        [Turn(error=ModelAPIError(500, "boom", True)), Turn(tool_calls=[ToolCall("ping", {"host": "a"})]), "done"]
    )
    recorder = RecordingProcessor()
    agent = Agent(
        id="t",
        model=model,
        tools=[ping],
        input_processors=[recorder],
        output_processors=[recorder],
        error_processors=[RetryOnce()],
    )

    result = await agent.generate("go")

    assert result.text == "done"
    assert recorder.hooks() == [
        "process_input",
        "process_input_step",
        "process_llm_request",  # step 0: the model call fails
        "process_output_stream",  # its step-start chunk
        "process_input_step",
        "process_llm_request",
        "process_output_stream",
        "process_llm_response",
        "process_output_step",
        "process_output_stream",
        "process_tool_result",
        "process_output_stream",
        "process_input_step",
        "process_llm_request",
        "process_output_stream",
        "process_llm_response",
        "process_output_step",
        "process_output_stream",
        "process_output_result",
        "process_output_stream",
    ]
    tool_call = next(c for c in recorder.calls if c.hook == "process_tool_result")
    assert tool_call.detail == {"tool_name": "ping", "result": "pong from a"}


class RetryOnce:
    id = "retry-once"

    def process_api_error(self, args):  # type: ignore[no-untyped-def]
        return {"retry": args.retry_count == 0}
