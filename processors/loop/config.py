"""What one call runs with, after per-call overrides were applied, and the loop's constants."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from processors.context import RequestContext
from processors.memory.base import Memory
from processors.messages import new_id
from processors.models.base import LanguageModel
from processors.pipeline.debugger import Debugger
from processors.pipeline.processor import LANE_HOOKS
from processors.pipeline.run_context import Entry
from processors.tools import Tool
from processors.tracing import TraceHub

RETRY_FEEDBACK_TAG = "processor-retry-feedback"
STRUCTURED_OUTPUT_CHUNK = "data-structured-output"
#: How many retries are allowed when error processors are configured and the caller set no
#: ``max_processor_retries`` (the reference's value; Mastra 1.71's code says 3).
DEFAULT_ERROR_PROCESSOR_RETRIES = 10


def retry_feedback(reason: str) -> str:
    return (
        f"[Processor Feedback] Your previous response was not accepted: {reason}. "
        "Please try again with the feedback in mind."
    )


@dataclass
class RunConfig:
    """Everything one call runs with, after per-call overrides were applied."""

    agent_id: str
    instructions: list[str]
    model: LanguageModel | str
    tools: dict[str, Tool]
    input_entries: list[Entry]
    output_entries: list[Entry]
    error_entries: list[Entry]
    max_processor_retries: int | None
    max_steps: int
    memory: Memory | None
    thread_id: str | None
    resource_id: str | None
    request_context: RequestContext
    tracer: TraceHub
    model_settings: dict[str, Any] = field(default_factory=dict)
    provider_options: dict[str, Any] = field(default_factory=dict)
    tool_choice: Any = None
    active_tools: list[str] | None = None
    structured_output: Any = None
    context_messages: list[Any] = field(default_factory=list)
    run_id: str = field(default_factory=lambda: new_id("run"))
    #: Breakpoints for this call (``agent.stream(debugger=...)``); None costs nothing.
    debugger: Debugger | None = None
    #: The agent's display name, for traces (``gen_ai.agent.name``); empty means the id.
    agent_name: str = ""
    #: Each hook → its lane's processors that implement it, in order (a hook nobody implements costs nothing).
    hooked: dict[str, list[Entry]] = field(init=False)

    def __post_init__(self) -> None:
        lanes = {"input": self.input_entries, "output": self.output_entries, "error": self.error_entries}
        self.hooked = {
            hook: [entry for entry in lanes[lane] if hook in entry.hooks]
            for lane, hooks in LANE_HOOKS.items()
            for hook in hooks
        }


__all__ = [
    "DEFAULT_ERROR_PROCESSOR_RETRIES",
    "RETRY_FEEDBACK_TAG",
    "STRUCTURED_OUTPUT_CHUNK",
    "RunConfig",
    "retry_feedback",
]
