"""The inspector's verdict line reads a score with the Lab's one check of a number (``lab.guard_scores.
score_number``, also LabThresholds'): a NaN score is no score (it compares with no threshold, so it read "below the
threshold, passed"), and a tripwire's score of 0.0 (a threshold of 0) is the score shown, not the state's."""

from __future__ import annotations

import math

from processors.tracing.events import TraceEvent
from studio.models.trace_nodes import CallNode, HookNode, PhaseNode, RunNode
from studio.models.trace_rows import TripwireRow
from studio.views.inspector_scores import score_line


def _call(state: dict[str, object], *, outcome: str = "ok", detail: str | None = None) -> tuple[RunNode, CallNode]:
    run = RunNode("run-1", None, 1, 0.0)
    hook = HookNode(PhaseNode(run, (0, -1)), "process_input")
    event = TraceEvent(
        run_id="run-1",
        step_number=None,
        hook="process_input",
        processor_id="prompt-injection-detector",
        processor_index=None,
        started_at=0.0,
        ended_at=0.001,
        outcome=outcome,  # type: ignore[arg-type]
        state=state,
        detail=detail,
    )
    return run, CallNode(hook, event)


def test_a_nan_score_has_no_verdict_line() -> None:
    _, call = _call({"last_score": math.nan})
    assert score_line(call, lambda _: 0.7) == ""


def test_a_score_reads_against_the_threshold() -> None:
    _, call = _call({"last_score": 0.25})
    assert "Score 0.25: below the threshold 0.70, passed" in score_line(call, lambda _: 0.7)
    _, flag = _call({"last_score": True})  # a bool is no score
    assert score_line(flag, lambda _: 0.7) == ""


def test_a_tripwire_score_of_zero_is_the_score_shown() -> None:
    run, call = _call({"last_score": 0.4}, outcome="aborted", detail="injection")
    run.tripwire = TripwireRow("run-1", "injection", "prompt-injection-detector", metadata={"score": 0.0})
    line = score_line(call, lambda _: 0.0)
    assert "Score 0.00 reached the threshold 0.00: flagged" in line
