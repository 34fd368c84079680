"""A retried step's feedback, shown from the trace while the run streams, reads in the reader's language at once when
the abort carried a code: a stream processor's abort (its chunk change) as well as a step's (issue 27 item 2)."""

from __future__ import annotations

from typing import Any

from processors import Agent, Processor
from processors.models.scripted import ScriptedModel, Turn
from processors.tracing import RecordingTracer
from studio.error_texts import coded_text
from studio.models.chat_model import ChatModel

ENGLISH = "Token limit of 3 exceeded (current: 9)"


class TooLongOnce(Processor):
    """Retries the first reply mid-stream with TokenLimiter's coded sentence."""

    id = "too-long-once"

    def process_output_stream(self, args: Any) -> Any:
        if args.part.type == "text-delta" and "long" in args.part.payload.text and args.retry_count == 0:
            args.abort(ENGLISH, retry=True, code="TokenLimiter.limit_exceeded", params={"limit": 3, "current": 9})
        return args.part


async def test_a_stream_aborts_feedback_keeps_its_code_while_streaming(in_language: Any) -> None:
    chat = ChatModel()
    agent = Agent(
        id="a",
        model=ScriptedModel(["A long answer.", Turn(text="Short.", delay=0.01)]),
        output_processors=[TooLongOnce()],
        max_processor_retries=1,
    )
    tracer = RecordingTracer()
    stream = agent.stream("hi", tracers=[tracer])
    seen = []
    async for chunk in stream:
        chat.live.apply_chunk(stream.run_id, chunk)
        for event in tracer.events:
            chat.live.apply_trace_event(stream.run_id, event)
        tracer.events.clear()
        if chunk.type == "text-delta" and chunk.payload.text.startswith("Short"):
            step = chat.items[0].steps[0]  # type: ignore[attr-defined]
            seen.append((step.feedback, step.feedback_code, dict(step.feedback_params)))
    await stream.result()

    assert seen == [(ENGLISH, "TokenLimiter.limit_exceeded", {"limit": 3, "current": 9})]
    in_language("zh_CN")
    assert coded_text(*seen[0][1:], ENGLISH) == "超出 3 个令牌的上限（当前：9）"
