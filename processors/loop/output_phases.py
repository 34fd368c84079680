"""The hook phases after the model's stream: ``process_llm_response``, ``process_output_step`` (which may reject the
step for a retry) and, once at the end, ``process_output_result``.

Like :mod:`processors.loop.phases` (the phases before and around the model call), each takes the run's
:class:`~processors.loop.run_view.RunView`, returns the chunks it wants emitted, and raises :class:`EndRun` or
:class:`RetryStep`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from processors.chunks import AnyChunk
from processors.errors import ProcessorContractError, ProcessorError
from processors.loop.phases import CONTRACT_ERRORS, message_tracing
from processors.loop.step import EndRun, RetryStep, StepBuilder
from processors.messages import Message
from processors.models.base import LanguageModel
from processors.pipeline.processor import ProcessLLMResponseArgs, ProcessOutputResultArgs, ProcessOutputStepArgs
from processors.pipeline.run_context import Entry, common_args
from processors.pipeline.runner import apply_message_result, invoke
from processors.result import OutputResult, Step
from processors.tripwire import TripWire

if TYPE_CHECKING:
    from processors.loop.run_view import RunView


async def run_llm_response(
    run: RunView, step_number: int, model: LanguageModel, raw_chunks: list[dict[str, Any]], from_cache: bool
) -> None:
    """``process_llm_response``: after the step's stream, with its chunks (paired with ``process_llm_request``)."""
    for entry in run.config.input_entries:
        if "process_llm_response" not in entry.hooks:
            continue
        args = ProcessLLMResponseArgs(
            chunks=raw_chunks,
            model=model,
            step_number=step_number,
            steps=list(run.steps),
            from_cache=from_cache,
            **common_args(run.ctx, entry, run.retry_count),
        )
        try:
            await invoke(
                run.ctx,
                entry,
                "process_llm_response",
                args,
                describe=lambda: f"{len(raw_chunks)} chunks" + (" (from cache)" if from_cache else ""),
                apply=_returns_nothing(entry, "process_llm_response"),
            )
        except TripWire as tripwire:
            raise EndRun(run.tripwire_chunk(tripwire)) from None
        except ProcessorError as error:
            raise EndRun(run.error_chunk(error)) from None


async def run_output_step(run: RunView, step_number: int, step: Step, builder: StepBuilder) -> list[AnyChunk]:
    """``process_output_step``: after each model response, before tools; may reject the step for a retry."""
    ml = run.message_list
    out: list[AnyChunk] = []
    for entry in run.config.output_entries:
        if "process_output_step" not in entry.hooks:
            continue
        given = ml.get.all.db()
        args = ProcessOutputStepArgs(
            messages=given,
            message_list=ml,
            step_number=step_number,
            steps=list(run.steps),
            system_messages=ml.get_system_messages(),
            text=step.text,
            finish_reason=step.finish_reason,
            tool_calls=[dict(c) for c in builder.tool_calls],
            usage=step.usage,
            **common_args(run.ctx, entry, run.retry_count),
        )

        def apply(result: Any, entry: Entry = entry, given: list[Message] = given) -> None:
            if isinstance(result, list) and not result:  # [] means "no change" (a documented deviation)
                return
            apply_message_result(
                result, entry=entry, hook="process_output_step", message_list=ml, given=given, default_source="response"
            )

        try:
            await invoke(run.ctx, entry, "process_output_step", args, apply=apply, **message_tracing(ml))
        except TripWire as tripwire:
            if run.can_retry(tripwire):
                raise RetryStep(tripwire) from None
            step.tripwire = tripwire.to_data()
            step.finish_reason = "tripwire"
            run.text_parts.append(step.text)
            run.pending_terminal = [run.step_finish_chunk(step, builder.message_id, "tripwire", is_continued=False)]
            raise EndRun(run.tripwire_chunk(tripwire)) from None
        except CONTRACT_ERRORS as error:
            run.text_parts.append(step.text)
            raise EndRun(run.error_chunk(error)) from None
        out += await run.drain()
    builder.sync_tool_calls(ml)
    return out


async def run_output_result(run: RunView) -> list[AnyChunk]:
    """``process_output_result``, once at the end; a processor may rewrite the final text or reject it."""
    ml = run.message_list
    out: list[AnyChunk] = []
    text = "".join(run.text_parts)
    responses = ml.get.response.db()
    last_before = responses[-1].text if responses else None
    for entry in run.config.output_entries:
        if "process_output_result" not in entry.hooks:
            continue
        given = ml.get.response.db()
        args = ProcessOutputResultArgs(
            messages=given,
            message_list=ml,
            result=OutputResult(text=text, usage=run.usage, finish_reason=run.finish_reason, steps=run.steps),
            **common_args(run.ctx, entry, 0),
        )

        def apply(result: Any, entry: Entry = entry, given: list[Message] = given) -> None:
            apply_message_result(
                result,
                entry=entry,
                hook="process_output_result",
                message_list=ml,
                given=given,
                default_source="response",
            )

        try:
            await invoke(run.ctx, entry, "process_output_result", args, apply=apply, **message_tracing(ml))
        except TripWire as tripwire:
            run.save_mode = "input"  # a rejected response is not saved
            run.text_parts = []
            raise EndRun(run.tripwire_chunk(tripwire)) from None
        except CONTRACT_ERRORS as error:
            raise EndRun(run.error_chunk(error)) from None
        out += await run.drain()
    responses = ml.get.response.db()
    last_after = responses[-1].text if responses else None
    if last_after is not None and last_after != last_before:
        run.text_parts = [last_after]
    return out


def _returns_nothing(entry: Entry, hook: str) -> Callable[[Any], None]:
    """Refuse a value from a hook that returns nothing: the processor expected it to change something."""

    def check(result: Any) -> None:
        if result is not None:
            raise ProcessorContractError(
                f"Processor '{entry.id}' returned {type(result).__name__} from {hook}, which returns nothing "
                "(None); the chunks it is given are a record of what was streamed",
                processor_id=entry.id,
                hook=hook,
            )

    return check


__all__ = ["run_llm_response", "run_output_result", "run_output_step"]
