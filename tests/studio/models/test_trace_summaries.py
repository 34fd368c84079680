"""A stream step's summary in the trace reads in the reader's language from its chunk counts, not its English."""

from __future__ import annotations

from typing import Any

from processors.tracing.events import TraceEvent
from studio.models.trace_model import summaries


def _stream_event(before: str, after: str) -> TraceEvent:
    stats = {"count": 12, "changed": 2, "held": 1, "dropped": 3, "seconds": 0.0, "changes": []}
    return TraceEvent(
        run_id="r", step_number=1, hook="process_output_stream", processor_id="p", processor_index=0,
        started_at=0.0, ended_at=1.0, outcome="changed", before=before, after=after, chunk_stats=stats,
    )  # fmt: skip


def test_a_stream_summary_reads_in_chinese_from_its_counts(in_language: Any) -> None:
    event = _stream_event("12 chunks", "2 changed, 1 held, 3 dropped")
    assert summaries(event) == ("12 chunks", "2 changed, 1 held, 3 dropped")  # English: the runtime's words
    in_language("zh_CN")
    chinese = summaries(event)
    assert "12" in chinese[0] and "chunks" not in chinese[0] and "changed" not in chinese[1]
    assert summaries(_stream_event("12 pieces", "some changed")) == chinese  # reworded English: same Chinese


async def test_a_message_list_summary_reads_in_chinese_by_its_code_after_the_store(
    tmp_path: Any, in_language: Any
) -> None:
    """The runtime's summary carries its code (processors.pipeline.runner.describe_messages); the store keeps it
    (trace_events.summary, migration s0007); a reopened thread's trace shows it in Chinese, reworded or not."""
    from processors import Agent
    from processors.models import ScriptedModel
    from processors.problems import Problem
    from processors.tracing import RecordingTracer
    from studio.models.trace_data import event_from_dict
    from studio.store.database import Store

    class Upper:
        id = "upper"

        def process_input(self, args: Any) -> Any:
            return args.messages

    tracer = RecordingTracer()
    await Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[Upper()], tracers=[tracer]).generate("hello")
    event = next(event for event in tracer.events if event.hook == "process_input")
    assert isinstance(event.before, Problem) and event.before == "1 messages, 0 system; last: 'hello'"
    url = f"sqlite:///{tmp_path / 'studio.db'}"
    store = Store(url)
    await store.start_run("r1", thread_id="t1")
    await store.add_trace_events("r1", [event, {**event.to_dict(), "summary": None}])  # the second: an older row
    stored, old = await store.trace_for_run("r1")
    await store.close()
    in_language("zh_CN")
    before, _after = summaries(event_from_dict(stored))
    assert before == "1 条消息，0 条系统消息；最后一条：'hello'"
    assert summaries(event_from_dict(old))[0] == "1 messages, 0 system; last: 'hello'"  # no code: as stored
    reworded = event_from_dict(stored)
    reworded.before = reworded.before.reworded("{messages} msgs / {system} sys, then {last!r}")  # type: ignore[attr-defined]
    assert summaries(reworded)[0] == before


async def test_a_retried_steps_abort_reason_reads_in_chinese_by_its_code(tmp_path: Any, in_language: Any) -> None:
    """An abort that a retry recovered from is not the run's tripwire: its trace detail keeps the tripwire's code."""
    from processors import Agent
    from processors.builtin.token_limiter import TokenLimiter
    from processors.models import ScriptedModel
    from processors.problems import Problem
    from processors.tracing import RecordingTracer
    from studio.models.trace_data import event_from_dict
    from studio.store.database import Store

    tracer = RecordingTracer()
    limiter = TokenLimiter(limit=1, strategy="abort")
    await Agent(id="a", model=ScriptedModel(["ok"]), input_processors=[limiter], tracers=[tracer]).generate(
        "many words here"
    )
    event = next(event for event in tracer.events if event.outcome == "aborted")
    assert isinstance(event.detail, Problem) and event.detail.code.startswith("TokenLimiter.")
    url = f"sqlite:///{tmp_path / 'studio.db'}"
    store = Store(url)
    await store.start_run("r1", thread_id="t1")
    await store.add_trace_events("r1", [event])
    (stored,) = await store.trace_for_run("r1")
    await store.close()
    detail = event_from_dict(stored).detail
    assert isinstance(detail, Problem) and detail.code == event.detail.code and detail == event.detail
