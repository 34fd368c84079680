"""What a run produces: one :class:`Step` per model call, and the :class:`GenerateResult` of the whole call."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from processors.messages import Message
from processors.tripwire import TripwireData
from processors.usage import Usage

_WIRE = ConfigDict(
    alias_generator=to_camel, validate_by_name=True, validate_by_alias=True, arbitrary_types_allowed=True
)


class Step(BaseModel):
    """One model call of the agentic loop. A rejected (retried or tripped) step keeps its ``tripwire``."""

    model_config = _WIRE

    step_number: int
    text: str = ""
    reasoning: str = ""
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)
    tool_results: list[dict[str, Any]] = Field(default_factory=list)
    finish_reason: str = "unknown"
    usage: Usage = Field(default_factory=Usage)
    tripwire: TripwireData | None = None
    #: The text the model produced before a retry retracted it (``text`` is then empty, as in Mastra).
    rejected_text: str | None = None
    warnings: list[Any] = Field(default_factory=list)
    #: Why the model call failed, for a step an error processor retried.
    error: str | None = None
    from_cache: bool = False
    model_id: str | None = None


class OutputResult(BaseModel):
    """What ``process_output_result`` sees: the run's text, usage, finish reason and steps."""

    model_config = _WIRE

    text: str
    usage: Usage
    finish_reason: str
    steps: list[Step]


class GenerateResult(BaseModel):
    """The result of ``agent.generate()`` (and of ``await stream.result()``)."""

    model_config = _WIRE

    run_id: str
    text: str = ""
    finish_reason: str = "unknown"
    tripwire: TripwireData | None = None
    steps: list[Step] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    #: This run's response messages, as they stand after every processor ran.
    messages: list[Message] = Field(default_factory=list)
    #: A readable description of what failed, when ``finish_reason == "error"``.
    error: str | None = None
    #: Things that went wrong without ending the run (a stream processor that raised, for example).
    warnings: list[str] = Field(default_factory=list)
    thread_id: str | None = None
    resource_id: str | None = None
    object: Any = None
