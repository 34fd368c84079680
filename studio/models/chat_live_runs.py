"""Folding a live run into the chat, chunk by chunk: the reply's placeholder, its steps and tool cards, its end.

Each step's text, reasoning and tool calls go through the runtime's own reducer
(:class:`processors.loop.step.StepBuilder`), so the chat and the saved message are built by the same code. The work per
``text-delta`` is O(1): a list append and a revision bump.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from processors.chunks import (
    AnyChunk,
    DataChunk,
    ErrorChunk,
    FinishChunk,
    ReasoningDeltaChunk,
    StepFinishChunk,
    StepStartChunk,
    TextDeltaChunk,
    ToolCallChunk,
    ToolCallDeltaChunk,
    ToolCallInputStreamingStartChunk,
    ToolErrorChunk,
    ToolErrorPayload,
    ToolResultChunk,
    ToolResultPayload,
    TripwireChunk,
)
from processors.loop.step import plain_args
from processors.problems import Problem
from processors.result import GenerateResult
from processors.tracing import TraceEvent
from studio.models.chat_conversation import Conversation
from studio.models.chat_items import (
    AssistantItem,
    AssistantStatus,
    DataBlock,
    RunStats,
    StepSegment,
    ToolCard,
    new_key,
    readable_error,
)
from studio.models.judge_failures import JudgeFailures
from studio.texts.problems import change_reason


@dataclass(eq=False, slots=True)
class _LiveRun:
    """Folding state of one run while its chunks arrive."""

    run_id: str
    item: AssistantItem | None = None
    step: StepSegment | None = None
    cards: dict[str, ToolCard] = field(default_factory=dict)
    #: Abort reasons seen in trace events, in order (a retried step's feedback, before the result confirms it).
    abort_reasons: list[str] = field(default_factory=list)
    #: ``"text"`` or ``"reasoning"``: which block of the current step is growing.
    growing: str | None = None


class LiveRuns:
    """Runs in flight, folded into a conversation as their chunks arrive (``ChatModel.live``)."""

    def __init__(self, chat: Conversation, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._chat = chat
        self._runs: dict[str, _LiveRun] = {}
        #: Judges that failed in the runs in flight: said under their replies (a fail-open run is no plain pass).
        self._judges = JudgeFailures()
        #: Seconds, for a run's latency figures (monotonic; tests may give their own).
        self.clock = clock

    def forget_runs(self) -> None:
        """The conversation was replaced (a thread opened): the runs in flight are no longer shown."""
        self._runs.clear()

    # ----------------------------------------------------------------------------------------- live runs
    def is_live(self, run_id: str) -> bool:
        return run_id in self._runs

    def begin_run(self, run_id: str, *, model: str | None = None) -> AssistantItem:
        """A message was sent: show its reply's placeholder now, before the model says anything."""
        run = self._live(run_id)
        if run.item is None:
            run.item = AssistantItem(key=new_key("assistant"), run_id=run_id, stats=RunStats(started=self.clock()))
            self._chat.append(run.item)
        stats = run.item.stats
        if stats is not None and model and not stats.model:
            stats.model = model
        return run.item

    def _live(self, run_id: str) -> _LiveRun:
        run = self._runs.get(run_id)
        if run is None:
            run = self._runs[run_id] = _LiveRun(run_id)
        return run

    @staticmethod
    def _step(run: _LiveRun) -> StepSegment:
        """The run's current step (created on first content, before anyone is told about it)."""
        if run.step is None:
            run.step = StepSegment.live(run.run_id, new_key("step"))
        return run.step

    def _attach(self, run: _LiveRun) -> tuple[AssistantItem, bool]:
        """The run's reply, holding the current step; True when the reply or the step was just added."""
        step = self._step(run)
        item = run.item
        if item is None:
            item = run.item = AssistantItem(key=new_key("assistant"), run_id=run.run_id, steps=[step])
            self._chat.append(item)
            return item, True
        if item.stats is not None and item.stats.first_text is None and step.texts:
            item.stats.first_text = self.clock()
        if not item.steps or item.steps[-1] is not step:
            item.steps.append(step)
            return item, True
        return item, False

    def apply_chunk(self, run_id: str, chunk: AnyChunk) -> None:
        """Fold one streamed chunk into the conversation. O(1) for text and reasoning deltas."""
        run = self._live(run_id)
        match chunk:
            case TextDeltaChunk() | ReasoningDeltaChunk():
                self._step(run).fold(chunk)
                item, added = self._attach(run)
                grows = "text" if type(chunk) is TextDeltaChunk else "reasoning"
                structural = added or run.growing != grows
                run.growing = grows
                self._chat.changed(item, structural)
            case StepStartChunk(payload=payload):
                run.step = StepSegment.live(run_id, payload.message_id or new_key("step"))
                run.growing = None
            case ToolCallInputStreamingStartChunk(payload=payload):
                card = ToolCard(tool_call_id=payload.tool_call_id, tool_name=payload.tool_name)
                self._step(run).tool_cards.append(card)
                run.cards[card.tool_call_id] = card
                run.growing = None
                self._chat.changed(self._attach(run)[0])
            case ToolCallDeltaChunk(payload=payload):
                streaming = run.cards.get(payload.tool_call_id)
                if streaming is not None and run.item is not None:
                    streaming.args_text.append(payload.args_text_delta)
                    self._chat.changed(run.item)
            case ToolCallChunk(payload=payload):
                step = self._step(run)
                step.fold(chunk)
                called = run.cards.get(payload.tool_call_id)
                if called is None:
                    called = run.cards[payload.tool_call_id] = ToolCard(payload.tool_call_id, payload.tool_name)
                    step.tool_cards.append(called)
                called.args = plain_args(payload.args)
                called.state = "call"
                run.growing = None
                self._chat.changed(self._attach(run)[0])
            case ToolResultChunk(payload=payload):
                self._tool_outcome(run, payload)
            case ToolErrorChunk(payload=payload):
                self._tool_outcome(run, payload)
            case StepFinishChunk(payload=payload):
                self._step_finished(run, payload.step_result.reason)
            case TripwireChunk(payload=payload):
                self._end_live(run, "done")
                self._chat.add_tripwire_banner(
                    run_id,
                    payload.reason,
                    payload.processor_id,
                    payload.metadata,
                    retry=payload.retry,
                    code=payload.code,
                    params=payload.params,
                )
            case ErrorChunk(payload=payload):
                self._end_live(run, "done")
                self._chat.add_error(readable_error(payload.error), run_id=run_id)
            case FinishChunk():
                self._end_live(run, "done")
            case DataChunk(type=kind, data=data, id=data_id):
                self._step(run).data.append(DataBlock(kind, data, data_id))
                run.growing = None
                self._chat.changed(self._attach(run)[0])

    def _tool_outcome(self, run: _LiveRun, payload: ToolResultPayload | ToolErrorPayload) -> None:
        card = run.cards.get(payload.tool_call_id)
        if card is None:  # a result without a call we saw (a provider-executed tool, say)
            card = run.cards[payload.tool_call_id] = ToolCard(payload.tool_call_id, payload.tool_name, state="call")
            card.args = plain_args(payload.args)
            self._step(run).tool_cards.append(card)
            self._attach(run)
        if isinstance(payload, ToolErrorPayload):
            card.state, card.error = "error", readable_error(payload.error)
            card.blocked_by = payload.blocked_by
        elif payload.is_error:
            card.state, card.error = "error", readable_error(payload.result)
        else:
            card.state, card.result = "result", payload.result
        if run.item is not None:
            self._chat.changed(run.item)

    def _step_finished(self, run: _LiveRun, reason: str) -> None:
        step, run.step, run.growing = run.step, None, None
        if reason != "retry" or step is None or not step.has_content or run.item is None:
            return
        step.retracted = True
        retracted = run.item.retracted
        if len(run.abort_reasons) >= len(retracted):
            _give_feedback(step, run.abort_reasons[len(retracted) - 1])
        self._chat.changed(run.item)

    def apply_trace_event(self, run_id: str, event: TraceEvent) -> None:
        """Note an abort's reason: the feedback of a retried step, shown before the run's result confirms it; and
        what a tool returned before ``process_tool_result``, for its card; a guardrail's judge that failed, under
        the reply."""
        failure = self._judges.see(event)
        if failure is not None:
            self._notice(run_id, failure.text)
        if event.hook == "process_tool_result" and event.tool_call_id is not None:
            self.note_tool_returned(run_id, event.tool_call_id, event.tool_result)
        if event.outcome != "aborted":
            return
        reason = event.detail
        if reason is None and event.chunk_stats:
            details = [change_reason(c) for c in event.chunk_stats.get("changes", []) if c.get("outcome") == "aborted"]
            reason = next((d for d in reversed(details) if d), None)
        run = self._runs.get(run_id)
        if run is None or not reason:
            return
        run.abort_reasons.append(reason)
        if run.item is None:
            return
        retracted = run.item.retracted
        index = len(run.abort_reasons) - 1
        if index < len(retracted) and retracted[index].feedback is None:
            _give_feedback(retracted[index], reason)
            self._chat.changed(run.item)

    def _notice(self, run_id: str, text: str) -> None:
        run = self._runs.get(run_id)
        item = run.item if run is not None else self._chat.assistant_for(run_id)
        if item is not None and text not in item.notices:
            item.notices.append(text)
            self._chat.changed(item)

    def _end_live(self, run: _LiveRun, status: AssistantStatus) -> None:
        run.step, run.growing = None, None
        item = run.item
        if item is not None and not item.has_content:
            self._drop_placeholder(run)
        elif item is not None and item.status != status:
            item.status = status
            self._chat.changed(item)

    def _drop_placeholder(self, run: _LiveRun) -> None:
        """The run ended without a word: its placeholder goes (a banner or an error says why)."""
        if run.item is not None and run.item in self._chat.items:
            self._chat.remove(run.item)
        run.item = None

    def note_recorded_tool_calls(self, recorded: Mapping[str, Sequence[Any]]) -> None:
        """What the tools of a reopened thread's runs returned (their recordings: ``tool_name``, ``arguments``,
        ``result``, ``error``), onto the loaded tool cards, so a card shows it next to what the model was given as
        it did live. A run's cards take its recorded calls in order, each by tool name and arguments."""
        for item in self._chat.items:
            calls = recorded.get(item.run_id or "")
            if not calls or not isinstance(item, AssistantItem):
                continue
            unused = list(calls)
            changed = False
            for card in item.tool_cards:
                match = next((c for c in unused if c.tool_name == card.tool_name and c.arguments == card.args), None)
                if match is None or card.returned_known or match.error is not None:
                    continue
                unused.remove(match)
                card.returned, card.returned_known = match.result, True
                changed = True
            if changed:
                self._chat.changed(item)

    def note_tool_returned(self, run_id: str, tool_call_id: str, returned: Any) -> None:
        """What a tool returned before ``process_tool_result`` (a trace fact): its card shows it next to the
        result the model was given. The first report of a call counts (later processors see the same value)."""
        run = self._runs.get(run_id)
        card = run.cards.get(tool_call_id) if run is not None else None
        if card is None or card.returned_known:
            return
        card.returned, card.returned_known = returned, True
        if run is not None and run.item is not None:
            self._chat.changed(run.item)

    def finish_run(self, run_id: str, result: GenerateResult) -> None:
        """The run ended: confirm retried steps' feedback from ``result.steps`` and mark the reply done (or stopped)."""
        run = self._runs.pop(run_id, None)
        self._judges.forget(run_id)
        stopped = result.finish_reason == "abort"
        if run is not None and run.item is not None and not run.item.has_content and not stopped:
            self._drop_placeholder(run)
        item = run.item if run is not None else self._chat.assistant_for(run_id)
        if item is None:
            return
        changed = self._record_stats(item, result)
        retracted = item.retracted
        retried = [step for step in result.steps if step.finish_reason == "retry" and step.tripwire is not None]
        if len(retried) != len(retracted):  # steps retried before anything was streamed have no segment
            by_text = [s for s in retried if s.rejected_text]
            retried = by_text if len(by_text) == len(retracted) else retried[-len(retracted) :] if retracted else []
        for segment, step in zip(retracted, retried, strict=False):
            reason = step.tripwire.reason if step.tripwire is not None else None
            code = step.tripwire.code if step.tripwire is not None else None
            if reason and (segment.feedback != reason or segment.feedback_code != code):
                segment.feedback = reason
                segment.feedback_code = code
                segment.feedback_params = dict(step.tripwire.params) if step.tripwire is not None else {}
                changed = True
        status: AssistantStatus = "stopped" if stopped else "done"
        if item.status != status:
            item.status = status
            changed = True
        if changed or run is not None:
            self._chat.changed(item)

    def _record_stats(self, item: AssistantItem, result: GenerateResult) -> bool:
        """Put the run's usage, cost and end time into the reply's figures; True when there were figures."""
        stats = item.stats
        if stats is None or stats.ended is not None:
            return False
        stats.ended = self.clock()
        usage = result.usage
        stats.input_tokens, stats.output_tokens, stats.total_tokens = (
            usage.input_tokens,
            usage.output_tokens,
            usage.total_tokens,
        )
        stats.cost = run_cost(stats.model, usage)
        return True

    def fail_run(self, run_id: str, message: str) -> None:
        """The run failed unexpectedly: mark its reply (or drop its empty placeholder) and add a readable error."""
        run = self._runs.pop(run_id, None)
        if run is not None and run.item is not None:
            if run.item.has_content:
                run.item.status = "failed"
                self._chat.changed(run.item)
            else:
                self._drop_placeholder(run)
        self._chat.add_error(message, run_id=run_id)


def run_cost(model: str | None, usage: Any) -> float | None:
    """USD for a run's usage at the model's price-map price; 0 for the offline demo; None when unknown."""
    if not model:
        return None
    if model == "demo":
        return 0.0
    from processors.builtin.model_data import cost_of, model_price

    price = model_price(model)
    return None if price is None else cost_of(usage, price)


def _give_feedback(step: StepSegment, reason: str) -> None:
    """A retried step's feedback from a trace's abort reason, with its tripwire's code and values when the reason
    carries them (a :class:`~processors.problems.Problem`), so the chat reads it in the reader's language at once."""
    step.feedback = str(reason)
    if isinstance(reason, Problem):
        step.feedback_code, step.feedback_params = reason.code, dict(reason.params)
