"""What the hooks before the model call return, taken by the lane runner itself: ``process_input``'s and
``process_input_step``'s results (messages, or a mapping of messages and the step's overrides), and the reductions
of ``process_llm_request`` (the prompt, a cached response) and ``process_api_error`` (a vote to retry).

Each is a value the phase (:mod:`processors.loop.phases`) builds and hands :func:`processors.pipeline.runner.run_lane`
as its ``apply`` or ``reduce``, holding what the lane changes (the message list, the step's overrides, the prompt)
and read back by the phase when the lane is over. The runner calls it per processor, so the phase is entered once
per lane and not called back (``scripts/trace-flow``; tests/processors/test_flow_trace.py). A ``ValueError`` or
``TypeError`` raised by an ``apply`` is the processor's broken contract: :func:`~processors.pipeline.runner.invoke`
names processor and hook.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from processors.errors import ProcessorContractError
from processors.messages.message_list import MessageList
from processors.models import resolve_model
from processors.pipeline.hook_results import STEP_OVERRIDE_KEYS, apply_message_result, normalise_mapping
from processors.pipeline.processor import ProcessInputArgs, ProcessInputStepArgs
from processors.pipeline.run_context import Entry
from processors.tools import tools_by_name

__all__ = ["InputResult", "InputStepResult", "RequestReduction", "RetryVote", "check_step_values"]

#: The types a step override may have (``model`` and ``tools`` are checked by resolving them).
STEP_VALUE_TYPES: dict[str, tuple[type, ...]] = {
    "system_messages": (list, tuple),
    "model_settings": (dict,),
    "provider_options": (dict,),
    "active_tools": (list, tuple, type(None)),
    "tool_choice": (str, dict, type(None)),
    "message_id": (str, type(None)),
}

#: What a ``process_input_step`` mapping may hold: the step's overrides and the messages.
INPUT_STEP_KEYS = STEP_OVERRIDE_KEYS | {"messages", "message_list"}
#: What a ``process_input`` mapping may hold.
INPUT_KEYS = frozenset({"messages", "system_messages"})


def check_step_values(values: dict[str, Any]) -> None:
    """Refuse a mapping result's value of the wrong type here, where the processor can be named, rather than
    letting it crash the model call or the chunks later (a ``str`` for ``system_messages`` would even be taken
    letter by letter). The runner turns the ``TypeError`` into a :class:`ProcessorContractError`."""
    for key, kinds in STEP_VALUE_TYPES.items():
        if key in values and not isinstance(values[key], kinds):
            names = " or ".join("None" if kind is type(None) else kind.__name__ for kind in kinds)
            raise TypeError(f"{key!r} must be {names}, not {type(values[key]).__name__}")
    active = values.get("active_tools")
    if active is not None and not all(isinstance(name, str) for name in active):
        raise TypeError("'active_tools' must be a list of tool names")


def is_mapping_result(result: Any) -> bool:
    """A dict, or a pydantic-like object that is not a message: read as a mapping of the hook's keys."""
    return isinstance(result, dict) or (hasattr(result, "model_dump") and not hasattr(result, "content"))


@dataclass(frozen=True, slots=True)
class InputResult:
    """``process_input``'s apply: messages (Mastra's array-diff over the input it was given), or a mapping of
    ``messages`` and ``system_messages`` (which replace every system message)."""

    message_list: MessageList

    def __call__(self, entry: Entry, args: ProcessInputArgs, result: Any) -> None:
        ml = self.message_list
        if is_mapping_result(result):
            values = normalise_mapping(result, entry, "process_input", INPUT_KEYS)
            check_step_values(values)
            if "system_messages" in values:
                ml.replace_all_system_messages(values["system_messages"])
            result = values.get("messages")
        apply_message_result(
            result, entry=entry, hook="process_input", message_list=ml, given=args.messages, default_source="input"
        )


@dataclass(frozen=True, slots=True)
class InputStepResult:
    """``process_input_step``'s apply: messages, or a mapping of messages (``messages`` or ``message_list``) and
    this step's overrides, which update ``step_config`` (the next processor's args, then the model call). A model
    or tools given are checked here, naming the processor: the model resolved, the tools read by name."""

    message_list: MessageList
    step_config: dict[str, Any]

    def __call__(self, entry: Entry, args: ProcessInputStepArgs, result: Any) -> None:
        ml = self.message_list
        given = args.messages
        if not is_mapping_result(result):
            apply_message_result(
                result, entry=entry, hook="process_input_step", message_list=ml, given=given, default_source="input"
            )
            return
        values = normalise_mapping(result, entry, "process_input_step", INPUT_STEP_KEYS)
        check_step_values(values)
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
        self.step_config.update(values)


@dataclass(slots=True)
class RequestReduction:
    """``process_llm_request``'s reduction: a ``prompt`` replaces ``lane["prompt"]`` (the next processor's, then
    the model's); the first ``response`` (its ``chunks``) answers the step instead of the model, and ``source``
    names its processor. Later processors still run. Never stops the lane."""

    lane: dict[str, Any]
    cached: list[dict[str, Any]] | None = None
    source: str | None = None

    def __call__(self, entry: Entry, result: Any) -> bool:
        if result is None:
            return False
        values = normalise_mapping(result, entry, "process_llm_request", frozenset({"prompt", "response"}))
        if "prompt" in values:
            given_prompt = values["prompt"]
            if not _dicts_with(given_prompt, "role"):
                raise ProcessorContractError(
                    f"Processor '{entry.id}' returned a prompt that is not a list of messages "
                    "(dicts with a 'role') from process_llm_request",
                    processor_id=entry.id,
                    hook="process_llm_request",
                )
            self.lane["prompt"] = given_prompt
        response = values.get("response")
        if response is not None and self.cached is None:  # the first answer wins; later processors still run
            chunks = response.get("chunks") if isinstance(response, dict) else getattr(response, "chunks", None)
            if not _dicts_with(chunks, "type"):
                raise ProcessorContractError(
                    f"Processor '{entry.id}' returned a response without a 'chunks' list (dicts with a 'type') "
                    "from process_llm_request",
                    processor_id=entry.id,
                    hook="process_llm_request",
                )
            self.cached = chunks
            self.source = entry.id
        return False


@dataclass(slots=True)
class RetryVote:
    """``process_api_error``'s reduction: the first ``{"retry": True}`` wins and stops the lane. A result the hook
    does not allow stops it too and is kept in ``broken``: the phase ends the run with it (a broken contract ends
    the run, unlike a raising hook, after which the next error processor is asked)."""

    retry: bool = False
    broken: ProcessorContractError | None = None

    def __call__(self, entry: Entry, result: Any) -> bool:
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
        except ProcessorContractError as failure:
            self.broken = failure
            return True
        self.retry = bool(values.get("retry"))
        return self.retry


def _dicts_with(value: Any, key: str) -> bool:
    """Whether ``value`` is a list of dicts each naming a string ``key`` (a prompt's messages, a response's chunks)."""
    return isinstance(value, list) and all(isinstance(item, dict) and isinstance(item.get(key), str) for item in value)
