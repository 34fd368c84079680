"""``CarryOver.waits``, the stream hook's hot path, takes a chunk exactly as ``feed`` would (issue 25).

A chunk that only waits for the next scan is taken without the scan's stops and call layers; it must leave the buffer
as ``feed`` leaves it, and say False (taking nothing) whenever ``feed`` would scan. Two real buffers are driven over
the same random deltas, one through ``waits`` then ``feed``, the other through ``feed`` alone, with PIIDetector's
finder and hold: the same pieces, the same held text, the same next scan, every chunk.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from processors.builtin.pii_detector import PIIDetector
from processors.builtin.split_across_chunks import CarryOver
from processors.chunks import TextDeltaChunk, TextDeltaPayload

DETECTOR = PIIDetector()
WORDS = ["Mail ", "jo@exa", "mple.com", " or call ", "+1 415", "-555-0132", " card 4111 1111", " 1111 1111", ". ", "x"]


def delta(text: str) -> TextDeltaChunk:
    return TextDeltaChunk(payload=TextDeltaPayload(id="t", text=text))


@settings(max_examples=200, deadline=None)
@given(
    pieces=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=20)), max_size=40),
    carry=st.sampled_from([0, 8, 40]),
    batch=st.sampled_from([1, 16]),
)
def test_a_waiting_chunk_leaves_the_buffer_as_feed_leaves_it(pieces: list[str], carry: int, batch: int) -> None:
    fast = CarryOver(carry=carry, batch=batch, hold=DETECTOR._hold)
    plain = CarryOver(carry=carry, batch=batch, hold=DETECTOR._hold)

    def find(buffer: CarryOver) -> object:
        return lambda text: DETECTOR._find_after(text, len(buffer.context))

    for text in pieces:
        part = delta(text)
        expected = plain.feed(text, find(plain))  # type: ignore[arg-type]
        plain.template = part
        if fast.waits(part):
            got = []
        else:
            fast.template = part
            got = fast.feed(text, find(fast))  # type: ignore[arg-type]
        assert got == expected
        assert (fast.pending, fast.context, fast.next_scan, fast.emitted) == (
            plain.pending,
            plain.context,
            plain.next_scan,
            plain.emitted,
        )
        assert fast.template is part


def test_it_takes_nothing_while_a_part_is_ready_to_go_out() -> None:
    buffer = CarryOver(carry=0)
    buffer.parts.queue.append(delta("ready"))
    assert not buffer.waits(delta("more"))
    assert buffer.pending == ""
