"""The score each guard gave one case, read from what its run left: the trace's per-processor state and the tripwire.

The convention every scoring guard follows (the built-in ``PromptInjectionDetector``, ``ClassifierGuard``, the guard
services): the score its threshold is compared with goes into its run state as ``last_score`` (``max_score`` when
it keeps the highest of several texts) after every check, flagged or not, and into a blocking tripwire's
``metadata["score"]``. A case's score for a guard is the highest of them: the one that decided whether the guard
tripped. A guard that never ran on the case (an earlier processor ended the run) has no score for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["SCORE_KEYS", "case_scores", "score_number"]

#: The state keys a guard's score is read from.
SCORE_KEYS = ("last_score", "max_score")


def score_number(value: Any) -> float | None:
    """``value`` as a score or a threshold: a real number (not a bool, an int in Python; not NaN, which compares
    with nothing), else None. The one check for the Lab's scores, the design's thresholds the Lab reads and writes
    (``studio.controllers.lab_thresholds``) and the inspector's verdict line (``studio.views.inspector_scores``)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value:
        return float(value)
    return None


def case_scores(events: Iterable[Any], tripwire: Any | None = None) -> dict[str, float]:
    """Processor id → its highest score in one case's run: ``events`` are the run's trace events (each with a
    ``processor_id`` and the processor's ``state`` after the call), ``tripwire`` the run's final one, if any."""
    scores: dict[str, float] = {}

    def keep(processor: str, value: Any) -> None:
        score = score_number(value)
        if score is not None:
            scores[processor] = max(scores.get(processor, score), score)

    for event in events:
        state = getattr(event, "state", None)
        if isinstance(state, Mapping):
            for key in SCORE_KEYS:
                keep(event.processor_id, state.get(key))
    if tripwire is not None and getattr(tripwire, "processor_id", None):
        metadata = getattr(tripwire, "metadata", None)
        if isinstance(metadata, Mapping):
            keep(tripwire.processor_id, metadata.get("score"))
    return {processor: round(value, 6) for processor, value in scores.items()}
