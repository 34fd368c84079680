"""Which call's judge failed, read from the processor's state in the trace (issue 26 §3)."""

from __future__ import annotations

from typing import Any

from processors.tracing import TraceEvent
from studio.models.judge_failures import JudgeFailures


def event(run_id: str, state: dict[str, Any], processor_id: str = "pii") -> TraceEvent:
    return TraceEvent(run_id, 0, "process_input", processor_id, 0, 0.0, 0.0, "passed", state=state)


def failed(count: int, error: str = "Connection error.", strategy: str = "fail-open") -> dict[str, Any]:
    return {"judge_failures": [{"error": error, "strategy": strategy}], "judge_failure_count": count}


def test_only_the_calls_whose_count_grew_had_a_judge_failure() -> None:
    failures = JudgeFailures()
    assert failures.see(event("r1", {})) is None
    first = failures.see(event("r1", failed(1)))
    assert first is not None and first.processor_id == "pii" and first.error == "Connection error."
    assert not first.blocked and "fail-open" in first.text
    assert failures.see(event("r1", failed(1))) is None  # a later call of the same processor, the judge fine
    assert failures.see(event("r1", failed(1), processor_id="moderation")) is not None  # another processor
    assert failures.see(event("r2", failed(1))) is not None  # another run
    again = failures.see(event("r1", failed(7, "HTTP 500", "fail-closed")))  # past the five kept in the list
    assert again is not None and again.blocked and again.error == "HTTP 500"
    assert "the run was blocked (fail-closed)" in again.text


def test_a_trace_saved_before_the_count_reads_the_list_and_a_finished_run_is_forgotten() -> None:
    failures = JudgeFailures()
    old_state = {"judge_failures": [{"error": "timeout", "strategy": "fail-open"}]}
    assert failures.see(event("r1", old_state)) is not None
    assert failures.see(event("r1", old_state)) is None
    failures.forget("r1")
    assert failures.see(event("r1", old_state)) is not None
