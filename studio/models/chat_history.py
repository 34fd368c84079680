"""Reopening a stored thread in the chat: its messages, a banner for each past run a tripwire ended, each message's
run (so a message's menu can act on the run it came from), and under a reply the judge that failed in its run."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from processors.messages import Message
from processors.tracing import TraceEvent
from studio.models.chat_conversation import OWN_INPUT_WINDOW, Conversation, naive_utc
from studio.models.chat_items import (
    ChatItem,
    TripwireItem,
    UserItem,
    assistant_items,
    new_key,
)
from studio.models.judge_failures import JudgeFailures
from studio.models.trace_data import event_from_dict


class StoredThreads:
    """Builds the conversation of a reopened thread from its stored messages and runs (``ChatModel.history``)."""

    def __init__(self, chat: Conversation) -> None:
        self._chat = chat

    # ----------------------------------------------------------------------------------------- stored threads
    def load_messages(self, messages: Iterable[Message]) -> None:
        """Replace the conversation with a stored thread's messages (system messages are not shown)."""
        items: list[ChatItem] = []
        for message in messages:
            if message.role == "user":
                items.append(UserItem(key=new_key("user"), created_at=message.created_at, text=message.text))
            elif message.role == "assistant":
                items.extend(assistant_items(message))
        self._chat.reset(items)

    def load_thread(self, messages: Iterable[Message], runs: Iterable[Any] = ()) -> None:
        """``load_messages``, plus a banner for each past run that a tripwire ended.

        ``runs`` are the store's run records (``runs_for_thread``: ``id``, ``started_at``, ``tripwire`` dict), oldest
        first: a banner then goes exactly before the first message of the next run. Tripwire records
        (``tripwires_for_thread``: ``run_id``, ``at``, ``reason``, …) are accepted too; they are placed by
        :meth:`add_tripwire_banner`'s time rule.
        """
        messages = list(messages)
        self.load_messages(messages)
        user_messages = [(naive_utc(m.created_at), m.text) for m in messages if m.role == "user"]
        records = list(runs)
        starts = sorted(naive_utc(r.started_at) for r in records if getattr(r, "started_at", None) is not None)
        self._assign_runs(records)
        for record in records:
            if hasattr(record, "tripwire") and hasattr(record, "started_at"):
                data = record.tripwire
                if not data:
                    continue
                started = naive_utc(record.started_at)
                later = next((start for start in starts if start > started), None)
                item = TripwireItem(
                    key=new_key("tripwire"),
                    run_id=record.id,
                    created_at=record.started_at,
                    reason=str(data.get("reason", "")),
                    processor_id=data.get("processorId", data.get("processor_id")),
                    metadata=data.get("metadata"),
                    retry=bool(data.get("retry", False)),
                    code=data.get("code"),
                    params=dict(data.get("params") or {}),
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
                self._chat.insert(len(self._chat.items) if later is None else self._first_row_from(later), inserted)
            else:
                self._chat.add_tripwire_banner(
                    record.run_id,
                    record.reason,
                    record.processor_id,
                    record.metadata,
                    retry=bool(getattr(record, "retry", False)),
                    at=getattr(record, "at", None),
                    code=getattr(record, "code", None),
                    params=getattr(record, "params", None),
                )

    def note_judge_failures(self, runs: Iterable[tuple[str, Iterable[Mapping[str, Any] | TraceEvent]]]) -> None:
        """Say under each reopened reply that a guardrail's judge failed in its run, as the live run did: read from
        the run's stored trace events (``(run id, events)`` per run). A run the failure blocked (fail-closed) has
        no reply: its tripwire banner says why already."""
        judges = JudgeFailures()
        for run_id, events in runs:
            item = self._chat.assistant_for(run_id)
            for event in events:
                failure = judges.see(event_from_dict(event))
                if failure is not None and item is not None and failure.text not in item.notices:
                    item.notices.append(failure.text)
                    self._chat.changed(item)

    def _assign_runs(self, records: list[Any]) -> None:
        """Give each loaded message the run it came from (the latest run started before it, with the window a run's
        own message may lag behind its start), so a message's menu can act on its run (replay it, say)."""
        started = sorted(
            (naive_utc(r.started_at), r.id) for r in records if hasattr(r, "id") and getattr(r, "started_at", None)
        )
        if not started:
            return
        for item in self._chat.items:
            if item.run_id is not None or item.created_at is None:
                continue
            when = naive_utc(item.created_at) + OWN_INPUT_WINDOW
            owner = [run_id for start, run_id in started if start <= when]
            if owner:
                item.run_id = owner[-1]

    def _first_row_from(self, when: datetime) -> int:
        for row, item in enumerate(self._chat.items):
            if item.created_at is not None and naive_utc(item.created_at) >= when:
                return row
        return len(self._chat.items)
