"""The agentic loop: one ``generate``/``stream`` call, step by step, as an async generator of chunks.

Order (the reference's execution-order list): ``process_input`` once; then per step ``process_input_step`` →
``process_llm_request`` → the model (``process_api_error`` if it fails) → ``process_output_stream`` per chunk →
``process_llm_response`` → ``process_output_step`` → tools → ``process_tool_result`` per tool; then
``process_output_result`` once. The stream always ends with exactly one terminal chunk: ``finish``,
``tripwire`` or ``error``.

Retries (a processor's ``abort(retry=True)`` from ``process_output_stream``, ``process_output_step`` or
``process_tool_result``; an error processor's ``{"retry": True}``) roll the step back, emit a ``step-finish``
whose step result reason is ``"retry"`` (clients drop that step's text), and call the model again. They
consume the step budget (``max_steps``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from processors.chunks import (
    AnyChunk,
    Chunk,
    DataChunk,
    ErrorChunk,
    ErrorPayload,
    FinishChunk,
    FinishPayload,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningStartChunk,
    ResponseMetadataChunk,
    ResponseMetadataPayload,
    StartChunk,
    StepFinishChunk,
    StepFinishPayload,
    StepOutput,
    StepResult,
    StepStartChunk,
    StepStartPayload,
    TextDeltaChunk,
    TextDeltaPayload,
    TextEndChunk,
    TextPayload,
    TextStartChunk,
    ToolCallChunk,
    ToolCallDeltaChunk,
    ToolCallDeltaPayload,
    ToolCallInputStreamingEndChunk,
    ToolCallInputStreamingStartChunk,
    ToolCallPayload,
    ToolCallStreamingEndPayload,
    ToolCallStreamingStartPayload,
    ToolErrorChunk,
    ToolErrorPayload,
    ToolResultChunk,
    ToolResultPayload,
    TripwireChunk,
    TripwirePayload,
    chunk_from_wire,
)
from processors.context import RequestContext, StreamWriter
from processors.errors import ModelAPIError, ProcessorContractError, ProcessorError, ToolArgumentsError
from processors.memory.base import Memory
from processors.message_list import MessageList
from processors.messages import (
    DataPart,
    ErrorInfo,
    ErrorPart,
    Message,
    MessageContent,
    ReasoningPart,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    new_id,
)
from processors.models import resolve_model
from processors.models.base import (
    Finish,
    LanguageModel,
    ModelRequest,
    ReasoningDelta,
    ResponseMetadata,
    TextDelta,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStart,
)
from processors.processor import (
    ProcessAPIErrorArgs,
    ProcessInputArgs,
    ProcessInputStepArgs,
    ProcessLLMRequestArgs,
    ProcessLLMResponseArgs,
    ProcessOutputResultArgs,
    ProcessOutputStepArgs,
    ProcessToolResultArgs,
)
from processors.result import GenerateResult, OutputResult, Step
from processors.runner import (
    STEP_OVERRIDE_KEYS,
    Entry,
    RunContext,
    StreamChain,
    apply_message_result,
    common_args,
    describe_messages,
    invoke,
    messages_fingerprint,
    normalise_mapping,
    notify_violation,
)
from processors.tools import Tool, tools_by_name
from processors.tracing import TraceHub
from processors.tripwire import TripWire, TripwireData
from processors.usage import Usage

logger = logging.getLogger(__name__)

RETRY_FEEDBACK_TAG = "processor-retry-feedback"
#: How many ``process_api_error`` retries are allowed when error processors are configured and the caller set
#: no ``max_processor_retries`` (the reference's value; Mastra 1.71's code says 3).
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


class _End(Exception):  # noqa: N818 - internal control flow, never escapes the loop
    """Ends the run early; the terminal chunk was already decided."""


class _Retry(Exception):  # noqa: N818 - internal control flow
    def __init__(self, tripwire: TripWire) -> None:
        super().__init__(tripwire.reason)
        self.tripwire = tripwire


class Run:
    """State of one call. ``events()`` is the async generator the public stream wraps."""

    def __init__(self, config: RunConfig, messages: Any) -> None:
        self.config = config
        self.run_id = config.run_id
        self.message_list = MessageList(thread_id=config.thread_id, resource_id=config.resource_id)
        self._pending: list[DataChunk] = []
        self.writer = StreamWriter(self._pending.append)
        self.abort_signal = asyncio.Event()
        self.ctx = RunContext(
            run_id=self.run_id, request_context=config.request_context, writer=self.writer,
            tracer=config.tracer, abort_signal=self.abort_signal,
        )
        self.chain = StreamChain(self.ctx, config.output_entries, self.message_list)
        self._input = messages
        self.steps: list[Step] = []
        self.usage = Usage()
        self.text_parts: list[str] = []
        self.result: GenerateResult | None = None
        self.finish_reason = "unknown"
        self.tripwire: TripwireData | None = None
        self.error: str | None = None
        self._data_parts: list[DataPart] = []
        self._save_mode = "none"  # none | input | all
        self.retry_count = 0
        self.api_retry_count = 0
        self.max_retries = config.max_processor_retries
        if self.max_retries is None and config.error_entries:
            self.max_retries = DEFAULT_ERROR_PROCESSOR_RETRIES

    # ----------------------------------------------------------------------------------------- helpers
    def _chunk(self, cls: type[Chunk], payload: Any) -> Chunk:
        return cls(run_id=self.run_id, payload=payload)

    async def _emit(self, chunk: AnyChunk) -> AsyncIterator[AnyChunk]:
        """Run a chunk through the output stream chain, then yield it (and anything processors wrote)."""
        processed = await self._process(chunk)
        if self._pending:
            async for extra in self._drain():
                yield extra
        if processed is not None:
            yield processed
        if self.chain.reprocess:
            async for extra in self._reprocess(None):
                yield extra

    async def _reprocess(self, builder: _StepBuilder | None) -> AsyncIterator[AnyChunk]:
        """Parts a processor stashed under the reprocess key, each driven through the whole chain again."""
        queue = self.chain.reprocess
        while queue:
            processed = await self._process(queue.pop(0))
            if self._pending:
                async for extra in self._drain():
                    yield extra
            if processed is not None:
                if builder is not None:
                    builder.fold(processed)
                yield processed

    async def _process(self, chunk: AnyChunk) -> AnyChunk | None:
        if not self.chain:
            return chunk
        if not self.chain.has_async and not self.ctx.tracer.active:
            return self.chain.process_sync(chunk)
        return await self.chain.process(chunk)

    async def _drain(self) -> AsyncIterator[AnyChunk]:
        """Chunks that processors and tools wrote with ``writer.custom``: processed, persisted unless transient."""
        guard = 0
        while self._pending:
            guard += 1
            if guard > 10_000:
                raise ProcessorContractError("writer.custom() was called in a loop: more than 10,000 chunks pending")
            chunk = self._pending.pop(0)
            processed = await self._process(chunk)
            if processed is None:
                continue
            if isinstance(processed, DataChunk) and not processed.transient:
                self._data_parts.append(DataPart(type=processed.type, data=processed.data, id=processed.id))
            yield processed

    def _terminal_tripwire(self, tripwire: TripWire) -> Chunk:
        data = tripwire.to_data()
        self.tripwire = data
        self.finish_reason = "other"
        return self._chunk(TripwireChunk, TripwirePayload(
            reason=data.reason, retry=data.retry, metadata=data.metadata, processor_id=data.processor_id,
        ))

    def _terminal_error(self, error: BaseException, message: str | None = None) -> Chunk:
        self.finish_reason = "error"
        self.error = message or str(error)
        payload: Any = error.to_dict() if isinstance(error, ModelAPIError) else {
            "name": type(error).__name__, "message": self.error,
            "processorId": getattr(error, "processor_id", None), "hook": getattr(error, "hook", None),
        }
        return self._chunk(ErrorChunk, ErrorPayload(error=payload))

    # ----------------------------------------------------------------------------------------- the run
    async def events(self) -> AsyncGenerator[AnyChunk, None]:
        config = self.config
        ml = self.message_list
        try:
            for text in config.instructions:
                ml.add_system(text)
            if config.memory is not None and config.thread_id:
                remembered = await config.memory.load_messages(config.thread_id, resource_id=config.resource_id)
                ml.add(remembered, "memory")
            ml.add(self._input, "input")
            if config.context_messages:
                ml.add(config.context_messages, "context")
            yield self._chunk(StartChunk, {})
            async for chunk in self._run_input():
                yield chunk
            self._save_mode = "all"
            async for chunk in self._run_steps():
                yield chunk
            async for chunk in self._run_output_result():
                yield chunk
        except _End as end:
            if end.args:
                yield end.args[0]
        finally:
            self._finalise()
        await self._save()

    def _finalise(self) -> None:
        if self.result is not None:
            return
        self.result = GenerateResult(
            run_id=self.run_id, text="".join(self.text_parts) if self.tripwire is None or self.steps else "",
            finish_reason=self.finish_reason, tripwire=self.tripwire, steps=self.steps, usage=self.usage,
            messages=self.message_list.get.response.db(), error=self.error, warnings=list(self.ctx.warnings),
            thread_id=self.config.thread_id, resource_id=self.config.resource_id,
        )
        if self.config.structured_output is not None and self.finish_reason in ("stop", "length"):
            self.result.object = _parse_structured(self.result.text, self.config.structured_output)

    async def _save(self) -> None:
        memory = self.config.memory
        if memory is None or not self.config.thread_id or self._save_mode == "none":
            return
        sources = {"input", "response"} if self._save_mode == "all" else {"input"}
        to_save = [m for m in self.message_list.get.all.db() if self.message_list.get_source(m) in sources]
        if to_save:
            await memory.save_messages(self.config.thread_id, to_save, resource_id=self.config.resource_id)

    # ----------------------------------------------------------------------------------------- input
    async def _run_input(self) -> AsyncIterator[AnyChunk]:
        ml = self.message_list
        for entry in self.config.input_entries:
            if "process_input" not in entry.hooks:
                continue
            given = ml.get.input.db()
            args = ProcessInputArgs(
                messages=given, message_list=ml, system_messages=ml.get_system_messages(),
                **common_args(self.ctx, entry),
            )
            try:
                result = await invoke(self.ctx, entry, "process_input", args,
                                      describe=lambda: describe_messages(ml), fingerprint=lambda: messages_fingerprint(ml))
                if isinstance(result, dict) or _is_result_object(result):
                    values = normalise_mapping(result, entry, "process_input", frozenset({"messages", "system_messages"}))
                    if "system_messages" in values:
                        ml.replace_all_system_messages(values["system_messages"])
                    if "messages" in values:
                        apply_message_result(values["messages"], entry=entry, hook="process_input", message_list=ml,
                                             given=given, default_source="input")
                else:
                    apply_message_result(result, entry=entry, hook="process_input", message_list=ml, given=given,
                                         default_source="input")
            except TripWire as tripwire:
                self._save_mode = "none"  # a blocked input is not saved: it may hold what the guardrail caught
                raise _End(self._terminal_tripwire(tripwire)) from None
            except (ProcessorError, ValueError) as error:
                raise _End(self._terminal_error(error)) from None
            async for chunk in self._drain():
                yield chunk
        self.initial_system = ml.get_system_messages()

    # ----------------------------------------------------------------------------------------- steps
    async def _run_steps(self) -> AsyncIterator[AnyChunk]:
        step_number = 0
        while step_number < self.config.max_steps:
            self.ctx.step_number = step_number
            outcome = _StepOutcome()
            try:
                async for chunk in self._run_step(step_number, outcome):
                    yield chunk
            except _Retry as retry:
                async for chunk in self._retract(step_number, retry.tripwire, outcome):
                    yield chunk
                step_number += 1
                if step_number >= self.config.max_steps:
                    raise _End(self._terminal_tripwire(retry.tripwire)) from None
                continue
            finally:
                if self.ctx.tracer.active:
                    self.chain.flush_trace()
            step_number += 1
            if not outcome.continue_loop:
                return

    async def _run_step(self, step_number: int, outcome: _StepOutcome) -> AsyncIterator[AnyChunk]:
        ml = self.message_list
        ml.replace_all_system_messages(self.initial_system)
        outcome.boundary = ml.boundary()
        step_config = await self._run_input_step(step_number)
        model = resolve_model(step_config["model"])
        step_tools = _active_tools(step_config["tools"], step_config["active_tools"])
        prompt, cached = await self._run_llm_request(step_number, model)
        request = ModelRequest(
            messages=prompt,
            tools=[tool.to_openai() for tool in step_tools.values()],
            tool_choice=_tool_choice(step_config["tool_choice"]) if step_tools else None,
            settings=dict(step_config["model_settings"]),
            provider_options=dict(step_config["provider_options"]),
            response_format=_response_format(step_config["structured_output"]),
        )
        message_id = step_config.get("message_id") or new_id("msg")
        step = Step(step_number=step_number, model_id=model.model_id, from_cache=cached is not None)
        outcome.step = step
        async for chunk in self._emit(self._chunk(StepStartChunk, StepStartPayload(message_id=message_id))):
            yield chunk
        builder = _StepBuilder(self.run_id, message_id)
        outcome.builder = builder
        raw_chunks: list[dict[str, Any]] = []
        async for chunk in self._stream_model(model, request, cached, builder, raw_chunks, step_number, outcome):
            yield chunk
        step.text = builder.text()
        step.reasoning = "".join(builder.reasoning)
        step.tool_calls = [dict(c) for c in builder.tool_calls]
        step.finish_reason = builder.finish_reason
        step.usage = builder.usage
        self.usage = self.usage + builder.usage
        self.steps.append(step)
        ml.add(builder.message(self._take_data_parts()), "response")
        await self._run_llm_response(step_number, model, raw_chunks, cached is not None)
        async for chunk in self._run_output_step(step_number, step, builder):
            yield chunk
        self.retry_count = 0  # only consecutive retries carry forward
        self.text_parts.append(step.text)
        self.finish_reason = step.finish_reason
        calls = builder.tool_calls
        will_continue = bool(calls) and step_number + 1 < self.config.max_steps
        async for chunk in self._emit(self._step_finish(step, message_id, step.finish_reason, is_continued=bool(calls))):
            yield chunk
        if calls:
            async for chunk in self._run_tools(step_number, step, step_tools):
                yield chunk
        outcome.continue_loop = will_continue

    def _take_data_parts(self) -> list[DataPart]:
        parts, self._data_parts = self._data_parts, []
        return parts

    def _step_finish(self, step: Step, message_id: str, reason: str, *, is_continued: bool) -> Chunk:
        return self._chunk(StepFinishChunk, StepFinishPayload(
            message_id=message_id,
            step_result=StepResult(reason=reason, raw_reason=step.finish_reason, is_continued=is_continued),
            output=StepOutput(text=step.text, tool_calls=step.tool_calls, usage=step.usage),
        ))

    async def _retract(self, step_number: int, tripwire: TripWire, outcome: _StepOutcome) -> AsyncIterator[AnyChunk]:
        """A step was rejected: tell clients to drop it, roll the list back, and feed the reason to the retry."""
        step = outcome.step or Step(step_number=step_number)
        rejected = outcome.builder.text() if outcome.builder else step.text
        step.rejected_text = rejected
        step.text = ""
        step.tool_calls = []
        step.tripwire = tripwire.to_data()
        step.finish_reason = "retry"
        if step not in self.steps:
            if outcome.builder:
                step.usage = outcome.builder.usage
                self.usage = self.usage + outcome.builder.usage
            self.steps.append(step)
        if outcome.boundary is not None:
            self.message_list.rollback(outcome.boundary)
        self._data_parts = []
        self.retry_count += 1
        self.message_list.add_system(retry_feedback(tripwire.reason), RETRY_FEEDBACK_TAG)
        message_id = outcome.builder.message_id if outcome.builder else new_id("msg")
        chunk = self._step_finish(step, message_id, "retry", is_continued=True)
        yield chunk

    def _can_retry(self, tripwire: TripWire) -> bool:
        if not tripwire.retry:
            return False
        if self.max_retries is None:
            logger.warning(
                "Processor %r requested a retry but max_processor_retries is not set; treating it as an abort",
                tripwire.processor_id,
            )
            return False
        return self.retry_count < self.max_retries

    # ----------------------------------------------------------------------------------------- input step
    async def _run_input_step(self, step_number: int) -> dict[str, Any]:
        config = self.config
        ml = self.message_list
        step_config: dict[str, Any] = {
            "model": config.model, "tools": dict(config.tools), "tool_choice": config.tool_choice,
            "active_tools": config.active_tools, "provider_options": dict(config.provider_options),
            "model_settings": dict(config.model_settings), "structured_output": config.structured_output,
            "message_id": None,
        }
        llm_request_ids = {e.id for e in config.input_entries if "process_llm_request" in e.hooks}
        allowed = STEP_OVERRIDE_KEYS | {"messages", "message_list"}
        for entry in config.input_entries:
            if "process_input_step" not in entry.hooks:
                continue
            given = ml.get.all.db()
            current_model = resolve_model(step_config["model"])
            args = ProcessInputStepArgs(
                messages=given, message_list=ml, step_number=step_number, steps=list(self.steps),
                system_messages=ml.get_system_messages(), model=current_model, tools=dict(step_config["tools"]),
                tool_choice=step_config["tool_choice"], active_tools=step_config["active_tools"],
                provider_options=step_config["provider_options"], model_settings=step_config["model_settings"],
                structured_output=step_config["structured_output"], message_id=step_config["message_id"],
                llm_request_stage=entry.id in llm_request_ids,
                **common_args(self.ctx, entry, self.retry_count),
            )
            try:
                result = await invoke(self.ctx, entry, "process_input_step", args,
                                      describe=lambda: describe_messages(ml), fingerprint=lambda: messages_fingerprint(ml))
                if isinstance(result, dict) or _is_result_object(result):
                    values = normalise_mapping(result, entry, "process_input_step", allowed)
                    if "messages" in values and "message_list" in values:
                        raise ProcessorContractError(
                            f"Processor '{entry.id}' returned both 'messages' and 'message_list' from "
                            "process_input_step; return one of them",
                            processor_id=entry.id, hook="process_input_step",
                        )
                    if "messages" in values:
                        apply_message_result(values.pop("messages"), entry=entry, hook="process_input_step",
                                             message_list=ml, given=given, default_source="input")
                    if "message_list" in values:
                        apply_message_result(values.pop("message_list"), entry=entry, hook="process_input_step",
                                             message_list=ml, given=given, default_source="input")
                    if "system_messages" in values:
                        ml.replace_all_system_messages(values.pop("system_messages"))
                    if "tools" in values:
                        values["tools"] = tools_by_name(values["tools"])
                    if "model" in values and values["model"] is None:
                        values.pop("model")
                    step_config.update(values)
                else:
                    apply_message_result(result, entry=entry, hook="process_input_step", message_list=ml,
                                         given=given, default_source="input")
            except TripWire as tripwire:
                raise _End(self._terminal_tripwire(tripwire)) from None
            except (ProcessorError, ValueError, TypeError) as error:
                raise _End(self._terminal_error(error)) from None
        return step_config

    # ----------------------------------------------------------------------------------------- llm request
    async def _run_llm_request(
        self, step_number: int, model: LanguageModel
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
        ml = self.message_list
        prompt = ml.to_prompt()
        cached: list[dict[str, Any]] | None = None
        for entry in self.config.input_entries:
            if "process_llm_request" not in entry.hooks:
                continue
            args = ProcessLLMRequestArgs(prompt=prompt, model=model, message_list=ml, step_number=step_number,
                                         steps=list(self.steps), **common_args(self.ctx, entry, self.retry_count))
            try:
                result = await invoke(self.ctx, entry, "process_llm_request", args,
                                      describe=lambda p=prompt: f"{len(p)} prompt messages")  # type: ignore[misc]
                if result is None:
                    continue
                values = normalise_mapping(result, entry, "process_llm_request", frozenset({"prompt", "response"}))
                if "prompt" in values:
                    if not isinstance(values["prompt"], list):
                        raise ProcessorContractError(
                            f"Processor '{entry.id}' returned a prompt that is not a list of messages",
                            processor_id=entry.id, hook="process_llm_request")
                    prompt = values["prompt"]
                if "response" in values and values["response"] is not None and cached is None:
                    response = values["response"]
                    chunks = response.get("chunks") if isinstance(response, dict) else getattr(response, "chunks", None)
                    if not isinstance(chunks, list):
                        raise ProcessorContractError(
                            f"Processor '{entry.id}' returned a response without a 'chunks' list",
                            processor_id=entry.id, hook="process_llm_request")
                    cached = chunks  # the first processor to answer wins; later ones still run
            except TripWire as tripwire:
                raise _End(self._terminal_tripwire(tripwire)) from None
            except (ProcessorError, ValueError, TypeError) as error:
                raise _End(self._terminal_error(error)) from None
        return prompt, cached

    # ----------------------------------------------------------------------------------------- model
    async def _stream_model(
        self,
        model: LanguageModel,
        request: ModelRequest,
        cached: list[dict[str, Any]] | None,
        builder: _StepBuilder,
        raw_chunks: list[dict[str, Any]],
        step_number: int,
        outcome: _StepOutcome,
    ) -> AsyncIterator[AnyChunk]:
        while True:
            try:
                source = _replay(cached, self.run_id) if cached is not None else self._model_chunks(model, request,
                                                                                                     builder)
                async for chunk in self._consume(source, builder, raw_chunks):
                    yield chunk
                return
            except TripWire as tripwire:
                entry = self.chain.entry_for(tripwire.processor_id)
                if entry is not None:
                    await notify_violation(entry, tripwire)
                if self._can_retry(tripwire):
                    raise _Retry(tripwire) from None
                self._close_partial_step(builder, outcome, step_number)
                raise _End(self._terminal_tripwire(tripwire)) from None
            except ModelAPIError as error:
                retry = await self._run_api_error(error, step_number)
                if retry:
                    if builder.streamed:
                        raise _Retry(TripWire(f"The model call failed and is retried: {error.message}",
                                              retry=True, processor_id=None)) from None
                    builder.reset()
                    raw_chunks.clear()
                    continue
                self._close_partial_step(builder, outcome, step_number, error)
                raise _End(self._terminal_error(error, f"Model call failed: {error.message}")) from None

    def _close_partial_step(self, builder: _StepBuilder, outcome: _StepOutcome, step_number: int,
                            error: BaseException | None = None) -> None:
        """Keep what was streamed before a block or failure: the user saw it, so the thread keeps it."""
        step = outcome.step or Step(step_number=step_number)
        step.text = builder.text()
        step.finish_reason = "error" if error else "tripwire"
        step.usage = builder.usage
        self.steps.append(step)
        self.text_parts.append(step.text)
        extra: list[Any] = []
        if error is not None:
            extra.append(ErrorPart(error=ErrorInfo(name=type(error).__name__, message=str(error))))
        message = builder.message(self._take_data_parts() + extra)
        if message.content.parts:
            self.message_list.add(message, "response")

    async def _model_chunks(self, model: LanguageModel, request: ModelRequest,
                            builder: _StepBuilder) -> AsyncIterator[Chunk]:
        """Model events as chunks. The model's iterator is closed when the run stops early."""
        run_id = self.run_id
        events = model.stream(request)
        text_id = builder.text_id
        try:
            async for event in events:
                kind = type(event)
                if kind is TextDelta:
                    if not builder.text_open:
                        builder.text_open = True
                        yield TextStartChunk(run_id=run_id, payload=TextPayload(id=text_id))
                    yield TextDeltaChunk(run_id=run_id, payload=TextDeltaPayload(id=text_id, text=event.text))  # type: ignore[attr-defined]
                elif kind is ReasoningDelta:
                    if not builder.reasoning_open:
                        builder.reasoning_open = True
                        yield ReasoningStartChunk(run_id=run_id, payload=TextPayload(id=text_id + "-r"))
                    yield ReasoningDeltaChunk(run_id=run_id,
                                              payload=TextDeltaPayload(id=text_id + "-r", text=event.text))  # type: ignore[attr-defined]
                elif kind is ToolCallStart:
                    for closing in _closers(builder, run_id):
                        yield closing
                    yield ToolCallInputStreamingStartChunk(run_id=run_id, payload=ToolCallStreamingStartPayload(
                        tool_call_id=event.tool_call_id, tool_name=event.tool_name))  # type: ignore[attr-defined]
                elif kind is ToolCallDelta:
                    yield ToolCallDeltaChunk(run_id=run_id, payload=ToolCallDeltaPayload(
                        tool_call_id=event.tool_call_id, args_text_delta=event.args_text_delta))  # type: ignore[attr-defined]
                elif kind is ToolCallComplete:
                    yield ToolCallInputStreamingEndChunk(run_id=run_id, payload=ToolCallStreamingEndPayload(
                        tool_call_id=event.tool_call_id))  # type: ignore[attr-defined]
                    yield ToolCallChunk(run_id=run_id, payload=ToolCallPayload(
                        tool_call_id=event.tool_call_id, tool_name=event.tool_name,  # type: ignore[attr-defined]
                        args=_parse_args(event.arguments)))  # type: ignore[attr-defined]
                elif kind is ResponseMetadata:
                    yield ResponseMetadataChunk(run_id=run_id, payload=ResponseMetadataPayload(
                        id=event.response_id, model_id=event.model_id))  # type: ignore[attr-defined]
                elif kind is Finish:
                    for closing in _closers(builder, run_id):
                        yield closing
                    builder.finish_reason = event.finish_reason  # type: ignore[attr-defined]
                    builder.usage = event.usage  # type: ignore[attr-defined]
                    builder.finished = True
            if not builder.finished:
                raise ModelAPIError(None, "The model stream ended without a finish event", True)
        finally:
            await events.aclose()  # type: ignore[attr-defined]

    async def _consume(self, source: AsyncIterator[Chunk], builder: _StepBuilder,
                       raw_chunks: list[dict[str, Any]]) -> AsyncIterator[AnyChunk]:
        """The per-chunk hot path: raw chunk recorded, run through the chain, folded into the step, yielded."""
        chain = self.chain
        fast = bool(chain) and not chain.has_async and not self.ctx.tracer.active
        pending = self._pending
        record = raw_chunks.append
        fold = builder.fold
        try:
            async for chunk in source:
                record({"type": chunk.type, "payload": chunk.payload})
                if not chain:
                    processed: AnyChunk | None = chunk
                elif fast:
                    processed = chain.process_sync(chunk)
                else:
                    processed = await chain.process(chunk)
                if pending:
                    async for extra in self._drain():
                        yield extra
                if processed is not None:
                    fold(processed)
                    yield processed
                if chain.reprocess:
                    async for extra in self._reprocess(builder):
                        yield extra
        finally:
            await source.aclose()  # type: ignore[attr-defined]

    async def _run_api_error(self, error: ModelAPIError, step_number: int) -> bool:
        """Ask the error processors; the first ``{"retry": True}`` wins, within the retry cap."""
        if self.max_retries is None or self.api_retry_count >= self.max_retries:
            return False
        ml = self.message_list
        for entry in self.config.error_entries:
            if "process_api_error" not in entry.hooks:
                continue
            args = ProcessAPIErrorArgs(error=error, messages=ml.get.all.db(), message_list=ml,
                                       step_number=step_number, steps=list(self.steps),
                                       **common_args(self.ctx, entry, self.api_retry_count))
            try:
                result = await invoke(self.ctx, entry, "process_api_error", args,
                                      describe=lambda: f"{error.status_code}: {error.message}")
            except TripWire as tripwire:
                raise _End(self._terminal_tripwire(tripwire)) from None
            except ProcessorError as failure:
                logger.warning("%s; asking the next error processor", failure)
                self.ctx.warnings.append(str(failure))
                continue
            if result is None:
                continue
            try:
                values = normalise_mapping(result, entry, "process_api_error", frozenset({"retry"}))
            except ProcessorContractError as failure:
                raise _End(self._terminal_error(failure)) from None
            if values.get("retry"):
                self.api_retry_count += 1
                return True
        return False

    # ----------------------------------------------------------------------------------------- after the model
    async def _run_llm_response(self, step_number: int, model: LanguageModel, raw_chunks: list[dict[str, Any]],
                                from_cache: bool) -> None:
        for entry in self.config.input_entries:
            if "process_llm_response" not in entry.hooks:
                continue
            args = ProcessLLMResponseArgs(chunks=raw_chunks, model=model, step_number=step_number,
                                          steps=list(self.steps), from_cache=from_cache,
                                          **common_args(self.ctx, entry, self.retry_count))
            try:
                await invoke(self.ctx, entry, "process_llm_response", args,
                             describe=lambda: f"{len(raw_chunks)} chunks" + (" (from cache)" if from_cache else ""))
            except TripWire as tripwire:
                raise _End(self._terminal_tripwire(tripwire)) from None
            except ProcessorError as error:
                raise _End(self._terminal_error(error)) from None

    async def _run_output_step(self, step_number: int, step: Step, builder: _StepBuilder) -> AsyncIterator[AnyChunk]:
        ml = self.message_list
        for entry in self.config.output_entries:
            if "process_output_step" not in entry.hooks:
                continue
            given = ml.get.all.db()
            args = ProcessOutputStepArgs(
                messages=given, message_list=ml, step_number=step_number, steps=list(self.steps),
                system_messages=ml.get_system_messages(), text=step.text, finish_reason=step.finish_reason,
                tool_calls=[dict(c) for c in builder.tool_calls], usage=step.usage,
                **common_args(self.ctx, entry, self.retry_count),
            )
            try:
                result = await invoke(self.ctx, entry, "process_output_step", args,
                                      describe=lambda: describe_messages(ml), fingerprint=lambda: messages_fingerprint(ml))
                if not (isinstance(result, list) and not result):  # [] means "no change" (see the README)
                    apply_message_result(result, entry=entry, hook="process_output_step", message_list=ml,
                                         given=given, default_source="response")
            except TripWire as tripwire:
                if self._can_retry(tripwire):
                    self.steps.remove(step)
                    raise _Retry(tripwire) from None
                step.tripwire = tripwire.to_data()
                step.finish_reason = "tripwire"
                self.text_parts.append(step.text)
                yield self._step_finish(step, builder.message_id, "tripwire", is_continued=False)
                raise _End(self._terminal_tripwire(tripwire)) from None
            except (ProcessorError, ValueError) as error:
                self.text_parts.append(step.text)
                raise _End(self._terminal_error(error)) from None
            async for chunk in self._drain():
                yield chunk
        builder.sync_tool_calls(ml)

    # ----------------------------------------------------------------------------------------- tools
    async def _run_tools(self, step_number: int, step: Step, tools: dict[str, Tool]) -> AsyncIterator[AnyChunk]:
        calls = list(step.tool_calls)
        task = asyncio.ensure_future(asyncio.gather(
            *(self._execute_tool(call, tools) for call in calls), return_exceptions=True
        ))
        try:
            while not task.done():  # stream what tools write while they run
                if self._pending:
                    async for chunk in self._drain():
                        yield chunk
                await asyncio.wait([task], timeout=0.02)
            outcomes = task.result()
        finally:
            if not task.done():
                task.cancel()
        async for chunk in self._drain():
            yield chunk
        for call, result in zip(calls, outcomes, strict=True):
            if isinstance(result, asyncio.CancelledError):
                raise result
            async for chunk in self._commit_tool_result(step_number, step, call, result):
                yield chunk

    async def _execute_tool(self, call: dict[str, Any], tools: dict[str, Tool]) -> Any:
        tool = tools.get(call["tool_name"])
        if tool is None:
            available = ", ".join(sorted(tools)) or "none"
            return _ToolFailure(f"Tool '{call['tool_name']}' not found. Available tools: {available}")
        try:
            return await tool.call(call["args"] if not isinstance(call["args"], _InvalidArgs) else call["args"].text,
                                   writer=self.writer, request_context=self.ctx.request_context)
        except ToolArgumentsError as error:
            return _ToolFailure(str(error))
        except asyncio.CancelledError:
            raise
        except Exception as error:
            return _ToolFailure(f"Tool '{call['tool_name']}' failed: {type(error).__name__}: {error}")

    async def _commit_tool_result(self, step_number: int, step: Step, call: dict[str, Any],
                                  result: Any) -> AsyncIterator[AnyChunk]:
        ml = self.message_list
        call_id, name = call["tool_call_id"], call["tool_name"]
        args_value = call["args"].text if isinstance(call["args"], _InvalidArgs) else call["args"]
        if isinstance(result, _ToolFailure):
            ml.update_tool_invocation(ToolInvocationPart(tool_invocation=ToolInvocation(
                state="output-error", tool_call_id=call_id, tool_name=name, args=args_value, error_text=result.message,
                is_error=True)))
            step.tool_results.append({"tool_call_id": call_id, "tool_name": name, "error": result.message})
            async for chunk in self._emit(self._chunk(ToolErrorChunk, ToolErrorPayload(
                tool_call_id=call_id, tool_name=name, args=args_value, error=result.message))):
                yield chunk
            return
        from processors.tools import serialize_result

        result = serialize_result(result)
        for entry in self.config.output_entries:
            if "process_tool_result" not in entry.hooks:
                continue
            args = ProcessToolResultArgs(
                messages=ml.get.all.db(), message_list=ml, step_number=step_number, steps=list(self.steps),
                system_messages=ml.get_all_system_messages(), tool_name=name, tool_call_id=call_id,
                args=args_value, result=result, **common_args(self.ctx, entry, self.retry_count),
            )
            try:
                await invoke(self.ctx, entry, "process_tool_result", args,
                             describe=lambda: f"{name} → {_short(result)}")
            except TripWire as tripwire:
                if self._can_retry(tripwire):
                    raise _Retry(tripwire) from None
                raise _End(self._terminal_tripwire(tripwire)) from None
            except ProcessorError as error:
                raise _End(self._terminal_error(error)) from None
            replaced = ml.find_tool_invocation(call_id)
            if replaced is not None and replaced.state == "result":
                result = replaced.result  # a processor replaced it with update_tool_invocation
        ml.update_tool_invocation(ToolInvocationPart(tool_invocation=ToolInvocation(
            state="result", tool_call_id=call_id, tool_name=name, args=args_value, result=result)))
        step.tool_results.append({"tool_call_id": call_id, "tool_name": name, "result": result})
        async for chunk in self._emit(self._chunk(ToolResultChunk, ToolResultPayload(
            tool_call_id=call_id, tool_name=name, result=result, args=args_value))):
            yield chunk

    # ----------------------------------------------------------------------------------------- output result
    async def _run_output_result(self) -> AsyncIterator[AnyChunk]:
        ml = self.message_list
        text = "".join(self.text_parts)
        responses = ml.get.response.db()
        last_before = responses[-1].text if responses else None
        for entry in self.config.output_entries:
            if "process_output_result" not in entry.hooks:
                continue
            given = ml.get.response.db()
            args = ProcessOutputResultArgs(
                messages=given, message_list=ml,
                result=OutputResult(text=text, usage=self.usage, finish_reason=self.finish_reason, steps=self.steps),
                **common_args(self.ctx, entry, 0),
            )
            try:
                result = await invoke(self.ctx, entry, "process_output_result", args,
                                      describe=lambda: describe_messages(ml), fingerprint=lambda: messages_fingerprint(ml))
                apply_message_result(result, entry=entry, hook="process_output_result", message_list=ml, given=given,
                                     default_source="response")
            except TripWire as tripwire:
                self._save_mode = "input"  # a rejected response is not saved
                self.text_parts = []
                raise _End(self._terminal_tripwire(tripwire)) from None
            except (ProcessorError, ValueError) as error:
                raise _End(self._terminal_error(error)) from None
            async for chunk in self._drain():
                yield chunk
        if self._data_parts:
            ml.add(Message(role="assistant", content=MessageContent(parts=list(self._take_data_parts()))),
                   "response")
        responses = ml.get.response.db()
        last_after = responses[-1].text if responses else None
        if last_after != last_before and last_after is not None:
            self.text_parts = [last_after]
        last = self.steps[-1] if self.steps else None
        finish = self._chunk(FinishChunk, FinishPayload(
            step_result=StepResult(reason=self.finish_reason),
            output=StepOutput(text="".join(self.text_parts), usage=self.usage,
                              tool_calls=last.tool_calls if last else []),
        ))
        async for chunk in self._emit(finish):
            yield chunk


# --------------------------------------------------------------------------------------------- step pieces
class _StepOutcome:
    __slots__ = ("boundary", "builder", "continue_loop", "step")

    def __init__(self) -> None:
        self.boundary: tuple[list[str], dict[str, int]] | None = None
        self.builder: _StepBuilder | None = None
        self.step: Step | None = None
        self.continue_loop = False


class _InvalidArgs:
    """Tool-call arguments that were not valid JSON: kept as text so the tool error can quote the problem."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


class _ToolFailure:
    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


class _StepBuilder:
    """Folds the chunks a client saw into the step's assistant message (the reducer the studio reuses)."""

    def __init__(self, run_id: str, message_id: str) -> None:
        self.run_id = run_id
        self.message_id = message_id
        self.text_id = message_id
        self.reset()

    def reset(self) -> None:
        self.texts: list[str] = []
        self.reasoning: list[str] = []
        self.tool_calls: list[dict[str, Any]] = []
        self.text_open = False
        self.reasoning_open = False
        self.finish_reason = "unknown"
        self.usage = Usage()
        self.finished = False
        self.streamed = False

    def fold(self, chunk: AnyChunk) -> None:
        kind = chunk.type
        self.streamed = True
        if kind == "text-delta":
            self.texts.append(chunk.payload.text)  # type: ignore[union-attr]
        elif kind == "reasoning-delta":
            self.reasoning.append(chunk.payload.text)  # type: ignore[union-attr]
        elif kind == "tool-call":
            payload = chunk.payload  # type: ignore[union-attr]
            self.tool_calls.append({"tool_call_id": payload.tool_call_id, "tool_name": payload.tool_name,
                                    "args": payload.args})

    def text(self) -> str:
        return "".join(self.texts)

    def message(self, extra_parts: list[Any]) -> Message:
        parts: list[Any] = [StepStartPart()]
        if self.reasoning:
            parts.append(ReasoningPart(reasoning="".join(self.reasoning)))
        text = self.text()
        if text:
            parts.append(TextPart(text=text))
        for call in self.tool_calls:
            args = call["args"].text if isinstance(call["args"], _InvalidArgs) else call["args"]
            parts.append(ToolInvocationPart(tool_invocation=ToolInvocation(
                state="call", tool_call_id=call["tool_call_id"], tool_name=call["tool_name"], args=args)))
        parts.extend(extra_parts)
        if len(parts) == 1:
            parts = list(extra_parts)
        return Message(id=self.message_id, role="assistant", content=MessageContent(parts=parts, content=text or None))

    def sync_tool_calls(self, message_list: MessageList) -> None:
        """Drop calls a ``process_output_step`` processor removed from the list: they will not run."""
        kept = [c for c in self.tool_calls if message_list.find_tool_invocation(c["tool_call_id"]) is not None]
        self.tool_calls[:] = kept


def _closers(builder: _StepBuilder, run_id: str) -> list[Chunk]:
    out: list[Chunk] = []
    if builder.reasoning_open:
        builder.reasoning_open = False
        out.append(ReasoningEndChunk(run_id=run_id, payload=TextPayload(id=builder.text_id + "-r")))
    if builder.text_open:
        builder.text_open = False
        out.append(TextEndChunk(run_id=run_id, payload=TextPayload(id=builder.text_id)))
    return out


async def _replay(chunks: list[dict[str, Any]], run_id: str) -> AsyncIterator[Chunk]:
    """A cached response's chunks, re-stamped with this run's id."""
    for item in chunks:
        payload = item.get("payload")
        if hasattr(payload, "model_dump"):
            payload = payload.model_dump(by_alias=True, exclude_none=True)
        chunk = chunk_from_wire({"type": item["type"], "runId": run_id, "from": "AGENT", "payload": payload or {}})
        if isinstance(chunk, Chunk):
            yield chunk


def _parse_args(arguments: str) -> Any:
    if not arguments.strip():
        return {}
    try:
        return json.loads(arguments)
    except ValueError:
        return _InvalidArgs(arguments)


def _active_tools(tools: dict[str, Tool], active: list[str] | None) -> dict[str, Tool]:
    if active is None:
        return tools
    return {name: tool for name, tool in tools.items() if name in set(active)}


def _tool_choice(choice: Any) -> Any:
    return choice if choice is not None else "auto"


def _response_format(structured: Any) -> dict[str, Any] | None:
    if structured is None:
        return None
    schema = structured.get("schema") if isinstance(structured, dict) else structured
    if hasattr(schema, "model_json_schema"):
        schema = schema.model_json_schema()
    if not isinstance(schema, dict):
        return None
    return {"type": "json_schema", "json_schema": {"name": "response", "schema": schema}}


def _parse_structured(text: str, structured: Any) -> Any:
    schema = structured.get("schema") if isinstance(structured, dict) else structured
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if hasattr(schema, "model_validate"):
        try:
            return schema.model_validate(value)
        except Exception:
            return None
    return value


def _is_result_object(result: Any) -> bool:
    return hasattr(result, "model_dump") and not isinstance(result, Message)


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["DEFAULT_ERROR_PROCESSOR_RETRIES", "RETRY_FEEDBACK_TAG", "Run", "RunConfig", "retry_feedback"]
