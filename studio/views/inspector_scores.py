"""The inspector's verdict line for a scoring guard's call: its score, and the threshold the score was compared with.

A scoring guard (the prompt-injection detector, ``ClassifierGuard``, moderation, the guard services) keeps the
score of the last text it checked in its run state (``last_score``, :mod:`lab.guard_scores`) and, when it flags
texts, how many (``flagged``). The threshold is not in the trace: the window gives the design's (by processor id, as
the Lab's threshold slider finds it), named only where it agrees with what the call did. A tripwire that ended the
run at this call gives the ``score`` and the ``source`` that gave it (the prompt-injection detector's metadata).
So a newcomer reads "Score 0.98 reached the threshold 0.70: flagged · scored by the learned model" instead of a JSON
dump, and "Score 0.01: below the threshold 0.70, passed" for a text that went through.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from lab.guard_scores import score_number
from studio.i18n import translate
from studio.models.trace_nodes import CallNode, Node, RunNode
from studio.texts.translator import number

__all__ = ["ThresholdOf", "score_line"]

#: A scoring guard's threshold in the design, by the processor id its run gives it (None: none known).
ThresholdOf = Callable[[str], float | None]


def _source_name(source: Any) -> str:
    """Who gave the score, in the reader's words (an unknown source as written)."""
    names = {
        "learned": translate("Inspector", "learned model"),
        "heuristics": translate("Inspector", "phrase heuristics"),
        "heuristics+learned": translate("Inspector", "phrase heuristics and learned model"),
        "judge": translate("Inspector", "judge model"),
    }
    return names.get(str(source), str(source))


def _tripwire_metadata(node: CallNode) -> Mapping[str, Any]:
    """The metadata of the tripwire that ended the run at this call (same processor), else nothing."""
    run: Node | None = node
    while run is not None and not isinstance(run, RunNode):
        run = run.parent
    tripwire = run.tripwire if isinstance(run, RunNode) else None
    if node.event.outcome != "aborted" or tripwire is None:
        return {}
    if tripwire.processor_id not in (None, node.event.processor_id) or tripwire.reason != node.event.detail:
        return {}
    return tripwire.metadata if isinstance(tripwire.metadata, Mapping) else {}


def score_line(node: CallNode, threshold_of: ThresholdOf | None = None) -> str:
    """The call's verdict as one HTML paragraph ("" for a call that records no score). ``threshold_of``: the guard's
    threshold in the design, asked only for a call with a score and named only where it agrees with the outcome
    (the design may have changed since the run)."""
    state = node.event.state
    score = score_number(state.get("last_score")) if isinstance(state, Mapping) else None
    if score is None:
        return ""
    threshold = threshold_of(node.event.processor_id) if threshold_of is not None else None
    metadata = _tripwire_metadata(node)
    tripped_at = score_number(metadata.get("score"))  # the score that tripped it (0.0 too: a threshold of 0)
    score = score if tripped_at is None else tripped_at
    shown = number(score, 2)
    flagged = state.get("flagged")
    if metadata:
        text = (
            translate("Inspector", "Score {score} reached the threshold {threshold}: flagged")
            if threshold is not None and score >= threshold
            else translate("Inspector", "Score {score}: at or above the threshold, flagged")
        ).format(score=shown, threshold=number(threshold or 0.0, 2))
    elif isinstance(flagged, int) and flagged > 0:  # warn, filter, rewrite: the run went on
        count = flagged  # a plain name: lupdate skips a count that is a call
        text = translate("Inspector", "Score {score} of the last text; %n text(s) flagged", None, count).format(
            score=shown
        )
    else:
        text = (
            translate("Inspector", "Score {score}: below the threshold {threshold}, passed")
            if threshold is not None and score < threshold
            else translate("Inspector", "Score {score}: below the threshold, passed")
        ).format(score=shown, threshold=number(threshold or 0.0, 2))
    if metadata.get("source"):
        text += " · " + translate("Inspector", "scored by the {source}").format(source=_source_name(metadata["source"]))
    hint = translate("Inspector", "The score (0 to 1) of the last text checked; the threshold and above is flagged.")
    return f"<p><b>{html.escape(text)}</b><br><span style='color:#777'>{html.escape(hint)}</span></p>"
