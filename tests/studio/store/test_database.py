"""The studio's store on a real SQLite file: designs, runs, traces, tripwires and violations beside the threads."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from processors import Agent, Processor, RecordingTracer, Violation
from processors.models import ScriptedModel
from processors.tracing import TraceEvent
from studio.store.database import RunNotFoundError, Store


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'studio.db'}"


@pytest.fixture
async def store(url: str) -> AsyncIterator[Store]:
    opened = Store(url)
    yield opened
    await opened.close()


def event(run_id: str, index: int, **changes: Any) -> TraceEvent:
    values: dict[str, Any] = {
        "run_id": run_id,
        "step_number": 0,
        "hook": "process_input",
        "processor_id": f"p{index}",
        "processor_index": index,
        "started_at": 100.0 + index,
        "ended_at": 100.5 + index,
        "outcome": "passed",
        "before": "1 message",
        "after": "1 message",
        "state": {"n": index},
        "detail": None,
        "chunk_stats": None,
    }
    values.update(changes)
    return TraceEvent(**values)


async def test_designs_are_saved_listed_and_deleted(store: Store) -> None:
    first = await store.save_design("d1", "Support bot", '{"version": 1}')
    await asyncio.sleep(0.002)
    await store.save_design("d2", "Refund guard", '{"version": 1, "x": 2}')
    await asyncio.sleep(0.002)
    updated = await store.save_design("d1", "Support bot v2", '{"version": 1, "y": 3}')
    assert updated.created_at == first.created_at
    assert updated.updated_at > first.updated_at
    assert await store.get_design("d1") == updated
    assert [d.id for d in await store.list_designs()] == ["d1", "d2"]
    assert await store.delete_design("d2") is True
    assert await store.delete_design("d2") is False
    assert await store.get_design("d2") is None


async def test_a_run_is_recorded_from_start_to_finish(store: Store) -> None:
    started = await store.start_run(
        "r1", design_id="d1", thread_id="t1", model="openai/gpt-4o-mini", design_json='{"v": 1}'
    )
    assert started.outcome is None
    assert started.finished_at is None
    thread = await store.memory.get_thread("t1")  # the run's thread exists from its first run on
    assert thread is not None

    await store.finish_run(
        "r1", outcome="finished", finish_reason="stop", usage={"inputTokens": 3, "outputTokens": 5, "totalTokens": 8}
    )
    run = await store.get_run("r1")
    assert run is not None
    assert (run.design_id, run.thread_id, run.model, run.design_json) == ("d1", "t1", "openai/gpt-4o-mini", '{"v": 1}')
    assert (run.outcome, run.finish_reason, run.usage, run.tripwire, run.error) == (
        "finished",
        "stop",
        {"inputTokens": 3, "outputTokens": 5, "totalTokens": 8},
        None,
        None,
    )
    assert run.finished_at is not None
    assert run.finished_at >= run.started_at

    with pytest.raises(RunNotFoundError):
        await store.finish_run("never-started", outcome="finished")


async def test_trace_events_come_back_in_their_to_dict_shape(store: Store) -> None:
    await store.start_run("r1", thread_id="t1")
    events = [
        event("r1", 0),
        event("r1", 1, hook="process_output_stream", outcome="changed", chunk_stats={"count": 4, "changed": 1}),
        event("r1", 2, outcome="aborted", detail="secret in input", state={"hits": [1, 2]}),
    ]
    assert await store.add_trace_events("r1", [events[0]]) == 1
    assert await store.add_trace_events("r1", [e.to_dict() for e in events[1:]]) == 2
    assert await store.add_trace_events("r1", []) == 0
    assert await store.trace_for_run("r1") == [e.to_dict() for e in events]
    assert await store.trace_for_run("other") == []


async def test_tripwires_and_violations_of_a_thread(store: Store) -> None:
    await store.start_run("r1", thread_id="t1")
    await store.finish_run("r1", outcome="finished", finish_reason="stop")
    await store.start_run("r2", thread_id="t1")
    await store.add_violation("r2", "pii", "email found", {"count": 1})
    await store.finish_run(
        "r2",
        outcome="tripwire",
        finish_reason="other",
        tripwire={"reason": "email found", "retry": False, "metadata": {"count": 1}, "processorId": "pii"},
    )
    await store.start_run("r3", thread_id="t2")
    await store.add_violation("r3", "tone", "rude")

    tripwires = await store.tripwires_for_thread("t1")
    assert [(t.run_id, t.reason, t.processor_id, t.retry, t.metadata) for t in tripwires] == [
        ("r2", "email found", "pii", False, {"count": 1})
    ]
    violations = await store.violations_for_thread("t1")
    assert [(v.run_id, v.processor_id, v.message, v.detail) for v in violations] == [
        ("r2", "pii", "email found", {"count": 1})
    ]
    assert [v.message for v in await store.violations_for_run("r3")] == ["rude"]
    assert [r.id for r in await store.runs_for_thread("t1")] == ["r1", "r2"]


async def test_deleting_a_thread_deletes_its_history(store: Store) -> None:
    await store.start_run("r1", thread_id="t1")
    await store.add_trace_events("r1", [event("r1", 0)])
    await store.add_violation("r1", "p", "m")
    await store.memory.delete_thread("t1")
    assert await store.get_run("r1") is None
    assert await store.trace_for_run("r1") == []
    assert await store.violations_for_run("r1") == []


async def test_a_reopened_thread_shows_its_inspector_history(url: str) -> None:
    """What the studio does around a run, then a fresh Store on the same file (the app restarted)."""

    class NoEmails(Processor):
        id = "no-emails"

        def __init__(self, store: Store, run_id: list[str]) -> None:
            self.store = store
            self.run_id = run_id

        def process_input(self, args: Any) -> Any:
            if "@" in args.messages[-1].text:
                args.abort("email address in input", metadata={"field": "text"})
            return args.messages

        async def on_violation(self, violation: Violation) -> None:
            await self.store.add_violation(self.run_id[0], violation.processor_id, violation.message, violation.detail)

    store = Store(url)
    current: list[str] = [""]
    agent = Agent(
        id="support", model=ScriptedModel(["Hello!"]), memory=store.memory, input_processors=[NoEmails(store, current)]
    )
    for text in ("hi", "mail me at a@b.c"):
        tracer = RecordingTracer()
        stream = agent.stream(text, thread_id="t1", resource_id="u1", tracers=[tracer])
        current[0] = stream.run_id
        await store.start_run(stream.run_id, design_id="d1", thread_id="t1", model="scripted")
        result = await stream.result()
        await store.add_trace_events(stream.run_id, tracer.events)
        await store.finish_run(
            stream.run_id,
            outcome="tripwire" if result.tripwire else "finished",
            finish_reason=result.finish_reason,
            usage=result.usage.model_dump(by_alias=True),
            tripwire=result.tripwire.model_dump(by_alias=True) if result.tripwire else None,
        )
    await store.close()

    reopened = Store(url)
    try:
        runs = await reopened.runs_for_thread("t1")
        assert [r.outcome for r in runs] == ["finished", "tripwire"]
        assert [m.text for m in await reopened.memory.all_messages("t1")] == ["hi", "Hello!"]
        trace = await reopened.trace_for_run(runs[1].id)
        assert [(e["processorId"], e["hook"], e["outcome"]) for e in trace] == [
            ("no-emails", "process_input", "aborted")
        ]
        assert trace[0]["detail"] == "email address in input"
        tripwires = await reopened.tripwires_for_thread("t1")
        assert [(t.reason, t.processor_id, t.metadata) for t in tripwires] == [
            ("email address in input", "no-emails", {"field": "text"})
        ]
        assert [v.message for v in await reopened.violations_for_thread("t1")] == ["email address in input"]
    finally:
        await reopened.close()


async def test_store_work_never_runs_on_the_event_loop_thread(store: Store) -> None:
    threads: set[int] = set()
    sa.event.listen(store.memory.engine, "before_cursor_execute", lambda *_: threads.add(threading.get_ident()))
    await store.save_design("d1", "x", "{}")
    await store.start_run("r1", thread_id="t1")
    await store.add_trace_events("r1", [event("r1", 0)])
    await store.finish_run("r1", outcome="finished")
    await store.runs_for_thread("t1")
    assert threads
    assert threading.get_ident() not in threads


async def test_the_default_database_is_in_the_user_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCESSOR_STUDIO_DATA", str(tmp_path / "data"))
    store = Store()
    try:
        await store.save_design("d1", "x", "{}")
    finally:
        await store.close()
    assert (tmp_path / "data" / "studio.db").exists()


async def test_thread_history_reads_every_run_with_its_trace_and_violations(tmp_path: Path) -> None:
    from processors.tracing import TraceEvent

    store = Store(f"sqlite:///{tmp_path / 'history.db'}")
    await store.open()
    for number in range(3):
        run_id = f"run-{number}"
        await store.start_run(run_id, design_id="d", thread_id="t", model="demo")
        await store.add_trace_events(
            run_id,
            [
                TraceEvent(
                    run_id=run_id,
                    step_number=0,
                    hook="process_input",
                    processor_id=f"p{number}",
                    processor_index=0,
                    started_at=1.0,
                    ended_at=2.0,
                    outcome="passed",
                )
            ],
        )
        if number == 1:
            await store.add_violation(run_id, "p1", "blocked", {"k": 1})
        await store.finish_run(run_id, outcome="finished", finish_reason="stop", usage={}, tripwire=None, error=None)
    await store.start_run("elsewhere", design_id="d", thread_id="other", model="demo")

    runs, events, violations = await store.thread_history("t")

    assert [run.id for run in runs] == ["run-0", "run-1", "run-2"]
    assert [[event["processorId"] for event in events[run.id]] for run in runs] == [["p0"], ["p1"], ["p2"]]
    assert [len(violations[run.id]) for run in runs] == [0, 1, 0]
    assert violations["run-1"][0].message == "blocked"
    await store.close()
