"""The lab's runner: every case through a fresh agent with the full pipeline, concurrently, cancellable, resumable.

``LabRun(cases, agent_factory, mode=..., concurrency=N, results_path=...)`` is driven by iterating
:meth:`LabRun.results` (an async iterator of :class:`CaseResult` in the order cases finish): the headless command
prints progress from it, the studio's Lab view will draw from it. Cancelling the iterating task stops every case
in flight at once. ``agent_factory`` returns a fresh :class:`processors.Agent` per case, so no processor's
instance state leaks from one case into the next.

Modes:

- ``guardrails`` — no model call: the agent's model is replaced by a :class:`ScriptedModel` answering the case's
  ``reply`` (or :data:`DEFAULT_REPLY`), so the input and output lanes run around a fixed answer;
- ``model`` — the design's own model answers; each case's answers and tool results are recorded
  (:mod:`processors.models.replay`) in its result;
- ``replay`` — those recorded answers again (``recordings``), around a chain that may have changed since, with no
  model call: after editing only output processors, a re-run costs nothing.

A case with a ``tool_result`` first makes the model call the lab's :data:`LAB_TOOL` (scripted, in both modes),
which returns that text, so ``process_tool_result`` guards see it as a real tool result.

Resuming: each result is appended to ``results_path`` (one JSON line, written with one ``write`` as soon as the
case finishes) and a later run with the same file skips the cases already there, so a crash or a SIGKILL loses
at most the cases in flight. The file is fsync'd at most every :data:`FSYNC_INTERVAL` seconds and at the end (a
power cut may lose that much more; an fsync per case would cost more than the guardrails themselves).

The verdict comes from the run's chunks and trace events, the same data the studio's inspector shows: the final
tripwire makes a case ``blocked``; a processor that aborted (and was retried) or changed or dropped something
makes it ``modified``; a processor that raised, or a run that ended in error, makes it ``error``.
A 429 (or 503) is retried after the provider's Retry-After, or an exponential back-off, and every worker waits
out that pause before its next model call, so a rate limit does not become a storm of refused calls. The pause
starts when any call meets the limit, also one the design's own error processors retry inside its case.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from lab.corpus import Case
from lab.results import CaseResult, Hit, Outcome, ResultsFile, read_results, unique_in_order
from processors import Agent, ModelAPIError, RecordingTracer, Tool, Usage
from processors.models import ScriptedModel
from processors.models.base import ModelEvent, ModelRequest, TextDelta
from processors.models.replay import Recording, RecordingModel, ReplayModel, record_tools, replay_tools
from processors.models.scripted import ToolCall, Turn

Mode = Literal["guardrails", "model", "replay"]
MODES: tuple[Mode, ...] = ("guardrails", "model", "replay")
AgentFactory = Callable[[], Agent]

#: The fixed answer of ``guardrails`` mode when a case brings no ``reply``.
DEFAULT_REPLY = "Sure, I can help with that. Here is what I found."
#: The tool a ``tool_result`` case makes the model call; it returns the case's ``tool_result``.
LAB_TOOL = "fetch_content"
RESULTS_FORMAT = 1


class LabError(Exception):
    """The run cannot start (e.g. a results file made for another design or mode)."""


class _RateLimited(Exception):
    def __init__(self, retry_after: float | None, message: str) -> None:
        super().__init__(message)
        self.retry_after = retry_after


#: Statuses that mean "slow down": the whole run pauses, not only the case that met them.
RATE_LIMIT_STATUSES = (429, 503)


class _RateGate:
    """The run's shared pause. In ``model`` mode every model call waits it out first, and a rate limit any call
    meets extends it (the provider's Retry-After, else an exponential back-off): so every worker backs off
    together, also when the design's own error processors retry the call inside its case (the run-level retry
    below never sees those, and without the gate the other workers kept calling into the limit)."""

    def __init__(self, backoff: float, max_backoff: float) -> None:
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.until = 0.0
        #: How many rate limits paused the run.
        self.pauses = 0
        self._streak = 0  # rate limits since the last answer: the back-off's exponent

    async def wait(self) -> None:
        """Until the pause is over (a pause another call extended meanwhile too). A timer, not an event: the end
        of a pause is a time, nothing announces it."""
        loop = asyncio.get_running_loop()
        delay = self.until - loop.time()
        while delay > 0:
            await asyncio.sleep(delay)
            delay = self.until - loop.time()

    def limited(self, retry_after: float | None) -> None:
        self.pauses += 1
        self._streak += 1
        delay = retry_after
        if delay is None:
            delay = min(self.max_backoff, self.backoff * 2 ** (self._streak - 1))
        self.until = max(self.until, asyncio.get_running_loop().time() + delay)

    def answered(self) -> None:
        self._streak = 0


class _GatedModel:
    """Waits out the run's pause before each call of ``inner``; a rate-limited call pauses the whole run."""

    def __init__(self, inner: Any, gate: _RateGate) -> None:
        self.inner = inner
        self.gate = gate
        self.provider = getattr(inner, "provider", "lab")
        self.model_id = getattr(inner, "model_id", "lab")

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        await self.gate.wait()
        try:
            async for event in self.inner.stream(request):
                yield event
        except ModelAPIError as error:
            if error.retryable and error.status_code in RATE_LIMIT_STATUSES:
                self.gate.limited(error.retry_after)
            raise
        self.gate.answered()


class _RecordingModel:
    """Passes ``inner``'s events through and keeps the text it produced: the reply before any output processor."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.provider = getattr(inner, "provider", "lab")
        self.model_id = getattr(inner, "model_id", "lab")
        self.text: list[str] = []

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
    agent: Agent, case: Case, mode: Mode, replay: str | None = None, gate: _RateGate | None = None
) -> tuple[_RecordingModel, Recording | None]:
    """Fit a fresh agent to one case: the scripted reply of ``guardrails`` mode, the lab tool for tool results,
    the recording of ``model`` mode, the recorded answers of ``replay`` mode.

    Returns the wrapper now around the model, which knows the raw reply, and the case's new recording."""
    recorded: Recording | None = None
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
        if isinstance(agent.model, str):  # a plain model id means litellm, as the agent itself reads it
            from processors.models import LiteLLMModel

            agent.model = LiteLLMModel(agent.model)
        if gate is not None:
            agent.model = _GatedModel(agent.model, gate)
        agent.model = RecordingModel(agent.model, recorded)
        agent.tools = record_tools(agent.tools, recorded)
    elif mode == "replay":
        if replay is None:
            raise ValueError("no recording of this case: run it in model mode with a results file first")
        again = Recording.from_bytes(base64.b64decode(replay))
        agent.model = ReplayModel(again, on_divergence="continue")
        agent.tools = replay_tools(agent.tools, again)
    recording = _RecordingModel(agent.model)
    agent.model = recording
    return recording, recorded


def case_messages(case: Case) -> list[dict[str, str]]:
    """The case's conversation in OpenAI chat format: earlier turns, then its text."""
    return [*(dict(turn) for turn in case.turns), {"role": "user", "content": case.text}]


async def run_case(
    case: Case, agent: Agent, mode: Mode, replay: str | None = None, gate: _RateGate | None = None
) -> CaseResult:
    """Run one case to the end and derive its verdict. Raises ``_RateLimited`` for a retryable model error."""
    tracer = RecordingTracer()
    started = time.perf_counter()
    error_payload: dict[str, Any] | None = None
    try:
        # may refuse: an agent with its own tool of the lab tool's name, a replay with no recording
        recording, recorded = prepare_agent(agent, case, mode, replay, gate)
        stream = agent.stream(case_messages(case), tracers=[tracer])
        async for chunk in stream:
            if chunk.type == "error":
                payload = getattr(chunk, "payload", None)
                error_payload = dict(getattr(payload, "error", None) or {})
        result = await stream.result()
    except asyncio.CancelledError:
        raise
    except Exception as error:  # a processor or model that broke the run: this case is an error, the run goes on
        return _result(case, "error", latency=time.perf_counter() - started, error=f"{type(error).__name__}: {error}")
    latency = time.perf_counter() - started
    if error_payload and error_payload.get("retryable") and error_payload.get("statusCode") in RATE_LIMIT_STATUSES:
        raise _RateLimited(error_payload.get("retryAfter"), str(error_payload.get("message")))
    # Stream guards hold chunks back and release them later (trace: "dropped"): that is a change only when the
    # reply the user got differs from the one the model wrote.
    reply_changed = result.text != "".join(recording.text)
    hits = [
        Hit(event.processor_id, event.hook, event.outcome, event.detail)
        for event in tracer.events
        if event.outcome != "passed"
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
    return _result(
        case,
        outcome,
        latency=latency,
        tripped=tripped,
        hits=hits,
        reason=reason,
        reply=result.text,
        input_tokens=result.usage.input_tokens,
        output_tokens=result.usage.output_tokens,
        cost=_cost(recording.model_id, result.usage) if mode == "model" else 0.0,
        # a replay keeps the answers it replayed, so its cases open (and replay again) like the model run's
        recording=base64.b64encode(recorded.to_bytes()).decode("ascii") if recorded is not None else replay,
        error=result.error if outcome == "error" else None,
    )


def _cost(model_id: str, usage: Usage) -> float | None:
    """USD from litellm's bundled price map (as CostGuard prices calls); None for a model it does not price."""
    from processors.builtin.model_data import cost_of, model_price

    price = model_price(model_id)
    return None if price is None else round(cost_of(usage, price), 8)


def _result(case: Case, outcome: Outcome, *, latency: float, **fields: Any) -> CaseResult:
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


# ------------------------------------------------------------------------------------------------ the run


class LabRun:
    """One run of cases through an agent factory. Iterate :meth:`results`; read ``done``/``total`` for progress."""

    def __init__(
        self,
        cases: Sequence[Case],
        agent_factory: AgentFactory,
        *,
        mode: Mode = "guardrails",
        concurrency: int = 4,
        results_path: Path | str | None = None,
        design: dict[str, Any] | None = None,
        max_attempts: int = 6,
        recordings: dict[str, str] | None = None,
        backoff: float = 1.0,
        max_backoff: float = 60.0,
        pace: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        self.cases = list(cases)
        self.agent_factory = agent_factory
        self.mode: Mode = mode
        self.concurrency = concurrency
        self.results_path = Path(results_path) if results_path is not None else None
        self.design = design or {}
        self.max_attempts = max_attempts
        #: ``replay`` mode: case id → the recording a ``model`` run kept (``CaseResult.recording``).
        self.recordings = recordings or {}
        self.backoff = backoff
        self.max_backoff = max_backoff
        #: Awaited by each worker before each case: a UI sharing the loop takes its turn there.
        self.pace = pace
        #: Results of this run and of the run it resumes, by case id.
        self.finished: dict[str, CaseResult] = {}
        #: How many results came from the results file (skipped this time).
        self.resumed = 0
        self._gate = _RateGate(backoff, max_backoff)
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Set by :meth:`cancel`: no case starts after it, and a case it cut short is not a result.
        self.cancelled = False

    @property
    def rate_limited(self) -> int:
        """How many times a rate limit paused the run."""
        return self._gate.pauses

    @property
    def total(self) -> int:
        return len(self.cases)

    @property
    def done(self) -> int:
        return len(self.finished)

    def header(self) -> dict[str, Any]:
        return {"kind": "header", "format": RESULTS_FORMAT, "mode": self.mode, "design": self.design}

    def _resume(self) -> None:
        if self.results_path is None:
            return
        header, previous = read_results(self.results_path)
        if header is not None and (
            header.get("mode") != self.mode or _design_key(header) != _design_key(self.header())
        ):
            raise LabError(
                f"{self.results_path}: these results are from another design or mode; choose a new results file"
            )
        wanted = {case.id for case in self.cases}
        self.finished = {case_id: result for case_id, result in previous.items() if case_id in wanted}
        self.resumed = len(self.finished)

    def results_in_order(self) -> list[CaseResult]:
        """Every finished result, in the corpus's order."""
        return [self.finished[case.id] for case in self.cases if case.id in self.finished]

    def cancel(self) -> None:
        """Stop every case in flight now (a studio's Cancel button); the iterator then ends.

        A case whose agent turns the cancellation into a stopped run (the loop keeps what it saw and finishes
        with ``abort``) comes back as if it had finished: it is dropped, so a resume runs it again."""
        self.cancelled = True
        for task in list(self._tasks):
            task.cancel()

    async def results(self) -> AsyncIterator[CaseResult]:
        """Each case's result as it finishes (cases finished by an earlier run are skipped, see ``finished``)."""
        self._resume()
        file = None
        if self.results_path is not None:
            fresh = not self.results_path.exists() or self.results_path.stat().st_size == 0
            file = ResultsFile(self.results_path)
            if fresh:
                file.append(self.header())
        queue: asyncio.Queue[CaseResult] = asyncio.Queue()
        todo = iter([case for case in self.cases if case.id not in self.finished])
        remaining = self.total - self.done
        workers = [asyncio.create_task(self._worker(todo, queue)) for _ in range(min(self.concurrency, remaining))]
        self._tasks.update(workers)
        try:
            while remaining:
                getter = asyncio.ensure_future(queue.get())
                waiting = {getter, *(task for task in workers if not task.done())}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
                    for task in workers:  # a worker that died of something unexpected: say it, do not hang
                        if task.done() and not task.cancelled() and task.exception() is not None:
                            raise task.exception()  # type: ignore[misc]
                    if all(task.done() for task in workers) and queue.empty():
                        break  # cancelled workers: nothing more will come
                    continue
                result = getter.result()
                if self.cancelled:
                    break  # what came after the cancel is not shown (nor saved): the run ends here
                self.finished[result.id] = result
                if file is not None:
                    file.append(result.to_dict())
                remaining -= 1
                yield result
        finally:
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            self._tasks.difference_update(workers)
            if file is not None:
                file.close()

    async def _worker(self, todo: Iterable[Case], queue: asyncio.Queue[CaseResult]) -> None:
        for case in todo:
            if self.pace is not None:
                await self.pace()
            if self.cancelled:
                return
            result = await self._run_with_retries(case)
            if self.cancelled:
                return  # cut short by the cancel: not a result
            queue.put_nowait(result)
            # A case with nothing to wait for (guardrails, replay) never suspends: without this turn, one worker
            # ran every case in a single step of the loop, and nothing else on that loop ran meanwhile.
            await asyncio.sleep(0)

    async def _run_with_retries(self, case: Case) -> CaseResult:
        gate = self._gate if self.mode == "model" else None
        attempt = 0
        while True:
            attempt += 1
            await self._gate.wait()
            try:
                agent = self.agent_factory()
            except Exception as error:
                return _result(case, "error", latency=0.0, error=f"the agent could not be built: {error}")
            try:
                result = await run_case(case, agent, self.mode, self.recordings.get(case.id), gate)
            except _RateLimited as limited:
                if attempt >= self.max_attempts:
                    return _result(
                        case, "error", latency=0.0, error=f"rate limited {attempt} times: {limited}", attempts=attempt
                    )
                if gate is None:  # in model mode the gate paused the run when the call failed
                    self._gate.limited(limited.retry_after)
                continue
            result.attempts = attempt
            return result


def _design_key(header: dict[str, Any]) -> Any:
    design = header.get("design") or {}
    return design.get("fingerprint", design.get("id"))


async def run_lab(
    cases: Sequence[Case],
    agent_factory: AgentFactory,
    *,
    on_result: Callable[[CaseResult, LabRun], None] | None = None,
    **options: Any,
) -> LabRun:
    """Run every case (see :class:`LabRun` for the options) and return the finished run."""
    run = LabRun(cases, agent_factory, **options)
    async for result in run.results():
        if on_result is not None:
            on_result(result, run)
    return run


__all__ = [
    "DEFAULT_REPLY",
    "LAB_TOOL",
    "MODES",
    "RESULTS_FORMAT",
    "AgentFactory",
    "CaseResult",
    "Hit",
    "LabError",
    "LabRun",
    "Mode",
    "Outcome",
    "case_messages",
    "prepare_agent",
    "read_results",
    "run_case",
    "run_lab",
]
