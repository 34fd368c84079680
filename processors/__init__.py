"""Processor Studio's runtime: Mastra's Processor pipeline and agentic loop, in pure Python.

from processors import Agent, Processor
from processors.models import ScriptedModel

agent = Agent(id="demo", model=ScriptedModel(["Hello!"]), input_processors=[...])
result = await agent.generate("hi")
"""

from __future__ import annotations

from processors.agent import Agent
from processors.chunks import AnyChunk, Chunk, DataChunk
from processors.context import RequestContext, StreamWriter
from processors.errors import (
    ModelAdapterError,
    ModelAPIError,
    ProcessorContractError,
    ProcessorError,
    ProcessorLaneWarning,
    ProcessorRaisedError,
    ProcessorsError,
    ToolArgumentsError,
    ToolError,
)
from processors.loop.stream import AgentStream
from processors.messages import Message
from processors.messages.message_list import MessageList
from processors.pipeline.processor import (
    HOOKS,
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
from processors.result import GenerateResult, Step
from processors.tools import Tool, tool
from processors.tracing import RecordingTracer, TraceEvent, Tracer
from processors.tripwire import TripWire, TripwireData, Violation
from processors.usage import Usage

__all__ = [
    "HOOKS",
    "Agent",
    "AgentStream",
    "AnyChunk",
    "Chunk",
    "DataChunk",
    "GenerateResult",
    "Message",
    "MessageList",
    "ModelAPIError",
    "ModelAdapterError",
    "ProcessAPIErrorArgs",
    "ProcessInputArgs",
    "ProcessInputStepArgs",
    "ProcessLLMRequestArgs",
    "ProcessLLMResponseArgs",
    "ProcessOutputResultArgs",
    "ProcessOutputStepArgs",
    "ProcessOutputStreamArgs",
    "ProcessToolResultArgs",
    "Processor",
    "ProcessorContractError",
    "ProcessorError",
    "ProcessorLaneWarning",
    "ProcessorRaisedError",
    "ProcessorsError",
    "RecordingTracer",
    "RequestContext",
    "Step",
    "StreamWriter",
    "Tool",
    "ToolArgumentsError",
    "ToolError",
    "TraceEvent",
    "Tracer",
    "TripWire",
    "TripwireData",
    "Usage",
    "Violation",
    "tool",
]
