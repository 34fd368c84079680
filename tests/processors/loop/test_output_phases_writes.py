"""The hooks after the model's stream (``processors.loop.output_phases``), through whole agent runs: what a
processor writes with ``writer.custom`` passes the stream processors as soon as that processor returns, before the
next processor's hook runs (Mastra's writer writes into the stream as it is called), not when the step or the
run finishes."""

from __future__ import annotations

from typing import Any

from processors.models import ScriptedModel
from tests.processors.helpers import Fn, make_agent, run_stream


def watcher(log: list[str], hook: str) -> Fn:
    """A processor that notes the ``data-note`` chunks the stream hands it and each call of ``hook``."""

    def stream(args: Any) -> Any:
        if args.part.type == "data-note":
            log.append(f"stream saw {args.part.data}")
        return args.part

    watch = Fn("watch", process_output_stream=stream, **{hook: lambda args: log.append(f"{hook} of watch")})
    watch.process_data_parts = True  # a stream hook sees data-* parts only if asked
    return watch


def writer(log: list[str], hook: str) -> Fn:
    def write(args: Any) -> None:
        log.append(f"{hook} of note")
        args.writer.custom({"type": "data-note", "data": "note"})

    return Fn("note", **{hook: write})


async def test_a_chunk_written_in_process_output_step_is_streamed_before_the_next_processor_runs() -> None:
    log: list[str] = []
    hook = "process_output_step"
    agent = make_agent(ScriptedModel(["ok"]), output_processors=[writer(log, hook), watcher(log, hook)])
    await run_stream(agent)
    assert log == [f"{hook} of note", "stream saw note", f"{hook} of watch"]


async def test_a_chunk_written_in_process_output_result_is_streamed_before_the_next_processor_runs() -> None:
    log: list[str] = []
    hook = "process_output_result"
    agent = make_agent(ScriptedModel(["ok"]), output_processors=[writer(log, hook), watcher(log, hook)])
    await run_stream(agent)
    assert log == [f"{hook} of note", "stream saw note", f"{hook} of watch"]
