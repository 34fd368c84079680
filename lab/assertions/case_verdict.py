"""The one call :func:`lab.case_run.run_case` makes in ``model`` and ``replay`` mode: the case's verdict, from its
assertions (its own, its corpus's, the command's), the answer, the design's instructions and the tools called."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from lab.assertions.checks import Answer, ToolCallMade
from lab.assertions.verdict import judge_answer
from lab.corpus import Case
from lab.results import CaseResult

__all__ = ["judge_case_result", "tool_calls_of"]


def tool_calls_of(steps: Iterable[Any], ignore: Collection[str] = ()) -> tuple[ToolCallMade, ...]:
    """The tool calls the model made in a run's steps (``Step.tool_calls``), but those named in ``ignore``."""
    calls: list[ToolCallMade] = []
    for step in steps:
        for call in getattr(step, "tool_calls", ()):
            name, args = call.get("tool_name"), call.get("args")
            if isinstance(name, str) and name not in ignore:
                calls.append(ToolCallMade(name, args if isinstance(args, Mapping) else {}))
    return tuple(calls)


async def judge_case_result(
    result: CaseResult,
    case: Case,
    instructions: Sequence[Any],
    steps: Iterable[Any],
    *,
    ignore_tools: Collection[str] = (),
) -> None:
    """Give ``result`` its ``verdict``, ``refused`` and ``assertions`` (the answer is ``result.reply``)."""
    answer = Answer(
        text=result.reply,
        instructions="\n".join(part for part in instructions if isinstance(part, str)),
        tool_calls=tool_calls_of(steps, ignore_tools),
    )
    try:
        judgement = await judge_answer(
            case.asserts, answer, label=result.label, outcome=result.outcome, request=case.text
        )
    except asyncio.CancelledError:
        raise
    except Exception as error:  # a bug in a check must not lose the case's run: it stays unjudged, saying why
        reason = f"could not judge the answer: {type(error).__name__}: {error}"
        result.assertions = [{"type": "(assertions)", "value": None, "passed": None, "reason": reason}]
        return
    result.verdict = judgement.verdict
    result.refused = judgement.refused
    result.assertions = judgement.assertions
