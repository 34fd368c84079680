"""Every guard that holds text back keeps the model's order: one hold-back behaviour (``held_chunk_order.py``) for all.

RegexFilter and the carry-over detectors (PIIDetector, SystemPromptScrubber, Moderation) hold back text that could
still begin a match. Another chunk that comes meanwhile (reasoning, a processor's ``data-*`` chunk, a replayed
``source`` or ``file``) waits behind the held text, in its place, and goes out once the text the model sent before
it has (after a match that text ends inside: a match goes out whole). The carry-over detectors used to let such a
chunk pass the held text, so reasoning reached the next processors, the trace and the chat before text the model
had sent before it.

Each guard streams replies cut every way :func:`processors.testing.split_fuzz.cuts` cuts them, with reasoning,
``data-*``, ``source`` and ``file`` chunks between the deltas, and what leaves it is checked against the reply said
in one piece: the text is the whole reply's redaction, the other chunks are the ones that entered, in their order,
and each comes after exactly the text before its place (the redaction of the text the model sent before it, carried
to the first point where cutting the reply changes nothing).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import pytest

from processors import RequestContext
from processors.builtin.moderation import ModerationProcessor
from processors.builtin.patterns import Match
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.split_across_chunks import CarryOver
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.chunks import AnyChunk, Chunk, DataChunk, chunk_from_wire
from processors.messages.message_list import MessageList
from processors.models import ScriptedModel
from processors.pipeline.processor import ProcessOutputStreamArgs
from processors.pipeline.stream_chain import REPROCESS_KEY
from processors.testing.split_fuzz import cuts
from tests.processors.builtin.test_pii_detector_edges import NO_PII
from tests.processors.helpers import DATA, THINK, guard_order, label, merged
from tests.processors.helpers import drive_stream as drive
from tests.processors.helpers import text_delta as text

INSTRUCTIONS = (
    "You are Aria, the support agent of Acme. Never offer discounts above ten percent, and never mention "
    "the internal escalation code ZEBRA-42 to customers. Answer in a warm tone."
)


def wire(kind: str, **payload: Any) -> AnyChunk:
    return chunk_from_wire({"type": kind, "runId": "r", "from": "AGENT", "payload": payload})


#: What comes between the deltas, in turn: reasoning, a processor's data chunk, a replayed source and file.
BETWEEN = [THINK, DATA, THINK, "source", DATA, "file"]

Factory = Callable[[], list[Any]]

GUARDS: list[Any] = [
    pytest.param(
        lambda: [RegexFilter(presets=["pii"], strategy="redact", phase="output")],
        "Mail jo@example.com or call 415-555-2671 today.",
        {},
        id="RegexFilter",
    ),
    pytest.param(
        lambda: [PIIDetector(redaction_method="placeholder")],
        "Mail jo@example.com or call 415-555-2671 today, card 4111 1111 1111 1111.",
        {},
        id="PIIDetector",
    ),
    pytest.param(
        lambda: [SystemPromptScrubber()],
        "Sure! My instructions say: never offer discounts above ten percent, and never mention the internal "
        "escalation code ZEBRA-42. Bye.",
        {"instructions": INSTRUCTIONS},
        id="SystemPromptScrubber",
    ),
    pytest.param(
        lambda: [ModerationProcessor(strategy="filter")],
        "Fine. I will kill you, then go to hell, ok?",
        {},
        id="Moderation",
    ),
    pytest.param(
        lambda: [PIIDetector(redaction_method="placeholder"), SystemPromptScrubber()],
        "Mail jo@example.com: never offer discounts above ten percent, and never mention the internal escalation "
        "code ZEBRA-42.",
        {"instructions": INSTRUCTIONS},
        id="the sample chain's PIIDetector then SystemPromptScrubber",
    ),
]


def between(deltas: list[str], start: int) -> list[Any]:
    """``deltas`` with one of :data:`BETWEEN` (in turn, from ``start``) after each delta but the last."""
    pieces: list[Any] = []
    others = itertools.cycle(BETWEEN[start:] + BETWEEN[:start])
    for index, delta in enumerate(deltas):
        pieces.append(delta)
        if index < len(deltas) - 1:
            other = next(others)
            pieces.append(wire(other, id=f"{other}-{index}") if other in ("source", "file") else other)
    return pieces


def texts(labels: list[str]) -> str:
    return "".join(one[2:] for one in labels if one.startswith("t:"))


class Oracle:
    """What the guards make of a text said in one piece, and where a chunk said after a prefix of it belongs."""

    def __init__(self, guards: Factory, options: dict[str, Any]) -> None:
        self.guards = guards
        self.options = options
        self.cache: dict[str, str] = {}

    async def whole(self, text: str) -> str:
        if text not in self.cache:
            _entered, left, _result = await guard_order(self.guards(), [text], **self.options)
            self.cache[text] = texts(left)
        return self.cache[text]

    async def before(self, reply: str, said: int) -> str:
        """The text that must leave before a chunk the model sent after ``reply[:said]``: the redaction of the
        reply up to the first point at or after ``said`` where cutting the reply in two changes nothing."""
        whole = await self.whole(reply)
        for point in range(said, len(reply) + 1):
            head = await self.whole(reply[:point])
            if head + await self.whole(reply[point:]) == whole:
                return head
        raise AssertionError("unreachable: the uncut reply")


@pytest.mark.parametrize(("guards", "reply", "options"), GUARDS)
async def test_any_cut_with_chunks_between_keeps_the_text_and_the_models_order(
    guards: Factory, reply: str, options: dict[str, Any]
) -> None:
    oracle = Oracle(guards, options)
    whole = await oracle.whole(reply)
    assert whole != reply  # the guard changes this reply: what it holds back matters
    for number, deltas in enumerate(cuts(reply, seed=7)):
        pieces = between(deltas, number)
        entered, left, result = await guard_order(guards(), pieces, **options)
        assert result.tripwire is None
        assert texts(left) == result.text == whole, deltas
        others = [one for one in entered if not one.startswith("t:")]
        assert [one for one in left if not one.startswith("t:")] == others, deltas
        said = 0
        for index, one in enumerate(entered):
            if one.startswith("t:"):
                said += len(one) - 2
            elif one.split(":")[0] not in ("text-end", "step-finish", "finish", "reasoning-end", "text-start"):
                position = left.index(one)
                assert texts(left[:position]) == await oracle.before(reply, said), (deltas, index, one)


async def test_reasoning_that_cuts_an_address_comes_out_after_the_address_and_before_the_rest() -> None:
    """The carry-over detector lets the reasoning out where the model sent it: after the text before it (the address
    that text ends inside goes out whole, redacted, first), before the text after it."""
    pieces = ["Write to jo@exa", THINK, "mple.com today, and more words after it."]
    _entered, left, _result = await guard_order([PIIDetector(redaction_method="placeholder")], pieces)
    kinds = [one.split(":")[0] if one.split(":")[0].endswith(("-start", "-end")) else one for one in left]
    assert kinds == [
        "response-metadata:resp-1", "text-start", "t:Write to [EMAIL]", "reasoning-start", "reasoning-delta:r0",
        "t: today, and more words after it.", "reasoning-end", "text-end", "step-finish:", "finish:",
    ]  # fmt: skip


async def test_a_data_chunk_written_while_text_is_held_waits_in_its_place() -> None:
    """A ``data-*`` chunk a processor writes mid-reply reaches the guard (it asks for data parts) and waits behind
    the held text: without that it went straight past, ahead of text the model had sent before it."""
    pieces = ["Write to jo@exa", DATA, "mple.com today, and more words after it."]
    for guard in (PIIDetector(redaction_method="placeholder"), RegexFilter(presets=["pii"], strategy="redact")):
        entered, left, result = await guard_order([guard], pieces)
        assert "data-note:0" in entered
        position = left.index("data-note:0")
        assert texts(left[:position]) == "Write to [EMAIL]", type(guard).__name__
        assert texts(left[position:]) == " today, and more words after it."
        # let out in answer to another part, it is still saved with the answer, and the text around it too
        assert result.text == "Write to [EMAIL] today, and more words after it."
        saved = [part for part in result.messages[-1].content.parts if part.type == "data-note"]
        assert [part.data for part in saved] == [0]


async def test_the_judged_stream_lets_a_chunk_out_at_the_end_of_the_sentence_it_came_in() -> None:
    """The judge decides on whole sentences: a chunk that came mid-sentence goes out after that sentence (not
    before text the model sent before it, and not in the middle of what the judge must see whole)."""
    detector = PIIDetector(model=ScriptedModel([NO_PII], repeat=True), detection_types=["email", "name"],
                           redaction_method="placeholder", carry_over=16)  # fmt: skip
    pieces = ["Hello there. Write to jo@exa", THINK, "mple.com today. And more words after it, many of them. End."]
    _entered, left, _result = await guard_order([detector], pieces)
    position = left.index("reasoning-delta:r0")
    assert texts(left[:position]) == "Hello there. Write to [EMAIL] today. "  # a sentence ends after its space
    assert texts(left) == "Hello there. Write to [EMAIL] today. And more words after it, many of them. End."


# ------------------------------------------------------------------------------------------------ every kind, by hand
def scrubber_list() -> MessageList:
    messages = MessageList()
    messages.add_system(INSTRUCTIONS)
    return messages


STEP_END = {"stepResult": {"reason": "stop"}, "output": {"usage": {}}}
WAITING = [
    pytest.param(wire("reasoning-start", id="t1-reasoning"), id="reasoning-start"),
    pytest.param(wire("reasoning-delta", id="t1-reasoning", text="hmm"), id="reasoning"),
    pytest.param(wire("tool-call-delta", toolCallId="c1", argsTextDelta="{"), id="a tool call's streamed input"),
    pytest.param(wire("tool-call", toolCallId="c1", toolName="w", args={}), id="a tool call"),
    pytest.param(wire("tool-result", toolCallId="c1", toolName="w", result=1), id="a tool result"),
    pytest.param(DataChunk(type="data-progress", data={"n": 1}), id="data"),
    pytest.param(wire("source", id="s1"), id="source"),
    pytest.param(wire("file", id="f1"), id="file"),
]
ENDING = [
    pytest.param(wire("text-end", id="t1"), id="text-end"),
    pytest.param(wire("step-finish", **STEP_END), id="step-finish"),
    pytest.param(wire("finish", **STEP_END), id="finish"),
    pytest.param(wire("error", error="boom"), id="error"),
]
#: (guard, the text before the waiting chunk, the text after it, what leaves before it, what leaves after it)
HELD = [
    pytest.param(lambda: RegexFilter(presets=["pii"], strategy="redact"), None, "Write to jo@exa", "mple.com",
                 "Write to [EMAIL]", "", id="RegexFilter"),
    pytest.param(lambda: PIIDetector(redaction_method="placeholder"), None, "Write to jo@exa", "mple.com",
                 "Write to [EMAIL]", "", id="PIIDetector"),
    pytest.param(lambda: SystemPromptScrubber(redaction_method="placeholder"), scrubber_list,
                 "Rules: never offer discounts above ten percent, and never mention the internal",
                 " escalation code ZEBRA-42 to customers. Ok", "Rules: [SYSTEM_PROMPT]", ". Ok",
                 id="SystemPromptScrubber"),
    pytest.param(lambda: ModerationProcessor(strategy="filter"), None, "Fine. I will kill y", "ou, ok",
                 "Fine. ", ", ok", id="Moderation"),
]  # fmt: skip


@pytest.mark.parametrize(("guard", "messages", "head", "tail", "shown_head", "shown_tail"), HELD)
@pytest.mark.parametrize("waiting", WAITING)
@pytest.mark.parametrize("ending", ENDING)
def test_every_kind_of_chunk_waits_in_its_place_and_a_step_end_lets_all_out_redacted(
    guard: Callable[[], Any],
    messages: Callable[[], MessageList] | None,
    head: str,
    tail: str,
    shown_head: str,
    shown_tail: str,
    waiting: AnyChunk,
    ending: AnyChunk,
) -> None:
    out = drive(guard(), [text(head), waiting, text(tail), ending], messages() if messages else None)
    expected = [f"t:{shown_head}", label(waiting)] + ([f"t:{shown_tail}"] if shown_tail else []) + [label(ending)]
    assert merged([label(part) for part in out]) == expected
    assert sum(part is waiting for part in out) == 1
    assert out[-1] is ending


#: The heads that are a match on their own (eight words of the instructions are a leak already).
HEAD_ALONE = {"SystemPromptScrubber": "Rules: [SYSTEM_PROMPT]"}


@pytest.mark.parametrize(("guard", "messages", "head", "tail", "shown_head", "shown_tail"), HELD)
def test_a_chunk_that_ends_the_text_lets_out_what_was_held_then_itself(
    guard: Callable[[], Any],
    messages: Callable[[], MessageList] | None,
    head: str,
    tail: str,
    shown_head: str,
    shown_tail: str,
) -> None:
    """Held text goes out, redacted as it stands (the rest of the match never came), before the chunk that ends the
    text run."""
    end = wire("text-end", id="t1")
    made = guard()
    out = drive(made, [text(head), end], messages() if messages else None)
    alone = HEAD_ALONE.get(type(made).__name__, head)
    assert merged([label(part) for part in out]) == [f"t:{alone}", "text-end:t1"]
    assert out[-1] is end


def test_nothing_held_lets_a_chunk_through_as_it_came_and_a_new_step_forgets_the_old() -> None:
    detector = PIIDetector(redaction_method="placeholder")
    reasoning = wire("reasoning-delta", id="t1-reasoning", text="hmm")
    assert drive(detector, [reasoning])[0] is reasoning
    step = wire("step-start")
    out = drive(detector, [text("jo@exa"), reasoning, step, text("Plain words."), wire("text-end", id="t1")])
    # the rejected step's held text and the chunk waiting in it are gone with it; the new step starts clean
    assert [label(part) for part in out][:1] == ["step-start:"]
    assert texts([label(part) for part in out]) == "Plain words."


def test_a_chunk_stashed_by_a_later_processor_passes_the_guard_at_once() -> None:
    """A chunk the guard let out, coming back because a processor after it stashed it, is not held again."""
    detector = PIIDetector(redaction_method="placeholder")
    reasoning = wire("reasoning-delta", id="t1-reasoning", text="hmm")
    state: dict[str, Any] = {}
    args = ProcessOutputStreamArgs(
        part=reasoning, stream_parts=[], message_list=MessageList(), processor_id=detector.id, state=state,
        request_context=RequestContext(),
    )  # fmt: skip
    assert detector.process_output_stream(args) is reasoning
    args.part = text("jo@exa")  # may still grow into an address: held whole
    assert detector.process_output_stream(args) is None
    args.part = reasoning  # back again, from a processor after this one
    assert detector.process_output_stream(args) is reasoning
    assert isinstance(reasoning, Chunk)


# ------------------------------------------------------------------------------------------------ the buffer itself
def emails(text: str) -> list[Match]:
    return [Match("email", m.start(), m.end(), m.group()) for m in re.finditer(r"\S+@\S+\.\w+", text)]


def test_a_stop_inside_a_candidate_moves_to_its_end_and_splits_the_segments_there() -> None:
    buffer = CarryOver(carry=0, batch=0)
    pieces = buffer.feed("Mail jo@x.io now. ", emails, final=True, stops=[3, 8, 17])
    assert [segment for segment, _found in pieces] == ["Mai", "l jo@x.io", " now.", " "]
    assert [found for _segment, found in pieces][1] == [Match("email", 2, 9, "jo@x.io")]
    assert buffer.emitted == 18
    # the positions count from the start of the step's text: the next stops are beyond what went out
    assert buffer.feed("And more", emails, final=True, stops=[20]) == [("An", []), ("d more", [])]
    assert buffer.emitted == 26


def test_a_stop_the_cut_has_not_reached_waits_and_text_before_it_goes() -> None:
    buffer = CarryOver(carry=4, batch=0)
    assert buffer.feed("abcdefgh", emails, stops=[6]) == [("abcd", [])]
    assert buffer.pending == "efgh"
    assert buffer.feed("ij", emails, stops=[6]) == [("ef", []), ("", [])]


def test_with_a_limit_a_stop_goes_out_at_the_first_cut_allowed_after_it() -> None:
    def sentences(full: str, offset: int, cut: int) -> int:
        ends = [m.end() for m in re.finditer(r"\. ", full) if offset <= m.end() <= cut]
        return ends[-1] if ends else offset

    buffer = CarryOver(carry=0, batch=0, limit=sentences)
    pieces = buffer.feed("One two. Three four. Five six. Seven", emails, final=True, stops=[2, 10, 23])
    assert [segment for segment, _found in pieces] == ["One two. ", "Three four. ", "Five six. ", "Seven"]


def test_held_text_past_max_hold_goes_out_and_a_stop_in_it_with_it() -> None:
    buffer = CarryOver(carry=2, max_hold=8, batch=0, hold=lambda text, offset: offset)  # holds everything
    assert buffer.feed("abcdefgh", emails, stops=[3]) == []
    assert buffer.feed("ij", emails, stops=[3]) == [("abc", []), ("defgh", [])]
    assert buffer.pending == "ij"


def test_a_new_step_counts_its_text_from_its_own_start() -> None:
    """A rejected step's text is forgotten: a chunk waiting in the next step's text goes out where that text has it."""
    detector = PIIDetector(redaction_method="placeholder")
    reasoning = wire("reasoning-delta", id="t1-reasoning", text="hmm")
    parts = [text("A long first answer, cut off"), wire("step-start"), text("Write to jo@exa"), reasoning,
             text("mple.com now"), wire("text-end", id="t1")]  # fmt: skip
    out = [label(part) for part in drive(detector, parts)]
    assert merged(out[out.index("step-start:") :]) == [
        "step-start:", "t:Write to [EMAIL]", "reasoning-delta:hmm", "t: now", "text-end:t1",
    ]  # fmt: skip


# ------------------------------------------------------------------------------------------------ the judged stream
def judged() -> tuple[PIIDetector, ScriptedModel]:
    judge = ScriptedModel([NO_PII], repeat=True)
    detector = PIIDetector(model=judge, detection_types=["email", "name"], redaction_method="placeholder",
                           carry_over=16)  # fmt: skip
    return detector, judge


async def drive_async(guard: Any, parts: list[AnyChunk]) -> list[AnyChunk]:
    """:func:`drive` for a guard whose stream hook awaits (a judge)."""
    state: dict[str, Any] = {}
    args = ProcessOutputStreamArgs(
        part=parts[0], stream_parts=[], message_list=MessageList(), processor_id=guard.id, state=state,
        request_context=RequestContext(),
    )  # fmt: skip
    out: list[AnyChunk] = []
    queue = list(parts)
    while queue:
        args.part = queue.pop(0)
        result = await guard.process_output_stream(args)
        if result is not None:
            out.append(result)
        if REPROCESS_KEY in state:
            queue.insert(0, state.pop(REPROCESS_KEY))
    return out


async def test_the_judged_stream_keeps_the_order_of_what_waits_and_judges_no_empty_text() -> None:
    detector, judge = judged()
    thought, other = wire("reasoning-delta", id="t1-reasoning", text="hmm"), wire("source", id="s1")
    parts = [
        text("Hello there. Write to jo@exa"),
        thought,
        other,
        text("mple.com today. "),
        text("And more words after it, many"),
        text(" of them. "),
        text("Bye now."),
        wire("text-end", id="t1"),
    ]
    out = await drive_async(detector, parts)
    assert merged([label(part) for part in out]) == [
        "t:Hello there. Write to [EMAIL] today. ",
        "reasoning-delta:hmm",
        "source:s1",
        "t:And more words after it, many of them. Bye now.",
        "text-end:t1",
    ]
    judged_texts = [request.messages[-1]["content"] for request in judge.requests]
    assert all(judged_texts), judged_texts
    assert "".join(judged_texts) == (
        "Hello there. Write to jo@example.com today. And more words after it, many of them. Bye now."
    )  # fmt: skip
    # the text goes out in the model's chunk shape (its block id and run id), not a made-up one
    assert {(part.payload.id, part.run_id) for part in out if part.type == "text-delta"} == {("t1", "r")}  # type: ignore[union-attr]


async def test_the_judged_stream_forgets_a_rejected_steps_text_and_what_waits_in_it() -> None:
    detector, _judge = judged()
    parts = [text("Write to jo@exa"), wire("reasoning-delta", id="t1-reasoning", text="hmm"), wire("step-start"),
             text("Plain words. "), wire("source", id="s1"), text("More."), wire("text-end", id="t1")]  # fmt: skip
    out = [label(part) for part in await drive_async(detector, parts)]
    assert merged(out) == ["step-start:", "t:Plain words. ", "source:s1", "t:More.", "text-end:t1"]


def test_the_text_goes_out_in_the_models_chunk_shape() -> None:
    thought = wire("reasoning-delta", id="t1-reasoning", text="hmm")
    parts = [text("Write to jo@exa"), text("mple.com now. Bye"), thought, text(" there"), wire("text-end", id="t1")]
    out = drive(PIIDetector(redaction_method="placeholder"), parts)
    assert {(part.payload.id, part.run_id) for part in out if part.type == "text-delta"} == {("t1", "r")}  # type: ignore[union-attr]


def test_a_stop_at_a_forced_cut_inside_a_candidate_waits_for_the_candidates_end() -> None:
    buffer = CarryOver(carry=2, max_hold=8, batch=0, hold=lambda text, offset: offset)
    assert buffer.feed("abcjo@x.io", emails, stops=[8]) == [("abcjo@x.", [])]  # held past max_hold: cut anyway
    # the candidate was cut by then (it began in text already out): the chunk follows that text
    assert buffer.flush(emails, stops=[8]) == [("", []), ("io", [])]


def test_a_stop_leaves_every_candidate_it_falls_in_whatever_their_order() -> None:
    """Candidates of different kinds overlap and come unsorted: a stop moved out of one may land in another."""

    def overlapping(text: str) -> list[Match]:
        return [Match("b", 4, 8, text[4:8]), Match("a", 1, 5, text[1:5])]

    buffer = CarryOver(carry=0, batch=0)
    pieces = buffer.feed("0123456789", overlapping, final=True, stops=[2])
    assert [segment for segment, _found in pieces] == ["01234567", "89"]


def test_with_every_cut_allowed_a_stop_goes_out_where_it_came() -> None:
    buffer = CarryOver(carry=0, batch=0, limit=lambda full, offset, cut: cut)
    assert buffer.feed("abcdefgh", emails, final=True, stops=[3, 4]) == [("abc", []), ("d", []), ("efgh", [])]


def test_a_stop_the_limit_moves_into_a_candidate_goes_out_after_the_candidate() -> None:
    """The limit allows a cut at 5 (and the end): the stop at 2 goes there, inside the candidate 4..8, so on to its
    end, and to the next cut the limit allows from there."""

    def one(text: str) -> list[Match]:
        return [Match("b", 4, 8, text[4:8])]

    buffer = CarryOver(carry=0, batch=0, limit=lambda full, offset, cut: 5 if cut >= 5 else offset)
    pieces = buffer.feed("0123456789", one, final=True, stops=[2])
    assert [segment for segment, _found in pieces] == ["0123456789", ""]
