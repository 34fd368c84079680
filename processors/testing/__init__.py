"""A test kit for your own processors: the offline model, and a processor that records every hook call.

from processors import Agent
from processors.testing import RecordingProcessor, ScriptedModel, Turn, ToolCall

async def test_my_guardrail():
    model = ScriptedModel(["Hello!"])
    recorder = RecordingProcessor()
    agent = Agent(id="t", model=model, input_processors=[MyGuardrail()], output_processors=[recorder])
    result = await agent.generate("hi")
    assert model.requests[0].messages[-1] == {"role": "user", "content": "hi"}
    assert recorder.hooks() == ["process_output_stream", ..., "process_output_result"]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from processors.errors import ModelAPIError
from processors.models.recording import Recording, RecordingModel, ReplayModel, record_tools, replay_tools
from processors.models.scripted import ScriptedModel, ToolCall, Turn
from processors.pipeline.processor import (
    ProcessAPIErrorArgs,
    ProcessInputArgs,
    ProcessInputStepArgs,
    ProcessLLMRequestArgs,
    ProcessLLMResponseArgs,
    Processor,
    ProcessOutputResultArgs,
    ProcessOutputStepArgs,
    ProcessOutputStreamArgs,
    ProcessToolResultArgs,
)

__all__ = [
    "ModelAPIError",
    "RecordedCall",
    "Recording",
    "RecordingModel",
    "RecordingProcessor",
    "ReplayModel",
    "ScriptedModel",
    "ToolCall",
    "Turn",
    "record_tools",
    "replay_tools",
]


@dataclass
class RecordedCall:
    """One hook call as the recorder saw it: the hook, the step, and a few telling values."""

    hook: str
    step_number: int | None = None
    detail: dict[str, Any] = field(default_factory=dict)


class RecordingProcessor(Processor):
    """Implements all nine hooks, changes nothing, and records each call in ``calls``.

    Put it in whichever lanes you want to observe (the same instance may sit in several); it only runs the
    hooks of the lane it is in, so its other hooks sitting idle is expected (no ``ProcessorLaneWarning``).
    """

    warn_unreachable_hooks = False

    def __init__(self, id: str = "recorder", *, process_data_parts: bool = True) -> None:
        self.id = id
        self.process_data_parts = process_data_parts
        self.calls: list[RecordedCall] = []

    def hooks(self) -> list[str]:
        """The hooks called, in order, with consecutive repeats of the stream hook collapsed to one."""
        names: list[str] = []
        for call in self.calls:
            if not (names and names[-1] == call.hook == "process_output_stream"):
                names.append(call.hook)
        return names

    def process_input(self, args: ProcessInputArgs) -> Any:
        self.calls.append(RecordedCall("process_input", None, {"texts": [m.text for m in args.messages]}))
        return args.message_list

    def process_input_step(self, args: ProcessInputStepArgs) -> Any:
        self.calls.append(RecordedCall("process_input_step", args.step_number, {"retry_count": args.retry_count}))
        return None

    def process_llm_request(self, args: ProcessLLMRequestArgs) -> Any:
        self.calls.append(RecordedCall("process_llm_request", args.step_number, {"prompt": list(args.prompt)}))
        return None

    def process_llm_response(self, args: ProcessLLMResponseArgs) -> Any:
        detail = {"chunks": len(args.chunks), "from_cache": args.from_cache}
        self.calls.append(RecordedCall("process_llm_response", args.step_number, detail))
        return None

    def process_api_error(self, args: ProcessAPIErrorArgs) -> Any:
        self.calls.append(RecordedCall("process_api_error", args.step_number, {"error": str(args.error)}))
        return None

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> Any:
        self.calls.append(RecordedCall("process_output_stream", None, {"type": args.part.type}))
        return args.part

    def process_output_step(self, args: ProcessOutputStepArgs) -> Any:
        detail = {"text": args.text, "finish_reason": args.finish_reason, "retry_count": args.retry_count}
        self.calls.append(RecordedCall("process_output_step", args.step_number, detail))
        return args.message_list

    def process_tool_result(self, args: ProcessToolResultArgs) -> Any:
        detail = {"tool_name": args.tool_name, "result": args.result}
        self.calls.append(RecordedCall("process_tool_result", args.step_number, detail))
        return None

    def process_output_result(self, args: ProcessOutputResultArgs) -> Any:
        self.calls.append(RecordedCall("process_output_result", None, {"text": args.result.text}))
        return args.message_list
