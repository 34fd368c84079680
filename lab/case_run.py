"""One lab case through one agent: the agent readied for the mode, the run, and the verdict read from its trace.

The verdict comes from the run's chunks and trace events, the same data the studio's inspector shows: the final
tripwire makes a case ``blocked``; a processor that aborted (and was retried) or changed or dropped something
makes it ``modified``; a processor that raised, or a run that ended in error, makes it ``error``.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import AsyncIterator
from typing import Any, Literal

from lab.assertions.case_verdict import judge_case_result
from lab.corpus import Case
from lab.guard_scores import case_scores
from lab.rate_gate import RATE_LIMIT_STATUSES, GatedModel, RateGate
from lab.results import CaseResult, Hit, Outcome, unique_in_order
from processors import Agent, RecordingTracer, Tool, Usage
from processors.chunks import ErrorChunk
from processors.models import ScriptedModel
from processors.models.base import ModelEvent, ModelRequest, TextDelta
from processors.models.recording import Recording, RecordingModel, ReplayModel, record_tools, replay_tools
from processors.models.scripted import ToolCall, Turn

__all__ = [
    "DEFAULT_REPLY",
    "LAB_TOOL",
    "MODES",
    "Mode",
    "case_cost",
    "case_messages",
    "make_result",
    "prepare_agent",
    "run_case",
]

Mode = Literal["guardrails", "model", "replay"]
MODES: tuple[Mode, ...] = ("guardrails", "model", "replay")

#: The fixed answer of ``guardrails`` mode when a case brings no ``reply``.
DEFAULT_REPLY = "Sure, I can help with that. Here is what I found."
#: The tool a ``tool_result`` case makes the model call; it returns the case's ``tool_result``.
LAB_TOOL = "fetch_content"


class _RecordingModel:
    """Passes ``inner``'s events through and keeps the text it produced: the reply before any output processor."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.provider = getattr(inner, "provider", "lab")
        self.model_id = getattr(inner, "model_id", "lab")
        self.text: list[str] = []
        #: ``model`` mode: the case's gate on its calls (how many rate-limited calls it tried again).
        self.gated: GatedModel | None = None

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        async for event in self.inner.stream(request):
            if isinstance(event, TextDelta):
                self.text.append(event.text)
            yield event


class _ToolFirstModel:
    """Answers the first call with a call of :data:`LAB_TOOL`, then lets ``inner`` answer (the design's model)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.provider = getattr(inner, "provider", "lab")
        self.model_id = getattr(inner, "model_id", "lab")
        self._first = ScriptedModel([Turn(tool_calls=[ToolCall(LAB_TOOL, {})])], model_id=self.model_id)
        self._called = False

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if not self._called:
            self._called = True
            return self._first.stream(request)
        return self.inner.stream(request)  # type: ignore[no-any-return]


def prepare_agent(
    agent: Agent,
    case: Case,
    mode: Mode,
    replay: str | None = None,
    gate: RateGate | None = None,
    attempts: int = 6,
) -> tuple[_RecordingModel, Recording | None]:
    """Fit a fresh agent to one case: the scripted reply of ``guardrails`` mode, the lab tool for tool results,
    the recording of ``model`` mode (and the run's rate ``gate``, trying a rate-limited call up to ``attempts``
    times), the recorded answers of ``replay`` mode.

    Returns the wrapper now around the model, which knows the raw reply, and the case's new recording."""
    recorded: Recording | None = None
    gated: GatedModel | None = None
    if mode == "guardrails":
        agent.model = ScriptedModel([case.reply or DEFAULT_REPLY], model_id="lab-fixed-reply", repeat=True)
    if case.tool_result is not None:
        content = case.tool_result

        def fetch_content() -> str:
            return content

        if LAB_TOOL in agent.tools:
            raise ValueError(f"the agent has its own tool {LAB_TOOL!r}; the lab needs that name for tool results")
        agent.tools = {
            **agent.tools,
            LAB_TOOL: Tool(
                LAB_TOOL,
                "Fetch the content the user refers to.",
                parameters={"type": "object", "properties": {}},
                execute=fetch_content,
            ),
        }
        if mode != "replay":  # a replay has the scripted tool-call step in its recording
            agent.model = _ToolFirstModel(agent.model)
    if mode == "model":
        recorded = Recording()
        if isinstance(agent.model, str):  # a plain model id: its provider's model, as the agent itself reads it
            from processors.models import resolve_model

            agent.model = resolve_model(agent.model)
        if gate is not None:
            agent.model = gated = GatedModel(agent.model, gate, attempts)
        agent.model = RecordingModel(agent.model, recorded)
        agent.tools = record_tools(agent.tools, recorded)
    elif mode == "replay":
        if replay is None:
            raise ValueError("no recording of this case: run it in model mode with a results file first")
        again = Recording.from_bytes(base64.b64decode(replay))
        agent.model = ReplayModel(again, on_divergence="continue")
        agent.tools = replay_tools(agent.tools, again)
    recording = _RecordingModel(agent.model)
    recording.gated = gated
    agent.model = recording
    return recording, recorded


def case_messages(case: Case) -> list[dict[str, str]]:
    """The case's conversation in OpenAI chat format: earlier turns, then its text."""
    return [*(dict(turn) for turn in case.turns), {"role": "user", "content": case.text}]


async def run_case(
    case: Case,
    agent: Agent,
    mode: Mode,
    replay: str | None = None,
    gate: RateGate | None = None,
    attempts: int = 6,
    thread_id: str | None = None,
) -> CaseResult:
    """Run one case to the end and derive its verdict. In ``model`` mode with a ``gate``, a call refused for a rate
    limit is tried again below the chain (:class:`lab.rate_gate.GatedModel`), up to ``attempts`` times; a case
    refused every time is an ``error``. ``CaseResult.attempts`` is one more than the refusals tried again.

    A conversation case (``case.conversation``) is played turn by turn (:func:`lab.conversation_run.run_conversation`);
    ``thread_id`` is the memory thread a turn of one runs on."""
    if case.conversation:
        from lab.conversation_run import run_conversation  # it plays each turn through this function

        return await run_conversation(case, agent, mode, replay, gate, attempts)
    tracer = RecordingTracer()
    started = time.perf_counter()
    error_payload: dict[str, Any] | None = None
    try:
        # may refuse: an agent with its own tool of the lab tool's name, a replay with no recording
        recording, recorded = prepare_agent(agent, case, mode, replay, gate, attempts)
        stream = agent.stream(case_messages(case), tracers=[tracer], thread_id=thread_id)
        async for chunk in stream:
            if isinstance(chunk, ErrorChunk):
                error_payload = dict(chunk.payload.error or {})
        result = await stream.result()
    except asyncio.CancelledError:
        raise
    except Exception as error:  # a processor or model that broke the run: this case is an error, the run goes on
        return make_result(
            case, "error", latency=time.perf_counter() - started, error=f"{type(error).__name__}: {error}"
        )
    latency = time.perf_counter() - started
    tries = 1 + (recording.gated.refused if recording.gated is not None else 0)
    if error_payload and error_payload.get("retryable") and error_payload.get("statusCode") in RATE_LIMIT_STATUSES:
        return make_result(
            case,
            "error",
            latency=latency,
            error=f"rate limited {tries} times: {error_payload.get('message')}",
            attempts=tries,
        )
    # Stream guards hold chunks back and release them later (trace: "dropped"): that is a change only when the
    # reply the user got differs from the one the model wrote.
    reply_changed = result.text != "".join(recording.text)
    hits = [
        Hit(event.processor_id, event.hook, event.outcome, event.detail)
        for event in tracer.events
        if event.outcome not in ("passed", "held")
        and (reply_changed or event.hook != "process_output_stream" or event.outcome in ("aborted", "raised"))
    ]
    tripped = unique_in_order(hit.processor for hit in hits if hit.outcome == "aborted")
    reason: str | None = None
    outcome: Outcome
    if result.tripwire is not None:
        outcome = "blocked"
        reason = result.tripwire.reason
        if result.tripwire.processor_id and result.tripwire.processor_id not in tripped:
            tripped.append(result.tripwire.processor_id)
    elif result.finish_reason == "error" or any(hit.outcome == "raised" for hit in hits):
        outcome = "error"
        raised = next((hit for hit in hits if hit.outcome == "raised"), None)
        reason = result.error or (raised.detail if raised else None) or "; ".join(result.warnings) or None
    elif hits:
        outcome = "modified"
        reason = next((hit.detail for hit in hits if hit.detail), None)
    else:
        outcome = "passed"
    judged = make_result(
        case,
        outcome,
        latency=latency,
        tripped=tripped,
        hits=hits,
        reason=reason,
        reply=result.text,
        input_tokens=result.usage.input_tokens,
        output_tokens=result.usage.output_tokens,
        cost=case_cost(recording.model_id, result.usage) if mode == "model" else 0.0,
        # a replay keeps the answers it replayed, so its cases open (and replay again) like the model run's
        recording=base64.b64encode(recorded.to_bytes()).decode("ascii") if recorded is not None else replay,
        error=result.error if outcome == "error" else None,
        attempts=tries,
        scores=case_scores(tracer.events, result.tripwire),
    )
    if mode != "guardrails":  # the model's own answer: the verdict of the case's assertions (lab.assertions)
        await judge_case_result(judged, case, agent.instructions, result.steps, ignore_tools=(LAB_TOOL,))
    return judged


def case_cost(model_id: str, usage: Usage) -> float | None:
    """USD from litellm's bundled price map (as CostGuard prices calls); None for a model it does not price."""
    from processors.builtin.model_data import cost_of, model_price

    price = model_price(model_id)
    return None if price is None else round(cost_of(usage, price), 8)


def make_result(case: Case, outcome: Outcome, *, latency: float, **fields: Any) -> CaseResult:
    if outcome == "error" and fields.get("reason") is None:
        fields["reason"] = fields.get("error")
    return CaseResult(
        id=case.id,
        text=case.text,
        label=case.label,
        category=case.category,
        lang=case.lang,
        expect=case.expect,
        outcome=outcome,
        latency_ms=round(latency * 1000, 3),
        **fields,
    )
