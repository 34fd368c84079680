"""What a ``process_output_step`` result may do, checked by the lane runner itself after each processor: the
messages it returned reconciled with the list (``[]`` is "no change"), then the model's tool calls and the step's
read-only record (``args.text``, ``args.tool_calls``) compared with what the model streamed.

:class:`OutputStepResult` is the value :func:`processors.loop.output_phases.run_output_step` hands
:func:`processors.pipeline.runner.run_lane` as its ``apply``, so the phase is entered once per step and not called
back per processor (``scripts/trace-flow``). The table of what each result does is in
:mod:`processors.loop.output_phases`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from processors.errors import ProcessorContractError
from processors.loop.step import plain_args
from processors.messages import Message, ToolInvocationPart
from processors.messages.message_list import MessageList
from processors.pipeline.hook_results import apply_message_result
from processors.pipeline.processor import ProcessOutputStepArgs
from processors.pipeline.run_context import Entry

__all__ = ["OutputStepResult", "check_read_only", "check_tool_calls"]


@dataclass(frozen=True, slots=True)
class OutputStepResult:
    """``process_output_step``'s apply. ``made`` is a copy of the model's calls taken before the first processor,
    ``calls`` the calls that will run (the step's builder's), ``text`` the step's text as the model streamed it."""

    message_list: MessageList
    made: list[dict[str, Any]]
    calls: list[dict[str, Any]]
    text: str

    def __call__(self, entry: Entry, args: ProcessOutputStepArgs, result: Any) -> None:
        ml = self.message_list
        if not (isinstance(result, list) and not result):  # [] means "no change" (a documented deviation)
            apply_message_result(
                result,
                entry=entry,
                hook="process_output_step",
                message_list=ml,
                given=args.messages,
                default_source="response",
            )
        check_tool_calls(entry, ml, self.made, self.calls)
        check_read_only(entry, args, self.text, self.made)


def _calls(messages: list[Message]) -> list[str]:
    """Ids of the tool calls waiting for a result (state ``call``) in ``messages``."""
    return [
        part.tool_invocation.tool_call_id
        for message in messages
        for part in message.content.parts
        if isinstance(part, ToolInvocationPart) and part.tool_invocation.state == "call"
    ]


def check_tool_calls(entry: Entry, ml: MessageList, made: list[dict[str, Any]], calls: list[dict[str, Any]]) -> None:
    """Refuse a ``process_output_step`` result that changes what a tool call would run with.

    The tools run with the model's calls, as streamed in the ``tool-call`` chunks (Mastra takes them from the
    stream before this hook and never reads them back). An edit of a call's name, arguments or state (a result
    filled in) in the list would be ignored, and a guardrail that believes it sanitised the arguments would have
    the tool run with the originals; a call added in state ``call`` would never run. So each is a contract
    error naming the call and the ways that work, and no tool runs. Removing a call from the list is allowed:
    it does not run.
    """
    known = {call["tool_call_id"] for call in made}
    for index, original in enumerate(made):  # ``made`` is a copy of ``calls`` taken before the first processor
        call = calls[index]
        invocation = ml.find_tool_invocation(original["tool_call_id"])
        if invocation is None:
            continue
        model_args = plain_args(original["args"])
        if invocation.tool_name != original["tool_name"]:
            what = "tool name"
        elif invocation.args != model_args or plain_args(call["args"]) != model_args:
            what = "arguments"
        elif invocation.state != "call":
            what = "state"
        else:
            continue
        raise ProcessorContractError(
            f"Processor '{entry.id}' changed the {what} of tool call '{original['tool_call_id']}' "
            f"({original['tool_name']}) in process_output_step; the tool runs with the model's call as "
            "streamed, so the change would be ignored. Change the tool-call chunk in process_output_stream "
            "instead, or remove the call from the message list (or abort) to stop it",
            processor_id=entry.id,
            hook="process_output_step",
        )
    # every earlier step's calls were answered before this step: a call waiting here is this step's, or added
    added = [call_id for call_id in _calls(ml.get.response.db()) if call_id not in known]
    if added:
        raise ProcessorContractError(
            f"Processor '{entry.id}' added tool call '{added[0]}' in process_output_step; only the model's calls "
            "run, so it would stay without a result. Add a tool invocation with its result instead",
            processor_id=entry.id,
            hook="process_output_step",
        )


def check_read_only(entry: Entry, args: ProcessOutputStepArgs, text: str, made: list[dict[str, Any]]) -> None:
    """``text`` and ``tool_calls`` are a record of the model's step: changing them changes nothing, so say so."""
    if args.text != text:
        raise ProcessorContractError(
            f"Processor '{entry.id}' changed args.text in process_output_step, which is a record of what the model "
            "said; rewrite the answer's text parts in the message list (args.messages) instead",
            processor_id=entry.id,
            hook="process_output_step",
        )
    if args.tool_calls != made:
        raise ProcessorContractError(
            f"Processor '{entry.id}' changed args.tool_calls in process_output_step, which is a record of the "
            "model's calls; change the tool-call chunk in process_output_stream instead, or remove the call from "
            "the message list (or abort) to stop it",
            processor_id=entry.id,
            hook="process_output_step",
        )
