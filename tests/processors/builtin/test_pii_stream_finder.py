"""PIIDetector's planned stream scan finds exactly what ``candidates_after`` finds, in the same order (issue 25).

``stream_finder`` is a speed change only: the needle tests of every kind made in one pass, each pattern started at
the last free point before the held text (``sliding_scan.scan_start``) instead of the context's start. Random texts
mix the labelled corpora's values with glue made of the characters that decide where a match begins and ends, and
every offset of each is compared with ``candidates_after`` (the plain reference) and with the whole text's
``candidates`` cut at the offset (what the stream must keep of a scan), for the default detector's kinds and for
random selections of detection types.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors.builtin.patterns import PATTERNS, find_all
from processors.builtin.pii_patterns import (
    _EMAIL,
    _EXTRA_SECRETS,
    _IDS,
    _PHONE_DIGITS,
    _SSN_WORDS,
    REGEX_TYPES,
    candidates,
    candidates_after,
    kinds_for,
    stream_finder,
)
from processors.builtin.sliding_scan import pattern_shape, scan_shape, scan_start
from tests.processors.builtin.test_sliding_scan import EDGES, GLUE, values

#: Glue that wakes the detector's own kinds: the secret-variable names and separators, mailgun keys, "SSN is".
OWN_GLUE = GLUE + "KEY=SECRET_TOKEN:PWD key-0123456789abcdef SSN is social security number (A) X"
OWN_EDGES = [
    "DB_PASSWORD=Zx9vQ2mLp8RtY4wK",
    'API_KEY: "a1B2c3D4e5F6g7H8i9"',
    "key-0123456789abcdef0123456789abcdef",
    "SSN is 219099999",
    "social security number: 078051120",
    "110101199003074258",
    "A123456789",
    "A123456(3)",
    "+86 138 0013 8000",
    "0912 345 678",
    "git@github.com:org/repo.git",
    "logo@2x.png",
    "serial no. 4111 1111 1111 1111",
    "firmware 10.0.0.1",
    "我的邮箱是liuyang171@qq.com",
]


def texts() -> st.SearchStrategy[str]:
    piece = st.one_of(
        st.sampled_from(values()),
        st.sampled_from(EDGES + OWN_EDGES),
        st.text(alphabet=OWN_GLUE, max_size=12),
    )
    return st.lists(piece, min_size=1, max_size=12).map("".join)


SELECTIONS = [kinds_for(REGEX_TYPES), kinds_for(["api-key"]), kinds_for(["phone", "ssn"]), kinds_for(["email"])]
selections = st.one_of(
    st.sampled_from(SELECTIONS),
    st.lists(st.sampled_from(REGEX_TYPES), min_size=1, max_size=6, unique=True).map(kinds_for),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts(), selection=selections, data=st.data())
def test_the_planned_scan_finds_what_candidates_after_finds(
    text: str, selection: tuple[tuple[str, ...], frozenset[str]], data: st.DataObject
) -> None:
    shared, extra = selection
    find = stream_finder(shared, extra)
    offsets = {0, len(text), *data.draw(st.lists(st.integers(0, len(text)), max_size=12))}
    for offset in sorted(offsets):
        assert find(text, offset) == candidates_after(text, offset, shared, extra), (text, offset)


def test_every_offset_of_the_corpora_values_against_the_whole_text() -> None:
    """Deterministic sweep: each corpus value and edge behind a little context, at every offset, against the whole
    text's candidates cut at the offset (the stream's own guarantee)."""
    shared, extra = kinds_for(REGEX_TYPES)
    find = stream_finder(shared, extra)
    for value in [*values()[:400], *EDGES, *OWN_EDGES]:
        text = f"Note: {value} and (call) {value[:9]}"
        whole = candidates(text, shared, extra)
        for offset in range(len(text) + 1):
            expected = sorted((m for m in whole if m.start >= offset), key=repr)
            assert sorted(find(text, offset), key=repr) == expected, (text, offset)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts(), data=st.data())
def test_a_scan_from_the_free_point_finds_what_a_scan_from_the_start_finds_after_it(
    text: str, data: st.DataObject
) -> None:
    """``scan_start``: no match crosses the point, so ``finditer`` from it finds the whole scan's matches after it, for
    the shared table's patterns and the detector's own."""
    offset = data.draw(st.integers(0, len(text)))
    own: list[re.Pattern[str]] = [_EMAIL, _SSN_WORDS, *_IDS.values(), *_EXTRA_SECRETS.values()]
    for pattern, shape in [*((PATTERNS[k], scan_shape(k)) for k in PATTERNS), *((p, pattern_shape(p)) for p in own)]:
        point = scan_start(shape, text, offset)
        assert 0 <= point <= offset
        whole = [hit.span() for hit in pattern.finditer(text) if hit.end() > point]
        assert all(start >= point for start, _end in whole), (pattern.pattern[:40], text, offset)
        assert [hit.span() for hit in pattern.finditer(text, point)] == whole, (pattern.pattern[:40], text, offset)


def test_the_digit_run_the_plan_tests_is_the_shared_tables() -> None:
    """The plan asks ``_PHONE_DIGITS`` for the digit-run group of every kind: it must be the table's own test."""
    from processors.builtin import patterns

    assert patterns._LONG_DIGIT_RUN.__self__.pattern == _PHONE_DIGITS.pattern  # type: ignore[attr-defined]
    assert patterns._LONG_DIGIT_RUN.__self__.flags == _PHONE_DIGITS.flags  # type: ignore[attr-defined]
    assert find_all("4111 1111 1111 1111", ("credit-card",))


def test_every_match_of_a_long_run_kind_holds_the_run() -> None:
    """The plan skips the needles of ``_LONG_RUN_KINDS`` when the held text has no run of 14 token characters: every
    match of theirs must hold one (the corpora's values, and the edges, scanned whole)."""
    from processors.builtin.pii_patterns import _LONG_RUN, _LONG_RUN_KINDS

    shared, extra = kinds_for(REGEX_TYPES)
    seen = set()
    for text in [*values(), *EDGES, *OWN_EDGES]:
        for match in candidates(text, shared, extra):
            if match.kind in _LONG_RUN_KINDS:
                seen.add(match.kind)
                assert _LONG_RUN(match.value) is not None, match
    assert {"openai-key", "github-token", "uuid", "mailgun-key", "aws-secret-key"} <= seen
