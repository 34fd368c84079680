"""A conversation case played turn by turn: each user turn one agent run on the same thread, with the design's memory.

The chat sends a conversation one message at a time, each run remembering the ones before through memory; an attack
spread over several turns (a payload split in pieces, a crescendo) only shows as such when it is played that way,
not when its earlier turns arrive at once as history. So each turn here is one :func:`lab.case_run.run_case` of its
own (the same preparation, verdict and rate-limit handling as any case: the mode's model, the lab tool returning
that turn's ``tool_result``, that turn's fixed ``reply``), on the same agent and the same thread of its memory (an
in-process one when the design has none). The first turn that is ``blocked`` (or ends in ``error``) ends the
conversation, as a user facing the guard would start over; its number is the result's ``tripped_turn``.

The case's result gathers the turns: outcome (blocked or error as the last turn played; else modified when any
turn was; else passed), the processors that did something in any turn, the last reply, the summed latency, tokens
and cost. In ``model`` mode each turn keeps its own recording; the case's ``recording`` is theirs one a line (base64
has no line break), which a ``replay`` hands back turn by turn.

The attack engine plays a converter's multi-turn variant (:class:`lab.converters.Turns`) with
``run_case(lab.corpus.conversation_case(case_id, variant.turns, label=...), agent, mode)``: ``run_case`` comes here
for any case with a conversation.
"""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections.abc import Mapping
from typing import Any

from lab.case_run import Mode, run_case
from lab.corpus import Case, ConversationTurn
from lab.rate_gate import RateGate
from lab.results import CaseResult, Outcome, TurnResult, unique_in_order
from processors import Agent
from processors.memory import InMemoryMemory

__all__ = ["RECORDING_SEPARATOR", "played_turns", "run_conversation", "turn_case"]

#: Between the turns' recordings in a conversation's ``CaseResult.recording``.
RECORDING_SEPARATOR = "\n"
#: The turn outcomes that end a conversation.
_ENDS = ("blocked", "error")


def turn_case(case: Case, index: int) -> Case:
    """The one-call case of the conversation's ``index``-th turn (from 0): its text, tool result and reply; the
    case's history (``turns``) goes with the first turn only (memory brings it to the later ones), its assertions
    with the last only (they judge the answer the conversation ends on, not each step towards it)."""
    turn: ConversationTurn = case.conversation[index]
    last = index == len(case.conversation) - 1
    return Case(
        id=case.id,
        text=turn.user,
        label=case.label,
        category=case.category,
        lang=case.lang,
        expect=case.expect,
        turns=case.turns if index == 0 else (),
        tool_result=turn.tool_result,
        reply=turn.reply if turn.reply is not None else case.reply,
        asserts=case.asserts if last else (),
        metadata=case.metadata,
        source=case.source,
    )


def played_turns(case: Case, result: Mapping[str, Any] | None, recording: str | None) -> list[tuple[Case, str | None]]:
    """What to run again to show a finished case (``result``: its ``CaseResult.to_dict()``) as a thread: each turn
    the lab played, as a one-call case with its own recording; a one-call case is itself with ``recording``."""
    if not case.conversation:
        return [(case, recording)]
    played = len((result or {}).get("conversation") or ()) or len(case.conversation)
    recordings = recording.split(RECORDING_SEPARATOR) if recording else []
    return [
        (turn_case(case, index), recordings[index] if index < len(recordings) else None)
        for index in range(min(played, len(case.conversation)))
    ]


async def run_conversation(
    case: Case,
    agent: Agent,
    mode: Mode,
    replay: str | None = None,
    gate: RateGate | None = None,
    attempts: int = 6,
) -> CaseResult:
    """Play ``case.conversation`` on ``agent`` turn by turn (see the module's docstring) and gather the verdict."""
    model, tools, memory = agent.model, agent.tools, agent.memory
    if agent.memory is None:
        agent.memory = InMemoryMemory()
    thread_id = f"lab-{case.id}-{uuid.uuid4().hex[:12]}"
    recordings = replay.split(RECORDING_SEPARATOR) if replay else []
    played: list[CaseResult] = []
    try:
        for index in range(len(case.conversation)):
            agent.model, agent.tools = model, tools  # each turn prepares the agent afresh for its own case
            turn_replay = recordings[index] if index < len(recordings) else None
            result = await run_case(turn_case(case, index), agent, mode, turn_replay, gate, attempts, thread_id)
            _stop_if_cancelled()  # a turn whose loop turned the cancel into a stopped run: no further turn
            played.append(result)
            if result.outcome in _ENDS:
                break
    finally:
        agent.model, agent.tools, agent.memory = model, tools, memory
    return _gathered(case, played)


def _stop_if_cancelled() -> None:
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def _gathered(case: Case, played: list[CaseResult]) -> CaseResult:
    last = played[-1]
    outcome: Outcome
    if last.outcome in _ENDS:
        outcome = last.outcome
        reason = last.reason
    else:
        modified = next((result for result in played if result.outcome == "modified"), None)
        outcome = "modified" if modified is not None else "passed"
        reason = modified.reason if modified is not None else None
    # Built on the last turn's result: a field this module does not gather (one a later part of the lab adds, e.g. a
    # judgement of the final answer) is the last turn's, the answer the conversation ended on.
    return dataclasses.replace(
        last,
        id=case.id,
        text=case.text,
        label=case.label,
        category=case.category,
        lang=case.lang,
        expect=case.expect,
        outcome=outcome,
        **_gathered_fields(case, played, outcome, reason),
    )


def _gathered_fields(case: Case, played: list[CaseResult], outcome: Outcome, reason: str | None) -> dict[str, Any]:
    last = played[-1]
    costs = [result.cost for result in played]
    recordings = [result.recording for result in played]
    return dict(
        latency_ms=round(sum(result.latency_ms for result in played), 3),
        tripped=unique_in_order(name for result in played for name in result.tripped),
        hits=[hit for result in played for hit in result.hits],
        reason=reason,
        reply=last.reply,
        input_tokens=sum(result.input_tokens for result in played),
        output_tokens=sum(result.output_tokens for result in played),
        cost=None if any(cost is None for cost in costs) else round(sum(c for c in costs if c is not None), 8),
        recording=RECORDING_SEPARATOR.join(r for r in recordings if r) if all(recordings) else None,
        error=last.error if outcome == "error" else None,
        attempts=1 + sum(result.attempts - 1 for result in played),
        tripped_turn=len(played) if outcome == "blocked" else None,
        conversation=[
            TurnResult(
                turn=number,
                user=turn.user,
                outcome=result.outcome,
                tripped=list(result.tripped),
                reason=result.reason,
                reply=result.reply,
                latency_ms=result.latency_ms,
            )
            for number, (turn, result) in enumerate(zip(case.conversation, played, strict=False), 1)
        ],
    )
