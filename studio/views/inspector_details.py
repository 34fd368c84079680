"""The inspector's details pane: what the selected timeline entry changed, and the processor's state after it.

:func:`details_html` renders a node of the trace tree (``studio.models.trace_nodes``) as rich text: a heading,
the outcome, the abort reason or exception for aborted/raised calls, a before → after line diff (added lines
green, removed lines red), each recorded chunk change of a ``process_output_stream`` summary with the chunk's
JSON before and after, and the processor's state after the call as pretty-printed JSON.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QTextBrowser, QWidget

from studio.models.trace_model import OUTCOME_COLORS, format_ms
from studio.models.trace_nodes import CallNode, ChangeNode, HookNode, Node, PhaseNode, RunNode
from studio.models.trace_rows import diff_lines, to_json

#: Chunk changes listed for one stream summary (a run can change thousands; the tree shows the first ones).
MAX_LISTED_CHANGES = 100

_DIFF_COLORS = {"-": ("#ffebee", "#b71c1c"), "+": ("#e8f5e9", "#1b5e20"), " ": ("", "#555555")}
_EMPTY = "<p style='color:#777'>Select an entry in the timeline to see what it changed.</p>"


def _esc(text: Any) -> str:
    return html.escape(str(text))


def badge(outcome: str | None) -> str:
    if not outcome:
        return ""
    color = OUTCOME_COLORS[outcome][0]
    return f"<span style='background-color:{color}; color:white; font-weight:bold'>&nbsp;{outcome}&nbsp;</span>"


def diff_table(before: str, after: str) -> str:
    """A line diff as a full-width table: removed lines red with a minus sign, added lines green with "+"."""
    rows = []
    for kind, line in diff_lines(before, after) or [(" ", "")]:
        background, color = _DIFF_COLORS[kind]
        cell_bg = f" bgcolor='{background}'" if background else ""
        sign = {"-": "&minus;", "+": "+", " ": "&nbsp;"}[kind]
        rows.append(
            f"<tr><td{cell_bg} style='color:{color}; font-family:monospace; white-space:pre'>"
            f"{sign} {_esc(line) or '&nbsp;'}</td></tr>"
        )
    return "<table width='100%' cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"


def _pre(text: str) -> str:
    return f"<pre style='background-color:#f6f6f6'>{_esc(text)}</pre>"


def _counts(node: Node) -> str:
    parts = [f"{count} {outcome}" for outcome, count in sorted(node.counts.items()) if count]
    return ", ".join(parts) or "no calls"


def _change_html(change: dict[str, Any], title: str) -> str:
    outcome = str(change.get("outcome", "changed"))
    before = to_json(change.get("before"))
    after = change.get("after")
    out = [f"<p><b>{_esc(title)}</b> {badge(outcome)}"]
    if change.get("detail"):
        out.append(f" — {_esc(change['detail'])}")
    out.append("</p>")
    out.append(diff_table(before, "" if after is None else to_json(after)))
    if after is None:
        out.append("<p style='color:#777'>(the chunk went no further)</p>")
    return "".join(out)


def _call_html(node: CallNode) -> str:
    event = node.event
    where = f"step {event.step_number}" if event.step_number is not None else "before the first step"
    out = [
        f"<h3>{_esc(event.processor_id)} — {_esc(event.hook)}</h3>",
        f"<p>{badge(event.outcome)} &nbsp; {where} · processor #{_esc(event.processor_index)} · "
        f"{format_ms(node.seconds)} ms</p>",
    ]
    if event.detail:
        label = "Error" if event.outcome == "raised" else "Reason"
        out.append(f"<p style='color:{OUTCOME_COLORS[event.outcome][0]}'><b>{label}:</b> {_esc(event.detail)}</p>")
    stats = event.chunk_stats
    if stats is None and not event.after and event.outcome in ("aborted", "raised"):
        out.append("<h4>Input (the call gave nothing back)</h4>" + diff_table(event.before, event.before))
    elif stats is None:
        same = " (unchanged)" if event.before == event.after else ""
        out.append(f"<h4>Before → after{same}</h4>" + diff_table(event.before, event.after))
    else:
        changes = stats.get("changes", [])
        out.append(
            f"<h4>Chunks: {stats.get('count', 0)} seen, {stats.get('changed', 0)} changed, "
            f"{stats.get('held', 0)} held back and let out later, "
            f"{stats.get('dropped', 0)} dropped, {stats.get('raised', 0)} raised, "
            f"{stats.get('aborted', 0)} aborted</h4>"
        )
        for index, change in enumerate(changes[:MAX_LISTED_CHANGES]):
            out.append(_change_html(change, f"Chunk change {index + 1}"))
        if len(changes) > MAX_LISTED_CHANGES:
            out.append(f"<p style='color:#777'>… and {len(changes) - MAX_LISTED_CHANGES} more changes.</p>")
        if not changes:
            out.append("<p style='color:#777'>Every chunk passed unchanged.</p>")
    out.append("<h4>State after the call</h4>" + _pre(to_json(event.state)))
    return "".join(out)


def _run_html(node: RunNode) -> str:
    wall = node.wall_seconds
    out = [
        f"<h3>Run {node.number} — {_esc(node.status)}</h3>",
        f"<p>Run <code>{_esc(node.run_id)}</code>"
        + (f" on thread <code>{_esc(node.thread_id)}</code>" if node.thread_id else "")
        + "</p>",
        f"<p>Finish reason: {_esc(node.finish_reason or '—')}"
        + (f" · {wall:.2f} s" if wall is not None else "")
        + f" · {format_ms(node.seconds)} ms in processors</p>",
        f"<p>Calls: {_esc(_counts(node))}</p>",
    ]
    if node.tripwire is not None:
        out.append(
            f"<p style='color:{OUTCOME_COLORS['aborted'][0]}'><b>Tripwire:</b> {_esc(node.tripwire.reason)} "
            f"({_esc(node.tripwire.processor_id or 'unknown processor')})</p>"
        )
    if node.error:
        out.append(f"<p style='color:{OUTCOME_COLORS['raised'][0]}'><b>Error:</b> {_esc(node.error)}</p>")
    for warning in node.warnings:
        out.append(f"<p style='color:{OUTCOME_COLORS['dropped'][0]}'><b>Warning:</b> {_esc(warning)}</p>")
    return "".join(out)


def details_html(node: Node | None) -> str:
    """Rich text describing one timeline entry (or a hint to select one)."""
    if node is None:
        return _EMPTY
    if isinstance(node, CallNode):
        return _call_html(node)
    if isinstance(node, ChangeNode):
        call = node.parent
        assert isinstance(call, CallNode)
        title = f"Chunk change {node.index + 1} by {call.event.processor_id} (step {call.event.step_number})"
        return (
            f"<h3>{_esc(call.event.processor_id)} — process_output_stream</h3>"
            + _change_html(node.change, title)
            + "<h4>Processor state at the step's end</h4>"
            + _pre(to_json(call.event.state))
        )
    if isinstance(node, RunNode):
        return _run_html(node)
    if isinstance(node, HookNode):
        phase = node.parent
        where = phase.label if isinstance(phase, PhaseNode) else ""
        rows = "".join(
            f"<li>{_esc(call.label)} {badge(call.outcome)} {format_ms(call.seconds)} ms</li>" for call in node.children
        )
        return f"<h3>{_esc(node.hook)} — {_esc(where)}</h3><p>{badge(node.outcome)}</p><ul>{rows}</ul>"
    rows = "".join(
        f"<li>{_esc(child.label)} {badge(child.outcome)} {format_ms(child.seconds)} ms</li>" for child in node.children
    )
    return f"<h3>{_esc(node.label)}</h3><p>{badge(node.outcome)} · {_esc(_counts(node))}</p><ul>{rows}</ul>"


class InspectorDetails(QTextBrowser):
    """Shows :func:`details_html` for the entry it is given; read-only, no state of its own beyond the text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector_details")
        self.setOpenLinks(False)
        self.setHtml(_EMPTY)

    @Slot(object)
    def show_entry(self, node: Node | None) -> None:
        self.setHtml(details_html(node))
