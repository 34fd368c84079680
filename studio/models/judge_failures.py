"""A judge that failed during a run, read from the trace, so the chat and the inspector say so.

A judge-backed guardrail (prompt injection, PII, moderation, scrubber, language) whose model call fails goes on
without it (``fail-open``: the verdict is its offline checks' alone) or blocks the run (``fail-closed``), and records
the failure in its state (:func:`processors.builtin.judge.judge_failed`: ``judge_failures``, the newest few, and
``judge_failure_count``). Without this, a fail-open run looked like a pass: "passed", "finished". A
:class:`JudgeFailures` follows the events of any number of runs and tells which call had a new failure::

    failures = JudgeFailures()
    failure = failures.see(event)        # a JudgeFailure when this call's judge failed, else None
    failure.text                         # "The judge of prompt-injection-detector failed (Connection error.) …"
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from processors.tracing import TraceEvent
from studio.texts.translator import translate

__all__ = ["JudgeFailure", "JudgeFailures"]


@dataclass(frozen=True, slots=True)
class JudgeFailure:
    """One call's judge failure: the processor, what went wrong, and the strategy that decided what followed."""

    processor_id: str
    error: str
    strategy: str

    @property
    def blocked(self) -> bool:
        return self.strategy == "fail-closed"

    @property
    def text(self) -> str:
        """What the user is told (translated)."""
        if self.blocked:
            sentence = translate(
                "JudgeFailures",
                "The judge of {processor} failed ({error}): the run was blocked (fail-closed).",
            )
        else:
            sentence = translate(
                "JudgeFailures",
                "The judge of {processor} failed ({error}): its verdict is the offline checks' alone, "
                "without the judge (fail-open).",
            )
        return sentence.format(processor=self.processor_id, error=self.error or "?")


def _count(state: Mapping[str, Any]) -> int:
    count = state.get("judge_failure_count")
    if isinstance(count, int):
        return count
    failures = state.get("judge_failures")  # a trace saved before the count existed
    return len(failures) if isinstance(failures, list) else 0


class JudgeFailures:
    """Judge failures seen so far, per run and processor (a processor's state is per run)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], int] = {}

    def see(self, event: TraceEvent) -> JudgeFailure | None:
        """The failure ``event``'s call had (its processor's count grew since its last event), else None."""
        state = event.state if isinstance(event.state, Mapping) else {}
        count = _count(state)
        key = (event.run_id, event.processor_id)
        if count <= self._seen.get(key, 0):
            return None
        self._seen[key] = count
        failures = state.get("judge_failures")
        last = failures[-1] if isinstance(failures, list) and failures and isinstance(failures[-1], Mapping) else {}
        return JudgeFailure(event.processor_id, str(last.get("error", "")), str(last.get("strategy", "fail-open")))

    def forget(self, run_id: str) -> None:
        """The run is over: its counts are not needed any more."""
        for key in [key for key in self._seen if key[0] == run_id]:
            del self._seen[key]
