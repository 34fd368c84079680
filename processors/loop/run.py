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

:class:`Run` holds its collaborators: the run's :class:`~processors.loop.run_state.RunState` (messages, steps,
outcome, and the output chain its chunks pass), its :class:`~processors.loop.run_tracing.RunTracing`, and calls the
hook phases (``phases``, ``output_phases``, ``tool_calls``: each one :func:`~processors.pipeline.runner.run_lane`
over a lane) with that state. A step is three parts: :meth:`Run._open_step` (the hooks before the model, the
request), :meth:`Run._stream_model` (the model's chunks through ``process_output_stream``: the hot path, written
inline, one generator below :meth:`Run.events` since each generator level costs about a microsecond per chunk)
and :meth:`Run._close_step` (the hooks after the model, the tools).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator
from typing import Any

from processors.chunks import (
    AnyChunk,
    FinishChunk,
    FinishPayload,
    StartChunk,
    StepOutput,
    StepResult,
    StepStartChunk,
    StepStartPayload,
    TextDeltaChunk,
    text_delta,
)
from processors.errors import ModelAPIError, ProcessorContractError, ProcessorError
from processors.loop.config import RunConfig
from processors.loop.model_io import adapter_error, close_source, response_format
from processors.loop.output_phases import run_llm_response, run_output_result, run_output_step
from processors.loop.phases import run_api_error, run_input, run_input_step, run_llm_request
from processors.loop.run_state import RunState, in_background
from processors.loop.run_tracing import CallOutcome, RunTracing
from processors.loop.step import EndRun, RetryStep, StepBuilder, StepState, replay
from processors.loop.tool_calls import run_tools
from processors.memory.base import Memory
from processors.messages import Message, new_id
from processors.models import resolve_model
from processors.models.base import LanguageModel, ModelRequest, TextDelta
from processors.pipeline.runner import notify_violation
from processors.result import Step
from processors.tools import Tool
from processors.tripwire import TripWire

logger = logging.getLogger(__name__)


class StepCall:
    """One step's model call as :meth:`Run._open_step` prepared it, for the two parts that follow."""

    __slots__ = (
        "builder", "cached", "model", "opening", "raw_chunks", "record_raw", "request", "step", "step_number", "tools",
    )  # fmt: skip

    def __init__(
        self,
        step: Step,
        builder: StepBuilder,
        model: LanguageModel,
        request: ModelRequest,
        cached: list[dict[str, Any]] | None,
        tools: dict[str, Tool],
        record_raw: bool,
    ) -> None:
        #: The step's record and the reducer its chunks fold into (the run's ``StepState`` holds them too).
        self.step = step
        self.builder = builder
        self.step_number = step.step_number
        self.model = model
        self.request = request
        #: The response a processor supplied in ``process_llm_request`` instead of a model call.
        self.cached = cached
        self.tools = tools
        #: Whether ``process_llm_response`` listens, so the step's chunks are recorded for it in ``raw_chunks``.
        self.record_raw = record_raw
        self.raw_chunks: list[dict[str, Any]] = []
        #: The ``step-start`` chunk and what processors wrote before it, as the output chain let them out.
        self.opening: list[AnyChunk] = []


class Run:
    """One call. :meth:`events` is the async generator the public stream wraps."""

    def __init__(self, config: RunConfig, messages: Any) -> None:
        self.config = config
        self.state = RunState(config)
        self.tracing = RunTracing(self.state)
        #: The caller's messages, added to the list when the run starts.
        self.input = messages

    @property
    def run_id(self) -> str:
        return self.state.run_id

    # ----------------------------------------------------------------------------------------- the run
    async def events(self) -> AsyncGenerator[AnyChunk, None]:
        """The run. The terminal chunk is yielded only after memory was saved, so a client that acts on it (or
        stops reading there) finds the turn stored."""
        config, run = self.config, self.state
        terminal: list[AnyChunk] = []
        if run.ctx.tracer.active:
            self.tracing.trace_run_start()
        try:
            yield run.chunk(StartChunk, {})
            for chunk in await self._open_run():
                yield chunk
            step_number = 0
            while step_number < config.max_steps:
                if run.ctx.tracer.active:  # one summary per step; the run's last chunks join the last step's
                    run.chain.flush_trace()
                run.ctx.step_number = step_number
                step_state = run.current_state = StepState()
                try:
                    call = await self._open_step(step_number, step_state)
                    for chunk in call.opening:
                        yield chunk
                    # aclosing: when the run is stopped at a yield, the step's model stream (its HTTP response)
                    # and its tools are closed before aclose() returns, not whenever the step is collected.
                    async with contextlib.aclosing(self._stream_model(call, step_state)) as model_chunks:
                        async for chunk in model_chunks:
                            yield chunk
                    async with contextlib.aclosing(self._close_step(call, step_state)) as step_chunks:
                        async for chunk in step_chunks:
                            yield chunk
                except (TripWire, RetryStep) as rejected:  # a TripWire: from a chunk outside the model's stream
                    for chunk in self._retract(step_number, rejected, step_state):
                        yield chunk
                    step_number += 1
                    if step_number >= config.max_steps:  # the budget ran out while retrying
                        raise self._out_of_steps(rejected) from None
                    continue
                step_number += 1
                last = run.steps[-1] if run.steps else None
                if not (last and last.tool_calls and step_number < config.max_steps):
                    break
            terminal = await self._close_run()
        except Exception as error:  # the run ended early: the stream still ends with one terminal chunk
            terminal = self._terminal_after(error)
        except (GeneratorExit, asyncio.CancelledError):  # the consumer stopped the run: keep what it saw
            self._stopped()
            raise
        finally:
            if run.ctx.tracer.active:
                run.chain.flush_trace()
                self.tracing.trace_run_end()
        # calls the run ended without answering get an output-error, told just before the terminal chunk
        terminal[-1:-1] = run.answer_open_calls()
        run.finalise()
        if config.memory is not None:
            # Shielded: a run stopped while it saves (its answer complete) still stores the turn, in the background.
            run.saving = in_background(run.save())
            if run.saving is not None:
                await asyncio.shield(run.saving)
        for chunk in terminal:
            yield chunk

    def _retract(self, step_number: int, rejected: TripWire | RetryStep, step_state: StepState) -> list[AnyChunk]:
        """A step rejected for a retry: the chunks that take it back. A block that cannot be retried (a
        :class:`TripWire` from a chunk outside the model's stream) ends the run, keeping what was streamed."""
        run = self.state
        if isinstance(rejected, TripWire):
            if not run.can_retry(rejected):
                if not step_state.accepted:
                    run.keep_partial_step(step_state, tripwire=rejected)
                raise EndRun(run.tripwire_chunk(rejected)) from None
            rejected = RetryStep(rejected)
        return run.retract(step_number, rejected, step_state)

    def _out_of_steps(self, rejected: TripWire | RetryStep) -> EndRun:
        """The end of a run whose step budget ran out while retrying: the model's error, or the last block."""
        run = self.state
        if isinstance(rejected, TripWire):
            return EndRun(run.tripwire_chunk(rejected))
        if rejected.error is not None:
            return EndRun(run.error_chunk(rejected.error, f"Model call failed: {rejected.error}"))
        return EndRun(run.tripwire_chunk(rejected.tripwire))

    def _terminal_after(self, error: Exception) -> list[AnyChunk]:
        """The terminal chunks of a run that ended early (called while ``error`` is handled)."""
        run = self.state
        if isinstance(error, EndRun):
            return [*run.pending_terminal, error.chunk]
        if isinstance(error, TripWire):  # a stream processor blocked a chunk outside any step (the finish chunk)
            return [run.tripwire_chunk(error)]
        if isinstance(error, ProcessorError):  # a stream processor broke the contract (its hook named in the error)
            message = None
        else:  # a bug or input the run cannot use
            logger.exception("run %s failed", run.run_id)
            message = f"The run failed: {type(error).__name__}: {error}"
        if run.current_state is not None and not run.current_state.accepted:
            run.keep_partial_step(run.current_state, error)
        return [run.error_chunk(error, message)]

    def _stopped(self) -> None:
        """The consumer stopped the run: keep what it saw, answer the open calls, save in the background."""
        run = self.state
        run.ctx.abort_signal.set()
        run.finish_reason = "abort"
        if run.current_state is not None and not run.current_state.accepted:
            run.keep_partial_step(run.current_state, reason="abort")
        run.answer_open_calls()  # nobody reads the chunks now; the thread still gets the answers
        run.finalise()
        run.saving = in_background(run.save())

    async def _open_run(self) -> list[AnyChunk]:
        """The run's messages (instructions, memory, input, context) and ``process_input``, before the first step."""
        config, run = self.config, self.state
        for text in config.instructions:
            run.message_list.add_system(text)
        if config.memory is not None and config.thread_id:
            run.message_list.add(await self._remembered(config.memory, config.thread_id), "memory")
        run.message_list.add(self.input, "input")
        if config.context_messages:
            run.message_list.add(config.context_messages, "context")
        chunks = await run_input(run)
        run.initial_system = run.message_list.get_system_messages()
        run.save_mode = "all"
        return chunks

    async def _close_run(self) -> list[AnyChunk]:
        """``process_output_result``, then the ``finish`` chunk through the output chain: the run's last chunks."""
        run = self.state
        closing = await run_output_result(run)
        run.commit_late_data_parts()
        last = run.steps[-1] if run.steps else None
        finish = run.chunk(
            FinishChunk,
            FinishPayload(
                step_result=StepResult(reason=run.finish_reason),
                output=StepOutput.model_validate(
                    {
                        "text": "".join(run.text_parts),
                        "usage": run.usage,
                        "tool_calls": last.tool_calls if last else [],
                    }
                ),
            ),
        )
        run.chain.finishing = True  # from here on a processor may hand the finish on (StreamChain)
        terminal = await run.emit(finish)
        # The finish ends the stream, once: what a processor stashed beside it goes before it, and of a finish
        # it handed on beside the run's own (a changed copy, and the original stashed) the last one stands.
        # A finish a stream processor dropped comes back: the terminal chunk cannot be swallowed, as Mastra's
        # terminal error chunk passes the output processors without being lost.
        finishes = [chunk for chunk in terminal if isinstance(chunk, FinishChunk)]
        terminal = [chunk for chunk in terminal if not isinstance(chunk, FinishChunk)]
        terminal.append(finishes[-1] if finishes else finish)
        run.commit_late_data_parts()
        return closing + terminal

    async def _remembered(self, memory: Memory, thread_id: str) -> list[Message]:
        """The thread's history. A store that fails ends the run with an ``error`` chunk saying so (the stream's
        contract: one terminal chunk, never a raw exception); nothing is saved, so the thread stays as it was."""
        try:
            return list(await memory.load_messages(thread_id, resource_id=self.config.resource_id))
        except asyncio.CancelledError:
            raise
        except Exception as error:
            message = f"The conversation's history could not be loaded: {type(error).__name__}: {error}"
            raise EndRun(self.state.error_chunk(error, message)) from None

    # ----------------------------------------------------------------------------------------- a step
    async def _open_step(self, step_number: int, step_state: StepState) -> StepCall:
        """The hooks before the model (``process_input_step``, ``process_llm_request``), the request they shaped,
        and the ``step-start`` chunk."""
        run = self.state
        ml = run.message_list
        ml.replace_all_system_messages(run.initial_system)
        step_state.boundary = ml.boundary()
        step_config = await run_input_step(run, step_number)
        model = resolve_model(step_config["model"])
        step_tools = step_config["tools"]
        if step_config["active_tools"] is not None:
            active = set(step_config["active_tools"])
            step_tools = {name: tool for name, tool in step_tools.items() if name in active}
        prompt, cached = await run_llm_request(run, step_number, model)
        request = ModelRequest(
            messages=prompt,
            tools=[tool.to_openai() for tool in step_tools.values()],
            tool_choice=(step_config["tool_choice"] or "auto") if step_tools else None,
            settings=dict(step_config["model_settings"]),
            provider_options=dict(step_config["provider_options"]),
            response_format=response_format(step_config["structured_output"]),
        )
        record_raw = bool(self.config.hooked["process_llm_response"])
        message_id = step_config.get("message_id") or new_id("msg")
        step = step_state.step = Step(step_number=step_number, model_id=model.model_id, from_cache=cached is not None)
        builder = step_state.builder = StepBuilder(run.run_id, message_id)
        call = StepCall(step, builder, model, request, cached, step_tools, record_raw)
        run.chain.set_retry_count(run.retry_count)
        call.opening = await run.emit(run.chunk(StepStartChunk, StepStartPayload(message_id=message_id)))
        return call

    async def _stream_model(self, call: StepCall, step_state: StepState) -> AsyncGenerator[AnyChunk, None]:
        """The model's stream: per chunk, convert → ``process_output_stream`` → fold → yield. The hot path."""
        run = self.state
        builder = call.builder
        model, cached, step_number = call.model, call.cached, call.step_number
        record_raw, raw_chunks = call.record_raw, call.raw_chunks
        chain, written, convert = run.chain, run.written, builder.convert
        drain, keep = run.drain, run.keep
        run_id, text_id = run.run_id, builder.text_id
        has_chain = bool(chain)
        # The model call's span (when a tracer listens): measured around the whole stream, told when it ends.
        tracing = run.ctx.tracer.active
        call_started = time.time() if tracing else 0.0
        call_outcome: CallOutcome = "finished"
        call_detail: str | None = None
        fast = has_chain and not chain.has_async and not tracing and run.ctx.debugger is None
        source: Any = None
        try:
            try:
                source = replay(cached, run_id) if cached is not None else model.stream(call.request)
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
                    if written:
                        for extra in await drain(builder):
                            yield extra
                    if processed is not None:
                        if type(processed) is TextDeltaChunk:  # fold's commonest case, inline
                            builder.texts.append(processed.payload.text)
                        else:
                            keep(processed, builder)
                        yield processed
                    if chain.reprocess:
                        for extra in await run.reprocess_stashed(builder):
                            yield extra
            if not builder.finished:
                if cached is None:
                    raise ModelAPIError(None, "The model stream ended before it finished", True)
                builder.finish_reason, builder.finished = "stop", True  # a replay need not record its end
        except TripWire as tripwire:
            call_outcome, call_detail = "aborted", tripwire.reason
            entry = chain.entry_for(tripwire.processor_id)
            if entry is not None:
                await notify_violation(entry, tripwire)
            if run.can_retry(tripwire):
                raise RetryStep(tripwire) from None
            run.keep_partial_step(step_state, tripwire=tripwire)
            raise EndRun(run.tripwire_chunk(tripwire)) from None
        except ModelAPIError as error:
            call_outcome, call_detail = "error", error.message
            if await run_api_error(run, error, step_number):
                # a retry is a new loop iteration: it consumes the step budget, as in Mastra
                reason = f"the model call failed and is retried: {error.message}"
                raise RetryStep(TripWire(reason, retry=True), error=error) from None
            run.keep_partial_step(step_state, error)
            raise EndRun(run.error_chunk(error, f"Model call failed: {error.message}")) from None
        except (GeneratorExit, asyncio.CancelledError):
            call_outcome = "stopped"
            raise
        except Exception as exc:
            call_outcome, call_detail = "error", f"{type(exc).__name__}: {exc}"
            raise
        finally:
            await close_source(source)
            if tracing:
                self.tracing.trace_model_call(
                    step_number, model, call_started, builder, cached is not None, call_outcome, call_detail
                )

    async def _close_step(self, call: StepCall, step_state: StepState) -> AsyncGenerator[AnyChunk, None]:
        """The step as the model left it, then the hooks after the model (``process_llm_response``,
        ``process_output_step``), the ``step-finish`` chunk and the tools."""
        run = self.state
        builder, step = call.builder, call.step
        if call.record_raw:
            call.raw_chunks.append(builder.finish_record())
        step.text = builder.text()
        step.reasoning = "".join(builder.reasoning)
        step.tool_calls = [dict(c) for c in builder.tool_calls]
        step.finish_reason = builder.finish_reason
        step.usage = builder.usage
        run.usage = run.usage + builder.usage
        run.steps.append(step)
        answer = builder.message(run.take_data_parts())
        run.message_list.add(answer, "response")
        step_number, from_cache = call.step_number, call.cached is not None
        await run_llm_response(run, step_number, call.model, call.raw_chunks, from_cache)
        for chunk in await run_output_step(run, step_number, step, builder, answer):
            yield chunk
        step.tool_calls = [dict(c) for c in builder.tool_calls]
        run.text_parts.append(step.text)
        step_state.accepted = True
        run.finish_reason = step.finish_reason
        is_continued = bool(step.tool_calls)
        step_finish = run.step_finish_chunk(step, builder.message_id, step.finish_reason, is_continued=is_continued)
        for chunk in await run.emit(step_finish):
            yield chunk
        if step.tool_calls:
            async with contextlib.aclosing(run_tools(run, step_number, step, call.tools)) as tool_chunks:
                async for chunk in tool_chunks:
                    yield chunk
        run.retry_count = 0  # the step stood: only consecutive retries carry forward
        run.api_retry_count = 0

    def _source_error(self, model: LanguageModel, replayed: bool, error: Exception) -> Exception:
        """What failed while the step's events were read: the model adapter, or the cached response a processor
        supplied in ``process_llm_request`` (then the processor is named, not the model it replaced)."""
        if not replayed:
            return adapter_error(model, error)
        pid = self.state.cache_source
        return ProcessorContractError(
            f"Processor '{pid}' returned a response from process_llm_request whose chunks cannot be replayed: "
            f"{type(error).__name__}: {error}",
            processor_id=pid,
            hook="process_llm_request",
        )


__all__ = ["Run", "StepCall"]
