"""Store benchmark: open a 10,000-message thread, list 1,000 threads, save one turn with its trace.

Run: ``.venv/bin/python tests/bench/bench_store.py`` (prints figures; asserts nothing). Each figure is timed from
the caller's ``await`` — so it includes the hop to the store's worker thread — on a SQLite file in a temporary
folder: the median and best wall-clock time of several runs, and the median CPU time (see ``timings_ms``).

Targets (issue 4): last 50 messages ≤ 20 ms, all 10,000 ≤ 300 ms, the list of 1,000 threads ≤ 50 ms,
one turn (its messages, its run and ~40 trace events, as the studio writes them) ≤ 5 ms.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from processors.messages import (  # after the path set-up: the script runs from anywhere
    Message,
    MessageContent,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    new_id,
)
from processors.tracing import TraceEvent
from studio.store.database import Store

THREAD_MESSAGES = 10_000
THREADS = 1_000
TRACE_EVENTS_PER_TURN = 40
RUNS = 9

SENTENCE = "The quick brown fox jumps over the lazy dog while the processors check every chunk. "


def user_message(index: int) -> Message:
    return Message.user(f"Question {index}: " + SENTENCE * 2)


def assistant_message(index: int) -> Message:
    parts: list[Any] = [StepStartPart(), TextPart(text=f"Answer {index}: " + SENTENCE * 6)]
    if index % 10 == 0:
        parts.append(
            ToolInvocationPart(
                tool_invocation=ToolInvocation(
                    state="result",
                    tool_call_id=f"call_{index}",
                    tool_name="get_weather",
                    args={"city": "Paris"},
                    result={"temperature": 21, "sky": "clear"},
                )
            )
        )
    return Message(role="assistant", content=MessageContent(parts=parts, content=f"Answer {index}"))


def trace_events(run_id: str) -> list[dict[str, Any]]:
    now = time.time()
    return [
        TraceEvent(
            run_id=run_id,
            step_number=i // 8,
            hook="process_output_stream",
            processor_id=f"p{i % 5}",
            processor_index=i % 5,
            started_at=now,
            ended_at=now + 0.0001,
            outcome="passed",
            before="12 chunks",
            after="12 chunks",
            state={"seen": i},
            chunk_stats={"count": 12, "changed": 0, "dropped": 0, "seconds": 0.0001, "changes": []},
        ).to_dict()
        for i in range(TRACE_EVENTS_PER_TURN)
    ]


async def timings_ms(work: Callable[[], Awaitable[object]], runs: int = RUNS) -> tuple[float, float, float]:
    """(median wall, best wall, median CPU) in ms.

    CPU is the process's CPU time (all threads): it hardly moves when other processes compete for the cores,
    so it shows the cost on an idle machine even when the wall-clock figures are inflated by a busy one.
    """
    await work()  # warm-up: connection, statement caches
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        await work()
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), min(walls), statistics.median(cpus)


async def fill(store: Store) -> str:
    memory = store.memory
    big = "big-thread"
    batch: list[Message] = []
    for index in range(THREAD_MESSAGES // 2):
        batch += [user_message(index), assistant_message(index)]
        if len(batch) >= 1000:
            await memory.save_messages(big, batch, resource_id="bench")
            batch = []
    for index in range(THREADS - 1):
        await memory.save_messages(f"thread-{index:04d}", [user_message(index)], resource_id="bench")
    return big


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'bench.db'}")
        memory = store.memory
        started = time.perf_counter()
        big = await fill(store)
        print(
            f"filled in {time.perf_counter() - started:.1f} s: {await memory.count_messages(big)} messages "
            f"in one thread, {len(await memory.list_threads())} threads"
        )

        async def save_turn() -> None:
            run_id = new_id("run")
            await store.start_run(run_id, design_id="design-1", thread_id=big, model="scripted")
            await memory.save_messages(big, [user_message(0), assistant_message(1)], resource_id="bench")
            await store.add_trace_events(run_id, trace_events(run_id))
            await store.finish_run(
                run_id,
                outcome="finished",
                finish_reason="stop",
                usage={"inputTokens": 120, "outputTokens": 80, "totalTokens": 200},
            )

        figures = [
            ("open a thread: last 50 messages", await timings_ms(lambda: memory.load_messages(big)), 20),
            (
                f"open a thread: all {THREAD_MESSAGES:,} messages",
                await timings_ms(lambda: memory.all_messages(big)),
                300,
            ),
            (f"list {THREADS:,} threads", await timings_ms(lambda: memory.list_threads(limit=THREADS)), 50),
            (f"save one turn with {TRACE_EVENTS_PER_TURN} trace events", await timings_ms(save_turn, runs=31), 5),
        ]
        loaded = await memory.all_messages(big)
        assert len(loaded) >= THREAD_MESSAGES, len(loaded)
        await store.close()
    print(f"\n{'measure':<44}{'median ms':>10}{'best ms':>9}{'cpu ms':>8}{'target':>8}")
    for name, (median, best, cpu), target in figures:
        verdict = "ok" if median <= target else "OVER"
        print(f"{name:<44}{median:>10.2f}{best:>9.2f}{cpu:>8.2f}{target:>8}  {verdict}")
    print(f"(load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores)")
    print(f"a run's recording of a 10,000-chunk reply, as stored: {recording_bytes():,} bytes")


def recording_bytes() -> int:
    """The size a run's recording takes in the store for a reply of 10,000 text deltas (README.md quotes it):
    English prose, README.md's first 40,000 characters in deltas of 4 (about a token each)."""
    from processors.models.recording import RecordedStep, Recording

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")[:40_000]
    step = RecordedStep("bench")
    step.events = [["t", text[start : start + 4]] for start in range(0, 40_000, 4)]
    recording = Recording()
    recording.steps.append(step)
    return len(recording.to_bytes())


if __name__ == "__main__":
    asyncio.run(main())
