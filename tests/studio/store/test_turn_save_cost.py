"""A turn's save (start the run, its messages, its trace, finish it) executes statements built once, and hands the
driver ready rows.

Building a SQLAlchemy statement with its values in it costs about three times executing it (coercion, a fresh
cache key, the values pulled back out), and the studio saves every turn (``tests/bench/bench_store.py``, target
5 ms). So the save path holds its statements ready with bound parameters; this test counts the statements built
while a turn is saved, on every thread (the store's worker thread included): work counted, not time. Executing a
compiled statement still cost SQLAlchemy more per row than SQLite spent storing it (each row's parameters rebuilt
by ``construct_params``, 40 trace events a turn): the save path's statements are ``Prepared`` and run through the
driver, so that count is one a message save (its ids looked up with an expanding ``IN``, which SQLAlchemy renders),
not one a row.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from processors.messages import Message
from processors.tracing import TraceEvent
from studio.store.database import Store

#: SQLAlchemy's statement constructors and the builder methods a statement's values go through.
_BUILDERS = {
    "sqlalchemy.sql._selectable_constructors": {"select"},
    "sqlalchemy.sql._dml_constructors": {"insert", "update", "delete"},
    "sqlalchemy.sql.selectable": {"where", "filter_by"},
    "sqlalchemy.sql.dml": {"where", "values"},
}


#: SQLAlchemy's per-row parameter work when it executes a compiled statement.
_PARAMETER_WORK = {"sqlalchemy.sql.compiler": {"construct_params"}}


@contextmanager
def statements_built(watched: dict[str, set[str]] = _BUILDERS) -> Iterator[list[str]]:
    """Collect ``module.function`` for every statement constructor or builder called (or the ``watched``
    functions), on any thread."""
    built: list[str] = []

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if frame.f_code.co_name in watched.get(module, ()):
            built.append(f"{module}.{frame.f_code.co_name}")

    threading.setprofile(profile)  # threads started from now on: the store's worker starts with its first job
    sys.setprofile(profile)
    try:
        yield built
    finally:
        sys.setprofile(None)
        threading.setprofile(None)


def trace_event(run_id: str, index: int) -> TraceEvent:
    return TraceEvent(
        run_id=run_id,
        step_number=0,
        hook="process_input",
        processor_id=f"p{index}",
        processor_index=index,
        started_at=1.0,
        ended_at=2.0,
        outcome="passed",
        before="1 message",
        after="1 message",
        state={"seen": index},
    )


async def test_saving_a_turn_builds_no_statement(tmp_path: Path) -> None:
    with statements_built() as built:
        store = Store(f"sqlite:///{tmp_path / 'studio.db'}")  # its worker thread starts inside the profile
        try:
            await store.start_run("r0", thread_id="t1")  # the thread's first run creates it: that may build
            await store.memory.save_messages("t1", [Message.user("first")])
            built.clear()

            await store.start_run("r1", thread_id="t1", model="scripted")
            question, answer = Message.user("hi"), Message.assistant("hello")
            await store.memory.save_messages("t1", [question, answer], resource_id=None)
            await store.memory.save_messages("t1", [answer])  # saved again: updated in place
            await store.add_trace_events("r1", [trace_event("r1", 0), trace_event("r1", 1).to_dict()])
            await store.finish_run("r1", outcome="finished", finish_reason="stop", usage={"totalTokens": 3})
            assert built == []

            run = await store.get_run("r1")  # and the turn is saved as before
            assert run is not None and (run.outcome, run.usage) == ("finished", {"totalTokens": 3})
            assert [m.text for m in await store.memory.all_messages("t1")] == ["first", "hi", "hello"]
            assert [e["processorId"] for e in await store.trace_for_run("r1")] == ["p0", "p1"]
        finally:
            await store.close()


async def test_saving_a_turn_leaves_no_row_to_sqlalchemys_parameter_processing(tmp_path: Path) -> None:
    with statements_built(_PARAMETER_WORK) as processed:
        store = Store(f"sqlite:///{tmp_path / 'studio.db'}")
        try:
            await store.start_run("r0", thread_id="t1")
            await store.memory.save_messages("t1", [Message.user("first")])
            processed.clear()

            await store.start_run("r1", thread_id="t1", model="scripted")
            question, answer = Message.user("hi"), Message.assistant("hello")
            await store.memory.save_messages("t1", [question, answer], resource_id=None)
            await store.memory.save_messages("t1", [answer])  # saved again: updated in place
            await store.add_trace_events("r1", [trace_event("r1", index) for index in range(40)])
            await store.finish_run("r1", outcome="finished", finish_reason="stop", usage={"totalTokens": 3})
            assert len(processed) == 2, processed  # the two message saves' id lookups; before: 53

            run = await store.get_run("r1")  # and the turn is saved as before
            assert run is not None and (run.outcome, run.usage) == ("finished", {"totalTokens": 3})
            assert [m.text for m in await store.memory.all_messages("t1")] == ["first", "hi", "hello"]
            assert [e["processorId"] for e in await store.trace_for_run("r1")] == [f"p{i}" for i in range(40)]
        finally:
            await store.close()
