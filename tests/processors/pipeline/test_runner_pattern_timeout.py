"""The trace of a hook stopped by a user pattern that took too long (``runner.invoke``'s ``PatternTimeoutError``
branch): the run's trace says which processor raised, on which hook, and why. The case its mutation run found
unchecked (the run's ``error`` chunk was tested, not the trace)."""

from __future__ import annotations

from processors import Agent
from processors.builtin.regex_filter import RegexFilter
from processors.models import ScriptedModel
from processors.tracing import RecordingTracer
from tests.processors.helpers import run_stream

SLOW = r"(x?)(?:ab|a(?:b)\1)+$"  # backtracks catastrophically on SLOW_TEXT
SLOW_TEXT = "ab" * 30 + "x"


async def test_a_pattern_timeout_is_traced_as_raised_with_its_message() -> None:
    tracer = RecordingTracer()
    guard = RegexFilter(rules=[{"name": "slow-ab", "pattern": SLOW}], strategy="block", phase="input")
    agent = Agent(id="a", model=ScriptedModel(["never"]), input_processors=[guard], tracers=[tracer])

    chunks, result = await run_stream(agent, SLOW_TEXT)

    assert chunks[-1].type == "error" and result.finish_reason == "error"
    [event] = [e for e in tracer.events if e.processor_id == "regex-filter"]
    assert (event.hook, event.outcome, event.processor_index, event.after) == ("process_input", "raised", 0, "")
    assert SLOW_TEXT in event.before  # the messages the hook was given
    assert event.detail == chunks[-1].payload.error["message"]  # type: ignore[union-attr]
    assert event.detail is not None and "rule 'slow-ab'" in event.detail
    assert event.ended_at >= event.started_at > 0
