"""The agentic loop: one ``generate``/``stream`` call, step by step, as an async generator of chunks.

Order (the reference's execution-order list): ``process_input`` once; then per step ``process_input_step`` →
``process_llm_request`` → the model (``process_api_error`` if it fails) → ``process_output_stream`` per chunk →
``process_llm_response`` → ``process_output_step`` → tools → ``process_tool_result`` per tool; then
``process_output_result`` once. The stream always ends with exactly one terminal chunk: ``finish``,
``tripwire`` or ``error``.

Retries (a processor's ``abort(retry=True)`` from ``process_output_stream``, ``process_output_step`` or
``process_tool_result``; an error processor's ``{"retry": True}``) roll the step back, emit a ``step-finish``
whose step result reason is ``"retry"`` (clients drop that step's text), add the reason as a tagged system
message, and call the model again. They consume the step budget (``max_steps``).

The model's chunks are streamed by :meth:`Run.events` itself, not by a nested generator: each generator level
costs about a microsecond per chunk, and the per-chunk path is the hot one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from processors.chunks import (
    AnyChunk,
    Chunk,
    DataChunk,
    ErrorChunk,
    ErrorPayload,
    FinishChunk,
    FinishPayload,
    StartChunk,
    StepFinishChunk,
    StepFinishPayload,
    StepOutput,
    StepResult,
    StepStartChunk,
    StepStartPayload,
    TextDeltaChunk,
    TripwireChunk,
    TripwirePayload,
    text_delta,
)
from processors.context import RequestContext, StreamWriter
from processors.errors import ModelAdapterError, ModelAPIError, ProcessorContractError, ProcessorError
from processors.memory.base import Memory
from processors.message_list import MessageList
from processors.messages import DataPart, ErrorInfo, ErrorPart, Message, MessageContent, TextPart, new_id
from processors.models import resolve_model
from processors.models.base import LanguageModel, ModelRequest, TextDelta
from processors.phases import (
    run_api_error,
    run_input,
    run_input_step,
    run_llm_request,
    run_llm_response,
    run_output_result,
    run_output_step,
)
from processors.result import GenerateResult, Step
from processors.runner import Entry, RunContext, StreamChain, notify_violation
from processors.step import EndRun, RetryStep, StepBuilder, StepState, replay
from processors.tool_calls import run_tools
from processors.tools import Tool
from processors.tracing import TraceHub
from processors.tripwire import TripWire, TripwireData
from processors.usage import Usage

logger = logging.getLogger(__name__)

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


class Run:
    """State of one call. :meth:`events` is the async generator the public stream wraps."""

    def __init__(self, config: RunConfig, messages: Any) -> None:
        self.config = config
        self.run_id = config.run_id
        self.message_list = MessageList(thread_id=config.thread_id, resource_id=config.resource_id)
        self._pending: list[DataChunk] = []
        self.writer = StreamWriter(self._pending.append)
        self.ctx = RunContext(
            run_id=self.run_id,
            request_context=config.request_context,
            writer=self.writer,
            tracer=config.tracer,
            abort_signal=asyncio.Event(),
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
        self.data_parts: list[DataPart] = []
        #: What memory keeps: "none" (blocked input), "input" (rejected response) or "all".
        self.save_mode = "none"
        #: Chunks to emit just before the terminal one (the ``step-finish`` of a tripped step).
        self.pending_terminal: list[AnyChunk] = []
        self.initial_system: list[dict[str, Any]] = []
        #: The processor whose ``process_llm_request`` answered the current step instead of the model (a cache).
        self.cache_source: str | None = None
        #: The task saving the turn, once the run ended (a stopped run saves in the background; ``aclose()``
        #: waits for it).
        self.saving: asyncio.Task[None] | None = None
        #: The step in progress, so a stopped run can keep what was streamed of it.
        self.current_state: StepState | None = None
        #: The object a structured-output processor emitted (``data-structured-output``), for ``result.object``.
        self.structured_object: Any = None
        self.retry_count = 0
        self.api_retry_count = 0
        self.max_retries = config.max_processor_retries
        if self.max_retries is None and config.error_entries:
            self.max_retries = DEFAULT_ERROR_PROCESSOR_RETRIES

    # ----------------------------------------------------------------------------------------- chunks
    def chunk(self, cls: type[Chunk], payload: Any) -> Chunk:
        return cls(run_id=self.run_id, payload=payload)  # type: ignore[call-arg]  # each subclass defaults its type

    async def process(self, chunk: AnyChunk) -> AnyChunk | None:
        """One chunk through ``process_output_stream``; a TripWire propagates (after ``on_violation``)."""
        chain = self.chain
        if not chain:
            return chunk
        try:
            if not chain.has_async and not self.ctx.tracer.active:
                return chain.process_sync(chunk)
            return await chain.process(chunk)
        except TripWire as tripwire:
            entry = chain.entry_for(tripwire.processor_id)
            if entry is not None:
                await notify_violation(entry, tripwire)
            raise

    async def emit(self, chunk: AnyChunk, builder: StepBuilder | None = None) -> list[AnyChunk]:
        """A chunk through the chain, with what processors wrote before it and re-driven parts after it."""
        processed = await self.process(chunk)
        out = await self.drain() if self._pending else []
        if processed is not None:
            if builder is not None:
                builder.fold(processed)
            out.append(processed)
        if self.chain.reprocess:
            out += await self._reprocess(builder)
        return out

    async def _reprocess(self, builder: StepBuilder | None) -> list[AnyChunk]:
        out: list[AnyChunk] = []
        queue = self.chain.reprocess
        while queue:
            processed = await self.process(queue.pop(0))
            if self._pending:
                out += await self.drain()
            if processed is not None:
                if builder is not None:
                    builder.fold(processed)
                out.append(processed)
        return out

    async def drain(self) -> list[AnyChunk]:
        """Chunks written with ``writer.custom``: processed, then persisted on the response unless transient."""
        out: list[AnyChunk] = []
        guard = 0
        while self._pending:
            guard += 1
            if guard > 10_000:
                raise ProcessorContractError("writer.custom() was called in a loop: more than 10,000 chunks pending")
            processed = await self.process(self._pending.pop(0))
            if processed is None:
                continue
            if isinstance(processed, DataChunk):
                if processed.type == STRUCTURED_OUTPUT_CHUNK:
                    self.structured_object = processed.data
                if not processed.transient:
                    self.data_parts.append(DataPart(type=processed.type, data=processed.data, id=processed.id))
            out.append(processed)
        return out

    def tripwire_chunk(self, tripwire: TripWire) -> Chunk:
        data = tripwire.to_data()
        self.tripwire = data
        self.finish_reason = "other"
        return self.chunk(
            TripwireChunk,
            TripwirePayload(
                reason=data.reason, retry=data.retry, metadata=data.metadata, processor_id=data.processor_id
            ),
        )

    def error_chunk(self, error: BaseException, message: str | None = None) -> Chunk:
        self.finish_reason = "error"
        self.error = message or str(error)
        payload: Any = (
            error.to_dict()
            if isinstance(error, ModelAPIError)
            else {
                "name": type(error).__name__,
                "message": self.error,
                "processorId": getattr(error, "processor_id", None),
                "hook": getattr(error, "hook", None),
            }
        )
        return self.chunk(ErrorChunk, ErrorPayload(error=payload))

    def step_finish_chunk(self, step: Step, message_id: str, reason: str, *, is_continued: bool) -> Chunk:
        return self.chunk(
            StepFinishChunk,
            StepFinishPayload(
                message_id=message_id,
                step_result=StepResult(reason=reason, raw_reason=step.finish_reason, is_continued=is_continued),
                output=StepOutput.model_validate(
                    {"text": step.text, "tool_calls": step.tool_calls, "usage": step.usage}
                ),
            ),
        )

    def can_retry(self, tripwire: TripWire) -> bool:
        if not tripwire.retry:
            return False
        if self.max_retries is None:
            logger.warning(
                "Processor %r requested a retry but max_processor_retries is not set; treating it as an abort",
                tripwire.processor_id,
            )
            return False
        return self.retry_count < self.max_retries

    # ----------------------------------------------------------------------------------------- the run
    async def events(self) -> AsyncGenerator[AnyChunk, None]:
        """The run. The terminal chunk is yielded only after memory was saved, so a client that acts on it (or
        stops reading there) finds the turn stored."""
        config = self.config
        terminal: list[AnyChunk] = []
        try:
            for text in config.instructions:
                self.message_list.add_system(text)
            if config.memory is not None and config.thread_id:
                remembered = await config.memory.load_messages(config.thread_id, resource_id=config.resource_id)
                self.message_list.add(remembered, "memory")
            self.message_list.add(self._input, "input")
            if config.context_messages:
                self.message_list.add(config.context_messages, "context")
            yield self.chunk(StartChunk, {})
            for chunk in await run_input(self):
                yield chunk
            self.initial_system = self.message_list.get_system_messages()
            self.save_mode = "all"
            step_number = 0
            while step_number < config.max_steps:
                if self.ctx.tracer.active:  # one summary per step; the run's last chunks join the last step's
                    self.chain.flush_trace()
                self.ctx.step_number = step_number
                state = self.current_state = StepState()
                try:
                    # aclosing: when the run is stopped at a yield, the step's model stream (its HTTP response)
                    # and its tools are closed before aclose() returns, not whenever the step is collected.
                    async with contextlib.aclosing(self._step(step_number, state)) as step_chunks:
                        async for chunk in step_chunks:
                            yield chunk
                except TripWire as tripwire:  # from a chunk outside the model's stream (step-finish, tool-result...)
                    if not self.can_retry(tripwire):
                        if not state.accepted:
                            self._keep_partial_step(state, tripwire=tripwire)
                        raise EndRun(self.tripwire_chunk(tripwire)) from None
                    for chunk in self._retract(step_number, RetryStep(tripwire), state):
                        yield chunk
                    step_number += 1
                    if step_number >= config.max_steps:
                        raise EndRun(self.tripwire_chunk(tripwire)) from None
                    continue
                except RetryStep as retry:
                    for chunk in self._retract(step_number, retry, state):
                        yield chunk
                    step_number += 1
                    if step_number >= config.max_steps:  # the budget ran out while retrying
                        if retry.error is not None:
                            raise EndRun(self.error_chunk(retry.error, f"Model call failed: {retry.error}")) from None
                        raise EndRun(self.tripwire_chunk(retry.tripwire)) from None
                    continue
                step_number += 1
                last = self.steps[-1] if self.steps else None
                if not (last and last.tool_calls and step_number < config.max_steps):
                    break
            for chunk in await run_output_result(self):
                yield chunk
            self._commit_late_data_parts()
            last = self.steps[-1] if self.steps else None
            finish = self.chunk(
                FinishChunk,
                FinishPayload(
                    step_result=StepResult(reason=self.finish_reason),
                    output=StepOutput.model_validate(
                        {
                            "text": "".join(self.text_parts),
                            "usage": self.usage,
                            "tool_calls": last.tool_calls if last else [],
                        }
                    ),
                ),
            )
            terminal = await self.emit(finish)
            if not any(chunk.type == "finish" for chunk in terminal):
                # A stream processor dropped it; the terminal chunk cannot be swallowed (every stream ends with
                # exactly one), as Mastra's terminal error chunk passes the output processors without being lost.
                terminal.append(finish)
            self._commit_late_data_parts()
        except EndRun as end:
            terminal = [*self.pending_terminal, end.chunk]
        except TripWire as tripwire:  # a stream processor blocked a chunk outside any step (the finish chunk)
            terminal = [self.tripwire_chunk(tripwire)]
        except ProcessorError as error:  # a stream processor broke the contract (its hook named in the error)
            if self.current_state is not None and not self.current_state.accepted:
                self._keep_partial_step(self.current_state, error)
            terminal = [self.error_chunk(error)]
        except (GeneratorExit, asyncio.CancelledError):  # the consumer stopped the run: keep what it saw
            self.ctx.abort_signal.set()
            self.finish_reason = "abort"
            if self.current_state is not None and not self.current_state.accepted:
                self._keep_partial_step(self.current_state, reason="abort")
            self._finalise()
            self.saving = _in_background(self._save())
            raise
        finally:
            if self.ctx.tracer.active:
                self.chain.flush_trace()
        self._finalise()
        if self.config.memory is not None:
            # Shielded: a run stopped while it saves (its answer complete) still stores the turn, in the background.
            self.saving = _in_background(self._save())
            if self.saving is not None:
                await asyncio.shield(self.saving)
        for chunk in terminal:
            yield chunk

    async def _step(self, step_number: int, state: StepState) -> AsyncGenerator[AnyChunk, None]:
        """One model call and what follows it. The model's chunks are the hot path, written inline."""
        ml = self.message_list
        ml.replace_all_system_messages(self.initial_system)
        state.boundary = ml.boundary()
        step_config = await run_input_step(self, step_number)
        model = resolve_model(step_config["model"])
        step_tools = step_config["tools"]
        if step_config["active_tools"] is not None:
            active = set(step_config["active_tools"])
            step_tools = {name: tool for name, tool in step_tools.items() if name in active}
        prompt, cached = await run_llm_request(self, step_number, model)
        request = ModelRequest(
            messages=prompt,
            tools=[tool.to_openai() for tool in step_tools.values()],
            tool_choice=(step_config["tool_choice"] or "auto") if step_tools else None,
            settings=dict(step_config["model_settings"]),
            provider_options=dict(step_config["provider_options"]),
            response_format=_response_format(step_config["structured_output"]),
        )
        message_id = step_config.get("message_id") or new_id("msg")
        step = state.step = Step(step_number=step_number, model_id=model.model_id, from_cache=cached is not None)
        builder = state.builder = StepBuilder(self.run_id, message_id)
        self.chain.set_retry_count(self.retry_count)
        for chunk in await self.emit(self.chunk(StepStartChunk, StepStartPayload(message_id=message_id))):
            yield chunk
        record_raw = any("process_llm_response" in e.hooks for e in self.config.input_entries)
        raw_chunks: list[dict[str, Any]] = []

        # ---- the model's stream: per chunk, convert → process_output_stream → fold → yield
        chain, pending, fold, convert = self.chain, self._pending, builder.fold, builder.convert
        run_id, text_id = self.run_id, builder.text_id
        has_chain = bool(chain)
        while True:
            fast = has_chain and not chain.has_async and not self.ctx.tracer.active
            source: Any = None
            try:
                try:
                    source = replay(cached, run_id) if cached is not None else model.stream(request)
                    next_event = aiter(source).__anext__
                except ModelAPIError:
                    raise
                except Exception as exc:  # stream() itself failed, or did not return an async iterator
                    raise self._source_error(model, cached is not None, exc) from exc
                while True:
                    # The model's own failures, told apart from the chain's: only what the adapter raised is a
                    # failed model call (a try block costs nothing in 3.11 until it catches).
                    try:
                        event = await next_event()
                    except StopAsyncIteration:
                        break
                    except ModelAPIError:
                        raise
                    except Exception as exc:
                        raise self._source_error(model, cached is not None, exc) from exc
                    if type(event) is TextDelta and builder.text_open:
                        produced: tuple[Any, ...] = (text_delta(run_id, text_id, event.text),)
                    else:
                        produced = convert(event)
                    for chunk in produced:
                        if record_raw:
                            raw_chunks.append({"type": chunk.type, "payload": chunk.payload})
                        if not has_chain:
                            processed: AnyChunk | None = chunk
                        elif fast:
                            processed = chain.process_sync(chunk)
                        else:
                            processed = await chain.process(chunk)
                        if pending:
                            for extra in await self.drain():
                                yield extra
                        if processed is not None:
                            if type(processed) is TextDeltaChunk:
                                builder.streamed = True
                                builder.texts.append(processed.payload.text)
                            else:
                                fold(processed)
                            yield processed
                        if chain.reprocess:
                            for extra in await self._reprocess(builder):
                                yield extra
                if not builder.finished:
                    if cached is None:
                        raise ModelAPIError(None, "The model stream ended before it finished", True)
                    builder.finish_reason, builder.finished = "stop", True  # a replay need not record its end
                break
            except TripWire as tripwire:
                entry = chain.entry_for(tripwire.processor_id)
                if entry is not None:
                    await notify_violation(entry, tripwire)
                if self.can_retry(tripwire):
                    raise RetryStep(tripwire) from None
                self._keep_partial_step(state, tripwire=tripwire)
                raise EndRun(self.tripwire_chunk(tripwire)) from None
            except ModelAPIError as error:
                if await run_api_error(self, error, step_number):
                    # a retry is a new loop iteration: it consumes the step budget, as in Mastra
                    reason = f"the model call failed and is retried: {error.message}"
                    raise RetryStep(TripWire(reason, retry=True), error=error) from None
                self._keep_partial_step(state, error)
                raise EndRun(self.error_chunk(error, f"Model call failed: {error.message}")) from None
            finally:
                await _close_source(source)

        # ---- after the model
        if record_raw:
            raw_chunks.append(builder.finish_record())
        step.text = builder.text()
        step.reasoning = "".join(builder.reasoning)
        step.tool_calls = [dict(c) for c in builder.tool_calls]
        step.finish_reason = builder.finish_reason
        step.usage = builder.usage
        self.usage = self.usage + builder.usage
        self.steps.append(step)
        ml.add(builder.message(self._take_data_parts()), "response")
        await run_llm_response(self, step_number, model, raw_chunks, cached is not None)
        for chunk in await run_output_step(self, step_number, step, builder):
            yield chunk
        step.text = _current_step_text(ml, step.text)  # a processor may have rewritten the step's answer
        step.tool_calls = [dict(c) for c in builder.tool_calls]
        self.text_parts.append(step.text)
        state.accepted = True
        self.finish_reason = step.finish_reason
        step_finish = self.step_finish_chunk(step, message_id, step.finish_reason, is_continued=bool(step.tool_calls))
        for chunk in await self.emit(step_finish):
            yield chunk
        if step.tool_calls:
            async with contextlib.aclosing(run_tools(self, step_number, step, step_tools)) as tool_chunks:
                async for chunk in tool_chunks:
                    yield chunk
        self.retry_count = 0  # the step stood: only consecutive retries carry forward
        self.api_retry_count = 0

    def _source_error(self, model: LanguageModel, replayed: bool, error: Exception) -> Exception:
        """What failed while the step's events were read: the model adapter, or the cached response a processor
        supplied in ``process_llm_request`` (then the processor is named, not the model it replaced)."""
        if not replayed:
            return adapter_error(model, error)
        pid = self.cache_source
        return ProcessorContractError(
            f"Processor '{pid}' returned a response from process_llm_request whose chunks cannot be replayed: "
            f"{type(error).__name__}: {error}",
            processor_id=pid,
            hook="process_llm_request",
        )

    def _commit_late_data_parts(self) -> None:
        """Data chunks written after the last step (by ``process_output_result`` or on the ``finish`` chunk) are
        saved on the last response message, as Mastra persists them on the current response."""
        if not self.data_parts:
            return
        parts = self._take_data_parts()
        responses = self.message_list.get.response.db()
        if responses and responses[-1].role == "assistant":
            responses[-1].content.parts.extend(parts)
        else:
            self.message_list.add(Message(role="assistant", content=MessageContent(parts=list(parts))), "response")

    def _take_data_parts(self) -> list[DataPart]:
        parts, self.data_parts = self.data_parts, []
        return parts

    def _keep_partial_step(
        self,
        state: StepState,
        error: BaseException | None = None,
        tripwire: TripWire | None = None,
        reason: str | None = None,
    ) -> None:
        """Keep what was streamed before a block or a failure: the user saw it, so the thread keeps it."""
        builder = state.builder
        step = state.step
        if builder is None or step is None:
            return
        step.text = builder.text()
        if step in self.steps:
            return
        step.finish_reason = reason or ("error" if error else "tripwire")
        if tripwire is not None:
            step.tripwire = tripwire.to_data()
        step.usage = builder.usage
        self.steps.append(step)
        self.text_parts.append(step.text)
        extra: list[Any] = []
        if error is not None:
            extra.append(ErrorPart(error=ErrorInfo(name=type(error).__name__, message=str(error))))
        message = builder.message(self._take_data_parts() + extra)
        if message.content.parts:
            self.message_list.add(message, "response")

    def _retract(self, step_number: int, retry: RetryStep, state: StepState) -> list[AnyChunk]:
        """A step was rejected: tell clients to drop it, roll the list back, and feed the reason to the retry.

        A failed model call retried by an error processor keeps what that processor did to the list (Mastra),
        and gets no feedback message: there is no rejected answer to comment on.
        """
        step = state.step or Step(step_number=step_number)
        builder = state.builder
        if state.accepted and self.text_parts:
            self.text_parts.pop()
        step.rejected_text = builder.text() if builder else step.text
        step.text = ""
        step.tool_calls = []
        step.tool_results = []
        step.finish_reason = "retry"
        if step not in self.steps:
            if builder is not None:
                step.usage = builder.usage
                self.usage = self.usage + builder.usage
            self.steps.append(step)
        self.data_parts = []
        if retry.error is not None:
            step.error = str(retry.error)
        else:
            step.tripwire = retry.tripwire.to_data()
            if state.boundary is not None:
                self.message_list.rollback(state.boundary)
            self.retry_count += 1
            self.message_list.add_system(retry_feedback(retry.tripwire.reason), RETRY_FEEDBACK_TAG)
        message_id = builder.message_id if builder else new_id("msg")
        return [self.step_finish_chunk(step, message_id, "retry", is_continued=True)]

    # ----------------------------------------------------------------------------------------- the end
    def _finalise(self) -> None:
        if self.result is not None:
            return
        text = "".join(self.text_parts)
        self.result = GenerateResult(
            run_id=self.run_id,
            text=text,
            finish_reason=self.finish_reason,
            tripwire=self.tripwire,
            steps=self.steps,
            usage=self.usage,
            messages=self.message_list.get.response.db(),
            error=self.error,
            warnings=list(self.ctx.warnings),
            thread_id=self.config.thread_id,
            resource_id=self.config.resource_id,
        )
        if self.config.structured_output is not None and self.finish_reason in ("stop", "length"):
            self.result.object = _parse_structured(text, self.config.structured_output)
        if self.result.object is None and self.structured_object is not None:
            self.result.object = self.structured_object

    async def _save(self) -> None:
        """Save the turn; a storage failure is reported on the result, never turned into a lost answer."""
        memory = self.config.memory
        if memory is None or not self.config.thread_id or self.save_mode == "none":
            return
        sources = {"input", "response"} if self.save_mode == "all" else {"input"}
        to_save = [m for m in self.message_list.get.all.db() if self.message_list.get_source(m) in sources]
        if not to_save:
            return
        try:
            await memory.save_messages(self.config.thread_id, to_save, resource_id=self.config.resource_id)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            logger.exception("saving thread %s failed", self.config.thread_id)
            message = f"The conversation could not be saved: {type(error).__name__}: {error}"
            if self.result is not None:
                self.result.warnings.append(message)


_BACKGROUND: set[asyncio.Task[None]] = set()


def _in_background(coroutine: Any) -> asyncio.Task[None] | None:
    """Run a save that must outlive a cancelled run (the task is kept referenced until it ends)."""
    try:
        task = asyncio.get_running_loop().create_task(coroutine)
    except RuntimeError:  # no loop any more (interpreter shutting down)
        coroutine.close()
        return None
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
    return task


def adapter_error(model: LanguageModel, error: Exception) -> ModelAdapterError:
    """A model adapter's unexpected exception as a failed model call that names the model."""
    model_id = getattr(model, "model_id", None) or type(model).__name__
    return ModelAdapterError(str(model_id), error, provider=getattr(model, "provider", None))


async def _close_source(source: Any) -> None:
    """Close the model's stream (its HTTP response). A broken ``aclose`` is logged: it must not replace the
    step's outcome (or error) with its own; cancellation still propagates."""
    close = getattr(source, "aclose", None)
    if close is None:
        return
    try:
        await close()
    except Exception:
        logger.warning("closing the model's stream failed", exc_info=True)


def _current_step_text(ml: MessageList, fallback: str) -> str:
    """The text of the latest step as the message list now holds it (after ``process_output_step``)."""
    responses = ml.get.response.db()
    if not responses or responses[-1].role != "assistant":
        return fallback
    parts = responses[-1].content.parts
    start = max((i for i, part in enumerate(parts) if part.type == "step-start"), default=-1) + 1
    texts = [part.text for part in parts[start:] if isinstance(part, TextPart)]
    return "".join(texts) if start > 0 or texts else fallback


def _response_format(structured: Any) -> dict[str, Any] | None:
    if structured is None:
        return None
    schema = structured.get("schema") if isinstance(structured, dict) else structured
    if isinstance(schema, type) and issubclass(schema, BaseModel):
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
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            return schema.model_validate(value)
        except ValueError:
            return None
    return value


__all__ = ["DEFAULT_ERROR_PROCESSOR_RETRIES", "RETRY_FEEDBACK_TAG", "Run", "RunConfig", "retry_feedback"]
