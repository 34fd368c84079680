"""Text a processor rewrote or removed never comes back: not in ``result.text``, the steps, the saved thread or the
trace's "after" summaries, however the run ends (an abort after the rewrite, a retry, a removed answer).

Mastra reads ``result.text`` from the processed response (its fix "result.text was returning the unprocessed LLM
response"); here the step's text and the run's text follow what the processors left in the message list.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from processors import Agent
from processors.memory import SqlMemory
from processors.messages import TextPart
from processors.models import ScriptedModel, Turn
from processors.tracing import RecordingTracer
from tests.processors.helpers import Abort, Fn, collect, kinds, of_type, run_stream

SECRET = "hunter2"


def redact(args: Any) -> Any:
    """A step-level redactor: rewrites the secret in every assistant text part of the list."""
    for message in args.messages:
        if message.role == "assistant":
            for part in message.content.parts:
                if isinstance(part, TextPart):
                    part.text = part.text.replace(SECRET, "[redacted]")
    return args.message_list


async def run(tmp_path: Path, processors: list[Any], turns: list[Any], **options: Any) -> tuple[Any, ...]:
    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    tracer = RecordingTracer()
    agent = Agent(id="a", model=ScriptedModel(turns), memory=memory, output_processors=processors, **options)
    chunks, result = await run_stream(agent, "the password?", thread_id="t1", tracers=[tracer])
    saved = await memory.all_messages("t1")
    await memory.close()
    return chunks, result, saved, tracer


def assert_no_secret(result: Any, saved: list[Any], tracer: RecordingTracer) -> None:
    assert SECRET not in result.text
    assert all(SECRET not in step.text and SECRET not in (step.rejected_text or "") for step in result.steps)
    assert all(SECRET not in message.text for message in result.messages)
    assert all(SECRET not in message.text for message in saved)
    afters = [event.after or "" for event in tracer.events]
    assert afters and all(SECRET not in after for after in afters)


async def test_an_abort_after_a_step_redaction_keeps_the_redacted_text(tmp_path: Path) -> None:
    processors = [Fn("redactor", process_output_step=redact), Abort("guard", "process_output_step", "enough")]
    chunks, result, saved, tracer = await run(tmp_path, processors, [f"The password is {SECRET}."])
    assert kinds(chunks)[-2:] == ["step-finish", "tripwire"]
    assert result.tripwire.reason == "enough"
    assert result.text == "The password is [redacted]."
    assert result.steps[0].text == "The password is [redacted]."
    assert of_type(chunks, "step-finish")[0].payload.output.text == "The password is [redacted]."  # type: ignore[union-attr]
    assert [m.text for m in saved] == ["the password?", "The password is [redacted]."]
    assert_no_secret(result, saved, tracer)


async def test_a_retried_step_records_its_rejected_text_as_redacted(tmp_path: Path) -> None:
    guard = Abort("guard", "process_output_step", "again", retry=True, when=lambda args: args.retry_count == 0)
    processors = [Fn("redactor", process_output_step=redact), guard]
    _chunks, result, saved, tracer = await run(
        tmp_path, processors, [f"The password is {SECRET}.", "I cannot say."], max_processor_retries=1
    )
    assert result.tripwire is None
    assert result.text == "I cannot say."
    assert result.steps[0].rejected_text == "The password is [redacted]."
    assert [m.text for m in saved] == ["the password?", "I cannot say."]
    assert_no_secret(result, saved, tracer)


async def test_a_chunk_blocked_after_a_step_redaction_keeps_the_redacted_text(tmp_path: Path) -> None:
    """A process_output_step processor redacts and writes a data chunk that a stream processor blocks: the step
    ends there, with the text the list holds (counted once in the result, as in the thread)."""

    def redact_and_note(args: Any) -> Any:
        args.writer.custom({"type": "data-note", "data": {"redacted": True}})
        return redact(args)

    blocker = Abort("blocker", "process_output_stream", "no notes", when=lambda args: args.part.type == "data-note")
    blocker.process_data_parts = True
    processors = [Fn("redactor", process_output_step=redact_and_note), blocker]
    chunks, result, saved, tracer = await run(tmp_path, processors, [Turn(text=["The password ", f"is {SECRET}."])])
    assert kinds(chunks)[-1] == "tripwire"
    assert result.tripwire.reason == "no notes"
    assert result.text == "The password is [redacted]."
    assert result.steps[0].text == "The password is [redacted]."
    assert [m.text for m in saved] == ["the password?", "The password is [redacted]."]
    assert_no_secret(result, saved, tracer)


async def test_process_output_result_removing_the_answer_leaves_no_text(tmp_path: Path) -> None:
    def remove(args: Any) -> Any:
        args.message_list.remove_by_ids([m.id for m in args.messages if m.role == "assistant"])
        return args.message_list

    chunks, result, saved, _tracer = await run(
        tmp_path, [Fn("remover", process_output_result=remove)], [f"The password is {SECRET}."]
    )
    assert result.finish_reason == "stop"
    assert result.text == ""
    assert of_type(chunks, "finish")[0].payload.output.text == ""  # type: ignore[union-attr]
    assert result.messages == []
    assert [m.text for m in saved] == ["the password?"]


async def test_process_output_result_emptying_the_answer_leaves_no_text(tmp_path: Path) -> None:
    def empty(args: Any) -> Any:
        for message in args.messages:
            message.content.parts = [p for p in message.content.parts if not isinstance(p, TextPart)]
            message.content.content = None
        return args.messages

    _chunks, result, saved, _tracer = await run(tmp_path, [Fn("emptier", process_output_result=empty)], ["Hello."])
    assert result.text == ""
    assert [m.text for m in saved] == ["the password?", ""]


async def test_a_run_stopped_after_a_step_redaction_keeps_the_redacted_text(tmp_path: Path) -> None:
    """The run is stopped (``aclose()`` from another task) while a later process_output_step processor waits."""
    waiting = asyncio.Event()

    async def wait_forever(args: Any) -> Any:
        waiting.set()
        await asyncio.Event().wait()

    memory = SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}")
    processors = [Fn("redactor", process_output_step=redact), Fn("slow", process_output_step=wait_forever)]
    agent = Agent(
        id="a", model=ScriptedModel([f"The password is {SECRET}."]), memory=memory, output_processors=processors
    )
    stream = agent.stream("the password?", thread_id="t1")
    consumer = asyncio.ensure_future(collect(stream))
    await asyncio.wait_for(waiting.wait(), 5)
    await stream.aclose()
    await asyncio.wait_for(consumer, 5)
    result = await stream.result()
    saved = await memory.all_messages("t1")
    await memory.close()
    assert result.finish_reason == "abort"
    assert result.text == "The password is [redacted]."
    assert result.steps[0].text == "The password is [redacted]."
    assert [m.text for m in saved] == ["the password?", "The password is [redacted]."]
