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
from processors.loop.model_io import adapter_error, close_source, response_format
from processors.loop.output_phases import run_llm_response, run_output_result, run_output_step
from processors.loop.phases import run_api_error, run_input, run_input_step, run_llm_request
from processors.loop.run_state import RunState, in_background
from processors.loop.run_tracing import CallOutcome
from processors.loop.step import EndRun, RetryStep, StepBuilder, StepState, replay
from processors.loop.tool_calls import run_tools
from processors.memory.base import Memory
from processors.messages import Message, new_id
from processors.models import resolve_model
from processors.models.base import LanguageModel, ModelRequest, TextDelta
from processors.pipeline.runner import notify_violation
from processors.result import Step
from processors.tripwire import TripWire

logger = logging.getLogger(__name__)


class Run(RunState):
    """One call. :meth:`events` is the async generator the public stream wraps."""

    # ----------------------------------------------------------------------------------------- the run
    async def events(self) -> AsyncGenerator[AnyChunk, None]:
        """The run. The terminal chunk is yielded only after memory was saved, so a client that acts on it (or
        stops reading there) finds the turn stored."""
        config = self.config
        terminal: list[AnyChunk] = []
        if self.ctx.tracer.active:
            self.trace_run_start()
        try:
            yield self.chunk(StartChunk, {})
            for text in config.instructions:
                self.message_list.add_system(text)
            if config.memory is not None and config.thread_id:
                self.message_list.add(await self._remembered(config.memory, config.thread_id), "memory")
            self.message_list.add(self._input, "input")
            if config.context_messages:
                self.message_list.add(config.context_messages, "context")
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
            self.chain.finishing = True  # from here on a processor may hand the finish on (StreamChain)
            terminal = await self.emit(finish)
            # The finish ends the stream, once: what a processor stashed beside it goes before it, and of a finish
            # it handed on beside the run's own (a changed copy, and the original stashed) the last one stands.
            # A finish a stream processor dropped comes back: the terminal chunk cannot be swallowed, as Mastra's
            # terminal error chunk passes the output processors without being lost.
            finishes = [chunk for chunk in terminal if chunk.type == "finish"]
            terminal = [chunk for chunk in terminal if chunk.type != "finish"]
            terminal.append(finishes[-1] if finishes else finish)
            self._commit_late_data_parts()
        except EndRun as end:
            terminal = [*self.pending_terminal, end.chunk]
        except TripWire as tripwire:  # a stream processor blocked a chunk outside any step (the finish chunk)
            terminal = [self.tripwire_chunk(tripwire)]
        except ProcessorError as error:  # a stream processor broke the contract (its hook named in the error)
            if self.current_state is not None and not self.current_state.accepted:
                self._keep_partial_step(self.current_state, error)
            terminal = [self.error_chunk(error)]
        except Exception as error:  # a bug or input the run cannot use: the stream still ends with one terminal chunk
            logger.exception("run %s failed", self.run_id)
            if self.current_state is not None and not self.current_state.accepted:
                self._keep_partial_step(self.current_state, error)
            terminal = [self.error_chunk(error, f"The run failed: {type(error).__name__}: {error}")]
        except (GeneratorExit, asyncio.CancelledError):  # the consumer stopped the run: keep what it saw
            self.ctx.abort_signal.set()
            self.finish_reason = "abort"
            if self.current_state is not None and not self.current_state.accepted:
                self._keep_partial_step(self.current_state, reason="abort")
            self._answer_open_calls()  # nobody reads the chunks now; the thread still gets the answers
            self._finalise()
            self.saving = in_background(self._save())
            raise
        finally:
            if self.ctx.tracer.active:
                self.chain.flush_trace()
                self.trace_run_end()
        # calls the run ended without answering get an output-error, told just before the terminal chunk
        terminal[-1:-1] = self._answer_open_calls()
        self._finalise()
        if self.config.memory is not None:
            # Shielded: a run stopped while it saves (its answer complete) still stores the turn, in the background.
            self.saving = in_background(self._save())
            if self.saving is not None:
                await asyncio.shield(self.saving)
        for chunk in terminal:
            yield chunk

    async def _remembered(self, memory: Memory, thread_id: str) -> list[Message]:
        """The thread's history. A store that fails ends the run with an ``error`` chunk saying so (the stream's
        contract: one terminal chunk, never a raw exception); nothing is saved, so the thread stays as it was."""
        try:
            return list(await memory.load_messages(thread_id, resource_id=self.config.resource_id))
        except asyncio.CancelledError:
            raise
        except Exception as error:
            message = f"The conversation's history could not be loaded: {type(error).__name__}: {error}"
            raise EndRun(self.error_chunk(error, message)) from None

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
            response_format=response_format(step_config["structured_output"]),
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
        chain, pending, convert = self.chain, self._pending, builder.convert
        run_id, text_id = self.run_id, builder.text_id
        has_chain = bool(chain)
        # The model call's span (when a tracer listens): measured around the whole stream, told when it ends.
        tracing = self.ctx.tracer.active
        call_started = time.time() if tracing else 0.0
        call_outcome: CallOutcome = "finished"
        call_detail: str | None = None
        while True:
            fast = has_chain and not chain.has_async and not self.ctx.tracer.active and self.ctx.debugger is None
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
                            for extra in await self.drain(builder):
                                yield extra
                        if processed is not None:
                            if type(processed) is TextDeltaChunk:  # fold's commonest case, inline
                                builder.texts.append(processed.payload.text)
                            else:
                                self.keep(processed, builder)
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
                call_outcome, call_detail = "aborted", tripwire.reason
                entry = chain.entry_for(tripwire.processor_id)
                if entry is not None:
                    await notify_violation(entry, tripwire)
                if self.can_retry(tripwire):
                    raise RetryStep(tripwire) from None
                self._keep_partial_step(state, tripwire=tripwire)
                raise EndRun(self.tripwire_chunk(tripwire)) from None
            except ModelAPIError as error:
                call_outcome, call_detail = "error", error.message
                if await run_api_error(self, error, step_number):
                    # a retry is a new loop iteration: it consumes the step budget, as in Mastra
                    reason = f"the model call failed and is retried: {error.message}"
                    raise RetryStep(TripWire(reason, retry=True), error=error) from None
                self._keep_partial_step(state, error)
                raise EndRun(self.error_chunk(error, f"Model call failed: {error.message}")) from None
            except (GeneratorExit, asyncio.CancelledError):
                call_outcome = "stopped"
                raise
            except Exception as exc:
                call_outcome, call_detail = "error", f"{type(exc).__name__}: {exc}"
                raise
            finally:
                await close_source(source)
                if tracing:
                    self.trace_model_call(
                        step_number, model, call_started, builder, cached is not None, call_outcome, call_detail
                    )

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
        answer = builder.message(self._take_data_parts())
        ml.add(answer, "response")
        await run_llm_response(self, step_number, model, raw_chunks, cached is not None)
        for chunk in await run_output_step(self, step_number, step, builder, answer):
            yield chunk
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


__all__ = ["Run"]
