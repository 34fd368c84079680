"""The hold-back buffer at its exact boundaries (the survivors of the 2026-12-07 mutation run of
``split_across_chunks.py``, tests/README.md).

A chunk that came exactly where a candidate begins goes out before it: none of the candidate's text came before
the chunk, so nothing needs to pass it. And the per-chunk hot path (:meth:`CarryOver.waits`) keeps a delta only
while nothing of it could go out: the pending text fits in the carry, or the next scan is not due yet.
"""

from __future__ import annotations

import re

from processors.builtin.patterns import Match
from processors.builtin.split_across_chunks import CarryOver
from tests.processors.helpers import text_delta as text


def emails(full: str) -> list[Match]:
    return [Match("email", m.start(), m.end(), m.group()) for m in re.finditer(r"\S+@\S+\.\w+", full)]


def test_a_stop_where_a_candidate_begins_goes_out_before_the_candidate() -> None:
    buffer = CarryOver(carry=0, batch=0)
    pieces = buffer.feed("Mail jo@x.io now. ", emails, final=True, stops=[5])
    assert [segment for segment, _found in pieces] == ["Mail ", "jo@x.io now. "]
    assert pieces[1][1] == [Match("email", 0, 7, "jo@x.io")]
    # one character into the candidate, the stop moves to its end (the address goes out whole, before the chunk)
    inside = CarryOver(carry=0, batch=0).feed("Mail jo@x.io now. ", emails, final=True, stops=[6])
    assert [segment for segment, _found in inside] == ["Mail jo@x.io", " now. "]


def test_text_that_fits_in_the_carry_only_waits_and_one_character_more_is_scanned() -> None:
    buffer = CarryOver(carry=4, batch=0)
    assert buffer.waits(text("abcd"))  # the carry holds 4 characters back: none of these could go out
    assert buffer.pending == "abcd"
    assert not buffer.waits(text("e"))  # 5 waiting: the first could go out, so stream_part scans
    assert buffer.pending == "abcd"  # not taken: the scan takes it


def test_past_the_carry_a_delta_waits_until_the_next_scan_is_due() -> None:
    buffer = CarryOver(carry=2, batch=8)
    assert [segment for segment, _found in buffer.feed("abcdef", emails)] == ["abcd"]
    assert (buffer.pending, buffer.next_scan) == ("ef", 10)
    assert buffer.waits(text("gh"))  # 4 waiting, more than the carry, but the next scan is at 10
    assert buffer.pending == "efgh"
    assert not buffer.waits(text("ijklmn"))  # 10 waiting: the scan is due
