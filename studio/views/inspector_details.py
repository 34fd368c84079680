"""The inspector's details pane: what the selected timeline entry changed, and the processor's state after it.

:func:`details_html` renders a node of the trace tree (``studio.models.trace_nodes``) as rich text: a heading,
the outcome, the abort reason or exception for aborted/raised calls, a before → after line diff (added lines
green, removed lines red), each recorded chunk change of a ``process_output_stream`` summary with the chunk's
JSON before and after, and the processor's state after the call as pretty-printed JSON.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QUrl, Slot
from PySide6.QtWidgets import QTextBrowser, QWidget

from studio.error_texts import reason_text, tripwire_text
from studio.i18n import translate
from studio.models.judge_failures import JudgeFailure
from studio.models.outcome_words import outcome_label
from studio.models.trace_model import OUTCOME_COLORS, format_ms
from studio.models.trace_nodes import CallNode, ChangeNode, HookNode, Node, PhaseNode, RunNode
from studio.models.trace_rows import DIFF_CONTEXT, FOLDED, MAX_DIFF_LINES, line_diff, to_json
from studio.texts.problems import change_reason, shown_problem
from studio.texts.translator import number
from studio.views.inspector_scores import ThresholdOf, score_line

#: Chunk changes listed for one stream summary (a run can change thousands; the tree shows the first ones).
MAX_LISTED_CHANGES = 100

_DIFF_COLORS = {"-": ("#ffebee", "#b71c1c"), "+": ("#e8f5e9", "#1b5e20"), " ": ("", "#555555")}

#: The link scheme of "Show the chunk JSON" (``chunk-json:<change index>``), handled by :class:`InspectorDetails`.
JSON_LINK = "chunk-json"


def _empty() -> str:
    return "<p style='color:#777'>{}</p>".format(
        _esc(translate("Inspector", "Select an entry in the timeline to see what it changed."))
    )


def _esc(text: Any) -> str:
    return html.escape(str(text))


def badge(outcome: str | None) -> str:
    if not outcome:
        return ""
    color = OUTCOME_COLORS[outcome][0]
    label = _esc(outcome_label(outcome))
    return f"<span style='background-color:{color}; color:white; font-weight:bold'>&nbsp;{label}&nbsp;</span>"


def diff_table(before: str, after: str) -> str:
    """A line diff as a full-width table: removed lines red with a minus sign, added lines green with "+", long
    unchanged runs folded into one grey row; past ``MAX_DIFF_LINES`` lines a side, a note says what was left out."""
    diff = line_diff(before, after, context=DIFF_CONTEXT)
    rows = []
    for kind, line in diff.rows or [(" ", "")]:
        if kind == FOLDED:
            count = int(line)  # a plain name: lupdate skips a translate() whose count is a call
            folded = "⋯ " + translate("Inspector", "%n unchanged line(s) not shown", None, count)
            rows.append(f"<tr><td style='color:#777777'>{_esc(folded)}</td></tr>")
            continue
        background, color = _DIFF_COLORS[kind]
        cell_bg = f" bgcolor='{background}'" if background else ""
        sign = {"-": "&minus;", "+": "+", " ": "&nbsp;"}[kind]
        rows.append(
            f"<tr><td{cell_bg} style='color:{color}; font-family:monospace; white-space:pre'>"
            f"{sign} {_esc(line) or '&nbsp;'}</td></tr>"
        )
    table = "<table width='100%' cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"
    if diff.capped:
        note = translate(
            "Inspector",
            "Only the first {cap} lines of each side are compared; {before} more line(s) before and {after} "
            "after are not shown.",
        ).format(cap=number(MAX_DIFF_LINES, 0), before=number(diff.cut_before, 0), after=number(diff.cut_after, 0))
        table += f"<p style='color:#8a5300'>{_esc(note)}</p>"
    return table


def chunk_text(wire: Any) -> str:
    """What a wire chunk says, for a reader: a text part's text, a tool call's name and arguments, else its
    payload as JSON (the whole chunk is one click away)."""
    if not isinstance(wire, dict):
        return "" if wire is None else to_json(wire)
    payload = wire.get("payload")
    if isinstance(payload, dict):
        text = payload.get("text")
        if isinstance(text, str):
            return text
        name = payload.get("toolName") or payload.get("tool_name")
        if name is not None:
            value = next((payload[key] for key in ("args", "result", "error") if key in payload), None)
            return f"{name}: {to_json(value)}"
        return to_json(payload)
    if "data" in wire:
        return to_json(wire["data"])
    return to_json(wire)


def _pre(text: str) -> str:
    return f"<pre style='background-color:#f6f6f6'>{_esc(text)}</pre>"


def _counts(node: Node) -> str:
    parts = [f"{count} {outcome_label(outcome)}" for outcome, count in sorted(node.counts.items()) if count]
    return ", ".join(parts) or translate("Inspector", "no calls")


def _change_html(change: dict[str, Any], title: str, index: int, show_json: bool) -> str:
    """One chunk change: its text before → after as a readable diff; the chunks' JSON diff when ``show_json``
    (the "Show the chunk JSON" link toggles it)."""
    outcome = str(change.get("outcome", "changed"))
    before, after = change.get("before"), change.get("after")
    out = [f"<p><b>{_esc(title)}</b> {badge(outcome)}"]
    reason = change_reason(change)
    if reason:  # an abort's reason, by its tripwire's code when it has one
        out.append(f" — {_esc(reason_text(reason))}")
    out.append("</p>")
    out.append(diff_table(chunk_text(before), "" if after is None else chunk_text(after)))
    if after is None:
        went_nowhere = translate("Inspector", "(the chunk went no further)")
        out.append(f"<p style='color:#777'>{_esc(went_nowhere)}</p>")
    link = translate("Inspector", "Hide the chunk JSON") if show_json else translate("Inspector", "Show the chunk JSON")
    out.append(f"<p><a href='{JSON_LINK}:{index}'>{_esc(link)}</a></p>")
    if show_json:
        out.append(diff_table(to_json(before), "" if after is None else to_json(after)))
    return "".join(out)


def _detail_text(node: CallNode) -> str:
    """A call's abort reason or error as the reader sees it: the run's tripwire translated by its code when this
    call is the abort that ended the run (same processor, same reason), else the text as the runtime wrote it."""
    event = node.event
    run: Node | None = node
    while run is not None and not isinstance(run, RunNode):
        run = run.parent
    tripwire = run.tripwire if isinstance(run, RunNode) else None
    if (
        event.outcome == "aborted"
        and tripwire is not None
        and tripwire.reason == event.detail
        and tripwire.processor_id in (None, event.processor_id)
    ):
        return tripwire_text(tripwire)
    return reason_text(event.detail or "")  # an abort that a retry recovered from: its tripwire's code and values


def _call_html(node: CallNode, shown_json: frozenset[int], threshold_of: ThresholdOf | None = None) -> str:
    event = node.event
    if event.step_number is not None:
        where = translate("Inspector", "step {number}").format(number=event.step_number)
    else:
        where = translate("Inspector", "before the first step")
    out = [
        f"<h3>{_esc(event.processor_id)} — {_esc(event.hook)}</h3>",
        f"<p>{badge(event.outcome)} &nbsp; {_esc(where)} · "
        + _esc(translate("Inspector", "processor #{index}").format(index=event.processor_index))
        + " · "
        + _esc(translate("Inspector", "{ms} ms").format(ms=format_ms(node.seconds)))
        + "</p>",
    ]
    if node.judge_failure is not None:
        out.append(_judge_html(node.judge_failure))
    out.append(score_line(node, threshold_of))
    if event.detail:
        label = translate("Inspector", "Error") if event.outcome == "raised" else translate("Inspector", "Reason")
        out.append(
            f"<p style='color:{OUTCOME_COLORS[event.outcome][0]}'><b>{_esc(label)}:</b> {_esc(_detail_text(node))}</p>"
        )
    stats = event.chunk_stats
    if stats is None and not event.after and event.outcome in ("aborted", "raised"):
        before = shown_problem(event.before)
        out.append(_h4(translate("Inspector", "Input (the call gave nothing back)")) + diff_table(before, before))
    elif stats is None:
        title = (
            translate("Inspector", "Before → after (unchanged)")
            if event.before == event.after
            else translate("Inspector", "Before → after")
        )
        out.append(_h4(title) + diff_table(shown_problem(event.before), shown_problem(event.after)))
    else:
        changes = stats.get("changes", [])
        out.append(
            _h4(
                translate(
                    "Inspector",
                    "Chunks: {count} seen, {changed} changed, {held} held back and let out later, {dropped} "
                    "dropped, {raised} raised, {aborted} aborted",
                ).format(
                    **{key: stats.get(key, 0) for key in ("count", "changed", "held", "dropped", "raised", "aborted")}
                )
            )
        )
        for index, change in enumerate(changes[:MAX_LISTED_CHANGES]):
            title = translate("Inspector", "Chunk change {number}").format(number=index + 1)
            out.append(_change_html(change, title, index, index in shown_json))
        if len(changes) > MAX_LISTED_CHANGES:
            hidden = len(changes) - MAX_LISTED_CHANGES  # a plain name: lupdate skips a count that is a call
            more = translate("Inspector", "… and %n more change(s).", None, hidden)
            out.append(f"<p style='color:#777'>{_esc(more)}</p>")
        if not changes:
            unchanged = translate("Inspector", "Every chunk passed unchanged.")
            out.append(f"<p style='color:#777'>{_esc(unchanged)}</p>")
    out.append(_h4(translate("Inspector", "State after the call")) + _pre(to_json(event.state)))
    return "".join(out)


def _h4(text: str) -> str:
    return f"<h4>{_esc(text)}</h4>"


def _ms(seconds: float) -> str:
    return _esc(translate("Inspector", "{ms} ms").format(ms=format_ms(seconds)))


def _judge_html(failure: JudgeFailure) -> str:
    colour = OUTCOME_COLORS["aborted" if failure.blocked else "dropped"][0]
    label = translate("Inspector", "Judge failed:")
    return f"<p style='color:{colour}'><b>{_esc(label)}</b> {_esc(failure.text)}</p>"


def _run_html(node: RunNode) -> str:
    wall = node.wall_seconds
    run = _esc(translate("Inspector", "Run {number}").format(number=node.number))
    where = (
        translate("Inspector", "Run {run} on thread {thread}")
        if node.thread_id
        else translate("Inspector", "Run {run}")
    )
    figures = [translate("Inspector", "Finish reason: {reason}").format(reason=node.finish_reason or "—")]
    if wall is not None:
        figures.append(translate("Inspector", "{seconds} s").format(seconds=number(wall, 2)))
    figures.append(translate("Inspector", "{ms} ms in processors").format(ms=format_ms(node.seconds)))
    out = [
        f"<h3>{run} — {_esc(outcome_label(node.status))}</h3>",
        "<p>"
        + _esc(where).format(run=f"<code>{_esc(node.run_id)}</code>", thread=f"<code>{_esc(node.thread_id)}</code>")
        + "</p>",
        "<p>" + _esc(" · ".join(figures)) + "</p>",
        "<p>" + _esc(translate("Inspector", "Calls: {counts}").format(counts=_counts(node))) + "</p>",
    ]
    labels = {
        "tripwire": translate("Inspector", "Tripwire:"),
        "error": translate("Inspector", "Error:"),
        "warning": translate("Inspector", "Warning:"),
    }
    if node.tripwire is not None:
        processor = node.tripwire.processor_id or translate("Inspector", "unknown processor")
        out.append(
            f"<p style='color:{OUTCOME_COLORS['aborted'][0]}'><b>{_esc(labels['tripwire'])}</b> "
            f"{_esc(tripwire_text(node.tripwire))} ({_esc(processor)})</p>"
        )
    if node.error:
        out.append(
            f"<p style='color:{OUTCOME_COLORS['raised'][0]}'><b>{_esc(labels['error'])}</b> {_esc(node.error)}</p>"
        )
    out.extend(_judge_html(failure) for failure in node.judge_failures)
    for warning in node.warnings:
        out.append(
            f"<p style='color:{OUTCOME_COLORS['dropped'][0]}'><b>{_esc(labels['warning'])}</b> {_esc(warning)}</p>"
        )
    return "".join(out)


def details_html(
    node: Node | None, shown_json: frozenset[int] = frozenset(), threshold_of: ThresholdOf | None = None
) -> str:
    """Rich text describing one timeline entry (or a hint to select one); ``shown_json``: the chunk changes
    (by index) whose JSON is shown; ``threshold_of``: a scoring guard's threshold in the design, by processor id."""
    if node is None:
        return _empty()
    if isinstance(node, CallNode):
        return _call_html(node, shown_json, threshold_of)
    if isinstance(node, ChangeNode):
        call = node.parent
        assert isinstance(call, CallNode)
        title = translate("Inspector", "Chunk change {number} by {processor} (step {step})").format(
            number=node.index + 1, processor=call.event.processor_id, step=call.event.step_number
        )
        return (
            f"<h3>{_esc(call.event.processor_id)} — process_output_stream</h3>"
            + _change_html(node.change, title, node.index, node.index in shown_json)
            + _h4(translate("Inspector", "Processor state at the step's end"))
            + _pre(to_json(call.event.state))
        )
    if isinstance(node, RunNode):
        return _run_html(node)
    if isinstance(node, HookNode):
        phase = node.parent
        where = phase.label if isinstance(phase, PhaseNode) else ""
        rows = "".join(
            f"<li>{_esc(call.label)} {badge(call.outcome)} {_ms(call.seconds)}</li>" for call in node.children
        )
        return f"<h3>{_esc(node.hook)} — {_esc(where)}</h3><p>{badge(node.outcome)}</p><ul>{rows}</ul>"
    rows = "".join(
        f"<li>{_esc(child.label)} {badge(child.outcome)} {_ms(child.seconds)}</li>" for child in node.children
    )
    return f"<h3>{_esc(node.label)}</h3><p>{badge(node.outcome)} · {_esc(_counts(node))}</p><ul>{rows}</ul>"


class InspectorDetails(QTextBrowser):
    """Shows :func:`details_html` for the entry it is given; its only state is which chunk changes show JSON."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector_details")
        self.setOpenLinks(False)
        self._node: Node | None = None
        self._shown_json: set[int] = set()
        #: A scoring guard's threshold in the design, by the processor id a run gives it (set by the window; unset,
        #: a score is shown without its threshold).
        self.threshold_of: ThresholdOf | None = None
        self.anchorClicked.connect(self._on_anchor_clicked)
        self.setHtml(_empty())

    @Slot(object)
    def show_entry(self, node: Node | None) -> None:
        if node is not self._node:
            self._shown_json.clear()
        self._node = node
        self._render()

    def _render(self) -> None:
        bar = self.verticalScrollBar()
        position = bar.value()
        self.setHtml(details_html(self._node, frozenset(self._shown_json), self.threshold_of))
        bar.setValue(position)  # the same place, one chunk's JSON opened or closed

    @Slot(QUrl)
    def _on_anchor_clicked(self, url: QUrl) -> None:
        if url.scheme() != JSON_LINK:
            return
        index = int(url.path())
        self._shown_json ^= {index}
        self._render()
