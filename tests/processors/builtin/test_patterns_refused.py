"""A refused candidate hides no value, whole or streamed, and finds none in a list of numbers (#25).

A candidate that fails validation used to be skipped whole, so the values inside it leaked: the phone pattern ran on
from ``+1 415 555 2671`` into the card after it, the card pattern began at the country code's ``1``. The scans now look
inside a refused candidate (``patterns.scan_validated``, PIIDetector's ``_phone_pieces``); these tests hold both guards
to it on texts of values and benign numbers (dates, order numbers, lists, versions) run together with every separator,
compare the stream with the whole text for random chunkings, and the stream scans with ``find_all`` / ``candidates``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors.builtin.patterns import expand_kinds, scan_validated
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.pii_patterns import REGEX_TYPES, candidates, kinds_for, stream_finder
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.sliding_scan import SlidingScan
from tests.processors.builtin.test_adjoining_stream import chunked, streamed, whole
from tests.processors.builtin.test_sliding_scan import assert_finds_as_regex_filter_moves_it, reference

#: Values a run of numbers may hold (invented numbers: the usual test card numbers, fictional phone ranges).
VALUES = [
    "+1 415 555 2671",
    "+1 (415) 555-2671",
    "+33 1 42 68 53 00",
    "+86 138 1234 5678",
    "+44 20 7946 0018",
    "+49 30 1234 5678",
    "020 7946 0018",
    "(415) 555-2671",
    "4111 1111 1111 1111",
    "5500 0000 0000 0004",
    "4111-1111-1111-1111",
    "3782 822463 10005",
]
#: Numbers that are no value and may stand next to one.
BENIGN = [
    "2023-12-07",
    "10:15:00",
    "order 12345678",
    "1234",
    "4000 4001 4002",
    "1.2.3",
    "978-3-16-148410-0",
    "1 200 000",
    "0001 0002",
    "v2.1.0",
]
SEPARATORS = [" ", "_", ".", "-", "", " and ", "\n", ", "]

GUARDS = {
    "PIIDetector": PIIDetector(redaction_method="placeholder"),
    "RegexFilter": RegexFilter(presets=["pii"], strategy="redact"),
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x +1 415 555 2671 4111 1111 1111 1111", "x [PHONE] [CREDIT_CARD]"),
        ("4111 1111 1111 1111 +1 415 555 2671", "[CREDIT_CARD] [PHONE]"),
        ("+44 20 7946 0018 4111 1111 1111 1111", "[PHONE] [CREDIT_CARD]"),
        ("+49 30 1234 5678 4111 1111 1111 1111", "[PHONE] [CREDIT_CARD]"),
        ("+1 (415) 555-2671 5500 0000 0000 0004", "[PHONE] [CREDIT_CARD]"),
        ("5500 0000 0000 0004 020 7946 0018", "[CREDIT_CARD] [PHONE]"),
        ("+1 415 555 2671_4111 1111 1111 1111", "[PHONE]_[CREDIT_CARD]"),
        ("on 2023-12-07 call +1 415 555 2671 4111 1111 1111 1111", "on 2023-12-07 call [PHONE] [CREDIT_CARD]"),
        ("order 12345678 +1 415 555 2671 4111 1111 1111 1111", "order 12345678 [PHONE] [CREDIT_CARD]"),
    ],
)
@pytest.mark.parametrize("guard", list(GUARDS))
def test_values_run_together_are_each_redacted(text: str, expected: str, guard: str) -> None:
    assert whole(GUARDS[guard], text) == expected
    assert streamed(GUARDS[guard], [f"{'word ' * 30}{text}"[i : i + 7] for i in range(0, 150 + len(text), 7)]) == (
        "word " * 30 + expected
    )


@pytest.mark.parametrize(
    "text",
    [
        "order 1234 5678 9012 3456 7890 1234 shipped",
        "1234 5678 9012 3456 7890 1234",
        "ids 4000 4001 4002 4003 4004 4005 4006 4007 4008",
        "ISBN 978-3-16-148410-0 and 978 0 306 40615 7",
        "amounts 1 200 000 3 400 000 5 600 000",
        "build 20231207_1234567890_0001",
        "file_4155552671.log",
        "order_4111111111111111",
        "tracking 9400 1000 0000 0000 0000 00",
        "log 0001 0002 0003 0004 0005 0006 0007 0008 0009 0010",
        "2024 2025 2026 2027 2028 2029 2030",
        "45 67 89 12 34 56 78 90 12 34",
    ],
)
@pytest.mark.parametrize("guard", list(GUARDS))
def test_a_list_of_numbers_holds_no_value(text: str, guard: str) -> None:
    """No new false positive: looking inside a refused candidate finds no Luhn-valid window in the middle of a list
    (``4003 4004 4005 4006`` is one, and ends no run) and no phone number beside bare groups."""
    assert whole(GUARDS[guard], text) == text


def test_a_long_run_of_digit_groups_is_scanned_once_per_group() -> None:
    """Looking inside costs one search per group: 10,000 digits in groups of four give at most one candidate per
    group (the chain never goes back before a candidate's start), whatever the validators say."""
    run = " ".join(f"{n:04d}" for n in range(4000, 6500))
    found: list[object] = []
    scan_validated("credit-card", run, 0, found)  # type: ignore[arg-type]
    scan_validated("phone", run, 0, found)  # type: ignore[arg-type]
    assert len(found) <= 2 * 2500


def runs() -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(VALUES), st.sampled_from(BENIGN), st.from_regex(r"\d{1,5}", fullmatch=True))
    pair = st.tuples(piece, st.sampled_from(SEPARATORS)).map("".join)
    return st.lists(pair, min_size=1, max_size=6).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=runs(), prose=st.booleans(), data=st.data(), guard=st.sampled_from(list(GUARDS)))
def test_runs_of_numbers_stream_out_as_the_whole_text(text: str, prose: bool, data: st.DataObject, guard: str) -> None:
    text = ("Some words first, long enough to be let out before the numbers come. " * 2 if prose else "") + text
    chosen = GUARDS[guard]
    assert streamed(chosen, data.draw(chunked(text))) == whole(chosen, text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=runs(), cuts=st.lists(st.integers(1, 9), min_size=1, max_size=40))
def test_the_sliding_scan_finds_what_find_all_finds_in_runs(text: str, cuts: list[int]) -> None:
    assert_finds_as_regex_filter_moves_it(text, cuts)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=runs())
def test_the_pii_stream_finder_finds_what_candidates_find_in_runs(text: str) -> None:
    shared, extra = kinds_for(REGEX_TYPES)
    find = stream_finder(shared, extra)
    text = f"Note: {text} ok"
    every = candidates(text, shared, extra)
    for offset in range(len(text) + 1):
        expected = sorted((m for m in every if m.start >= offset), key=repr)
        assert sorted(find(text, offset), key=repr) == expected, (text, offset)


@pytest.mark.parametrize("step", [1, 2, 3, 4, 5])
def test_a_match_found_inside_waits_for_what_follows_it(step: int) -> None:
    """The card after a run-on phone number is a match only while no group follows it (``….1111.5``): the sliding
    scan keeps it only once the three characters that say so have come (``patterns.GROUP_AFTER_WIDTH``; with the
    card pattern's own one-character look-ahead it was kept at the ``.`` and reported after the ``5`` came)."""
    kinds = expand_kinds(["pii"])
    text = "x +1 415 555 2671 4111 1111 1111 1111.5 ok"
    scan = SlidingScan(kinds)
    end = 0
    while end < len(text):
        end = min(len(text), end + step)
        window = text[:end]
        assert [(m.kind, m.start, m.end, m.value) for m in scan.find(window, 0, 0)] == reference(window, kinds, 0, 0)
