"""What a hook's result does to the run, and how a trace tells it: shared by the lane phases and the lane runner.

The phases (:mod:`processors.loop.phases`, :mod:`processors.loop.output_phases`, :mod:`processors.loop.tool_calls`)
hand :func:`processors.pipeline.runner.run_lane` the reconciliation of each processor's result; those functions
use these helpers, which live here rather than in the runner so that a lane's call of a phase's ``apply`` does not
come back into the runner module (``scripts/trace-flow`` counts such bounces; tests/processors/test_flow_trace.py
keeps them out).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from processors.errors import ModelAPIError, ProcessorContractError
from processors.messages import Message
from processors.messages.formats import as_messages
from processors.messages.message_list import MessageList
from processors.pipeline.run_context import Entry
from processors.problems import Problem


def messages_fingerprint(message_list: MessageList) -> tuple[Any, ...]:
    """Cheap identity of the list's content, to tell 'changed' from 'passed' when tracing."""
    messages = tuple((m.id, m.role, repr(m.content)) for m in message_list.get.all.db())
    system = tuple(m["content"] for m in message_list.get_all_system_messages())
    return messages, system


def messages_and_values_fingerprint(message_list: MessageList, values: dict[str, Any]) -> tuple[Any, ...]:
    """The list's fingerprint and the hook's running values (``process_input_step``'s step overrides)."""
    return messages_fingerprint(message_list), repr(values)


def describe_messages(message_list: MessageList) -> str:
    messages = message_list.get.all.db()
    system = message_list.get_all_system_messages()
    last = messages[-1].text[:80] if messages else ""
    if last:  # coded (processors.problems): a reader in another language sees it in that language
        return Problem(
            "trace:messages_last",
            "{messages} messages, {system} system; last: {last!r}",
            messages=len(messages),
            system=len(system),
            last=last,
        )
    return Problem("trace:messages", "{messages} messages, {system} system", messages=len(messages), system=len(system))


def apply_message_result(
    result: Any,
    *,
    entry: Entry,
    hook: str,
    message_list: MessageList,
    given: list[Message],
    default_source: str,
) -> None:
    """Reconcile what a message hook returned with the live list (Mastra's array-diff semantics).

    ``None`` or the same ``MessageList``: in-place edits stand. A list: it replaces the messages the hook was
    given (missing ones removed, new ones added, edited ones replaced, order taken from the list); a dict in it
    may have any shape ``MessageList.add`` reads (an OpenAI chat ``{"role", "content"}`` too); system
    messages in it become untagged system messages. Another ``MessageList``: a contract error.
    """
    if result is None or result is message_list:
        return
    if isinstance(result, MessageList):
        raise ProcessorContractError(
            f"Processor '{entry.id}' returned a different MessageList from {hook}: mutate and return the "
            "message_list it was given, or return a list of messages",
            processor_id=entry.id,
            hook=hook,
        )
    if isinstance(result, tuple):
        result = list(result)
    if not isinstance(result, list):
        raise ProcessorContractError(
            f"Processor '{entry.id}' returned {type(result).__name__} from {hook}; expected a list of messages, "
            "the message_list, or None",
            processor_id=entry.id,
            hook=hook,
        )
    messages: list[Message] = []
    for item in result:
        if isinstance(item, Message):
            read = [item]
        elif isinstance(item, dict):
            try:  # any shape MessageList.add takes (stored, UI or OpenAI chat), as Mastra re-adds with add()
                read = as_messages(item)
            except Exception as exc:
                raise ProcessorContractError(
                    f"Processor '{entry.id}' returned an invalid message from {hook}: {exc}",
                    processor_id=entry.id,
                    hook=hook,
                ) from exc
        else:
            raise ProcessorContractError(
                f"Processor '{entry.id}' returned a {type(item).__name__} inside the message list from {hook}",
                processor_id=entry.id,
                hook=hook,
            )
        for message in read:
            if message.role == "system":
                message_list.add_system(message.text)
            else:
                messages.append(message)
    message_list.replace_block([m.id for m in given], messages, default_source)  # type: ignore[arg-type]


def describe_api_error(error: ModelAPIError) -> str:
    """``process_api_error``'s trace: the status and message of the model's error."""
    return f"{error.status_code}: {error.message}"


def describe_chunks(chunks: list[dict[str, Any]], from_cache: bool) -> str:
    """``process_llm_response``'s trace: how many chunks the step streamed, and whether a cache answered."""
    return f"{len(chunks)} chunks" + (" (from cache)" if from_cache else "")


def describe_prompt(lane: Mapping[str, Any]) -> str:
    """``process_llm_request``'s trace: the size of the prompt as it stands (``lane["prompt"]``)."""
    return f"{len(lane['prompt'])} prompt messages"


def apply_to_given(
    hook: str, message_list: MessageList, default_source: str, entry: Entry, args: Any, result: Any
) -> None:
    """:func:`apply_message_result` as a lane's ``apply`` (bind the first three with ``partial``): the messages the
    processor was given are ``args.messages``."""
    apply_message_result(
        result, entry=entry, hook=hook, message_list=message_list, given=args.messages, default_source=default_source
    )


def apply_unless_empty(
    hook: str, message_list: MessageList, default_source: str, entry: Entry, args: Any, result: Any
) -> None:
    """:func:`apply_to_given`, where ``[]`` means "no change" (a documented deviation, as for
    ``process_output_step``)."""
    if isinstance(result, list) and not result:
        return
    apply_to_given(hook, message_list, default_source, entry, args, result)


def take_replaced_result(message_list: MessageList, call_id: str, lane: dict[str, Any], entry: Entry, _: Any) -> bool:
    """``process_tool_result``'s reduction: a processor that replaced the call's result (``update_tool_invocation``)
    gives the next one, and the model, its result (``lane["result"]``). Never stops the lane."""
    replaced = message_list.find_tool_invocation(call_id)
    if replaced is not None and replaced.state == "result":
        lane["result"] = replaced.result
    return False


def describe_tool_result(message_list: MessageList, call_id: str, name: str, lane: Mapping[str, Any]) -> str:
    """The tool result as it stands: a processor may have replaced it (``update_tool_invocation``) by "after"."""
    invocation = message_list.find_tool_invocation(call_id)
    current = invocation.result if invocation is not None and invocation.state == "result" else lane["result"]
    return f"{name} → {_short(current)}"


def tool_facts(call_id: str, returned: Any) -> tuple[str, Any]:
    """What a ``process_tool_result`` trace event records: the call's id and what the tool itself returned."""
    return call_id, returned


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def returns_nothing(entry: Entry, args: Any, result: Any) -> None:
    """A lane's ``apply`` for ``process_llm_response``, which returns nothing: a value means the processor expected
    it to change something."""
    if result is not None:
        raise ProcessorContractError(
            f"Processor '{entry.id}' returned {type(result).__name__} from process_llm_response, which returns "
            "nothing (None); the chunks it is given are a record of what was streamed",
            processor_id=entry.id,
            hook="process_llm_response",
        )


STEP_OVERRIDE_KEYS = frozenset(
    {
        "model",
        "tool_choice",
        "active_tools",
        "tools",
        "system_messages",
        "provider_options",
        "model_settings",
        "structured_output",
        "message_id",
    }
)


def normalise_mapping(result: Any, entry: Entry, hook: str, allowed: frozenset[str]) -> dict[str, Any]:
    """Read a dict result (snake_case or Mastra's camelCase keys) and refuse keys the hook does not know.

    An object with some of the allowed attributes is read like a dict; anything else that is not ``None`` (a
    string, a number, a list) is a :class:`ProcessorContractError` rather than silently ignored.
    """
    result_in = result
    if hasattr(result, "model_dump"):
        result = result.model_dump(exclude_unset=True)
    elif not isinstance(result, dict):
        attributes = {} if isinstance(result, (str, bytes, int, float, list, tuple)) else allowed
        result = {key: getattr(result, key) for key in attributes if hasattr(result, key)}
        if not result:  # a str, a number, a list, an object with none of the keys: never what the hook wanted
            raise ProcessorContractError(
                f"Processor '{entry.id}' returned {type(result_in).__name__} from {hook}; expected a dict with "
                + " / ".join(sorted(allowed))
                + ", or None",
                processor_id=entry.id,
                hook=hook,
            )
    normalised: dict[str, Any] = {}
    for key, value in result.items():
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in key)
        if snake not in allowed:
            raise ProcessorContractError(
                f"Processor '{entry.id}' returned an unknown key {key!r} from {hook}; allowed: "
                + ", ".join(sorted(allowed)),
                processor_id=entry.id,
                hook=hook,
            )
        normalised[snake] = value
    return normalised
