"""``load_thread``: what the studio shows of a stored thread — its messages, its runs' histories for the inspector,
what its tools returned, and what of it could not be read.

    loaded = await load_thread(store, thread_id)
    chat.history.load_thread(loaded.messages, loaded.runs); inspector.load(loaded.histories)
    if loaded.damage: status_bar.show(loaded.damage)

A damaged row (each one is logged by the store) reads as a placeholder; :func:`damage_note` says in one translated
sentence what was lost, so the rest of the thread opens as usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from processors.memory.queries import is_unreadable
from studio.i18n import translate
from studio.models.trace_data import RunHistory


@dataclass
class LoadedThread:
    """A thread as the studio opens it."""

    messages: list[Any]
    runs: list[Any]
    #: One per run, for the inspector.
    histories: list[RunHistory]
    #: What the tools returned, for their cards in the chat.
    recorded_tool_calls: Any
    #: What could not be read, in a sentence; None when all could.
    damage: str | None


async def load_thread(store: Any, thread_id: str) -> LoadedThread:
    """Read ``thread_id``'s messages, runs, trace events, violations and recorded tool calls from ``store``."""
    messages = await store.memory.all_messages(thread_id)
    runs, events, violations = await store.thread_history(thread_id)
    recorded = await store.recordings.recorded_tool_calls(thread_id)
    histories = [
        RunHistory(
            run_id=run.id,
            events=events[run.id],
            tripwire=run.tripwire,
            violations=violations[run.id],
            thread_id=thread_id,
            status=run.outcome,
            finish_reason=run.finish_reason,
            error=run.error,
        )
        for run in runs
    ]
    return LoadedThread(messages, runs, histories, recorded, damage_note(messages, runs))


def damage_note(messages: list[Any], runs: list[Any]) -> str | None:
    """What of a thread could not be read from the store (each damaged row is logged), or None if all could."""
    lost_messages = sum(1 for message in messages if is_unreadable(message))
    lost_fields = sorted({name for run in runs for name in getattr(run, "unreadable", ())})
    lost_runs = sum(1 for run in runs if getattr(run, "unreadable", ()))
    if not lost_messages and not lost_runs:
        return None
    parts = []
    if lost_messages:
        parts.append(translate("Workspace", "%n message(s) (shown as placeholders)", None, lost_messages))
    if lost_runs:
        parts.append(
            translate("Workspace", "the {fields} of %n run(s)", None, lost_runs).format(
                fields=translate("Workspace", " and ").join(lost_fields)
            )
        )
    return translate(
        "Workspace",
        "Part of this thread's saved data is damaged and could not be read: {parts}. "
        "Everything else is intact; the details are in the log.",
    ).format(parts=translate("Workspace", " and ").join(parts))


__all__ = ["LoadedThread", "damage_note", "load_thread"]
