"""A run's state: its messages, steps and outcome, and how its chunks reach the output chain and the caller."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, NoReturn

from processors.chunks import (
    AnyChunk,
    Chunk,
    DataChunk,
    ErrorChunk,
    ErrorPayload,
    StepFinishChunk,
    StepFinishPayload,
    StepOutput,
    StepResult,
    ToolErrorChunk,
    ToolErrorPayload,
    TripwireChunk,
    TripwirePayload,
)
from processors.context import StreamWriter
from processors.errors import ModelAPIError, PatternTimeoutError, ProcessorContractError
from processors.loop.config import (
    DEFAULT_ERROR_PROCESSOR_RETRIES,
    RETRY_FEEDBACK_TAG,
    STRUCTURED_OUTPUT_CHUNK,
    RunConfig,
    retry_feedback,
)
from processors.loop.model_io import parse_structured
from processors.loop.step import EndRun, RetryStep, StepBuilder, StepState
from processors.messages import (
    DataPart,
    ErrorInfo,
    ErrorPart,
    Message,
    MessageContent,
    ToolInvocation,
    ToolInvocationPart,
    new_id,
)
from processors.messages.message_list import MessageList
from processors.pipeline.run_context import RunContext
from processors.pipeline.runner import CONTRACT_ERRORS, LanePolicy, notify_violation
from processors.pipeline.stream_chain import StreamChain
from processors.result import GenerateResult, Step
from processors.tripwire import TripWire, TripwireData
from processors.usage import Usage

logger = logging.getLogger("processors.loop.run")


class RunState:
    """What one call holds, and the way its chunks pass the output chain.

    :class:`~processors.loop.run.Run` holds one (its ``state``) beside its :class:`RunTracing` and runs the loop
    over it; the hooks around a step (the phases, ``tool_calls``) are given it as a ``RunView``, the part of it
    they may touch.
    """

    def __init__(self, config: RunConfig) -> None:
        self.config = config
        self.run_id = config.run_id
        self.message_list = MessageList(thread_id=config.thread_id, resource_id=config.resource_id)
        #: Chunks processors and tools wrote with ``writer.custom``, waiting to pass the output chain (``drain``).
        self.written: list[DataChunk] = []
        self.writer = StreamWriter(self.written.append)
        self.ctx = RunContext(
            run_id=self.run_id,
            request_context=config.request_context,
            writer=self.writer,
            tracer=config.tracer,
            abort_signal=asyncio.Event(),
            debugger=config.debugger,
        )
        self.chain = StreamChain(self.ctx, config.output_entries, self.message_list)
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
        #: Tool calls of the current step whose result a processor blocked → that processor's id (see
        #: :meth:`answer_open_calls`).
        self.blocked_calls: dict[str, str | None] = {}
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
        #: The lane policy of most hooks: a block or a broken contract ends the run, naming the processor.
        self.ends_run = LanePolicy(self.end_with_tripwire, CONTRACT_ERRORS, self.end_with_error)

    # ----------------------------------------------------------------------------------------- ending it
    def end_with_tripwire(self, tripwire: TripWire) -> NoReturn:
        """End the run with a ``tripwire`` chunk (a lane's policy for a block)."""
        raise EndRun(self.tripwire_chunk(tripwire)) from None

    def end_with_error(self, error: Exception) -> NoReturn:
        """End the run with an ``error`` chunk naming the processor (a lane's policy for a failure)."""
        raise EndRun(self.error_chunk(error)) from None

    # ----------------------------------------------------------------------------------------- chunks
    def chunk(self, cls: type[Chunk], payload: Any) -> Chunk:
        return cls(run_id=self.run_id, payload=payload)  # type: ignore[call-arg]  # each subclass defaults its type

    async def process(self, chunk: AnyChunk) -> AnyChunk | None:
        """One chunk through ``process_output_stream``; a TripWire propagates (after ``on_violation``)."""
        chain = self.chain
        if not chain:
            return chunk
        try:
            if not chain.has_async and not self.ctx.tracer.active and self.ctx.debugger is None:
                return chain.process_sync(chunk)
            return await chain.process(chunk)
        except TripWire as tripwire:
            entry = chain.entry_for(tripwire.processor_id)
            if entry is not None:
                await notify_violation(entry, tripwire)
            raise

    async def emit(self, chunk: AnyChunk) -> list[AnyChunk]:
        """A chunk outside the model's stream (step-start, step-finish, tool results, finish) through the chain,
        with what processors wrote before it and re-driven parts after it. Nothing here belongs to the step's
        message, so nothing is folded into its builder."""
        processed = await self.process(chunk)
        out = await self.drain() if self.written else []
        if processed is not None:
            out.append(processed)
        if self.chain.reprocess:
            out += await self.reprocess_stashed(None)
        return out

    async def reprocess_stashed(self, builder: StepBuilder | None) -> list[AnyChunk]:
        out: list[AnyChunk] = []
        queue = self.chain.reprocess
        while queue:
            processed = await self.process(queue.pop(0))
            if self.written:
                out += await self.drain(builder)
            if processed is not None:
                self.keep(processed, builder)
                out.append(processed)
        return out

    async def drain(self, builder: StepBuilder | None = None) -> list[AnyChunk]:
        """Chunks written with ``writer.custom``: processed, then persisted on the response unless transient."""
        out: list[AnyChunk] = []
        guard = 0
        while self.written:
            guard += 1
            if guard > 10_000:
                raise ProcessorContractError("writer.custom() was called in a loop: more than 10,000 chunks pending")
            processed = await self.process(self.written.pop(0))
            if processed is None:
                continue
            self.keep(processed, builder)
            out.append(processed)
        return out

    def keep(self, processed: AnyChunk, builder: StepBuilder | None) -> None:
        """What the chain let out goes into the answer whichever part it answered: a stream guard that holds parts
        back in the model's order may let out held text in answer to a data chunk, or a held data chunk in answer to
        a text delta or a re-driven part (``held_chunk_order.py``). A data chunk is persisted unless transient; anything
        else is folded into the step being built, when there is one."""
        if isinstance(processed, DataChunk):
            if processed.type == STRUCTURED_OUTPUT_CHUNK:
                self.structured_object = processed.data
            if not processed.transient:
                self.data_parts.append(DataPart(type=processed.type, data=processed.data, id=processed.id))
        elif builder is not None:
            builder.fold(processed)

    def tripwire_chunk(self, tripwire: TripWire) -> Chunk:
        data = tripwire.to_data()
        self.tripwire = data
        self.finish_reason = "other"
        return self.chunk(
            TripwireChunk,
            TripwirePayload(
                reason=data.reason,
                retry=data.retry,
                metadata=data.metadata,
                processor_id=data.processor_id,
                code=data.code,
                params=data.params,
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
                # a stable code and its values, for errors that have them (PatternTimeoutError): a reader in
                # another language gets the sentence from these, not from the English message
                **({"code": error.code, "params": error.params} if isinstance(error, PatternTimeoutError) else {}),
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

    def commit_late_data_parts(self) -> None:
        """Data chunks written after the last step (by ``process_output_result`` or on the ``finish`` chunk) are
        saved on the last response message, as Mastra persists them on the current response."""
        if not self.data_parts:
            return
        parts = self.take_data_parts()
        responses = self.message_list.get.response.db()
        if responses and responses[-1].role == "assistant":
            responses[-1].content.parts.extend(parts)
        else:
            self.message_list.add(Message(role="assistant", content=MessageContent(parts=list(parts))), "response")

    def take_data_parts(self) -> list[DataPart]:
        parts, self.data_parts = self.data_parts, []
        return parts

    def keep_partial_step(
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
        if step in self.steps:
            # Its answer is in the list already and its text is what the step's processors left of it (a rewrite
            # stands: the builder's text would bring back what they redacted); the result counts it once.
            self.text_parts.append(step.text)
            return
        step.text = builder.text()
        step.finish_reason = reason or ("error" if error else "tripwire")
        if tripwire is not None:
            step.tripwire = tripwire.to_data()
        step.usage = builder.usage
        self.steps.append(step)
        self.text_parts.append(step.text)
        extra: list[Any] = []
        if error is not None:
            extra.append(ErrorPart(error=ErrorInfo(name=type(error).__name__, message=str(error))))
        message = builder.message(self.take_data_parts() + extra)
        if message.content.parts:
            self.message_list.add(message, "response")

    def retract(self, step_number: int, retry: RetryStep, state: StepState) -> list[AnyChunk]:
        """A step was rejected: tell clients to drop it, roll the list back, and feed the reason to the retry.

        A failed model call retried by an error processor keeps what that processor did to the list (Mastra),
        and gets no feedback message: there is no rejected answer to comment on.
        """
        step = state.step or Step(step_number=step_number)
        builder = state.builder
        if state.accepted and self.text_parts:
            self.text_parts.pop()
        # The text the step's processors left (a rewrite stands) once the step was built; what streamed before that.
        step.rejected_text = step.text if builder is None or step in self.steps else builder.text()
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
        self.blocked_calls.clear()
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
    def answer_open_calls(self) -> list[AnyChunk]:
        """Answer every tool call the run ended without answering, and return their ``tool-error`` chunks.

        A run that ends between a tool call and its result (a processor blocked the result, or a later call's, or
        the step before its tools ran; a failure; a stop) would leave the call in state ``call``: the thread a user
        reopens shows it waiting forever, an exported or replayed thread is inconsistent, and a provider rejects a
        history with a call and no tool message. So the call is kept (the tool may have run: it happened) with an
        ``output-error`` that says why, never with a result a processor did not let through; the step's record and
        the stream (just before the terminal chunk, as the runtime's own: the run has ended, so the stream
        processors no longer see chunks) say the same. Mastra 1.71 leaves such calls unanswered.
        """
        ml = self.message_list
        open_calls = [
            part.tool_invocation
            for message in ml.get.response.db()
            for part in message.content.parts
            if isinstance(part, ToolInvocationPart) and part.tool_invocation.state == "call"
        ]
        chunks: list[AnyChunk] = []
        for call in open_calls:
            call_id, name = call.tool_call_id, call.tool_name
            blocked_by = (self.blocked_calls[call_id] or "") if call_id in self.blocked_calls else None
            text = (
                f"The tool's result was blocked by processor '{self.blocked_calls[call_id]}'"
                if call_id in self.blocked_calls
                else f"No result: the run ended before this tool call was answered ({self._how_it_ended()})"
            )
            ml.update_tool_invocation(  # merged into the call: its arguments stay
                ToolInvocationPart(
                    tool_invocation=ToolInvocation(
                        state="output-error",
                        tool_call_id=call_id,
                        tool_name=name,
                        result=None,
                        error_text=text,
                        is_error=True,
                        blocked_by=blocked_by,
                    )
                )
            )
            step = next(
                (s for s in reversed(self.steps) if any(c["tool_call_id"] == call_id for c in s.tool_calls)), None
            )
            if step is not None:
                step.tool_results.append({"tool_call_id": call_id, "tool_name": name, "error": text})
            payload = ToolErrorPayload(
                tool_call_id=call_id, tool_name=name, args=call.args, error=text, blocked_by=blocked_by
            )
            chunks.append(self.chunk(ToolErrorChunk, payload))
        return chunks

    def _how_it_ended(self) -> str:
        if self.tripwire is not None:
            return f"blocked by processor '{self.tripwire.processor_id}'"
        if self.finish_reason == "error":
            return "it failed"
        return "it was stopped"

    def finalise(self) -> None:
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
            self.result.object = parse_structured(text, self.config.structured_output)
        if self.result.object is None and self.structured_object is not None:
            self.result.object = self.structured_object

    async def save(self) -> None:
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


def in_background(coroutine: Any) -> asyncio.Task[None] | None:
    """Run a save that must outlive a cancelled run (the task is kept referenced until it ends)."""
    try:
        task = asyncio.get_running_loop().create_task(coroutine)
    except RuntimeError:  # no loop any more (interpreter shutting down)
        coroutine.close()
        return None
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
    return task


__all__ = ["RunState", "in_background"]
