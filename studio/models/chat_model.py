"""The live chat's conversation: :class:`ChatModel`, a pure-Python model of chat items that runs are folded into.

:class:`ChatModel` holds what the chat shows, as a list of items (:mod:`studio.models.chat_items`: user messages,
replies made of steps, tripwire banners, errors).

A sent message gets its reply's placeholder at once (:meth:`ChatModel.begin_run`: an empty reply the view shows as
"writing…"); it is removed again if the run ends without content (a tripwire banner or an error says why), and kept,
marked stopped, when the user stopped it. Each reply carries its run's figures (:class:`RunStats`: model, tokens,
cost, time to the first visible text, total time), measured with the model's ``clock``.

Live runs are folded chunk by chunk with :meth:`ChatModel.apply_chunk`; each step's text, reasoning and tool calls
go through the runtime's own reducer (:class:`processors.loop.step.StepBuilder`), so the chat and the saved message are
built by the same code. The work per ``text-delta`` is O(1): a list append and a revision bump. Reopened threads are
built from stored messages with :meth:`ChatModel.load_messages` (and banners from the store's tripwire records).

Observers (the Qt adapter, :class:`~studio.models.chat_list_model.ChatListModel`) implement
:class:`ChatModelListener`. Changes where only streamed text grew are flagged ``structural=False`` so a view can batch
them to frame rate; every other change is structural.

This module imports no Qt, and nothing of the Qt adapter: the dependency goes one way, the adapter
(:mod:`studio.models.chat_list_model`, with ``ChatListModel`` and the ``*_ROLE`` constants) imports this model. The
item classes are re-exported here for existing imports.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from processors.chunks import AnyChunk
from processors.loop.step import plain_args
from processors.messages import Message
from processors.result import GenerateResult
from processors.tracing import TraceEvent
from studio.models.chat_items import (
    AssistantItem,
    AssistantStatus,
    ChatItem,
    DataBlock,
    ErrorItem,
    ItemKind,
    RunStats,
    StepSegment,
    ToolCard,
    ToolCardState,
    TripwireItem,
    UserItem,
    assistant_items,
    new_key,
    readable_error,
    short_json,
)

#: A run's own input message is saved within this time of the run's start (used to place past tripwire banners).
OWN_INPUT_WINDOW = timedelta(seconds=2)


class ChatModelListener(Protocol):
    """What an observer of a :class:`ChatModel` implements (the Qt adapter does)."""

    def items_about_to_be_inserted(self, first: int, count: int) -> None: ...
    def items_inserted(self, first: int, count: int) -> None: ...
    def items_changed(self, first: int, last: int, structural: bool) -> None: ...
    def items_about_to_be_removed(self, first: int, count: int) -> None: ...
    def items_removed(self, first: int, count: int) -> None: ...
    def items_about_to_be_reset(self) -> None: ...
    def items_reset(self) -> None: ...


# ------------------------------------------------------------------------------------------------------ model
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


class ChatModel:
    """The conversation shown by the chat. Pure Python; observers are told about every change."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._items: list[ChatItem] = []
        self._runs: dict[str, _LiveRun] = {}
        self._listeners: list[ChatModelListener] = []
        #: Seconds, for a run's latency figures (monotonic; tests may give their own).
        self.clock = clock

    # ----------------------------------------------------------------------------------------- reading
    @property
    def items(self) -> Sequence[ChatItem]:
        return self._items

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, row: int) -> ChatItem:
        return self._items[row]

    def row_of(self, item: ChatItem) -> int:
        """The item's row (searching from the end, where live items are)."""
        items = self._items
        for row in range(len(items) - 1, -1, -1):
            if items[row] is item:
                return row
        raise ValueError(f"{item!r} is not in the chat")

    def assistant_for(self, run_id: str) -> AssistantItem | None:
        for item in reversed(self._items):
            if isinstance(item, AssistantItem) and item.run_id == run_id:
                return item
        return None

    def is_live(self, run_id: str) -> bool:
        return run_id in self._runs

    # ----------------------------------------------------------------------------------------- observers
    def subscribe(self, listener: ChatModelListener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: ChatModelListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _insert(self, row: int, items: list[ChatItem]) -> None:
        if not items:
            return
        for listener in self._listeners:
            listener.items_about_to_be_inserted(row, len(items))
        self._items[row:row] = items
        for listener in self._listeners:
            listener.items_inserted(row, len(items))

    def _append(self, item: ChatItem) -> None:
        self._insert(len(self._items), [item])

    def _remove(self, item: ChatItem) -> None:
        row = self.row_of(item)
        for listener in self._listeners:
            listener.items_about_to_be_removed(row, 1)
        del self._items[row]
        for listener in self._listeners:
            listener.items_removed(row, 1)

    def _changed(self, item: ChatItem, structural: bool = True) -> None:
        item.revision += 1
        if structural:
            item.structure_revision += 1
        if not self._listeners:
            return
        row = self.row_of(item)
        for listener in self._listeners:
            listener.items_changed(row, row, structural)

    def _reset(self, items: list[ChatItem]) -> None:
        for listener in self._listeners:
            listener.items_about_to_be_reset()
        self._items = items
        self._runs.clear()
        for listener in self._listeners:
            listener.items_reset()

    # ----------------------------------------------------------------------------------------- editing
    def clear(self) -> None:
        self._reset([])

    def add_user_message(self, text: str, *, run_id: str | None = None, created_at: datetime | None = None) -> UserItem:
        item = UserItem(key=new_key("user"), run_id=run_id, created_at=created_at, text=text)
        self._append(item)
        return item

    def add_error(self, message: str, *, run_id: str | None = None) -> ErrorItem:
        item = ErrorItem(key=new_key("error"), run_id=run_id, message=message)
        self._append(item)
        return item

    def add_tripwire_banner(
        self,
        run_id: str,
        reason: str,
        processor_id: str | None = None,
        metadata: Any = None,
        *,
        retry: bool = False,
        at: datetime | None = None,
    ) -> TripwireItem:
        """A tripwire banner. Without ``at`` it is appended; with ``at`` (the run's start, as the store records it)
        it is placed after that run's messages in a loaded thread — after the run's own input (a user message saved
        within :data:`OWN_INPUT_WINDOW` of ``at``) and its reply, or, when the input was blocked and not saved,
        before the first later message."""
        item = TripwireItem(
            key=new_key("tripwire"),
            run_id=run_id,
            created_at=at,
            reason=reason,
            processor_id=processor_id,
            metadata=metadata,
            retry=retry,
        )
        self._insert(len(self._items) if at is None else self._banner_row(at), [item])
        return item

    def _banner_row(self, at: datetime) -> int:
        items = self._items
        own_input: int | None = None
        for row, item in enumerate(items):
            when = item.created_at
            if when is None or _naive(when) < _naive(at):
                continue
            if isinstance(item, UserItem) and own_input is None and _naive(when) - _naive(at) <= OWN_INPUT_WINDOW:
                own_input = row
                continue
            if own_input is None or isinstance(item, UserItem):
                return row
        return len(items)

    def set_tool_card_expanded(self, item: AssistantItem, tool_call_id: str, expanded: bool) -> None:
        for card in item.tool_cards:
            if card.tool_call_id == tool_call_id and card.expanded != expanded:
                card.expanded = expanded
                self._changed(item)
                return

    def toggle_tool_card(self, item: AssistantItem, tool_call_id: str) -> None:
        for card in item.tool_cards:
            if card.tool_call_id == tool_call_id:
                self.set_tool_card_expanded(item, tool_call_id, not card.expanded)
                return

    # ----------------------------------------------------------------------------------------- live runs
    def begin_run(self, run_id: str, *, model: str | None = None) -> AssistantItem:
        """A message was sent: show its reply's placeholder now, before the model says anything."""
        run = self._live(run_id)
        if run.item is None:
            run.item = AssistantItem(key=new_key("assistant"), run_id=run_id, stats=RunStats(started=self.clock()))
            self._append(run.item)
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
            self._append(item)
            return item, True
        if item.stats is not None and item.stats.first_text is None and step.texts:
            item.stats.first_text = self.clock()
        if not item.steps or item.steps[-1] is not step:
            item.steps.append(step)
            return item, True
        return item, False

    def apply_chunk(self, run_id: str, chunk: AnyChunk) -> None:
        """Fold one streamed chunk into the conversation. O(1) for text and reasoning deltas."""
        kind = chunk.type
        run = self._live(run_id)
        if kind == "text-delta" or kind == "reasoning-delta":
            self._step(run).fold(chunk)
            item, added = self._attach(run)
            grows = "text" if kind == "text-delta" else "reasoning"
            structural = added or run.growing != grows
            run.growing = grows
            self._changed(item, structural)
            return
        payload: Any = getattr(chunk, "payload", None)
        if kind == "step-start":
            run.step = StepSegment.live(run_id, getattr(payload, "message_id", None) or new_key("step"))
            run.growing = None
        elif kind == "tool-call-input-streaming-start":
            card = ToolCard(tool_call_id=payload.tool_call_id, tool_name=payload.tool_name)
            self._step(run).tool_cards.append(card)
            run.cards[card.tool_call_id] = card
            run.growing = None
            self._changed(self._attach(run)[0])
        elif kind == "tool-call-delta":
            streaming = run.cards.get(payload.tool_call_id)
            if streaming is not None and run.item is not None:
                streaming.args_text.append(payload.args_text_delta)
                self._changed(run.item)
        elif kind == "tool-call":
            step = self._step(run)
            step.fold(chunk)
            called = run.cards.get(payload.tool_call_id)
            if called is None:
                called = run.cards[payload.tool_call_id] = ToolCard(payload.tool_call_id, payload.tool_name)
                step.tool_cards.append(called)
            called.args = plain_args(payload.args)
            called.state = "call"
            run.growing = None
            self._changed(self._attach(run)[0])
        elif kind == "tool-result" or kind == "tool-error":
            self._tool_outcome(run, kind, payload)
        elif kind == "step-finish":
            self._step_finished(run, payload.step_result.reason)
        elif kind == "tripwire":
            self._end_live(run, "done")
            self.add_tripwire_banner(
                run_id, payload.reason, payload.processor_id, payload.metadata, retry=payload.retry
            )
        elif kind == "error":
            self._end_live(run, "done")
            self.add_error(readable_error(payload.error), run_id=run_id)
        elif kind == "finish":
            self._end_live(run, "done")
        elif kind.startswith("data-"):
            self._step(run).data.append(DataBlock(kind, getattr(chunk, "data", None), getattr(chunk, "id", None)))
            run.growing = None
            self._changed(self._attach(run)[0])

    def _tool_outcome(self, run: _LiveRun, kind: str, payload: Any) -> None:
        card = run.cards.get(payload.tool_call_id)
        if card is None:  # a result without a call we saw (a provider-executed tool, say)
            card = run.cards[payload.tool_call_id] = ToolCard(payload.tool_call_id, payload.tool_name, state="call")
            card.args = plain_args(payload.args)
            self._step(run).tool_cards.append(card)
            self._attach(run)
        if kind == "tool-error":
            card.state, card.error = "error", readable_error(payload.error)
        elif payload.is_error:
            card.state, card.error = "error", readable_error(payload.result)
        else:
            card.state, card.result = "result", payload.result
        if run.item is not None:
            self._changed(run.item)

    def _step_finished(self, run: _LiveRun, reason: str) -> None:
        step, run.step, run.growing = run.step, None, None
        if reason != "retry" or step is None or not step.has_content or run.item is None:
            return
        step.retracted = True
        retracted = run.item.retracted
        if len(run.abort_reasons) >= len(retracted):
            step.feedback = run.abort_reasons[len(retracted) - 1]
        self._changed(run.item)

    def apply_trace_event(self, run_id: str, event: TraceEvent) -> None:
        """Note an abort's reason: the feedback of a retried step, shown before the run's result confirms it; and
        what a tool returned before ``process_tool_result``, for its card."""
        if event.hook == "process_tool_result" and event.tool_call_id is not None:
            self.note_tool_returned(run_id, event.tool_call_id, event.tool_result)
        if event.outcome != "aborted":
            return
        reason = event.detail
        if reason is None and event.chunk_stats:
            details = [c.get("detail") for c in event.chunk_stats.get("changes", []) if c.get("outcome") == "aborted"]
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
            retracted[index].feedback = reason
            self._changed(run.item)

    def _end_live(self, run: _LiveRun, status: AssistantStatus) -> None:
        run.step, run.growing = None, None
        item = run.item
        if item is not None and not item.has_content:
            self._drop_placeholder(run)
        elif item is not None and item.status != status:
            item.status = status
            self._changed(item)

    def _drop_placeholder(self, run: _LiveRun) -> None:
        """The run ended without a word: its placeholder goes (a banner or an error says why)."""
        if run.item is not None and run.item in self._items:
            self._remove(run.item)
        run.item = None

    def note_recorded_tool_calls(self, recorded: Mapping[str, Sequence[Any]]) -> None:
        """What the tools of a reopened thread's runs returned (their recordings: ``tool_name``, ``arguments``,
        ``result``, ``error``), onto the loaded tool cards, so a card shows it next to what the model was given as
        it did live. A run's cards take its recorded calls in order, each by tool name and arguments."""
        for item in self._items:
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
                self._changed(item)

    def note_tool_returned(self, run_id: str, tool_call_id: str, returned: Any) -> None:
        """What a tool returned before ``process_tool_result`` (a trace fact): its card shows it next to the
        result the model was given. The first report of a call counts (later processors see the same value)."""
        run = self._runs.get(run_id)
        card = run.cards.get(tool_call_id) if run is not None else None
        if card is None or card.returned_known:
            return
        card.returned, card.returned_known = returned, True
        if run is not None and run.item is not None:
            self._changed(run.item)

    def finish_run(self, run_id: str, result: GenerateResult) -> None:
        """The run ended: confirm retried steps' feedback from ``result.steps`` and mark the reply done (or stopped)."""
        run = self._runs.pop(run_id, None)
        stopped = result.finish_reason == "abort"
        if run is not None and run.item is not None and not run.item.has_content and not stopped:
            self._drop_placeholder(run)
        item = run.item if run is not None else self.assistant_for(run_id)
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
            if reason and segment.feedback != reason:
                segment.feedback = reason
                changed = True
        status: AssistantStatus = "stopped" if stopped else "done"
        if item.status != status:
            item.status = status
            changed = True
        if changed or run is not None:
            self._changed(item)

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
                self._changed(run.item)
            else:
                self._drop_placeholder(run)
        self.add_error(message, run_id=run_id)

    # ----------------------------------------------------------------------------------------- stored threads
    def load_messages(self, messages: Iterable[Message]) -> None:
        """Replace the conversation with a stored thread's messages (system messages are not shown)."""
        items: list[ChatItem] = []
        for message in messages:
            if message.role == "user":
                items.append(UserItem(key=new_key("user"), created_at=message.created_at, text=message.text))
            elif message.role == "assistant":
                items.extend(assistant_items(message))
        self._reset(items)

    def load_thread(self, messages: Iterable[Message], runs: Iterable[Any] = ()) -> None:
        """``load_messages``, plus a banner for each past run that a tripwire ended.

        ``runs`` are the store's run records (``runs_for_thread``: ``id``, ``started_at``, ``tripwire`` dict), oldest
        first: a banner then goes exactly before the first message of the next run. Tripwire records
        (``tripwires_for_thread``: ``run_id``, ``at``, ``reason``, …) are accepted too; they are placed by
        :meth:`add_tripwire_banner`'s time rule.
        """
        messages = list(messages)
        self.load_messages(messages)
        user_messages = [(_naive(m.created_at), m.text) for m in messages if m.role == "user"]
        records = list(runs)
        starts = sorted(_naive(r.started_at) for r in records if getattr(r, "started_at", None) is not None)
        self._assign_runs(records)
        for record in records:
            if hasattr(record, "tripwire") and hasattr(record, "started_at"):
                data = record.tripwire
                if not data:
                    continue
                started = _naive(record.started_at)
                later = next((start for start in starts if start > started), None)
                item = TripwireItem(
                    key=new_key("tripwire"),
                    run_id=record.id,
                    created_at=record.started_at,
                    reason=str(data.get("reason", "")),
                    processor_id=data.get("processorId", data.get("processor_id")),
                    metadata=data.get("metadata"),
                    retry=bool(data.get("retry", False)),
                )
                inserted: list[ChatItem] = [item]
                blocked_input = getattr(record, "input_text", None)
                if blocked_input and not any(
                    text == blocked_input and started - OWN_INPUT_WINDOW <= t and (later is None or t < later)
                    for t, text in user_messages
                ):
                    # a guardrail kept the message out of the thread: show it above its banner all the same
                    inserted.insert(
                        0,
                        UserItem(
                            key=new_key("user"), run_id=record.id, created_at=record.started_at, text=blocked_input
                        ),
                    )
                self._insert(len(self._items) if later is None else self._first_row_from(later), inserted)
            else:
                self.add_tripwire_banner(
                    record.run_id,
                    record.reason,
                    record.processor_id,
                    record.metadata,
                    retry=bool(getattr(record, "retry", False)),
                    at=getattr(record, "at", None),
                )

    def _assign_runs(self, records: list[Any]) -> None:
        """Give each loaded message the run it came from (the latest run started before it, with the window a run's
        own message may lag behind its start), so a message's menu can act on its run (replay it, say)."""
        started = sorted(
            (_naive(r.started_at), r.id) for r in records if hasattr(r, "id") and getattr(r, "started_at", None)
        )
        if not started:
            return
        for item in self._items:
            if item.run_id is not None or item.created_at is None:
                continue
            when = _naive(item.created_at) + OWN_INPUT_WINDOW
            owner = [run_id for start, run_id in started if start <= when]
            if owner:
                item.run_id = owner[-1]

    def _first_row_from(self, when: datetime) -> int:
        for row, item in enumerate(self._items):
            if item.created_at is not None and _naive(item.created_at) >= when:
                return row
        return len(self._items)


def run_cost(model: str | None, usage: Any) -> float | None:
    """USD for a run's usage at the model's price-map price; 0 for the offline demo; None when unknown."""
    if not model:
        return None
    if model == "demo":
        return 0.0
    from processors.builtin.model_data import cost_of, model_price

    price = model_price(model)
    return None if price is None else cost_of(usage, price)


def _naive(when: datetime) -> datetime:
    """Comparable datetimes: aware ones in UTC without tzinfo (SQLite may hand back naive UTC)."""
    if when.tzinfo is None:
        return when
    return when.replace(tzinfo=None) - (when.utcoffset() or timedelta())


__all__ = [
    "OWN_INPUT_WINDOW",
    "AssistantItem",
    "AssistantStatus",
    "ChatItem",
    "ChatModel",
    "ChatModelListener",
    "DataBlock",
    "ErrorItem",
    "ItemKind",
    "RunStats",
    "StepSegment",
    "ToolCard",
    "ToolCardState",
    "TripwireItem",
    "UserItem",
    "readable_error",
    "run_cost",
    "short_json",
]
