"""RegexFilter: when a chunk waiting behind held-back text leaves, and what a text run's end leaves behind (issue 16).

A chunk that does not end the text run (reasoning, a ``data-*`` chunk, a tool call) waits behind the held-back text
in its place (:mod:`processors.builtin.held_chunk_order`). These tests pin *when* it leaves: as soon as the text the
model sent before it has left the window, not when the text run ends (the chat shows the reasoning while the answer
still streams), with the text before it and never before that text. They also pin what a chunk ending the text run
in the middle of a step (a replayed ``text-end``) leaves for the text after it: the step's text is one text part, so
a look-behind there sees the text before, and a report counts its index from the start of the step's text.

``by_call`` drives the guard by hand as the runtime does (a stashed part re-driven right after the part that
stashed it) and records what left the guard for each part given.
"""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, RequestContext
from processors.builtin.regex_filter import RegexFilter
from processors.chunks import AnyChunk, chunk_from_wire
from processors.messages.message_list import MessageList
from processors.pipeline.processor import ProcessOutputStreamArgs
from processors.pipeline.stream_chain import REPROCESS_KEY
from tests.processors.builtin.test_regex_filter import Recording
from tests.processors.helpers import Interleaving, deltas, label, run_stream
from tests.processors.helpers import text_delta as text


def wire(kind: str, **payload: Any) -> AnyChunk:
    return chunk_from_wire({"type": kind, "runId": "r", "from": "AGENT", "payload": payload})


def thought(name: str) -> AnyChunk:
    return wire("reasoning-delta", id="t1-reasoning", text=name)


END = wire("text-end", id="t1")


def by_call(guard: RegexFilter, parts: list[AnyChunk]) -> list[list[str]]:
    """For each part given to the guard's stream hook, the labels of what left the guard before the next one came
    (parts the guard stashed are re-driven at once, as the runtime does, and count with the part that stashed them)."""
    state: dict[str, Any] = {}
    args = ProcessOutputStreamArgs(
        part=parts[0], stream_parts=[], message_list=MessageList(), processor_id=guard.id, state=state,
        request_context=RequestContext(),
    )  # fmt: skip
    out: list[list[str]] = []
    for part in parts:
        left: list[str] = []
        queue = [part]
        while queue:
            args.part = queue.pop(0)
            result = RegexFilter.process_output_stream(guard, args)  # as the worker thread runs it, one call at a time
            if result is not None:
                left.append(label(result))
            if REPROCESS_KEY in state:
                queue.insert(0, state.pop(REPROCESS_KEY))
        out.append(left)
    return out


def rule(pattern: str, replacement: str = "#", carry: int = 4) -> RegexFilter:
    spec = {"name": "r", "pattern": pattern, "replacement": replacement}
    return RegexFilter(rules=[spec], strategy="redact", phase="output", stream_carryover_size=carry)


# ------------------------------------------------------------------------------------------------ when a chunk leaves
@pytest.mark.parametrize(
    "after",
    [pytest.param("cdefgh", id="text well past it"), pytest.param("cdef", id="text just enough to let it go")],
)
def test_reasoning_leaves_with_the_text_before_it_once_that_text_is_out_of_the_window(after: str) -> None:
    """Carry 4: once four characters follow the two before the reasoning, those two leave, then the reasoning; the
    rest waits for the end of the text."""
    out = by_call(rule("never-said"), [text("ab"), thought("r0"), text(after), END])
    assert out == [[], [], ["t:ab", "reasoning-delta:r0"], [f"t:{after}", "text-end:t1"]]


def test_reasoning_behind_text_already_partly_let_out_leaves_at_its_place() -> None:
    """Four characters left with the first delta; the two reasonings came after all eight, so they leave after the
    other four, together, once four more characters follow."""
    parts = [text("abcdefgh"), thought("r0"), thought("r1"), text("ijklmn"), END]
    assert by_call(rule("never-said"), parts) == [
        ["t:abcd"], [], [], ["t:efgh", "reasoning-delta:r0", "reasoning-delta:r1"], ["t:ijklmn", "text-end:t1"],
    ]  # fmt: skip


def test_of_chunks_waiting_at_two_places_only_those_whose_text_has_left_go() -> None:
    """r0 and r1 came after "ab", r2 after "abcd": when "ab" may leave, r0 and r1 follow it; r2 waits for "cd"."""
    parts = [text("ab"), thought("r0"), thought("r1"), text("cd"), thought("r2"), text("efghij"), END]
    assert by_call(rule("never-said"), parts) == [
        [], [], [], [], [],
        ["t:ab", "reasoning-delta:r0", "reasoning-delta:r1"],
        ["t:cd", "reasoning-delta:r2", "t:efghij", "text-end:t1"],
    ]  # fmt: skip


def test_a_chunk_that_came_later_waits_though_the_one_before_it_may_go() -> None:
    parts = [text("ab"), thought("r0"), text("cd"), thought("r1"), text("efghij"), END]
    assert by_call(rule("never-said"), parts) == [
        [], [], [], [], ["t:ab", "reasoning-delta:r0"], ["t:cd", "reasoning-delta:r1", "t:efghij", "text-end:t1"],
    ]  # fmt: skip


def test_at_the_end_of_the_text_a_chunk_waiting_behind_text_partly_let_out_goes_out_in_its_place() -> None:
    parts = [text("abcdefgh"), thought("r0"), text("ij"), END]
    assert by_call(rule("never-said"), parts) == [
        ["t:abcd"], [], [], ["t:efgh", "reasoning-delta:r0", "t:ij", "text-end:t1"],
    ]  # fmt: skip


# ------------------------------------------------------------------------------------------------ a match removed
def test_a_match_removed_whole_lets_nothing_out_and_the_text_after_it_streams() -> None:
    """A replacement of nothing: the removed match leaves no empty chunk, and the text after it is not doubled."""
    out = by_call(rule("XYZ", ""), [text("XYZ"), text(" abcdef"), END])
    assert out == [[], [], ["t: abcdef", "text-end:t1"]]


def test_reasoning_right_after_a_removed_match_still_leaves_in_its_place() -> None:
    out = by_call(rule("XYZ", ""), [text("XYZ"), thought("r0"), text(" abcdef"), END])
    assert out == [[], [], ["reasoning-delta:r0"], ["t: abcdef", "text-end:t1"]]


# ------------------------------------------------------------------------------------------------ after a text-end
async def stream(guard: RegexFilter, pieces: list[Any]) -> tuple[str, Any]:
    """Stream ``pieces`` (see :class:`~tests.processors.helpers.Interleaving`) through ``guard``: the text that left
    it, and the result."""
    chunks, result = await run_stream(Agent(id="a", model=Interleaving(pieces), output_processors=[guard]))
    assert result.tripwire is None
    return "".join(deltas(chunks)), result


@pytest.mark.parametrize(
    ("pattern", "pieces", "expected"),
    [
        pytest.param(r"(?<=Your pin )\d{4}", ["Your pin ", END, "1234 works."], "Your pin [PIN] works.",
                     id="a look-behind reaches the text before the text-end"),
        pytest.param(r"(?<!\w\w)\d{3}", ["a", END, "123 ok"], "a[PIN] ok",
                     id="a look-behind reaches the start of the step's text"),
    ],
)  # fmt: skip
async def test_after_a_text_end_in_the_step_a_look_behind_sees_the_text_before_it(
    pattern: str, pieces: list[Any], expected: str
) -> None:
    """A text-end in the middle of a step (a replayed answer's) does not start a new text part: the step's text is one
    part, so the stream must redact what the final check of that part redacts."""
    shown, result = await stream(rule(pattern, "[PIN]"), pieces)
    assert shown == result.text == expected


async def test_a_redaction_after_a_text_end_in_the_step_is_indexed_in_the_steps_text() -> None:
    guard = Recording(rules=[{"name": "pin", "pattern": r"\d{4}", "replacement": "#"}], strategy="redact",
                      phase="output", stream_carryover_size=4)  # fmt: skip
    shown, result = await stream(guard, ["abc", END, "x 1234"])
    assert shown == result.text == "abcx #"
    reports = [v.detail for v in guard.violations if v.detail["phase"] == "processOutputStream"]
    assert reports == [
        {"strategy": "redact", "phase": "processOutputStream",
         "redactions": [{"rule": "pin", "index": 5, "length": 4, "replacement": "#"}]},
    ]  # fmt: skip
