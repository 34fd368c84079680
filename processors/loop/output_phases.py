"""The hook phases after the model's stream: ``process_llm_response``, ``process_output_step`` (which may reject the
step for a retry) and, once at the end, ``process_output_result``.

Like :mod:`processors.loop.phases` (the phases before and around the model call), each takes the run's
:class:`~processors.loop.run_view.RunView`, returns the chunks it wants emitted, and raises :class:`EndRun` or
:class:`RetryStep`.

What a ``process_output_step`` result does (tests/processors/loop/test_output_step_results.py and
test_output_step_tool_calls.py). The model's text deltas and ``tool-call`` chunks were streamed before the hook
runs; what the processors leave in the message list is what is saved, what the next step's prompt holds, and the
step's text (``result.steps[i].text``, the ``step-finish`` and ``finish`` chunks' text, ``result.text``):

================================================  ==============================================================
the result                                        the step's answer
================================================  ==============================================================
``None``, the ``message_list``, ``[]``            in-place edits stand (``[]`` is "no change", a deviation)
text parts edited in place                        the edited text
text parts removed                                ``""``
an array without the answer / ``remove_by_ids``   ``""`` (and nothing of it is saved)
an array replacing the answer                     the new message's text; a dict may be an OpenAI-style
                                                  ``{"role": "assistant", "content": "..."}`` (as Mastra's
                                                  ``MessageList.add`` reads it) or a stored message
an extra assistant message after the answer       merges into it: its text is appended
a tool call's invocation removed                  the call does not run (Mastra would still run it)
a call's arguments, name or state changed;        a ``ProcessorContractError`` naming processor and call, before
a call added in state ``call``;                   any tool runs (Mastra runs the model's calls as streamed and
``args.text`` / ``args.tool_calls`` changed       ignores such edits; here the author learns it)
``abort()``                                       the step ends the run, or is retried (``retry=True``)
================================================  ==============================================================

In a tool loop the turn's steps share one assistant message; a step's text is read from its ``step-start``
marker on (:class:`StepAnswer`), so an edit of a later step leaves the earlier steps' text alone. Mastra keeps
``result.text`` as streamed; here it follows the list (a processor that blanks a leaked answer blanks the result).
A step that ends on an abort after an earlier processor rewrote its answer keeps the rewrite (a redaction never
comes back from the model's stream: tests/processors/loop/test_rewritten_text.py), and a ``process_output_result``
that removes the answer leaves ``result.text`` empty (Mastra reads its text from the processed response too).
"""

from __future__ import annotations

import copy
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from processors.chunks import AnyChunk
from processors.errors import ProcessorError
from processors.loop.output_step_results import OutputStepResult, check_read_only, check_tool_calls
from processors.loop.step import EndRun, RetryStep, StepBuilder
from processors.messages import Message, StepStartPart, TextPart
from processors.messages.message_list import MessageList
from processors.models.base import LanguageModel
from processors.pipeline.hook_results import apply_to_given, describe_chunks, returns_nothing
from processors.pipeline.processor import (
    ProcessLLMResponseArgs,
    ProcessOutputResultArgs,
    ProcessOutputStepArgs,
)
from processors.pipeline.run_context import ArgsRecipe
from processors.pipeline.runner import CONTRACT_ERRORS, LanePolicy, run_lane
from processors.result import OutputResult, Step
from processors.tripwire import TripWire

if TYPE_CHECKING:
    from processors.loop.run_view import RunView


async def run_llm_response(
    run: RunView, step_number: int, model: LanguageModel, raw_chunks: list[dict[str, Any]], from_cache: bool
) -> None:
    """``process_llm_response``: after the step's stream, with its chunks (paired with ``process_llm_request``)."""
    entries = run.config.hooked["process_llm_response"]
    if not entries:
        return

    await run_lane(
        run.ctx,
        entries,
        "process_llm_response",
        ArgsRecipe(
            run.ctx,
            ProcessLLMResponseArgs,
            fixed={"chunks": raw_chunks, "model": model, "step_number": step_number, "from_cache": from_cache},
            fresh={"steps": partial(list, run.steps)},
            retry_count=run.retry_count,
        ),
        apply=returns_nothing,
        policy=LanePolicy(run.end_with_tripwire, (ProcessorError,), run.end_with_error),
        describe=partial(describe_chunks, raw_chunks, from_cache),
    )


async def run_output_step(
    run: RunView, step_number: int, step: Step, builder: StepBuilder, answer: Message
) -> list[AnyChunk]:
    """``process_output_step``: after each model response, before tools; may reject the step for a retry.

    ``answer`` is the message the step built (just added to the list: on its own, or merged into the turn's
    answer). After the processors, the step's text is what the list holds of it (:class:`StepAnswer`), and the
    calls that run are the model's calls still in the list (:func:`check_tool_calls`)."""
    entries = run.config.hooked["process_output_step"]
    if not entries:
        return []
    ml = run.message_list
    located = StepAnswer.locate(ml, answer)  # where the step's answer and calls stand before any processor
    made = copy.deepcopy(builder.tool_calls)

    args_for = ArgsRecipe(
        run.ctx,
        ProcessOutputStepArgs,
        fixed={
            "message_list": ml,
            "step_number": step_number,
            "text": step.text,
            "finish_reason": step.finish_reason,
            "usage": step.usage,
        },
        fresh={
            "messages": ml.get.all.db,
            "steps": partial(list, run.steps),
            "system_messages": ml.get_system_messages,
            "tool_calls": partial(copy.deepcopy, made),  # a record: no alias of the calls that will run
        },
        retry_count=run.retry_count,
    )

    def tripped(tripwire: TripWire) -> NoReturn:
        # The step ends (or is retried) with what the processors before this one left: a text they rewrote
        # (a redaction) must not come back from the model's stream into the result or the rejected record.
        step.text = located.text(ml)
        if run.can_retry(tripwire):
            raise RetryStep(tripwire) from None
        step.tripwire = tripwire.to_data()
        step.finish_reason = "tripwire"
        run.text_parts.append(step.text)
        run.pending_terminal = [run.step_finish_chunk(step, builder.message_id, "tripwire", is_continued=False)]
        raise EndRun(run.tripwire_chunk(tripwire)) from None

    def failed(error: Exception) -> NoReturn:
        step.text = located.text(ml)  # what the thread keeps of the step
        run.text_parts.append(step.text)
        raise EndRun(run.error_chunk(error)) from None

    try:
        out = await run_lane(
            run.ctx,
            entries,
            "process_output_step",
            args_for,
            apply=OutputStepResult(ml, made, builder.tool_calls, step.text),
            policy=LanePolicy(tripped, CONTRACT_ERRORS, failed),
            drain=run.drain,
            traced_list=ml,
        )
    finally:
        # Whichever way the step leaves its processors (they finished, or the run was stopped, or a stream
        # processor stopped a chunk one of them wrote), the step's text is what they left of its answer (edited,
        # replaced, removed; Run.keep_partial_step counts it), never the text before a rewrite.
        step.text = located.text(ml)
    builder.sync_tool_calls(ml)  # a call they removed does not run
    return out


class StepAnswer:
    """Where one step's answer stands in the message list, so its text can be read back after
    ``process_output_step`` whatever form the processors' results took.

    The step's parts start at its ``step-start`` marker, in its own message or in the turn's answer it merged
    into (Mastra keeps a turn's steps in one assistant message). Read back: the text parts after that marker (an
    edit, a removed text part, an appended message that merged in all show); the answer message gone, the text
    of the assistant messages the processors added in its place (a replacement with a new id); nothing in its
    place, ``""`` (a removed answer has no text, as when only its text parts are removed).
    """

    __slots__ = ("ids_before", "marker", "message_id", "start")

    def __init__(self, message_id: str, marker: Any, start: int, ids_before: frozenset[str]) -> None:
        self.message_id = message_id
        self.marker = marker
        self.start = start
        self.ids_before = ids_before

    @classmethod
    def locate(cls, ml: MessageList, answer: Message) -> StepAnswer:
        messages = ml.get.all.db()
        parts = answer.content.parts
        marker = parts[0] if parts and isinstance(parts[0], StepStartPart) else None
        # the answer itself, or (merged) the message it joined, which was the last one: its parts are at the end
        holder = next((m for m in messages if m.id == answer.id), messages[-1])
        start = len(holder.content.parts) - len(parts)
        return cls(holder.id, marker, start, frozenset(m.id for m in messages))

    def text(self, ml: MessageList) -> str:
        responses = [m for m in ml.get.response.db() if m.role == "assistant"]
        holder = next((m for m in responses if m.id == self.message_id), None)
        if holder is None:
            added = [m for m in responses if m.id not in self.ids_before]
            if not added:
                return ""
            holder = added[-1]
            parts = holder.content.parts
            parts = parts[_after_last_step_start(parts) :]
        else:
            parts = holder.content.parts
            if self.marker is None:  # a step with no text, reasoning or call: only what was added after it
                parts = parts[self.start :]
            else:
                at = next((i for i, part in enumerate(parts) if part is self.marker), None)
                parts = parts[at + 1 :] if at is not None else parts[_after_last_step_start(parts) :]
        return "".join(part.text for part in parts if isinstance(part, TextPart))


def _after_last_step_start(parts: list[Any]) -> int:
    """Index after the last ``step-start`` marker (0 when there is none: a message a processor built)."""
    return max((i for i, part in enumerate(parts) if isinstance(part, StepStartPart)), default=-1) + 1


async def run_output_result(run: RunView) -> list[AnyChunk]:
    """``process_output_result``, once at the end; a processor may rewrite the final text or reject it."""
    entries = run.config.hooked["process_output_result"]
    if not entries:
        return []
    ml = run.message_list
    text = "".join(run.text_parts)
    responses = ml.get.response.db()
    last_before = responses[-1].text if responses else None

    args_for = ArgsRecipe(
        run.ctx,
        ProcessOutputResultArgs,
        fixed={"message_list": ml},
        fresh={
            "messages": ml.get.response.db,
            "result": partial(
                OutputResult, text=text, usage=run.usage, finish_reason=run.finish_reason, steps=run.steps
            ),
        },
    )

    def tripped(tripwire: TripWire) -> NoReturn:
        run.save_mode = "input"  # a rejected response is not saved
        run.text_parts = []
        raise EndRun(run.tripwire_chunk(tripwire)) from None

    out = await run_lane(
        run.ctx,
        entries,
        "process_output_result",
        args_for,
        apply=partial(apply_to_given, "process_output_result", ml, "response"),
        policy=LanePolicy(tripped, CONTRACT_ERRORS, run.end_with_error),
        drain=run.drain,
        traced_list=ml,
    )
    responses = ml.get.response.db()
    last_after = responses[-1].text if responses else None
    if last_after != last_before:  # rewritten, or removed (no answer left: no text, as Mastra reads the response)
        run.text_parts = [last_after] if last_after is not None else []
    return out


__all__ = [
    "StepAnswer",
    "check_read_only",
    "check_tool_calls",
    "run_llm_response",
    "run_output_result",
    "run_output_step",
]
