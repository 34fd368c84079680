"""SystemPromptScrubber's custom patterns beyond the stream: the final text's scan (run on a worker thread, so a
slow pattern cannot freeze the loop) and how a timeout error names a long pattern.

Each test here pins a behaviour mutation testing found unchecked (issue 25; see tests/README.md): text a later
processor adds after the stream reaches only ``process_output_result``'s scan, and a pattern has no name of its own,
so an error shows its first 59 characters and an ellipsis when it is longer than 60.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from processors import Agent, Message
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.models import ScriptedModel, Turn
from tests.processors.helpers import Fn

#: Exponential in ``regex`` (see test_user_patterns.py), so a search of ``SLOW_TEXT`` runs into the time limit.
SLOW = r"(x?)(?:ab|a(?:b)\1)+$"
SLOW_TEXT = "ab" * 30 + "x"


def adds(text: str) -> Fn:
    """A processor before the scrubber that appends an assistant message after the stream: only the scrubber's
    scan of the final result can see it."""

    def add(args: Any) -> Any:
        return [*args.messages, Message.assistant(text)]

    return Fn("add", process_output_result=add)


async def test_a_custom_pattern_in_text_added_after_the_stream_is_redacted() -> None:
    guard = SystemPromptScrubber(custom_patterns=[r"PELICAN-\d+"], redaction_method="placeholder")
    model = ScriptedModel(["Hello there, nothing secret."])
    result = await Agent(id="a", model=model, output_processors=[adds(" The code is PELICAN-7."), guard]).generate("hi")
    assert result.error is None and result.tripwire is None
    assert result.text == "Hello there, nothing secret. The code is [SYSTEM_PROMPT]."  # the two merge


async def test_a_custom_pattern_in_text_added_after_the_stream_blocks() -> None:
    guard = SystemPromptScrubber(strategy="block", custom_patterns=[r"PELICAN-\d+"], include_detections=True)
    model = ScriptedModel(["Hello there, nothing secret."])
    result = await Agent(id="a", model=model, output_processors=[adds(" The code is PELICAN-7."), guard]).generate("hi")
    assert result.tripwire is not None
    assert result.tripwire.metadata == {"types": ["custom-pattern"], "count": 1, "detections": ["PELICAN-7"]}


def padded(length: int) -> str:
    """``SLOW`` grown to ``length`` characters by a regex comment, which matches nothing and changes no search."""
    pattern = SLOW + "(?#" + "c" * (length - len(SLOW) - 4) + ")"
    assert len(pattern) == length
    return pattern


@pytest.mark.parametrize(
    ("pattern", "shown"),
    [
        pytest.param(padded(60), padded(60), id="60 characters shown whole"),
        pytest.param(padded(61), padded(61)[:59] + "…", id="61 characters cut to 59 and an ellipsis"),
        pytest.param(padded(80), padded(80)[:59] + "…", id="a longer one cut the same"),
    ],
)
async def test_a_slow_custom_pattern_is_named_by_its_text_cut_to_60_characters(pattern: str, shown: str) -> None:
    guard = SystemPromptScrubber(custom_patterns=[pattern], strategy="redact")
    model = ScriptedModel([Turn(text=[SLOW_TEXT])])

    async def go() -> list[Any]:
        output = Agent(id="a", model=model, output_processors=[guard]).stream("hi")
        chunks = [chunk async for chunk in output]
        await output.result()
        return chunks

    chunks = await asyncio.wait_for(go(), 60)
    error = chunks[-1].payload.error
    assert error["code"] == "pattern_timeout"
    assert error["params"]["rule"] == shown
