"""ModerationProcessor with a judge on the stream: what text each delta is judged by (issue 16).

The judged stream asks the judge about each ``text-delta`` with the ``chunk_window`` text deltas before it, read from
the stream's parts as they entered the chain. A text delta an earlier processor made from another chunk (reasoning
shown as text) has no text delta of its own among those parts: it is judged by its own text.
"""

from __future__ import annotations

import json
from typing import Any

from processors import Agent
from processors.builtin.moderation import ModerationProcessor
from processors.chunks import AnyChunk, TextDeltaChunk, TextDeltaPayload
from processors.models import ScriptedModel
from tests.processors.helpers import THINK, Fn, Interleaving, run_stream, streamed_text


def scores(**values: float) -> str:
    return json.dumps({"categories": values, "reason": None})


def reasoning_as_text(args: Any) -> AnyChunk:
    part = args.part
    if part.type == "reasoning-delta":
        return TextDeltaChunk(run_id=part.run_id, payload=TextDeltaPayload(id="t1", text=part.payload.text))
    return part  # type: ignore[no-any-return]


async def test_a_text_delta_an_earlier_processor_made_from_reasoning_is_judged_by_its_own_text() -> None:
    judge = ScriptedModel(
        [lambda request: scores(violence=0.9) if request.messages[1]["content"] == "r0" else scores()], repeat=True
    )
    guard = ModerationProcessor(model=judge, strategy="block")
    lanes = [Fn("show-reasoning", process_output_stream=reasoning_as_text), guard]
    chunks, result = await run_stream(Agent(id="a", model=Interleaving([THINK]), output_processors=lanes))
    assert [request.messages[1]["content"] for request in judge.requests][:1] == ["r0"]
    assert result.tripwire is not None
    assert result.tripwire.reason == "Content flagged for moderation. Categories: violence"
    assert streamed_text(chunks) == ""
