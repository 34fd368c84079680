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
