"""The live chat's conversation: :class:`ChatModel`, a pure-Python model of chat items that runs are folded into.

:class:`ChatModel` holds what the chat shows, as a list of items (:mod:`studio.models.chat_items`: user messages,
replies made of steps, tripwire banners, errors).

A sent message gets its reply's placeholder at once (``ChatModel.live.begin_run``: an empty reply the view shows as
"writing…"); it is removed again if the run ends without content (a tripwire banner or an error says why), and kept,
marked stopped, when the user stopped it. Each reply carries its run's figures (:class:`RunStats`: model, tokens,
cost, time to the first visible text, total time), measured with the model's ``clock``.

Its parts, one module each: the item list and its observers (:mod:`studio.models.chat_conversation`), live runs
folded chunk by chunk (``ChatModel.live``, :mod:`studio.models.chat_live_runs`), and reopened threads
built from stored messages and run records (``ChatModel.history``, :mod:`studio.models.chat_history`).

Observers (the Qt adapter, :class:`~studio.models.chat_list_model.ChatListModel`) implement
:class:`ChatModelListener`. Changes where only streamed text grew are flagged ``structural=False`` so a view can batch
them to frame rate; every other change is structural.

This module imports no Qt, and nothing of the Qt adapter: the dependency goes one way, the adapter
(:mod:`studio.models.chat_list_model`, with ``ChatListModel`` and the ``*_ROLE`` constants) imports this model.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from studio.models.chat_conversation import Conversation
from studio.models.chat_history import StoredThreads
from studio.models.chat_live_runs import LiveRuns


class ChatModel(Conversation):
    """The conversation shown by the chat (the items and their observers: this class), with what folds runs into it
    (:attr:`live`) and what builds a reopened thread (:attr:`history`). Pure Python; observers are told about every
    change."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        #: Runs in flight, folded in chunk by chunk (``begin_run``, ``apply_chunk``, ``finish_run`` …).
        self.live = LiveRuns(self, clock=clock)
        #: A reopened thread's stored messages and runs (``load_thread``, ``note_judge_failures``).
        self.history = StoredThreads(self)

    def _items_replaced(self) -> None:
        self.live.forget_runs()


__all__ = ["ChatModel"]
