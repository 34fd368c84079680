"""The hooks before the model (``processors.loop.phases``), through whole agent runs: what a ``process_input``
processor writes with ``writer.custom`` passes the stream processors as soon as that processor returns, before the
next processor's ``process_input`` runs (Mastra's writer writes into the stream as it is called), not when the
step-start chunk drains the queue. Issue 25's mutation run had listed the difference as equivalent (tests/README.md):
the chunk comes out of the stream at the same place either way, but the stream processors see it at another time."""

from __future__ import annotations

from typing import Any

from processors.models import ScriptedModel
from tests.processors.helpers import Fn, make_agent, run_stream


async def test_a_chunk_written_in_process_input_is_streamed_before_the_next_processor_runs() -> None:
    log: list[str] = []

    def write(args: Any) -> None:
        log.append("process_input of note")
        args.writer.custom({"type": "data-note", "data": "note"})

    def stream(args: Any) -> Any:
        if args.part.type == "data-note":
            log.append(f"stream saw {args.part.data}")
        return args.part

    watch = Fn("watch", process_output_stream=stream)
    watch.process_data_parts = True  # a stream hook sees data-* parts only if asked
    after = Fn("after", process_input=lambda args: log.append("process_input of after"))
    agent = make_agent(
        ScriptedModel(["ok"]), input_processors=[Fn("note", process_input=write), after], output_processors=[watch]
    )
    await run_stream(agent)
    assert log == ["process_input of note", "stream saw note", "process_input of after"]
