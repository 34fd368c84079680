"""The chat's list of items and its observers: the base the live-run folding and the stored-thread loading build on.

Pure Python (no Qt): the Qt adapter (:mod:`studio.models.chat_list_model`) is one of the observers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from studio.models.chat_items import (
    AssistantItem,
    ChatItem,
    ErrorItem,
    TripwireItem,
    UserItem,
    new_key,
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


class Conversation:
    """The items the chat shows, in order, and who is told when they change."""

    def __init__(self) -> None:
        self._items: list[ChatItem] = []
        self._listeners: list[ChatModelListener] = []

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

    # ----------------------------------------------------------------------------------------- observers
    def subscribe(self, listener: ChatModelListener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: ChatModelListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def insert(self, row: int, items: list[ChatItem]) -> None:
        if not items:
            return
        for listener in self._listeners:
            listener.items_about_to_be_inserted(row, len(items))
        self._items[row:row] = items
        for listener in self._listeners:
            listener.items_inserted(row, len(items))

    def append(self, item: ChatItem) -> None:
        self.insert(len(self._items), [item])

    def remove(self, item: ChatItem) -> None:
        row = self.row_of(item)
        for listener in self._listeners:
            listener.items_about_to_be_removed(row, 1)
        del self._items[row]
        for listener in self._listeners:
            listener.items_removed(row, 1)

    def changed(self, item: ChatItem, structural: bool = True) -> None:
        item.revision += 1
        if structural:
            item.structure_revision += 1
        if not self._listeners:
            return
        row = self.row_of(item)
        for listener in self._listeners:
            listener.items_changed(row, row, structural)

    def reset(self, items: list[ChatItem]) -> None:
        for listener in self._listeners:
            listener.items_about_to_be_reset()
        self._items = items
        self._items_replaced()
        for listener in self._listeners:
            listener.items_reset()

    def _items_replaced(self) -> None:
        """Called when the whole list was replaced (the live-run folding forgets its runs then)."""

    # ----------------------------------------------------------------------------------------- editing
    def clear(self) -> None:
        self.reset([])

    def add_user_message(self, text: str, *, run_id: str | None = None, created_at: datetime | None = None) -> UserItem:
        item = UserItem(key=new_key("user"), run_id=run_id, created_at=created_at, text=text)
        self.append(item)
        return item

    def add_error(self, message: str, *, run_id: str | None = None) -> ErrorItem:
        item = ErrorItem(key=new_key("error"), run_id=run_id, message=message)
        self.append(item)
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
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
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
            code=code,
            params=dict(params or {}),
        )
        self.insert(len(self._items) if at is None else self._banner_row(at), [item])
        return item

    def _banner_row(self, at: datetime) -> int:
        items = self._items
        own_input: int | None = None
        for row, item in enumerate(items):
            when = item.created_at
            if when is None or naive_utc(when) < naive_utc(at):
                continue
            if isinstance(item, UserItem) and own_input is None and naive_utc(when) - naive_utc(at) <= OWN_INPUT_WINDOW:
                own_input = row
                continue
            if own_input is None or isinstance(item, UserItem):
                return row
        return len(items)

    def set_tool_card_expanded(self, item: AssistantItem, tool_call_id: str, expanded: bool) -> None:
        for card in item.tool_cards:
            if card.tool_call_id == tool_call_id and card.expanded != expanded:
                card.expanded = expanded
                self.changed(item)
                return

    def toggle_tool_card(self, item: AssistantItem, tool_call_id: str) -> None:
        for card in item.tool_cards:
            if card.tool_call_id == tool_call_id:
                self.set_tool_card_expanded(item, tool_call_id, not card.expanded)
                return


def naive_utc(when: datetime) -> datetime:
    """Comparable datetimes: aware ones in UTC without tzinfo (SQLite may hand back naive UTC)."""
    if when.tzinfo is None:
        return when
    return when.replace(tzinfo=None) - (when.utcoffset() or timedelta())
