"""The carry-over detectors (PIIDetector, SystemPromptScrubber, Moderation) on a text run cut by reasoning.

A thinking model may stream reasoning between two text deltas of one text block. The held-back text used to be
flushed when the reasoning came, so "jo@exa" reached the user as it was and "mple.com" alone was no address: the
sample chain's PIIDetector leaked the address it was there to hide (only the saved result was masked). The held
text now waits on for the rest of the match, and the reasoning waits behind it, in its place
(``test_carryover_order.py`` checks where).
"""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent
from processors.builtin.pii_detector import PIIDetector
from processors.models import ScriptedModel
from tests.processors.builtin.test_pii_detector_edges import NO_PII
from tests.processors.builtin.test_regex_filter_interleaved import THINK, Thinking, interleave, labels
from tests.processors.helpers import run_stream

REPLY = "Write to jo@example.com today, or call me."
REDACTED = "Write to [EMAIL] today, or call me."


def shown_text(chunks: list[Any]) -> str:
    return "".join(label[2:] for label in labels(chunks) if label.startswith("t:"))


def reasoning(chunks: list[Any]) -> list[str]:
    return [label for label in labels(chunks) if label.startswith("r") and label[1:].isdigit()]


async def test_an_address_split_by_reasoning_reaches_the_user_redacted() -> None:
    agent = Agent(id="a", model=Thinking(["Write to jo@exa", THINK, "mple.com today, or call me."]),
                  output_processors=[PIIDetector(redaction_method="placeholder")])  # fmt: skip
    chunks, result = await run_stream(agent)
    assert shown_text(chunks) == REDACTED
    assert result.text == REDACTED
    assert reasoning(chunks) == ["r0"]


@pytest.mark.parametrize("cut", range(1, len(REPLY)))
async def test_every_cut_with_reasoning_in_it_shows_the_whole_replys_redaction(cut: int) -> None:
    """The reply cut in two anywhere (and in characters around the address), reasoning between the pieces."""
    pieces = interleave([REPLY[:cut], REPLY[cut:]])
    agent = Agent(id="a", model=Thinking(pieces), output_processors=[PIIDetector(redaction_method="placeholder")])
    chunks, _result = await run_stream(agent)
    assert shown_text(chunks) == REDACTED
    assert reasoning(chunks) == ["r0"]


async def test_reasoning_between_every_character_loses_nothing_and_redacts_the_address() -> None:
    detector = PIIDetector(redaction_method="placeholder")
    agent = Agent(id="a", model=Thinking(interleave(list(REPLY))), output_processors=[detector])
    chunks, _result = await run_stream(agent)
    assert shown_text(chunks) == REDACTED
    assert reasoning(chunks) == [f"r{n}" for n in range(len(REPLY) - 1)]


async def test_the_judged_stream_also_holds_the_text_across_reasoning() -> None:
    """The judge's path (stream_part_async): the same text, the same redaction."""
    detector = PIIDetector(model=ScriptedModel([NO_PII], repeat=True), detection_types=["email", "name"],
                           redaction_method="placeholder")  # fmt: skip
    agent = Agent(id="a", model=Thinking(["Write to jo@exa", THINK, "mple.com today, or call me."]),
                  output_processors=[detector])  # fmt: skip
    chunks, _result = await run_stream(agent)
    assert shown_text(chunks) == REDACTED
    assert reasoning(chunks) == ["r0"]


async def test_a_step_end_still_lets_the_held_text_out_before_it() -> None:
    agent = Agent(id="a", model=Thinking(["a jo@", THINK, "x.io"]),
                  output_processors=[PIIDetector(redaction_method="placeholder")])  # fmt: skip
    chunks, result = await run_stream(agent)
    stream_labels = labels(chunks)
    assert result.text == "a [EMAIL]"
    last_text = max(i for i, label in enumerate(stream_labels) if label.startswith("t:"))
    assert last_text < stream_labels.index("text-end") < stream_labels.index("step-finish")
