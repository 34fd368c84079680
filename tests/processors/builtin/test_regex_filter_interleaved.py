"""RegexFilter on a stream whose text run is cut by other chunks (a thinking model's reasoning between text deltas).

A reasoning chunk does not end the text run: the loop keeps one text part, and the text after the reasoning goes on
where the text before it stopped. So a guard that let its held-back text out when the reasoning came would show
the user "jo@exa" and redact nothing ("mple.com" alone is no address). These tests stream replies cut every way
:func:`processors.testing.split_fuzz.cuts` cuts them, with reasoning between the deltas, and check three things
against the reply said in one piece: the text that reaches the user is the whole text's redaction, no chunk is
lost, doubled or moved past a text it followed, and a step's end (text end, finish) lets everything out.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from processors import Agent
from processors.builtin.regex_filter import RegexFilter
from processors.chunks import AnyChunk, chunk_from_wire
from processors.models.base import Finish, ModelEvent, ModelRequest, ReasoningDelta, ResponseMetadata, TextDelta
from processors.testing.split_fuzz import cuts
from tests.processors.helpers import Fn, run_stream
from tests.processors.helpers import drive_stream as drive
from tests.processors.helpers import text_delta as text

#: Marks a reasoning delta among the pieces a model streams.
THINK = object()


class Thinking:
    """A model streaming text deltas with reasoning deltas between them, in one step (the text block stays open
    across the reasoning, as with interleaved-thinking providers). Each reasoning delta says ``r<n>``."""

    provider = "test"
    model_id = "thinking"

    def __init__(self, pieces: list[Any]) -> None:
        self.events: list[ModelEvent] = []
        count = 0
        for piece in pieces:
            if piece is THINK:
                self.events.append(ReasoningDelta(f"r{count}"))
                count += 1
            else:
                self.events.append(TextDelta(piece))

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield ResponseMetadata("resp-1", self.model_id)
        for event in self.events:
            yield event
        yield Finish("stop")


def interleave(deltas: list[str], at: set[int] | None = None) -> list[Any]:
    """``deltas`` with a reasoning delta after each delta whose index is in ``at`` (all but the last: None)."""
    pieces: list[Any] = []
    for index, delta in enumerate(deltas):
        pieces.append(delta)
        if index < len(deltas) - 1 and (at is None or index in at):
            pieces.append(THINK)
    return pieces


def labels(chunks: list[AnyChunk]) -> list[str]:
    """The stream as ``type`` strings, a text delta as ``"t:<text>"`` and a reasoning delta as its text."""
    out: list[str] = []
    for chunk in chunks:
        text = getattr(getattr(chunk, "payload", None), "text", None)
        if chunk.type == "text-delta":
            out.append(f"t:{text}")
        elif chunk.type == "reasoning-delta":
            out.append(str(text))
        else:
            out.append(chunk.type)
    return out


async def stream(guard: RegexFilter, pieces: list[Any]) -> tuple[list[AnyChunk], Any]:
    return await run_stream(Agent(id="a", model=Thinking(pieces), output_processors=[guard]))


def pii() -> RegexFilter:
    return RegexFilter(presets=["pii"], strategy="redact", phase="output")


# ------------------------------------------------------------------------------------------------ the leak
async def test_an_address_split_by_reasoning_reaches_the_user_redacted() -> None:
    chunks, result = await stream(pii(), ["Write to jo@exa", THINK, "mple.com today."])
    assert result.text == "Write to [EMAIL] today."
    shown = "".join(label[2:] for label in labels(chunks) if label.startswith("t:"))
    assert shown == "Write to [EMAIL] today."
    assert "jo@exa" not in shown


async def test_the_reasoning_comes_out_after_the_text_before_it_and_before_the_text_after_it() -> None:
    """The text before the reasoning leaves first (the address it starts is held back whole, and goes out, redacted,
    before the reasoning: a match is not cut in two), then the reasoning, then the rest."""
    chunks, _result = await stream(pii(), ["Write to jo@exa", THINK, "mple.com today, and more words after it."])
    stream_labels = labels(chunks)
    start = stream_labels.index("reasoning-start")
    before = "".join(label[2:] for label in stream_labels[:start] if label.startswith("t:"))
    after = "".join(label[2:] for label in stream_labels[start:] if label.startswith("t:"))
    assert before == "Write to [EMAIL]"
    assert after == " today, and more words after it."
    assert stream_labels[start + 1] == "r0"


async def test_a_block_split_by_reasoning_shows_nothing_of_the_match() -> None:
    guard = RegexFilter(presets=["pii"], strategy="block", phase="output")
    chunks, result = await stream(guard, ["Write to jo@exa", THINK, "mple.com today."])
    assert result.tripwire is not None
    assert result.tripwire.metadata["matches"] == [{"rule": "email", "match": "[REDACTED_MATCH]", "index": 9}]
    assert "jo@" not in "".join(label for label in labels(chunks) if label.startswith("t:"))


async def test_the_text_end_lets_out_the_held_text_and_reasoning_in_their_order() -> None:
    """Everything is still held back when the text block ends: it all comes out, in the order it came, the text
    redacted, then the end of the block."""
    chunks, result = await stream(pii(), ["a jo@", THINK, "x.io", THINK, " b"])
    assert result.text == "a [EMAIL] b"
    stream_labels = labels(chunks)
    body = stream_labels[stream_labels.index("step-start") + 1 : stream_labels.index("step-finish")]
    assert [label for label in body if label not in ("response-metadata", "text-start")] == [
        "t:a [EMAIL]", "reasoning-start", "r0", "r1", "t: b", "reasoning-end", "text-end",
    ]  # fmt: skip


async def test_processors_after_the_guard_see_each_chunk_once_in_order() -> None:
    seen: list[str] = []

    def look(args: Any) -> Any:
        seen.extend(labels([args.part]))
        return args.part

    agent = Agent(
        id="a", model=Thinking(["Hi ", THINK, "jo@", THINK, "x.io", THINK, " bye"]),
        output_processors=[pii(), Fn("look", process_output_stream=look)],
    )  # fmt: skip
    chunks, _result = await run_stream(agent)
    assert seen == labels(chunks)[1:]  # all but the run's "start", which no processor sees
    assert labels(chunks)[0] == "start"
    assert [label for label in seen if label.startswith("r") and label[1:].isdigit()] == ["r0", "r1", "r2"]


# ------------------------------------------------------------------------------------------------ every cut
REPLIES = [
    pytest.param("Mail jo@example.com or call 415-555-2671 today.", id="an address and a phone number"),
    pytest.param("Card 4111 1111 1111 1111, ip 10.0.0.1, end", id="a card and an address"),
    pytest.param("No personal data here, just words.", id="nothing to redact"),
]


def in_match(guard: RegexFilter, text: str, position: int) -> int:
    """``position``, or the end of the match of ``text`` it falls inside."""
    for match in guard.find_matches(text):
        start, end = match["index"], match["index"] + len(match["match"])
        if start < position < end:
            return in_match(guard, text, end)
    return position


@pytest.mark.parametrize("text", REPLIES)
@pytest.mark.parametrize("everywhere", [True, False], ids=["reasoning at every cut", "reasoning at every other cut"])
async def test_any_cut_with_reasoning_between_streams_the_whole_texts_redaction_in_order(
    text: str, everywhere: bool
) -> None:
    guard = pii()
    whole = guard.redact_text(text)
    for deltas in cuts(text, seed=7):
        at = None if everywhere else set(range(0, len(deltas), 2))
        pieces = interleave(deltas, at)
        chunks, result = await stream(pii(), pieces)
        stream_labels = labels(chunks)
        shown = "".join(label[2:] for label in stream_labels if label.startswith("t:"))
        assert shown == result.text == whole, deltas
        thoughts = [label for label in stream_labels if label.startswith("r") and label[1:].isdigit()]
        assert thoughts == [f"r{n}" for n in range(sum(piece is THINK for piece in pieces))], deltas
        # Each reasoning delta follows the text said before it (or, when that text ends inside a match, the match).
        said = 0
        count = 0
        for piece in pieces:
            if piece is not THINK:
                said += len(piece)
                continue
            position = stream_labels.index(f"r{count}")
            before = "".join(label[2:] for label in stream_labels[:position] if label.startswith("t:"))
            assert before == guard.redact_text(text[: in_match(guard, text, said)]), (deltas, count)
            count += 1


@pytest.mark.parametrize("text", REPLIES[:2])
async def test_any_cut_with_reasoning_between_blocks_before_any_of_the_match_shows(text: str) -> None:
    first = RegexFilter(presets=["pii"], strategy="block", phase="output").find_matches(text)[0]
    for deltas in cuts(text, seed=7):
        chunks, result = await stream(RegexFilter(presets=["pii"], strategy="block", phase="output"),
                                      interleave(deltas))  # fmt: skip
        assert result.tripwire is not None, deltas
        shown = "".join(label[2:] for label in labels(chunks) if label.startswith("t:"))
        assert len(shown) <= first["index"], deltas


# ------------------------------------------------------------------------------------------------ which chunks end it
def wire(kind: str, **payload: Any) -> AnyChunk:
    return chunk_from_wire({"type": kind, "runId": "r", "from": "AGENT", "payload": payload})


STEP_END = {"stepResult": {"reason": "stop"}, "output": {"usage": {}}}
WAITING = [
    pytest.param(wire("reasoning-delta", id="t1-reasoning", text="hmm"), id="reasoning"),
    pytest.param(wire("tool-call-delta", toolCallId="c1", argsTextDelta="{"), id="a tool call's streamed input"),
    pytest.param(wire("tool-call", toolCallId="c1", toolName="w", args={}), id="a tool call"),
    pytest.param(wire("tool-result", toolCallId="c1", toolName="w", result=1), id="a tool result"),
]
ENDING = [
    pytest.param(wire("text-end", id="t1"), id="text-end"),
    pytest.param(wire("step-finish", **STEP_END), id="step-finish"),
    pytest.param(wire("finish", **STEP_END), id="finish"),
    pytest.param(wire("error", error="boom"), id="error"),
    pytest.param(wire("tripwire", reason="stop"), id="tripwire"),
    pytest.param(wire("abort"), id="abort"),
]


@pytest.mark.parametrize("waiting", WAITING)
@pytest.mark.parametrize("ending", ENDING)
def test_a_chunk_that_does_not_end_the_text_waits_in_its_place_until_one_that_does(
    waiting: AnyChunk, ending: AnyChunk
) -> None:
    out = drive(pii(), [text("Write to jo@exa"), waiting, text("mple.com"), ending])
    assert out[1:] == [waiting, text("[EMAIL]"), ending] or out == [text("Write to [EMAIL]"), waiting, ending]
    assert "".join(labels(out)).count(waiting.type) <= 1
    shown = "".join(label[2:] for label in labels(out) if label.startswith("t:"))
    assert shown == "Write to [EMAIL]"
    assert out.index(waiting) < out.index(ending) == len(out) - 1


@pytest.mark.parametrize("ending", ENDING)
def test_a_chunk_that_ends_the_text_lets_out_what_was_held_then_itself(ending: AnyChunk) -> None:
    out = drive(pii(), [text("Write to jo@exa"), ending, text("mple.com"), wire("text-end", id="t1")])
    assert labels(out) == ["t:Write to jo@exa", labels([ending])[0], "t:mple.com", "text-end"]


def test_nothing_held_back_lets_a_chunk_through_as_it_came() -> None:
    reasoning = wire("reasoning-delta", id="t1-reasoning", text="hmm")
    assert drive(pii(), [reasoning])[0] is reasoning
    out = drive(pii(), [text("Plain words."), wire("text-end", id="t1"), reasoning])
    assert labels(out) == ["t:Plain words.", "text-end", "hmm"]
    assert out[-1] is reasoning


# ------------------------------------------------------------------------------------------------ with other processors
async def test_a_chunk_dropped_on_its_way_back_by_a_processor_before_the_guard_is_not_lost_nor_what_waits() -> None:
    """The guard stashes a reasoning chunk to be called again; the processor before it drops the chunk the second
    time it sees it. That processor let the chunk through once, so it still goes out, and the parts waiting behind it
    go out with the next chunks the guard sees, in their order: nothing is lost, nothing doubled."""
    passed: list[int] = []

    def once(args: Any) -> Any:
        if args.part.type == "reasoning-delta":
            if id(args.part) in passed:
                return None
            passed.append(id(args.part))
        return args.part

    agent = Agent(
        id="a", model=Thinking(["Hi jo@", THINK, "x.io", THINK, " and more words. ", "Bye."]),
        output_processors=[Fn("once", process_output_stream=once), pii()],
    )  # fmt: skip
    chunks, _result = await run_stream(agent)
    stream_labels = labels(chunks)
    assert [label for label in stream_labels if label.startswith(("t:", "r")) and label != "response-metadata"] == [
        "t:Hi [EMAIL]", "reasoning-start", "r0", "r1", "t: and more words. Bye.", "reasoning-end",
    ]  # fmt: skip
    assert stream_labels[-3:] == ["text-end", "step-finish", "finish"]


@pytest.mark.parametrize("text", REPLIES[:2])
async def test_two_guards_in_a_row_each_redact_and_keep_every_chunk_once(text: str) -> None:
    """Each guard stashes chunks that pass through the other again: still every reasoning chunk once, in order, and
    the text both guards' redaction of the whole."""
    rule = {"name": "word", "pattern": r"today|end", "replacement": "[WORD]"}

    def guards() -> list[RegexFilter]:
        words = RegexFilter(rules=[rule], strategy="redact", phase="output", stream_carryover_size=6)
        words.id = "regex-filter-words"  # a processor's state is kept per id: two guards need two ids
        return [pii(), words]

    first, second = guards()
    whole = second.redact_text(first.redact_text(text))
    for deltas in cuts(text, seed=3):
        pieces = interleave(deltas)
        chunks, result = await run_stream(Agent(id="a", model=Thinking(pieces), output_processors=guards()))
        stream_labels = labels(chunks)
        assert "".join(label[2:] for label in stream_labels if label.startswith("t:")) == result.text == whole
        thoughts = [label for label in stream_labels if label.startswith("r") and label[1:].isdigit()]
        assert thoughts == [f"r{n}" for n in range(len(deltas) - 1)], deltas
