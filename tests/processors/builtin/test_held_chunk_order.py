"""``HoldBack``: where the chunks go that come while a stream guard holds text back (the guards' shared part).

The guards' own tests (``test_carryover_order.py``, ``test_regex_filter_interleaved.py``) stream whole replies; these
drive the hold-back by hand, a part at a time, as a guard's hook does.
"""

from __future__ import annotations

from typing import Any

from processors.builtin.held_chunk_order import ENDS_TEXT, REMEMBERED, HoldBack
from processors.chunks import AnyChunk, TextDeltaChunk, TextDeltaPayload, chunk_from_wire
from processors.pipeline.stream_chain import REPROCESS_KEY


def text(value: str) -> TextDeltaChunk:
    return TextDeltaChunk(run_id="r", payload=TextDeltaPayload(id="t1", text=value))


def reasoning(value: str = "hmm") -> AnyChunk:
    return chunk_from_wire({"type": "reasoning-delta", "runId": "r", "payload": {"id": "t1-r", "text": value}})


def end() -> AnyChunk:
    return chunk_from_wire({"type": "text-end", "runId": "r", "payload": {"id": "t1"}})


def test_the_chunks_that_end_the_text_run() -> None:
    ends = {cls.model_fields["type"].default for cls in ENDS_TEXT}
    assert ends == {"text-end", "step-finish", "finish", "error", "tripwire", "abort"}


def test_nothing_held_a_part_goes_out_as_it_came_and_is_remembered() -> None:
    hold, state = HoldBack.of({}), {}
    part = reasoning()
    assert hold.settle(state, part, holding=False, position=0) == (True, part)
    assert hold.released == [part]
    assert REPROCESS_KEY not in state


def test_of_keeps_one_hold_back_per_state() -> None:
    state: dict[str, Any] = {}
    hold = HoldBack.of(state)
    assert HoldBack.of(state) is hold
    assert state["hold"] is hold
    assert HoldBack.of(state, "other") is not hold
    state["hold"] = "something else"
    assert isinstance(HoldBack.of(state), HoldBack)


def test_behind_held_text_a_part_waits_in_its_place_and_a_text_end_asks_for_the_flush() -> None:
    hold, state = HoldBack(), {}
    part = reasoning()
    assert hold.settle(state, part, holding=True, position=7) == (True, None)
    assert hold.waiting == [(7, part)]
    assert hold.settle(state, end(), holding=True, position=7) == (False, None)
    assert hold.waiting == [(7, part)]


def test_parts_ready_at_once_go_one_per_call_the_next_chunk_stashed_to_call_again() -> None:
    hold, state = HoldBack(), {}
    first, thought, second, closing = text("a"), reasoning(), text("b"), end()
    assert hold.send(state, [first, thought, second, closing]) is first
    assert state.pop(REPROCESS_KEY) is thought
    assert hold.pending == [thought]
    # the stashed chunk comes back: it goes out, and the next chunk is stashed
    assert hold.settle(state, thought, holding=False, position=2) == (True, thought)
    assert hold.pending == [closing]
    assert state.pop(REPROCESS_KEY) is closing
    # the end comes back: the text waiting before it goes out, and the end is stashed again to follow
    assert hold.settle(state, closing, holding=False, position=2) == (True, second)
    assert state.pop(REPROCESS_KEY) is closing
    assert hold.settle(state, closing, holding=False, position=2) == (True, closing)
    assert REPROCESS_KEY not in state
    assert hold.queue == []
    assert hold.pending == []
    assert hold.released == [thought, closing]


def test_the_queue_goes_out_in_its_order_whatever_part_the_guard_was_called_with() -> None:
    hold, state = HoldBack(), {}
    thought = reasoning()
    hold.send(state, [text("a"), thought, text("b")])
    assert state.pop(REPROCESS_KEY) is thought
    assert hold.send(state, [text("c")]) is thought
    assert REPROCESS_KEY not in state  # nothing else waits that is not text
    assert [part.payload.text for part in hold.queue] == ["b", "c"]  # type: ignore[union-attr]


def test_a_queued_chunk_still_on_its_way_back_is_not_stashed_again() -> None:
    hold, state = HoldBack(), {}
    thought = reasoning()
    hold.send(state, [text("a"), text("b"), thought])
    assert state.pop(REPROCESS_KEY) is thought
    assert hold.send(state, []).payload.text == "b"  # type: ignore[union-attr]
    assert REPROCESS_KEY not in state
    assert hold.pending == [thought]


def test_with_parts_queued_a_new_part_goes_behind_them() -> None:
    hold, state = HoldBack(), {}
    thought, later = reasoning("one"), reasoning("two")
    hold.send(state, [text("a"), thought])
    state.pop(REPROCESS_KEY)
    assert hold.settle(state, later, holding=False, position=1) == (True, thought)
    assert hold.queue == [later]
    assert state[REPROCESS_KEY] is later


def test_nothing_to_send_and_nothing_queued_is_none() -> None:
    hold, state = HoldBack(), {}
    assert hold.send(state, []) is None
    assert hold.release(state) is None


def test_a_chunk_let_out_and_stashed_by_a_later_processor_passes_at_once_even_behind_held_text() -> None:
    hold, state = HoldBack(), {}
    part = reasoning()
    hold.settle(state, part, holding=False, position=0)
    assert hold.settle(state, part, holding=True, position=5) == (True, part)
    assert hold.waiting == []


def test_only_the_last_chunks_let_out_are_remembered() -> None:
    hold, state = HoldBack(), {}
    parts = [reasoning(str(n)) for n in range(REMEMBERED + 1)]
    for part in parts:
        hold.settle(state, part, holding=False, position=0)
    assert len(hold.released) == REMEMBERED
    assert hold.settle(state, parts[-1], holding=True, position=3) == (True, parts[-1])
    assert hold.settle(state, parts[0], holding=True, position=3) == (True, None)  # forgotten: it waits
    assert hold.waiting == [(3, parts[0])]


def test_a_text_delta_let_out_is_not_remembered() -> None:
    hold, state = HoldBack(), {}
    hold.send(state, [text("a")])
    hold.send(state, [text("b"), text("c")])
    assert hold.release(state).payload.text == "c"  # type: ignore[union-attr]
    assert hold.released == []


def test_reset_forgets_everything() -> None:
    hold, state = HoldBack(), {}
    hold.settle(state, reasoning(), holding=False, position=0)
    hold.settle(state, reasoning(), holding=True, position=3)
    hold.send(state, [text("a"), reasoning(), text("b")])
    hold.reset()
    assert (hold.waiting, hold.queue, hold.pending, hold.released) == ([], [], [], [])
