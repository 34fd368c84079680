"""Values inside the punctuation a real text puts around them are found by both guards, whole and streamed (#25).

``mail 'jo@example.com' now`` leaked: the e-mail patterns refused an address after an apostrophe (so that
``o'brien@example.com`` is not cut to ``brien@example.com``), and a quoting apostrophe is one too. An apostrophe
before an address now ends nothing unless a local part's character stands before it.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors.builtin.patterns import find_all
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from tests.processors.builtin.test_adjoining_stream import chunked, streamed

ADDRESS = "jo@example.com"
#: (before, after): what a text puts around an address
NEIGHBOURS = [
    ("mail '", "' now"),
    ("mail \u2018", "\u2019 now"),
    ('mail "', '" now'),
    ("(", ")"),
    ("<", ">"),
    ("[", "]"),
    ("「", "」"),
    ("（", "）"),
    ("write to ", "."),
    ("write to ", ", then"),
    ("邮箱", "，谢谢"),
    ("邮箱：", "。"),
    ("邮箱：", "："),
    ("mailto:", "?subject=hi"),
    ("x='", "';"),
]


def _guards() -> dict[str, object]:
    return {
        "PIIDetector": PIIDetector(redaction_method="placeholder"),
        "RegexFilter": RegexFilter(presets=["pii"], strategy="redact"),
    }


def _whole(guard: object, text: str) -> str:
    if isinstance(guard, RegexFilter):
        return guard.redact_text(text)
    assert isinstance(guard, PIIDetector)
    return str(guard.redact(text, guard.detect_offline(text)))


@pytest.mark.parametrize(("before", "after"), NEIGHBOURS)
def test_an_address_between_neighbours_is_found(before: str, after: str) -> None:
    text = before + ADDRESS + after

    assert [(m.kind, m.value) for m in find_all(text, ("pii",))] == [("email", ADDRESS)]
    for name, guard in _guards().items():
        assert _whole(guard, text) == before + "[EMAIL]" + after, name
        assert streamed(guard, list(text)) == before + "[EMAIL]" + after, name


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("o'brien@example.com", "o'brien@example.com"),
        ("write to o'brien@example.com.", "o'brien@example.com"),
        ("(d'arcy@example.org)", "d'arcy@example.org"),
    ],
)
def test_an_apostrophe_inside_a_local_part_stays_part_of_the_address(text: str, address: str) -> None:
    assert [m.value for m in find_all(text, ("pii",))] == [address]
    for name, guard in _guards().items():
        assert _whole(guard, text) == text.replace(address, "[EMAIL]"), name


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    neighbours=st.sampled_from(NEIGHBOURS),
    local=st.from_regex(r"[a-z][a-z0-9._]{0,10}[a-z0-9]", fullmatch=True).filter(lambda s: ".." not in s),
    domain=st.sampled_from(["example.com", "mail.example.org", "qq.com", "почта.рф"]),
    data=st.data(),
    guard=st.sampled_from(["PIIDetector", "RegexFilter"]),
)
def test_any_address_between_neighbours_streams_out_redacted(
    neighbours: tuple[str, str], local: str, domain: str, data: st.DataObject, guard: str
) -> None:
    before, after = neighbours
    text = f"{before}{local}@{domain}{after}"
    deltas = data.draw(chunked(text))
    chosen = _guards()[guard]

    assert _whole(chosen, text) == before + "[EMAIL]" + after
    assert streamed(chosen, deltas) == before + "[EMAIL]" + after


#: A candidate that fails validation hid the values after it inside the candidate (#25, fixed): ``+1 415 555 2671 4111
#: 1111 1111 1111``: the phone pattern runs on into the card (19 digits, refused), the card pattern starts at the
#: country code's ``1`` (refused) and ends where the card's last groups can no longer make a card. Every scan now looks
#: again inside a refused candidate (``patterns.scan_validated``, PIIDetector's ``_phone_pieces``), a ``+`` number is
#: checked against its country's length (``phone_lengths``), and a chain of overlaps keeps what covers most.
RUN_ON = [
    ("x +1 415 555 2671 4111 1111 1111 1111", "x [PHONE] [CREDIT_CARD]"),
    ("+86 138 1234 5678_4111 1111 1111 1111", "[PHONE]_[CREDIT_CARD]"),
    ("+33 1 42 68 53 00 020 7946 0018", "[PHONE] [PHONE]"),
]


@pytest.mark.parametrize(("text", "expected"), RUN_ON)
@pytest.mark.parametrize("guard", ["PIIDetector", "RegexFilter"])
def test_a_refused_candidate_hides_no_value_after_it(text: str, expected: str, guard: str) -> None:
    assert _whole(_guards()[guard], text) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(RUN_ON), data=st.data(), guard=st.sampled_from(["PIIDetector", "RegexFilter"]))
def test_a_refused_candidate_streams_out_as_the_whole_text(
    case: tuple[str, str], data: st.DataObject, guard: str
) -> None:
    text, expected = case
    assert streamed(_guards()[guard], data.draw(chunked(f"see {text} ok"))) == f"see {expected} ok"
