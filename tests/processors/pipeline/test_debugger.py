"""Breakpoints: a run pauses before a matching hook call, the user edits the chunk or the state, steps or aborts;
Stop ends a paused run; without a debugger the per-chunk fast path is taken."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from processors import Agent, Processor
from processors.pipeline.debugger import Breakpoint, Debugger, Pause
from processors.pipeline.stream_chain import StreamChain
from processors.testing import ScriptedModel, Turn


class Shout(Processor):
    """Upper-cases text when its state says so."""

    id = "shout"

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type == "text-delta" and args.state.get("shout"):
            return args.part.with_payload(text=args.part.payload.text.upper())
        return args.part


class Pass(Processor):
    id = "pass"

    def process_input(self, args: Any) -> Any:
        return args.messages


def agent() -> Agent:
    model = ScriptedModel([Turn(text=["Hello ", "secret ", "world"])])
    return Agent(id="a", model=model, input_processors=[Pass()], output_processors=[Shout()])


async def run_with(debugger: Debugger, answer: Any) -> tuple[Any, list[Pause]]:
    """Run the agent; answer each pause with ``answer(pause)`` on the next turn of the loop (as a UI would)."""
    pauses: list[Pause] = []

    def on_pause(pause: Pause) -> None:
        pauses.append(pause)
        asyncio.get_running_loop().call_soon(answer, pause)

    debugger.on_pause = on_pause
    result = await agent().stream("hi", debugger=debugger).result()
    return result, pauses


async def test_a_chunk_breakpoint_pauses_and_an_edited_chunk_changes_the_result() -> None:
    debugger = Debugger([Breakpoint(hook="process_output_stream", text_contains="secret")])

    def edit(pause: Pause) -> None:
        pause.resume(part=pause.part.with_payload(text="[edited] "))

    result, pauses = await run_with(debugger, edit)

    assert [(p.hook, p.processor_id, p.part.payload.text) for p in pauses] == [
        ("process_output_stream", "shout", "secret ")
    ]
    assert result.text == "Hello [edited] world"


async def test_an_edited_state_changes_what_the_processor_does_and_step_pauses_at_the_next_call() -> None:
    debugger = Debugger([Breakpoint(processor_id="shout", chunk_type="text-delta", text_contains="Hello")])
    answers = iter([lambda p: p.resume(state={"shout": True}, step=True), lambda p: p.resume(), lambda p: p.resume()])

    result, pauses = await run_with(debugger, lambda pause: next(answers)(pause))

    assert [p.part.payload.text if p.part is not None else p.hook for p in pauses][:2] == ["Hello ", "secret "]
    assert pauses[0].state == {} and pauses[1].state == {"shout": True}
    assert result.text == "HELLO SECRET WORLD"


async def test_a_hook_breakpoint_pauses_before_process_input_and_abort_ends_the_run_with_an_error() -> None:
    debugger = Debugger([Breakpoint(hook="process_input")])

    result, pauses = await run_with(debugger, lambda pause: pause.abort())

    assert [(p.hook, p.processor_id) for p in pauses] == [("process_input", "pass")]
    assert pauses[0].args.messages[-1].text == "hi"
    assert result.finish_reason == "error"
    assert result.error is not None and "Stopped in the debugger before pass.process_input" in result.error


async def test_stop_ends_a_paused_run() -> None:
    paused = asyncio.Event()
    debugger = Debugger([Breakpoint(hook="process_output_stream")], on_pause=lambda _pause: paused.set())
    stream = agent().stream("hi", debugger=debugger)
    chunks: list[Any] = []

    async def consume() -> None:
        async for chunk in stream:
            chunks.append(chunk)

    task = asyncio.get_running_loop().create_task(consume())
    await paused.wait()
    assert debugger.paused is not None
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await stream.aclose()
    result = await stream.result()
    assert result.finish_reason == "abort"
    assert debugger.paused is None


async def test_without_a_debugger_the_chunks_take_the_sync_fast_path(monkeypatch: Any) -> None:
    """The general path (where breakpoints live) is never entered when no debugger is set."""
    general: list[Any] = []
    original = StreamChain.process

    async def spy(self: StreamChain, part: Any) -> Any:
        general.append(part)
        return await original(self, part)

    monkeypatch.setattr(StreamChain, "process", spy)
    result = await agent().generate("hi")
    assert result.text == "Hello secret world" and general == []

    await agent().stream("hi", debugger=Debugger()).result()
    assert general, "with a debugger, chunks go through the general path"


def test_a_run_on_a_worker_threads_loop_is_answered_from_another_thread() -> None:
    """The studio replays on a worker thread's loop and answers from the UI's thread: the answer must reach the
    run's own loop (completing its future from another thread would never wake it, or break the loop)."""
    import threading

    paused = threading.Event()
    pauses: list[Pause] = []

    def on_pause(pause: Pause) -> None:  # on the worker thread
        pauses.append(pause)
        paused.set()

    debugger = Debugger([Breakpoint(hook="process_output_stream", text_contains="secret")], on_pause=on_pause)
    results: list[Any] = []
    worker = threading.Thread(
        target=lambda: results.append(asyncio.run(agent().stream("hi", debugger=debugger).result()))
    )
    worker.start()
    assert paused.wait(30)
    pauses[0].resume(part=pauses[0].part.with_payload(text="[edited from the UI] "))  # on this (another) thread
    worker.join(30)
    assert not worker.is_alive()
    assert results[0].text == "Hello [edited from the UI] world"


class CountedPart:
    """A chunk-shaped part that counts how often its payload (where the text is) is read."""

    type = "text-delta"

    def __init__(self, text: str) -> None:
        self.text = text
        self.reads = 0

    @property
    def payload(self) -> Any:
        self.reads += 1
        return SimpleNamespace(text=self.text)


def test_the_text_is_read_only_for_a_call_a_text_breakpoint_is_about() -> None:
    """The check runs before every processor's call per chunk: reading the chunk's text for calls no breakpoint is
    about cost more than the rest of the check (~4 µs of ~5 per call, measured with one breakpoint)."""
    debugger = Debugger([Breakpoint(processor_id="pii", text_contains="@"), Breakpoint(hook="process_input")])
    part = CountedPart("mail me at a@b.c")

    assert not debugger.wants("process_output_stream", "shout", 0, part, SimpleNamespace(part=part))
    assert part.reads == 0
    assert debugger.wants("process_output_stream", "pii", 0, part, SimpleNamespace(part=part))
    assert part.reads == 1
    assert debugger.wants("process_input", "shout", 0, None, SimpleNamespace(messages=[]))  # no text needed
    assert not Debugger([Breakpoint(processor_id="pii", text_contains="@")]).wants(
        "process_output_stream", "pii", 0, CountedPart("no at sign"), None
    )


_CONDITIONS = st.fixed_dictionaries(
    {},
    optional={
        "hook": st.sampled_from(["process_input", "process_output_stream"]),
        "processor_id": st.sampled_from(["a", "b"]),
        "chunk_type": st.sampled_from(["text-delta", "finish"]),
        "text_contains": st.sampled_from(["", "@", "x"]),
        "step_number": st.integers(0, 2),
    },
)


@given(
    breakpoints=st.lists(_CONDITIONS.map(lambda kwargs: Breakpoint(**kwargs)), max_size=4),
    hook=st.sampled_from(["process_input", "process_output_stream"]),
    processor_id=st.sampled_from(["a", "b"]),
    step_number=st.integers(0, 2) | st.none(),
    chunk_type=st.sampled_from(["text-delta", "finish"]) | st.none(),
    text=st.sampled_from(["", "a@b", "x", "x@"]),
)
def test_a_call_is_wanted_exactly_when_some_breakpoint_matches_it(
    breakpoints: list[Breakpoint],
    hook: str,
    processor_id: str,
    step_number: int | None,
    chunk_type: str | None,
    text: str,
) -> None:
    part = SimpleNamespace(type=chunk_type, payload=SimpleNamespace(text=text)) if chunk_type else None
    args = SimpleNamespace(part=part, messages=[SimpleNamespace(text=text)])
    expected = any(bp.matches(hook, processor_id, step_number, part, text) for bp in breakpoints)
    assert Debugger(breakpoints).wants(hook, processor_id, step_number, part, args) is expected
