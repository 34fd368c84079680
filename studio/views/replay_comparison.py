"""``ComparisonPane``: one run's two replays side by side — the original chain's and the current chain's.

The final texts with the words that differ highlighted, the tripwires, each processor's outcome on both sides (rows
that differ highlighted), the tool calls whose arguments changed, and — where the conversation diverged — what the
recording was asked against what the chain asks now. A view over a
:class:`~studio.replays.chain_replay.ReplayComparison`: the replay view shows one run's, the thread replay view the
selected run's.

Object names for automation: ``replay.original``, ``replay.current``, ``replay.processors``, ``replay.tools``,
``replay.request_diff``.
"""

from __future__ import annotations

import html
import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio import i18n
from studio.replays.chain_replay import Absence, ProcessorActivity, ReplayComparison, ReplayOutcome, RequestDiff

#: Highlights: removed on the original's side, added on the current side, a row that differs.
REMOVED = "#ffd7d5"
ADDED = "#ccf2d1"
DIFFERS = QColor("#fff3bf")

translate = i18n.translate


def _spans_html(spans: list[tuple[str, bool]], colour: str) -> str:
    return "".join(
        f'<span style="background-color:{colour}">{html.escape(text)}</span>' if differs else html.escape(text)
        for text, differs in spans
    ).replace("\n", "<br>")


class ComparisonPane(QWidget):
    """The texts, processors and changed tool calls of one :class:`ReplayComparison`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.original = QTextBrowser()
        self.original.setObjectName("replay.original")
        self.current = QTextBrowser()
        self.current.setObjectName("replay.current")
        sides = QSplitter(Qt.Orientation.Horizontal)
        for title, browser in (
            (translate("ReplayView", "Original chain"), self.original),
            (translate("ReplayView", "Current chain"), self.current),
        ):
            box = QWidget()
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(QLabel(f"<b>{html.escape(title)}</b>"))
            column.addWidget(browser, 1)
            sides.addWidget(box)

        self.processors = QTableWidget(0, 3)
        self.processors.setObjectName("replay.processors")
        self.processors.setHorizontalHeaderLabels(
            [translate("ReplayView", "Processor"), translate("ReplayView", "Original"), translate("ReplayView", "Now")]
        )
        header = self.processors.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.processors.verticalHeader().hide()
        self.processors.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.tools = QLabel()
        self.tools.setObjectName("replay.tools")
        self.tools.setWordWrap(True)
        self.tools.hide()

        #: Where the conversation diverged: the recorded request against the one asked now, line by line.
        self.request_diff = QTextBrowser()
        self.request_diff.setObjectName("replay.request_diff")
        self.request_diff.hide()

        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(sides)
        body.addWidget(self.request_diff)
        body.addWidget(self.processors)
        body.setSizes([240, 160, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(body, 1)
        layout.addWidget(self.tools)

    def clear(self) -> None:
        self.original.clear()
        self.current.clear()
        self.processors.setRowCount(0)
        self.tools.hide()
        self.request_diff.clear()
        self.request_diff.hide()

    def show_comparison(self, comparison: ReplayComparison) -> None:
        left, right = comparison.text_spans()
        self.original.setHtml(_side_html(comparison.original, _spans_html(left, REMOVED)))
        self.current.setHtml(_side_html(comparison.current, _spans_html(right, ADDED)))
        rows = comparison.processor_rows
        self.processors.setRowCount(len(rows))
        for row, entry in enumerate(rows):
            texts = (
                entry.processor_id,
                activity_text(entry.original, entry.original_absence),
                activity_text(entry.now, entry.now_absence),
            )
            for column, text in enumerate(texts):
                cell = QTableWidgetItem(text)
                if entry.differs:
                    cell.setBackground(QBrush(DIFFERS))
                self.processors.setItem(row, column, cell)
        changed = comparison.current.changed_tool_calls
        self.tools.setText(
            "".join(
                translate(
                    "ReplayView",
                    "⚠ Tool {0} was called with other arguments: recorded {1}, now {2} (given the recorded result)",
                ).format(name, json.dumps(before), json.dumps(after))
                + "\n"
                for name, before, after in changed
            ).strip()
        )
        self.tools.setVisible(bool(changed))
        diff = comparison.request_diff()
        if diff is None:
            self.request_diff.clear()
        else:
            self.request_diff.setHtml(request_diff_html(diff))
        self.request_diff.setVisible(diff is not None)


def request_diff_html(diff: RequestDiff) -> str:
    """The diverged step's request against the recorded one: removed lines red, added ones green, in a fixed font."""
    if diff.recorded_known:
        title = translate(
            "ReplayView", "Step {0}: what the recording was asked (-) and what the chain asks now (+)"
        ).format(diff.step)
    else:
        title = translate(
            "ReplayView", "Step {0}: what the chain asks now (+); the recording has no request to compare it with"
        ).format(diff.step)
    colours = {"-": REMOVED, "+": ADDED}
    rows = []
    for tag, text in diff.lines:
        if tag == "@":
            rows.append('<div style="color:#6e7781">⋯</div>')
            continue
        background = colours.get(tag)
        style = f' style="background-color:{background}"' if background else ""
        rows.append(f"<div{style}>{html.escape(tag)} {html.escape(text) or '&nbsp;'}</div>")
    if not diff.lines:
        rows.append("<div><i>" + html.escape(translate("ReplayView", "(the messages are the same)")) + "</i></div>")
    if diff.more:
        left_out = diff.more  # a plain name: lupdate skips a call whose count is an attribute
        more = translate("ReplayView", "… and %n more line(s)", None, left_out)
        rows.append(f"<div><i>{html.escape(more)}</i></div>")
    return (
        f"<p><b>{html.escape(title)}</b></p>"
        '<div style="font-family:monospace; white-space:pre-wrap">' + "".join(rows) + "</div>"
    )


def activity_text(activity: ProcessorActivity | None, absence: Absence | None = None) -> str:
    """``"changed (3 chunks changed)"``, ``"aborted: reason"``, ``"not in the chain"``, ``"not reached (the run
    stopped at pii)"`` — in the user's language."""
    if activity is None:
        return absence_text(absence or Absence("not_in_chain"))
    words = {
        "passed": translate("ReplayView", "passed"),
        "held": translate("ReplayView", "held"),
        "changed": translate("ReplayView", "changed"),
        "dropped": translate("ReplayView", "dropped"),
        "raised": translate("ReplayView", "raised"),
        "aborted": translate("ReplayView", "aborted"),
        "absent": translate("ReplayView", "not called"),
    }
    text = words.get(activity.worst, activity.worst)
    if activity.detail and activity.worst in ("aborted", "raised"):
        text = f"{text}: {activity.detail}"
    counts = []
    if activity.chunks_changed:
        counts.append(translate("ReplayView", "chunks changed: {0}").format(activity.chunks_changed))
    if activity.chunks_dropped:
        counts.append(translate("ReplayView", "chunks dropped: {0}").format(activity.chunks_dropped))
    return f"{text} ({', '.join(counts)})" if counts else text


def absence_text(absence: Absence) -> str:
    """Why a processor did nothing on one side, in the user's language."""
    if absence.reason == "not_reached":
        return translate("ReplayView", "not reached (the run stopped at {0})").format(absence.stopped_at)
    if absence.reason == "not_called":
        return translate("ReplayView", "not called")
    return translate("ReplayView", "not in the chain")


def _side_html(outcome: ReplayOutcome, text_html: str) -> str:
    lines = []
    if outcome.tripwire is not None:
        processor, reason = outcome.tripwire
        lines.append(
            '<p style="background-color:#ffe3e3"><b>'
            + html.escape(translate("ReplayView", "Tripwire"))
            + f"</b> {html.escape(reason)} <i>({html.escape(processor)})</i></p>"
        )
    if outcome.error and outcome.tripwire is None:
        lines.append(f'<p style="color:#b00020">{html.escape(outcome.error)}</p>')
    lines.append(f"<p>{text_html or '<i>' + html.escape(translate('ReplayView', '(no text)')) + '</i>'}</p>")
    return "".join(lines)


def difference_text(comparison: ReplayComparison) -> str:
    """What differs, in a phrase (``"the final text differs; 1 processor(s) did something else: pii"``)."""
    parts = []
    if comparison.text_differs:
        parts.append(translate("ReplayView", "the final text differs"))
    if comparison.tripwire_differs:
        parts.append(translate("ReplayView", "the tripwire differs"))
    differing = [row.processor_id for row in comparison.processor_rows if row.differs]
    if differing:
        parts.append(
            translate("ReplayView", "{0} processor(s) did something else: {1}").format(
                len(differing), ", ".join(differing)
            )
        )
    return "; ".join(parts)


__all__ = ["ComparisonPane", "absence_text", "activity_text", "difference_text", "request_diff_html"]
