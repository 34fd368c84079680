"""``AgentStream``'s reading side (``processors/loop/stream.py``): the chunks it keeps when asked, the text-only
view, the live message list, ``result()`` at any point of the iteration, and an iteration that has ended staying
ended, and ``aclose()`` refused from inside the run. Whole agent runs on scripted models; ``test_stream.py``
covers ``aclose()`` from outside."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from processors import AgentStream
from processors.models import ScriptedModel, ToolCall, Turn
from processors.models.base import Finish, ModelEvent, ModelRequest, TextDelta
from tests.processors.helpers import Fn, get_weather, kinds, make_agent, streamed_text

WEATHER = [
    Turn(
        text=["Let me ", "look."],
        reasoning="The user wants the weather.",
        tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")],
    ),
    Turn(text=["Sunny ", "in Oslo."]),
]


def weather_stream(**options: object) -> AgentStream:
    return make_agent(ScriptedModel(WEATHER), tools=[get_weather]).stream("weather?", **options)  # type: ignore[arg-type]


async def test_a_stream_made_with_keep_chunks_holds_every_chunk_in_order() -> None:
    stream = weather_stream(keep_chunks=True)
    seen = [chunk async for chunk in stream]

    assert stream.chunks == seen
    assert kinds(seen)[0] == "start" and kinds(seen)[-1] == "finish"


async def test_a_stream_keeps_no_chunks_by_default() -> None:
    stream = weather_stream()
    seen = [chunk async for chunk in stream]
    assert len(seen) > 10
    assert stream.chunks == []


async def test_text_stream_gives_only_the_text_deltas_as_strings() -> None:
    stream = weather_stream()
    texts = [text async for text in stream.text_stream()]

    assert texts == ["Let me ", "look.", "Sunny ", "in Oslo."]
    assert (await stream.result()).text == "Let me look.Sunny in Oslo."


async def test_the_message_list_is_the_runs_live_list() -> None:
    stream = weather_stream()
    assert stream.message_list.get.all.db() == []  # the run adds the input when it starts

    result = await stream.result()

    assert [(m.role, m.text) for m in stream.message_list.get.input.db()] == [("user", "weather?")]
    assert stream.message_list.get.response.db() == result.messages
    assert [m.role for m in result.messages] == ["assistant"]


async def test_result_after_a_partial_iteration_reads_the_rest_and_the_stream_stays_ended() -> None:
    stream = weather_stream(keep_chunks=True)
    first = [await stream.__anext__() for _ in range(3)]

    result = await stream.result()

    assert stream.chunks[:3] == first
    assert kinds(stream.chunks)[-1] == "finish"
    assert result.text == streamed_text(stream.chunks) == "Let me look.Sunny in Oslo."
    assert result.finish_reason == "stop" and result.run_id == stream.run_id
    assert [chunk async for chunk in stream] == []
    with pytest.raises(StopAsyncIteration):
        await stream.__anext__()
    assert await stream.result() is result
    assert len(stream.chunks) == len(kinds(stream.chunks))  # nothing more was kept


async def test_result_without_iterating_runs_the_whole_run() -> None:
    model = ScriptedModel(WEATHER)
    stream = make_agent(model, tools=[get_weather]).stream("weather?")

    result = await stream.result()

    assert (result.finish_reason, result.text, len(model.requests)) == ("stop", "Let me look.Sunny in Oslo.", 2)
    assert [s.finish_reason for s in result.steps] == ["tool-calls", "stop"]


async def test_a_second_task_iterating_at_once_is_told_what_to_do() -> None:
    stream = make_agent(ScriptedModel([Turn(text=["a ", "b "], delay=0.01)])).stream("hi")
    task = asyncio.create_task(stream.result())
    while stream._consumer is None:  # until the first task is inside __anext__
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError) as refused:
        await stream.__anext__()

    assert str(refused.value) == (
        "this stream is being iterated by another task; await result() there, or aclose() to stop it"
    )
    assert (await task).text == "a b "


async def test_aclose_from_a_processor_inside_the_run_is_refused_and_the_run_goes_on() -> None:
    """A processor holding its own stream cannot stop the run from within (the run's generator is running for
    it): ``aclose()`` raises a clear error there, which the run reports as that processor's failure, and nothing
    streamed is lost. (It used to end the iteration on the spot, leaving the model's stream open and a result
    without the text already streamed.)"""
    streams: list[AgentStream] = []

    async def stop_after_w1(args: Any) -> Any:
        if args.part.type == "text-delta" and args.part.payload.text == "w1 ":
            await streams[0].aclose()
        return args.part

    model = ScriptedModel([Turn(text=["w0 ", "w1 ", "w2 "])])
    stream = make_agent(model, output_processors=[Fn("stop", process_output_stream=stop_after_w1)]).stream("hi")
    streams.append(stream)

    chunks = [chunk async for chunk in stream]
    result = await stream.result()

    assert kinds(chunks)[-1] == "finish"
    assert (result.finish_reason, result.text) == ("stop", "w0 w1 w2 ")
    assert result.warnings == [
        "Processor 'stop' raised in process_output_stream: RuntimeError: aclose() was called from inside this "
        "stream's run; a processor stops a run with args.abort() (the chunk was passed on unchanged)"
    ]
    assert model.closed_early == 0  # the model's stream ran to its end

    await stream.aclose()  # from outside, once the run is over: a no-op
    assert (await stream.result()).finish_reason == "stop"


class SlowToClose:
    """A hand-written ``LanguageModel`` whose stream takes its time to close (as an HTTP response may): its
    ``aclose`` waits until the test lets it finish."""

    provider = "custom"
    model_id = "custom/slow-to-close"

    def __init__(self) -> None:
        self.closing = asyncio.Event()
        self.may_close = asyncio.Event()

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        return _SlowToCloseEvents(self)


class _SlowToCloseEvents:
    def __init__(self, model: SlowToClose) -> None:
        self.model = model
        self.events: list[ModelEvent] = [TextDelta(f"w{i} ") for i in range(20)] + [Finish("stop")]

    def __aiter__(self) -> _SlowToCloseEvents:
        return self

    async def __anext__(self) -> ModelEvent:
        if not self.events:
            raise StopAsyncIteration
        return self.events.pop(0)

    async def aclose(self) -> None:
        self.model.closing.set()
        await self.model.may_close.wait()


async def read_two_words(stream: AgentStream) -> None:
    """Iterate until the second word, then stop iterating (between chunks: nobody is inside the run)."""
    async for chunk in stream:
        if chunk.type == "text-delta" and chunk.payload.text == "w1 ":  # type: ignore[union-attr]
            return


async def test_result_while_another_task_closes_the_stream_is_what_the_close_leaves() -> None:
    model = SlowToClose()
    stream = make_agent(model).stream("hi")
    await read_two_words(stream)
    closing = asyncio.create_task(stream.aclose())
    await model.closing.wait()  # the close is under way, waiting for the model's stream

    result_task = asyncio.create_task(stream.result())
    for _ in range(3):
        await asyncio.sleep(0)
    assert not result_task.done()  # it waits for the close instead of making up a result of its own
    model.may_close.set()
    result = await result_task
    await closing

    assert (result.finish_reason, result.text) == ("abort", "w0 w1 ")
    assert [m.text for m in result.messages] == ["w0 w1 "]


async def test_a_second_aclose_while_the_first_is_still_closing_waits_for_it() -> None:
    model = SlowToClose()
    stream = make_agent(model).stream("hi")
    await read_two_words(stream)
    first = asyncio.create_task(stream.aclose())
    await model.closing.wait()

    second = asyncio.create_task(stream.aclose())
    for _ in range(3):
        await asyncio.sleep(0)
    assert not second.done()  # it used to fail at once: "aclose(): asynchronous generator is already running"
    model.may_close.set()
    await asyncio.gather(first, second)

    assert ((await stream.result()).finish_reason, (await stream.result()).text) == ("abort", "w0 w1 ")
    await stream.aclose()  # and once more, after both: a no-op


async def test_an_aclose_cancelled_while_closing_leaves_the_rest_to_the_next() -> None:
    model = SlowToClose()
    stream = make_agent(model).stream("hi")
    await read_two_words(stream)
    first = asyncio.create_task(stream.aclose())
    await model.closing.wait()

    first.cancel()  # its caller gave up while the model's stream was closing
    with pytest.raises(asyncio.CancelledError):
        await first
    model.may_close.set()
    await stream.aclose()

    result = await stream.result()
    assert (result.finish_reason, result.text) == ("abort", "w0 w1 ")
    assert [m.text for m in result.messages] == ["w0 w1 "]
