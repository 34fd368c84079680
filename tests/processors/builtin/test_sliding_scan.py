"""SlidingScan finds exactly what ``find_all`` finds over each window of a growing text (issue 25).

The stream's window grows at its end and its front moves forward as text is let out; the scan keeps the matches of
runs that can no longer change. Random texts mix the labelled corpora's PII and secrets with glue made of the
characters that decide where a match begins and ends (digits, separators, ``@``, ``:``, accented and CJK letters),
and random windows are compared with ``find_all`` over the same window, for every preset and every kind.
"""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors.builtin.patterns import PATTERNS, expand_kinds, find_all, needle_characters, tail_test
from processors.builtin.sliding_scan import SlidingScan, scan_shape
from tests.processors.builtin.corpus import load

GLUE = "0123456789 -.+()@:/_abcxyzABKSZ#'\"=,;\nssnSSN xn--éдé银行卡\u00a0"
#: Short values whose edges the scan must get right: look-behinds reaching back ("SSN: " before nine digits), digit
#: runs that a cut or one more character changes, addresses and IPs next to each other.
EDGES = [
    "ssn 078051120",
    "SSN: 219099999",
    "ssn#123456789",
    "ssn #123 45 6789",
    "123-45-6789",
    "4111 1111 1111 1111",
    "4111-1111-1111-1111",
    "+1 415 555 2671",
    "(415) 555-2671",
    "020 7946 0018",
    "+442079460018",
    "192.168.0.1",
    "10.0.0.255.",
    "fe80::1",
    "::ffff:10.0.0.1",
    "a@b.co",
    "jo.smith@ex-ample.com",
    "DE89 3704 0044 0532 0130 00",
    "GB29NWBK60161331926819",
    "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
    "AKIAIOSFODNN7EXAMPLE",
    "Bearer abcdefghijklmnop0123",
    "password=hunter2hunter2",
    "https://example.com/a?b=c",
    "www.example.org",
]


@cache
def values() -> list[str]:
    """The corpora's labelled values (every kind), and a few of their whole texts."""
    found: list[str] = []
    for name in ("pii_corpus.jsonl", "pii_holdout.jsonl", "secrets_corpus.jsonl", "pii_multilingual_corpus.jsonl"):
        for case in load(name):
            found += [label["value"] for label in case.get("labels", [])]
            found.append(case["text"])
    return sorted(set(found))


def texts() -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(values()), st.sampled_from(EDGES), st.text(alphabet=GLUE, max_size=12))
    return st.lists(piece, min_size=1, max_size=14).map("".join)


KIND_SETS = [expand_kinds(["pii"]), expand_kinds(["secrets"]), expand_kinds(["urls"]), expand_kinds(None)]


def reference(window: str, kinds: tuple[str, ...], start: int, after: int) -> list[tuple[str, int, int, str]]:
    return [(m.kind, start + m.start, start + m.end, m.value) for m in find_all(window, kinds, overlapping=True)
            if m.start >= after]  # fmt: skip


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=texts(),
    kinds=st.sampled_from(KIND_SETS),
    steps=st.lists(
        st.tuples(st.integers(1, 12), st.integers(0, 12), st.one_of(st.integers(0, 8), st.integers(0, 60))),
        min_size=1,
        max_size=60,
    ),
)
def test_each_window_finds_what_find_all_finds(
    text: str, kinds: tuple[str, ...], steps: list[tuple[int, int, int]]
) -> None:
    scan = SlidingScan(kinds)
    start = first = end = 0
    for grow, let_out, context in steps:
        end = min(len(text), end + grow)
        first = min(end, first + let_out)  # the emission point: only ever forward
        start = max(start, first - context)  # the window's front: behind the emission point, only ever forward
        window = text[start:end]
        found = [(m.kind, m.start, m.end, m.value) for m in scan.find(window, start, first - start)]
        assert found == reference(window, kinds, start, first - start), (text, start, first, end)


@settings(max_examples=200, deadline=None)
@given(text=texts(), cuts=st.lists(st.integers(1, 9), min_size=1, max_size=60))
def test_the_stream_window_as_regex_filter_moves_it(text: str, cuts: list[int]) -> None:
    """The window RegexFilter asks about: 48 characters of context before the held text, the last 64 held."""
    assert_finds_as_regex_filter_moves_it(text, cuts)


def assert_finds_as_regex_filter_moves_it(text: str, cuts: list[int]) -> None:
    """Move the window over ``text`` as RegexFilter's stream does, ``cuts`` characters a chunk: the sliding scan
    finds in each window what ``find_all`` finds there."""
    kinds = expand_kinds(["pii"])
    scan = SlidingScan(kinds)
    first = end = 0
    for cut in cuts:
        end = min(len(text), end + cut)
        first = max(first, end - 64)
        start = max(0, first - 48)
        window = text[start:end]
        found = [(m.kind, m.start, m.end, m.value) for m in scan.find(window, start, first - start)]
        assert found == reference(window, kinds, start, first - start)


def test_the_alphabet_of_a_kind_holds_every_character_of_its_matches() -> None:
    """Read from the pattern: a corpus value's characters are all inside its kind's alphabet (no free point inside a
    match), and the look-arounds' reach is at least what the patterns are known to use."""
    for kind in PATTERNS:
        shape = scan_shape(kind)
        if shape.last_free is None:
            continue
        for value in values():
            for match in find_all(value, (kind,), overlapping=True):
                assert shape.last_free(value, match.start, match.end) is None, (kind, match.value)
    assert scan_shape("ssn").behind >= 6  # "ssn #" and the digit before the one tested
    assert scan_shape("phone").ahead >= 2  # (?!\.\d)


def test_a_kind_whose_alphabet_is_every_character_is_scanned_whole() -> None:
    """``private-key`` runs to the end of the text (``[\\s\\S]*\\Z``): no free point, so nothing is kept."""
    kinds = ("private-key",)
    text = "note -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY----- done"
    last_free = scan_shape("private-key").last_free
    assert last_free is None or last_free(text, 0, len(text)) is None
    scan = SlidingScan(kinds)
    for end in range(1, len(text) + 1):
        start = max(0, end - 40)
        window = text[start:end]
        found = [(m.kind, m.start, m.end, m.value) for m in scan.find(window, start, 0)]
        assert found == reference(window, kinds, start, 0)


SWEPT = [
    "Clone it with git@github.com:org/repo.git and run make.",
    "my ssn: 078-05-1120, SSN #219099999 and ssn 123456789; call +1 415 555 2671 or (415) 555-2671.",
    "card 4111 1111 1111 1111 4111-1111-1111-1111, iban DE89 3704 0044 0532 0130 00 at 192.168.0.1:8080",
    "v6 fe80::1 or ::ffff:10.0.0.1 from jo.smith@ex-ample.com,a@b.co;银行卡号是6222026825296100",
    "key sk-proj-abcdefghijklmnopqrstuvwxyz012345 AKIAIOSFODNN7EXAMPLE Bearer abcdefghijklmnop0123 see "
    "https://example.com/a?b=c password=hunter2hunter2",
]


def test_every_front_position_on_texts_with_every_kind() -> None:
    """Deterministic sweeps (the random windows above rarely cut a run at its first characters): the window's front
    passes every position of texts holding every kind, at several lags behind the emission point and chunk sizes."""
    for text in SWEPT:
        for kinds in KIND_SETS:
            for lag in (0, 1, 2, 3, 5, 8, 48):
                for step in (1, 2, 3, 7):
                    for hold in (0, 3, 10, 64):
                        scan = SlidingScan(kinds)
                        first = end = 0
                        while end < len(text):
                            end = min(len(text), end + step)
                            first = max(first, end - hold)
                            start = max(0, first - lag)
                            window = text[start:end]
                            found = [(m.kind, m.start, m.end, m.value) for m in scan.find(window, start, first - start)]
                            expected = reference(window, kinds, start, first - start)
                            assert found == expected, (text, kinds, lag, step, hold, start, first, end)


def test_every_match_holds_what_its_kinds_tail_test_looks_for() -> None:
    """A quiet kind is skipped because its matches hold its needles: true of every match in the corpora."""
    for kind in PATTERNS:
        test = tail_test(kind)
        if test is None:
            continue
        characters = needle_characters(kind)
        for value in values():
            for match in find_all(value, (kind,), overlapping=True):
                assert test(match.value, 0), (kind, match.value)
                assert not characters.isdisjoint(match.value), (kind, match.value)
