"""ModerationProcessor on the stream: how much text the offline stream holds back, and what text each delta is judged
by with a judge (issue 16).

Offline, the stream holds back the longest phrase of the word lists plus one character (what could still complete a
phrase, and the character after it that says whether the phrase ends there): the rest of the reply streams.

The judged stream asks the judge about each ``text-delta`` with the ``chunk_window`` text deltas before it, read from
the stream's parts as they entered the chain. A text delta an earlier processor made from another chunk (reasoning
shown as text) has no text delta of its own among those parts: it is judged by its own text.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from processors import Agent
from processors.builtin.moderation import ModerationProcessor
from processors.chunks import AnyChunk, TextDeltaChunk, TextDeltaPayload
from processors.models import ScriptedModel
from tests.processors.helpers import THINK, Fn, Interleaving, Timeline, guard_timeline, run_stream, streamed_text


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


@pytest.mark.parametrize(
    ("options", "words", "expected"),
    [
        pytest.param(
            {}, ["Hello there, this is a perfectly ", "harmless reply, ", "nothing more."],
            [("Hello there, this is a perfectly ", ["Hello"]), ("harmless reply, ", [" there, this is "]),
             ("nothing more.", []), (None, ["a perfectly harmless reply, nothing more."])],
            id="the built-in lists: 27 + 1 characters",
        ),
        pytest.param(
            {"use_default_word_lists": False, "word_lists": {"violence": ["hit"]}}, ["Hello there, ", "a ", "reply."],
            [("Hello there, ", ["Hello the"]), ("a ", []), ("reply.", []), (None, ["re, a reply."])],
            id="a list of one short phrase: 3 + 1 characters",
        ),
    ],
)  # fmt: skip
async def test_the_offline_stream_holds_back_the_longest_phrase_and_one_character(
    options: dict[str, Any], words: list[str], expected: Timeline
) -> None:
    """After the first delta longer than the window, the text before the window leaves; later scans wait for 16 more
    characters (a stream of small deltas is scanned once per 16 characters)."""
    assert await guard_timeline(ModerationProcessor(strategy="filter", **options), words) == expected
