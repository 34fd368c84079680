"""Running a step's tool calls and committing their results (``process_tool_result`` included).

Tools run concurrently; what they write with ``writer.custom`` is streamed while they run. Results are then
committed in call order: a failure (unknown tool, invalid JSON or arguments, the tool raising) becomes a
``tool-error`` chunk and an ``output-error`` invocation the model sees on its next step. A result a processor
blocks (an abort in ``process_tool_result``, or a stream processor stopping its ``tool-result`` chunk) is never
committed: the run ends, and answers the call with an ``output-error`` naming that processor
(``RunState.answer_open_calls``), so the thread never holds a call without an answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from processors.chunks import AnyChunk, ToolErrorChunk, ToolErrorPayload, ToolResultChunk, ToolResultPayload
from processors.errors import ToolArgumentsError
from processors.loop.step import EndRun, InvalidArgs, RetryStep, plain_args
from processors.messages import ToolInvocation, ToolInvocationPart
from processors.pipeline.hook_results import (
    apply_unless_empty,
    describe_tool_result,
    messages_fingerprint,
    take_replaced_result,
    tool_facts,
)
from processors.pipeline.processor import ProcessToolResultArgs
from processors.pipeline.run_context import ArgsRecipe
from processors.pipeline.runner import CONTRACT_ERRORS, LanePolicy, run_lane
from processors.result import Step
from processors.tools import Tool, serialize_result
from processors.tripwire import TripWire

if TYPE_CHECKING:
    from processors.loop.run_view import RunView


class ToolFailure:
    """A tool call that produced an error message for the model instead of a result."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


async def run_tools(
    run: RunView, step_number: int, step: Step, tools: dict[str, Tool]
) -> AsyncGenerator[AnyChunk, None]:
    calls = list(step.tool_calls)
    task = asyncio.ensure_future(asyncio.gather(*(execute(run, call, tools) for call in calls), return_exceptions=True))
    try:
        while not task.done():  # stream what tools write while they run
            for chunk in await run.drain():
                yield chunk
            await asyncio.wait([task], timeout=0.02)
        outcomes = task.result()
    finally:
        if not task.done():
            task.cancel()
    for chunk in await run.drain():
        yield chunk
    for call, outcome in zip(calls, outcomes, strict=True):
        if isinstance(outcome, BaseException) and not isinstance(outcome, Exception):
            raise outcome  # cancellation and friends are never swallowed
        for chunk in await commit(run, step_number, step, call, outcome):
            yield chunk


async def execute(run: RunView, call: dict[str, Any], tools: dict[str, Tool]) -> Any:
    """What the tool returned, or a :class:`ToolFailure` for any ``Exception`` of the call (so ``commit`` needs no
    other error path); a ``BaseException`` that is not one (a cancellation) propagates."""
    name = call["tool_name"]
    tool = tools.get(name)
    if tool is None:
        available = ", ".join(sorted(tools)) or "none"
        return ToolFailure(f"Tool '{name}' not found. Available tools: {available}")
    try:
        return await tool.call(plain_args(call["args"]), writer=run.writer, request_context=run.ctx.request_context)
    except ToolArgumentsError as error:
        return ToolFailure(str(error))
    except asyncio.CancelledError:
        raise
    except Exception as error:
        return ToolFailure(f"Tool '{name}' failed: {type(error).__name__}: {error}")


async def commit(run: RunView, step_number: int, step: Step, call: dict[str, Any], outcome: Any) -> list[AnyChunk]:
    """One call's outcome into the thread and the stream: a failure as an ``output-error``, a result after
    ``process_tool_result`` (which may replace it or block it) as a ``result``."""
    if isinstance(outcome, ToolFailure):  # ``execute`` turns every Exception of a call into one
        return await _commit_failure(run, step, call, outcome)
    returned = serialize_result(outcome)  # what the tool itself returned, for observers
    result = await _processed_result(run, step_number, call, returned)
    return await _commit_result(run, step, call, result)


async def _commit_failure(run: RunView, step: Step, call: dict[str, Any], failure: ToolFailure) -> list[AnyChunk]:
    call_id, name, args_value = call["tool_call_id"], call["tool_name"], plain_args(call["args"])
    run.message_list.update_tool_invocation(
        ToolInvocationPart(
            tool_invocation=ToolInvocation(
                state="output-error",
                tool_call_id=call_id,
                tool_name=name,
                args=args_value,
                error_text=failure.message,
                is_error=True,
            )
        )
    )
    step.tool_results.append({"tool_call_id": call_id, "tool_name": name, "error": failure.message})
    return await run.emit(
        run.chunk(
            ToolErrorChunk,
            ToolErrorPayload(tool_call_id=call_id, tool_name=name, args=args_value, error=failure.message),
        )
    )


async def _processed_result(run: RunView, step_number: int, call: dict[str, Any], returned: Any) -> Any:
    """``process_tool_result``: what the model gets of what the tool ``returned`` (a processor may replace it with
    ``update_tool_invocation``); a block ends the run, or retries the step, with the call left unanswered."""
    lane = {"result": returned}
    entries = run.config.hooked["process_tool_result"]
    if not entries:
        return returned
    ml = run.message_list
    call_id, name = call["tool_call_id"], call["tool_name"]

    def tripped(tripwire: TripWire) -> NoReturn:
        if run.can_retry(tripwire):
            raise RetryStep(tripwire) from None
        # the call stays, answered at the run's end with the block (RunState.answer_open_calls), not the result
        run.blocked_calls[call_id] = tripwire.processor_id
        raise EndRun(run.tripwire_chunk(tripwire)) from None

    await run_lane(
        run.ctx,
        entries,
        "process_tool_result",
        ArgsRecipe(
            run.ctx,
            ProcessToolResultArgs,
            fixed={
                "message_list": ml,
                "step_number": step_number,
                "tool_name": name,
                "tool_call_id": call_id,
                "args": plain_args(call["args"]),
            },
            fresh={
                "messages": ml.get.all.db,
                "steps": partial(list, run.steps),
                "system_messages": ml.get_all_system_messages,
            },
            retry_count=run.retry_count,
            live=lane,
        ),
        apply=partial(apply_unless_empty, "process_tool_result", ml, "response"),
        reduce=partial(take_replaced_result, ml, call_id, lane),
        policy=LanePolicy(tripped, CONTRACT_ERRORS, run.end_with_error),
        describe=partial(describe_tool_result, ml, call_id, name, lane),
        fingerprint=partial(messages_fingerprint, ml),
        tool=partial(tool_facts, call_id, returned),
    )
    return lane["result"]


async def _commit_result(run: RunView, step: Step, call: dict[str, Any], result: Any) -> list[AnyChunk]:
    """The result into the thread, then its ``tool-result`` chunk; a stream processor that stops the chunk undoes
    the commit."""
    ml = run.message_list
    call_id, name, args_value = call["tool_call_id"], call["tool_name"], plain_args(call["args"])
    ml.update_tool_invocation(
        ToolInvocationPart(
            tool_invocation=ToolInvocation(
                state="result", tool_call_id=call_id, tool_name=name, args=args_value, result=result
            )
        )
    )
    step.tool_results.append({"tool_call_id": call_id, "tool_name": name, "result": result})
    try:
        return await run.emit(
            run.chunk(
                ToolResultChunk, ToolResultPayload(tool_call_id=call_id, tool_name=name, result=result, args=args_value)
            )
        )
    except TripWire as tripwire:
        # A stream processor stopped the result's chunk: the client never saw the result, so the thread and the
        # next prompt must not hold it either. The commit is undone; the run answers the call with the block.
        ml.update_tool_invocation(
            ToolInvocationPart(
                tool_invocation=ToolInvocation(
                    state="call", tool_call_id=call_id, tool_name=name, args=args_value, result=None
                )
            )
        )
        step.tool_results.pop()
        run.blocked_calls[call_id] = tripwire.processor_id
        raise


__all__ = ["InvalidArgs", "ToolFailure", "commit", "execute", "run_tools"]
