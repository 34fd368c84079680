"""The hook phases before and around the model call, once per run or step (not per chunk): ``process_input``,
``process_input_step``, ``process_llm_request`` and, when the call fails, ``process_api_error``. Each runs one hook
across its lane; :mod:`processors.loop.output_phases` has the phases after the model. What a lane does with each
processor's result is a value the phase hands the lane runner with the args' recipe
(:mod:`processors.pipeline.request_results`, :class:`~processors.pipeline.run_context.ArgsRecipe`): the runner
applies it itself, so a phase is entered once per lane and called back only when a processor blocks or fails
(``scripts/trace-flow``).

Every function takes the :class:`~processors.loop.run_view.RunView` of a run and returns the chunks it wants
emitted (processors' ``writer.custom`` output, mostly); they raise :class:`EndRun` to end the run with a tripwire or
error chunk and :class:`RetryStep` to reject the current step.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from processors.chunks import AnyChunk
from processors.errors import ModelAPIError, ProcessorError
from processors.loop.step import EndRun
from processors.models import resolve_model
from processors.models.base import LanguageModel
from processors.pipeline.hook_results import (
    describe_api_error,
    describe_messages,
    describe_prompt,
    messages_and_values_fingerprint,
)
from processors.pipeline.processor import (
    ProcessAPIErrorArgs,
    ProcessInputArgs,
    ProcessInputStepArgs,
    ProcessLLMRequestArgs,
)
from processors.pipeline.request_results import InputResult, InputStepResult, RequestReduction, RetryVote
from processors.pipeline.run_context import ArgsRecipe
from processors.pipeline.runner import CONTRACT_ERRORS, LanePolicy, run_lane
from processors.tripwire import TripWire

if TYPE_CHECKING:
    from processors.loop.run_view import RunView

logger = logging.getLogger(__name__)


async def run_input(run: RunView) -> list[AnyChunk]:
    """``process_input``, once: input messages and system messages, before the loop."""
    entries = run.config.hooked["process_input"]
    if not entries:
        return []
    ml = run.message_list

    def tripped(tripwire: TripWire) -> NoReturn:
        run.save_mode = "none"  # a blocked input is not saved: it may hold what the guardrail caught
        raise EndRun(run.tripwire_chunk(tripwire)) from None

    return await run_lane(
        run.ctx,
        entries,
        "process_input",
        ArgsRecipe(
            run.ctx,
            ProcessInputArgs,
            fixed={"message_list": ml},
            fresh={"messages": ml.get.input.db, "system_messages": ml.get_system_messages},
        ),
        apply=InputResult(ml),
        policy=LanePolicy(tripped, CONTRACT_ERRORS, run.end_with_error),
        drain=run.drain,
        traced_list=ml,
    )


async def run_input_step(run: RunView, step_number: int) -> dict[str, Any]:
    """``process_input_step``: messages and this step's overrides, chained through the processors."""
    config = run.config
    ml = run.message_list
    step_config: dict[str, Any] = {
        "model": config.model,
        "tools": dict(config.tools),
        "tool_choice": config.tool_choice,
        "active_tools": config.active_tools,
        "provider_options": dict(config.provider_options),
        "model_settings": dict(config.model_settings),
        "structured_output": config.structured_output,
        "message_id": None,
    }
    entries = config.hooked["process_input_step"]
    if not entries:
        return step_config
    await run_lane(
        run.ctx,
        entries,
        "process_input_step",
        ArgsRecipe(
            run.ctx,
            ProcessInputStepArgs,
            fixed={"message_list": ml, "step_number": step_number},
            fresh={
                "messages": ml.get.all.db,
                "steps": partial(list, run.steps),
                "system_messages": ml.get_system_messages,
            },
            retry_count=run.retry_count,
            live=step_config,  # as the processors before left it (InputStepResult updates it)
            views={"model": resolve_model, "tools": dict},  # the model built from its id; a copy of the tools
            flags={"llm_request_stage": frozenset(e.id for e in config.hooked["process_llm_request"])},
        ),
        apply=InputStepResult(ml, step_config),
        policy=run.ends_run,
        describe=partial(describe_messages, ml),
        fingerprint=partial(messages_and_values_fingerprint, ml, step_config),
    )
    return step_config


async def run_llm_request(
    run: RunView, step_number: int, model: LanguageModel
) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """``process_llm_request``: the prompt for this call only, or a cached response instead of a model call."""
    ml = run.message_list
    lane = {"prompt": ml.to_prompt()}  # the prompt as the processors before left it
    entries = run.config.hooked["process_llm_request"]
    if not entries:
        return lane["prompt"], None
    reduction = RequestReduction(lane)
    try:
        await run_lane(
            run.ctx,
            entries,
            "process_llm_request",
            ArgsRecipe(
                run.ctx,
                ProcessLLMRequestArgs,
                fixed={"model": model, "message_list": ml, "step_number": step_number},
                fresh={"steps": partial(list, run.steps)},
                retry_count=run.retry_count,
                live=lane,
            ),
            reduce=reduction,
            policy=run.ends_run,
            describe=partial(describe_prompt, lane),  # the prompt this processor is given, before and after
        )
    finally:  # a later processor that ended the run leaves the answer's processor named, as it was found
        if reduction.source is not None:
            run.cache_source = reduction.source
    return lane["prompt"], reduction.cached


async def run_api_error(run: RunView, error: ModelAPIError, step_number: int) -> bool:
    """``process_api_error``: the first ``{"retry": True}`` wins, within the retry cap."""
    entries = run.config.hooked["process_api_error"]
    if not entries or run.max_retries is None or run.api_retry_count >= run.max_retries:
        return False
    ml = run.message_list
    votes = RetryVote()

    def ask_the_next(failure: Exception) -> None:  # Mastra's policy: log, then ask the next error processor
        logger.warning("%s; asking the next error processor", failure)
        run.ctx.warnings.append(str(failure))

    await run_lane(
        run.ctx,
        entries,
        "process_api_error",
        ArgsRecipe(
            run.ctx,
            ProcessAPIErrorArgs,
            fixed={"error": error, "message_list": ml, "step_number": step_number},
            fresh={"messages": ml.get.all.db, "steps": partial(list, run.steps)},
            retry_count=run.api_retry_count,
        ),
        reduce=votes,
        policy=LanePolicy(run.end_with_tripwire, (ProcessorError,), ask_the_next),
        describe=partial(describe_api_error, error),
    )
    if votes.broken is not None:  # a broken contract ends the run, unlike a raising hook
        raise EndRun(run.error_chunk(votes.broken))
    if votes.retry:
        run.api_retry_count += 1
    return votes.retry
