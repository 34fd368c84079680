"""The hook phases before and around the model call, once per run or step (not per chunk): ``process_input``,
``process_input_step``, ``process_llm_request`` and, when the call fails, ``process_api_error``. Each runs one hook
across its lane and applies the results; :mod:`processors.loop.output_phases` has the phases after the model.

Every function takes the :class:`~processors.loop.run_view.RunView` of a run and returns the chunks it wants
emitted (processors' ``writer.custom`` output, mostly); they raise :class:`EndRun` to end the run with a tripwire or
error chunk and :class:`RetryStep` to reject the current step.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from processors.chunks import AnyChunk
from processors.errors import ModelAPIError, ProcessorContractError, ProcessorError
from processors.loop.step import EndRun
from processors.models import resolve_model
from processors.models.base import LanguageModel
from processors.pipeline.hook_results import (
    STEP_OVERRIDE_KEYS,
    apply_message_result,
    describe_api_error,
    describe_messages,
    describe_prompt,
    messages_and_values_fingerprint,
    normalise_mapping,
)
from processors.pipeline.processor import (
    ProcessAPIErrorArgs,
    ProcessInputArgs,
    ProcessInputStepArgs,
    ProcessLLMRequestArgs,
)
from processors.pipeline.run_context import ArgsRecipe, Entry, common_args
from processors.pipeline.runner import CONTRACT_ERRORS, LanePolicy, run_lane
from processors.tools import tools_by_name
from processors.tripwire import TripWire

if TYPE_CHECKING:
    from processors.loop.run_view import RunView

logger = logging.getLogger(__name__)


#: The types a step override may have (``model`` and ``tools`` are checked by resolving them).
_STEP_VALUE_TYPES: dict[str, tuple[type, ...]] = {
    "system_messages": (list, tuple),
    "model_settings": (dict,),
    "provider_options": (dict,),
    "active_tools": (list, tuple, type(None)),
    "tool_choice": (str, dict, type(None)),
    "message_id": (str, type(None)),
}


def _check_values(values: dict[str, Any]) -> None:
    """Refuse a mapping result's value of the wrong type here, where the processor can be named, rather than
    letting it crash the model call or the chunks later (a ``str`` for ``system_messages`` would even be taken
    letter by letter). The caller turns the ``TypeError`` into a :class:`ProcessorContractError`."""
    for key, kinds in _STEP_VALUE_TYPES.items():
        if key in values and not isinstance(values[key], kinds):
            names = " or ".join("None" if kind is type(None) else kind.__name__ for kind in kinds)
            raise TypeError(f"{key!r} must be {names}, not {type(values[key]).__name__}")
    active = values.get("active_tools")
    if active is not None and not all(isinstance(name, str) for name in active):
        raise TypeError("'active_tools' must be a list of tool names")


def _is_mapping_result(result: Any) -> bool:
    return isinstance(result, dict) or (hasattr(result, "model_dump") and not hasattr(result, "content"))


async def run_input(run: RunView) -> list[AnyChunk]:
    """``process_input``, once: input messages and system messages, before the loop."""
    entries = run.config.hooked["process_input"]
    if not entries:
        return []
    ml = run.message_list

    def apply(entry: Entry, args: ProcessInputArgs, result: Any) -> None:
        if _is_mapping_result(result):
            values = normalise_mapping(result, entry, "process_input", frozenset({"messages", "system_messages"}))
            _check_values(values)
            if "system_messages" in values:
                ml.replace_all_system_messages(values["system_messages"])
            result = values.get("messages")
        given = args.messages
        apply_message_result(
            result, entry=entry, hook="process_input", message_list=ml, given=given, default_source="input"
        )

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
        apply=apply,
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
    llm_request_ids = {e.id for e in config.hooked["process_llm_request"]}
    allowed = STEP_OVERRIDE_KEYS | {"messages", "message_list"}

    def args_for(entry: Entry) -> ProcessInputStepArgs:
        return ProcessInputStepArgs(
            messages=ml.get.all.db(),
            message_list=ml,
            step_number=step_number,
            steps=list(run.steps),
            system_messages=ml.get_system_messages(),
            model=resolve_model(step_config["model"]),
            tools=dict(step_config["tools"]),
            tool_choice=step_config["tool_choice"],
            active_tools=step_config["active_tools"],
            provider_options=step_config["provider_options"],
            model_settings=step_config["model_settings"],
            structured_output=step_config["structured_output"],
            message_id=step_config["message_id"],
            llm_request_stage=entry.id in llm_request_ids,
            **common_args(run.ctx, entry, run.retry_count),
        )

    def apply(entry: Entry, args: ProcessInputStepArgs, result: Any) -> None:
        given = args.messages
        if not _is_mapping_result(result):
            apply_message_result(
                result, entry=entry, hook="process_input_step", message_list=ml, given=given, default_source="input"
            )
            return
        values = normalise_mapping(result, entry, "process_input_step", allowed)
        _check_values(values)
        if "messages" in values and "message_list" in values:
            raise ProcessorContractError(
                f"Processor '{entry.id}' returned both 'messages' and 'message_list' from process_input_step; "
                "return one of them",
                processor_id=entry.id,
                hook="process_input_step",
            )
        for key in ("messages", "message_list"):
            if key in values:
                apply_message_result(
                    values.pop(key),
                    entry=entry,
                    hook="process_input_step",
                    message_list=ml,
                    given=given,
                    default_source="input",
                )
        if "system_messages" in values:
            ml.replace_all_system_messages(values.pop("system_messages"))
        if "tools" in values:
            values["tools"] = tools_by_name(values["tools"])
        if values.get("model", "") is None:
            values.pop("model")
        if "model" in values:
            resolve_model(values["model"])  # refuse a bad model here, naming the processor
        step_config.update(values)

    await run_lane(
        run.ctx,
        entries,
        "process_input_step",
        args_for,
        apply=apply,
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
    cached: list[dict[str, Any]] | None = None
    entries = run.config.hooked["process_llm_request"]
    if not entries:
        return lane["prompt"], cached

    def reduce(entry: Entry, result: Any) -> bool:
        nonlocal cached
        if result is None:
            return False
        values = normalise_mapping(result, entry, "process_llm_request", frozenset({"prompt", "response"}))
        if "prompt" in values:
            given_prompt = values["prompt"]
            if not isinstance(given_prompt, list) or not all(
                isinstance(m, dict) and isinstance(m.get("role"), str) for m in given_prompt
            ):
                raise ProcessorContractError(
                    f"Processor '{entry.id}' returned a prompt that is not a list of messages "
                    "(dicts with a 'role') from process_llm_request",
                    processor_id=entry.id,
                    hook="process_llm_request",
                )
            lane["prompt"] = given_prompt
        response = values.get("response")
        if response is not None and cached is None:  # the first answer wins; later processors still run
            chunks = response.get("chunks") if isinstance(response, dict) else getattr(response, "chunks", None)
            if not isinstance(chunks, list) or not all(
                isinstance(c, dict) and isinstance(c.get("type"), str) for c in chunks
            ):
                raise ProcessorContractError(
                    f"Processor '{entry.id}' returned a response without a 'chunks' list (dicts with a 'type') "
                    "from process_llm_request",
                    processor_id=entry.id,
                    hook="process_llm_request",
                )
            cached = chunks
            run.cache_source = entry.id
        return False

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
        reduce=reduce,
        policy=run.ends_run,
        describe=partial(describe_prompt, lane),  # the prompt this processor is given, before and after
    )
    return lane["prompt"], cached


async def run_api_error(run: RunView, error: ModelAPIError, step_number: int) -> bool:
    """``process_api_error``: the first ``{"retry": True}`` wins, within the retry cap."""
    entries = run.config.hooked["process_api_error"]
    if not entries or run.max_retries is None or run.api_retry_count >= run.max_retries:
        return False
    ml = run.message_list
    retry = False

    def reduce(entry: Entry, result: Any) -> bool:
        nonlocal retry
        if result is None:
            return False
        try:
            values = normalise_mapping(result, entry, "process_api_error", frozenset({"retry"}))
            if not isinstance(values.get("retry", False), bool):
                raise ProcessorContractError(
                    f"Processor '{entry.id}' returned retry={values['retry']!r} from process_api_error; "
                    "expected True or False",
                    processor_id=entry.id,
                    hook="process_api_error",
                )
        except ProcessorContractError as failure:  # a broken contract ends the run, unlike a raising hook
            raise EndRun(run.error_chunk(failure)) from None
        retry = bool(values.get("retry"))
        return retry

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
        reduce=reduce,
        policy=LanePolicy(run.end_with_tripwire, (ProcessorError,), ask_the_next),
        describe=partial(describe_api_error, error),
    )
    if retry:
        run.api_retry_count += 1
    return retry
