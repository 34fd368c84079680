"""The ``Processor`` base, its nine hooks, and the one args object each hook receives.

A processor implements any subset of the hooks, sync or async::

    class BlockSecrets(Processor):
        id = "block-secrets"

        def process_input(self, args):
            if "secret" in args.messages[-1].text:
                args.abort("secret in input", metadata={"k": 1})
            return args.messages

Every hook gets one args object whose attributes are the snake_case of Mastra's argument names, plus the
shared ones: ``state`` (this processor's dict for this call), ``abort``, ``retry_count``, ``writer``,
``request_context``, ``abort_signal`` and ``tracing_context``. A processor need not subclass
:class:`Processor`: any object with an ``id`` and hook methods works (Mastra's interface is structural).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NoReturn

from processors.tripwire import UNNAMED_ABORT, TripWire, Violation

if TYPE_CHECKING:
    from processors.chunks import AnyChunk
    from processors.context import RequestContext, StreamWriter
    from processors.messages import Message
    from processors.messages.formats import CoreMessage
    from processors.messages.message_list import MessageList
    from processors.models.base import LanguageModel
    from processors.result import OutputResult, Step
    from processors.usage import Usage

HOOKS: tuple[str, ...] = (
    "process_input",
    "process_input_step",
    "process_llm_request",
    "process_llm_response",
    "process_api_error",
    "process_output_stream",
    "process_output_step",
    "process_tool_result",
    "process_output_result",
)

Lane = Literal["input", "output", "error"]

#: Which hooks run from which lane (Mastra 1.71: LLM request/response hooks belong to input processors,
#: tool results to output processors, API errors to error processors).
LANE_HOOKS: dict[Lane, tuple[str, ...]] = {
    "input": ("process_input", "process_input_step", "process_llm_request", "process_llm_response"),
    "output": ("process_output_stream", "process_output_step", "process_tool_result", "process_output_result"),
    "error": ("process_api_error",),
}


class Processor:
    """Base class for processors. Subclasses set ``id`` and implement hooks; everything else is optional.

    ``process_data_parts``: when True, ``process_output_stream`` also receives ``data-*`` chunks.
    ``processor_index`` is set by the runtime to the processor's position in its lane for the run.
    ``on_violation(violation)`` is called whenever one of this processor's hooks aborts; errors it raises
    are swallowed so a broken alert cannot break the guardrail.
    """

    id: str = ""
    name: str | None = None
    description: str | None = None
    process_data_parts: bool = False
    processor_index: int | None = None
    #: False for processors made to sit in any lane with every hook (the test kit's recorder): no
    #: :class:`~processors.errors.ProcessorLaneWarning` that one of their hooks is never called where they are.
    warn_unreachable_hooks: ClassVar[bool] = True

    def on_violation(self, violation: Violation) -> Any:
        """Override (or assign a callable) to be told about aborts: alerts, audit logs, e-mails."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.id!r})"


def processor_id(processor: Any) -> str:
    value = getattr(processor, "id", None)
    if not isinstance(value, str) or not value:
        raise TypeError(f"{processor!r} has no 'id': every processor needs a non-empty string id")
    return value


def implemented_hooks(processor: Any) -> tuple[str, ...]:
    """The hooks this processor really implements (callable attributes named after a hook)."""
    return tuple(hook for hook in HOOKS if callable(getattr(processor, hook, None)))


def lanes_for(processor: Any) -> tuple[Lane, ...]:
    hooks = set(implemented_hooks(processor))
    return tuple(lane for lane, lane_hooks in LANE_HOOKS.items() if hooks & set(lane_hooks))


# --------------------------------------------------------------------------------------------- args
@dataclass(slots=True, kw_only=True)
class HookArgs:
    """What every hook receives. ``abort`` raises :class:`TripWire` and never returns."""

    processor_id: str
    state: dict[str, Any]
    request_context: RequestContext
    writer: StreamWriter | None = None
    retry_count: int = 0
    abort_signal: asyncio.Event | None = None
    tracing_context: Any = None
    run_id: str = ""

    def abort(
        self,
        reason: str | None = None,
        *,
        retry: bool = False,
        metadata: Any = None,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> NoReturn:
        """Stop the run (or, with ``retry``, the step). ``code`` and ``params`` name the sentence for a reader in
        another language (see :mod:`processors.tripwire`); ``reason`` stays the English text."""
        if reason is None and code is None:  # the runtime's own sentence: coded, so it reads in the reader's language
            code, params = UNNAMED_ABORT, {"processor": self.processor_id}
        raise TripWire(
            reason or f"Tripwire triggered by {self.processor_id}",
            retry=retry,
            metadata=metadata,
            processor_id=self.processor_id,
            code=code,
            params=params,
        )


@dataclass(slots=True, kw_only=True)
class ProcessInputArgs(HookArgs):
    messages: list[Message]
    message_list: MessageList
    system_messages: list[CoreMessage]


@dataclass(slots=True, kw_only=True)
class ProcessInputStepArgs(HookArgs):
    messages: list[Message]
    message_list: MessageList
    step_number: int
    steps: list[Step]
    system_messages: list[CoreMessage]
    model: LanguageModel
    tools: dict[str, Any]
    tool_choice: Any = None
    active_tools: list[str] | None = None
    provider_options: dict[str, Any] = field(default_factory=dict)
    model_settings: dict[str, Any] = field(default_factory=dict)
    structured_output: Any = None
    message_id: str | None = None
    llm_request_stage: bool = False


@dataclass(slots=True, kw_only=True)
class ProcessLLMRequestArgs(HookArgs):
    prompt: list[CoreMessage]
    model: LanguageModel
    message_list: MessageList
    step_number: int
    steps: list[Step]


@dataclass(slots=True, kw_only=True)
class ProcessLLMResponseArgs(HookArgs):
    chunks: list[dict[str, Any]]
    model: LanguageModel
    step_number: int
    steps: list[Step]
    from_cache: bool = False
    warnings: list[Any] = field(default_factory=list)
    request: Any = None
    raw_response: Any = None


@dataclass(slots=True, kw_only=True)
class ProcessAPIErrorArgs(HookArgs):
    error: BaseException
    messages: list[Message]
    message_list: MessageList
    step_number: int
    steps: list[Step]


@dataclass(slots=True, kw_only=True)
class ProcessOutputStreamArgs(HookArgs):
    part: AnyChunk
    #: Every chunk the output stream carried so far, as each entered the chain (a read-only sequence).
    stream_parts: Sequence[AnyChunk]
    message_list: MessageList


@dataclass(slots=True, kw_only=True)
class ProcessOutputStepArgs(HookArgs):
    messages: list[Message]
    message_list: MessageList
    step_number: int
    steps: list[Step]
    system_messages: list[CoreMessage]
    text: str = ""
    finish_reason: str | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage | None = None
    provider_metadata: dict[str, Any] | None = None


@dataclass(slots=True, kw_only=True)
class ProcessToolResultArgs(HookArgs):
    messages: list[Message]
    message_list: MessageList
    step_number: int
    steps: list[Step]
    system_messages: list[CoreMessage]
    tool_name: str
    tool_call_id: str
    args: Any
    result: Any
    provider_executed: bool | None = None


@dataclass(slots=True, kw_only=True)
class ProcessOutputResultArgs(HookArgs):
    messages: list[Message]
    message_list: MessageList
    result: OutputResult


#: A hook function as the runner calls it.
HookFunction = Callable[[Any], Any]
