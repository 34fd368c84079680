"""The inspector's details of a stream processor's call: the abort reason of a chunk change reads in the reader's
language by its tripwire's code, live and once stored (issue 27 item 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors import Agent
from processors.builtin.token_limiter import TokenLimiter
from processors.models import ScriptedModel
from processors.tracing import RecordingTracer, TraceEvent
from studio.models.trace_data import event_from_dict
from studio.models.trace_nodes import CallNode, HookNode, PhaseNode, RunNode
from studio.store.database import Store
from studio.views.inspector_details import details_html

ENGLISH = "Token limit of 1 exceeded"


def _call(event: TraceEvent) -> CallNode:
    run = RunNode(event.run_id, None, 1, event.started_at)
    phase = PhaseNode(run, (event.step_number or 0, 0))
    return CallNode(HookNode(phase, event.hook), event)


async def _stream_abort() -> TraceEvent:
    tracer = RecordingTracer()
    limiter = TokenLimiter(limit=1, strategy="abort")
    agent = Agent(id="a", model=ScriptedModel(["many words here"]), output_processors=[limiter], tracers=[tracer])
    await agent.generate("hi")
    return next(e for e in tracer.events if e.hook == "process_output_stream" and e.outcome == "aborted")


async def test_a_stream_abort_reads_in_chinese_live_and_after_the_store(tmp_path: Path, in_language: Any) -> None:
    event = await _stream_abort()
    (change,) = [c for c in event.chunk_stats["changes"] if c["outcome"] == "aborted"]  # type: ignore[index]
    assert change["detail"].startswith(ENGLISH)  # the English as before
    assert change["code"] == "TokenLimiter.limit_exceeded" and change["params"]["limit"] == 1
    assert ENGLISH in details_html(_call(event))

    store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
    await store.start_run(event.run_id, thread_id="t1")
    await store.add_trace_events(event.run_id, [event])
    (stored,) = await store.trace_for_run(event.run_id)
    await store.close()
    in_language("zh_CN")
    for shown in (event, event_from_dict(stored)):
        html = details_html(_call(shown))
        assert "超出 1 个令牌的上限" in html and ENGLISH not in html


async def test_a_stream_abort_without_a_code_is_shown_as_written(in_language: Any) -> None:
    event = await _stream_abort()
    for change in event.chunk_stats["changes"]:  # type: ignore[index]
        change.pop("code", None), change.pop("params", None)  # a row stored before codes
    in_language("zh_CN")
    assert ENGLISH in details_html(_call(event))
