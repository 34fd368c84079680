"""RegexFilter's ``pii`` preset redacts adjoining, overlapping and nested values in one pass (issue 25).

A preset's pattern looks at the characters around a value, and an adjoining value's characters hid the second of two
from it: ``4111111111111111(02)2720-1234`` became ``[CREDIT_CARD](02)2720-1234`` (a phone number may not start right
after a digit), ``+1 415 555 2671.4111 1111 1111 1111`` became ``+1 415 555 2671.[CREDIT_CARD]`` (the phone number's
groups ran on into the card's digits), and a second redaction found what the first left in clear — ~550 of 20,000
random mixed texts. The matcher now looks again at the text as its redaction reads
(:mod:`processors.builtin.adjoining`): redacting the redaction changes nothing, and no value of the input is left
in clear where the redaction's own text shows it.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors import Agent
from processors.builtin.adjoining import replace_spans_mapped, shift_into
from processors.builtin.patterns import expand_kinds, find_all
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.regex_rules import RegexMatcher, RegexRule
from processors.models import ScriptedModel, Turn
from tests.processors.builtin.test_regex_filter import Recording

PHONES = [
    "(02)2720-1234",  # Taipei
    "0912-345-678",  # Taiwan mobile
    "+1 415 555 2671",
    "415-555-2671",
    "(415) 555-2671",
    "+44 20 7946 0018",
    "020 7946 0018",
    "+33 1 42 68 53 00",
    "+4915123456789",
    "+86 138 1234 5678",
    "138 1234 5678",
]
EMAILS = ["jo@example.com", "ann.lee@mail.example.org", "git@github.com", "josé.garcía@correo.es"]
CARDS = ["4111 1111 1111 1111", "4111111111111111", "5500-0000-0000-0004", "378282246310005"]
IBANS = ["DE89370400440532013000", "GB82 WEST 1234 5698 7654 32", "FR1420041010050500013M02606"]
ADDRESSES = ["192.168.1.20", "10.0.0.1", "2001:db8::1", "fe80::1", "::1", "::ffff:10.0.0.1"]
SSNS = ["123-45-6789", "SSN 123456789"]
#: Nested: an address in a URL's credentials, an IP address as a host, an address in a query.
URLS = ["https://user:pw@example.com/a", "ftp://bob:secret@10.0.0.1/x", "https://a.example/?mail=jo@example.com"]
WORDS = ["call", "mail", "at", "x", "7", "号码", "a", "1", "0"]
VALUES = [*PHONES, *EMAILS, *CARDS, *IBANS, *ADDRESSES, *SSNS, *URLS]
SEPARATORS = ["", " ", ", ", ";", "\n", "/", " and ", "(", ")", ":", "：", "-", ".", ". ", " - ", "#", "=", "'", "!"]
SEPARATORS += ["[", "@", "+", "_"]

FILTER = RegexFilter(presets=["pii"], strategy="redact")
KINDS = expand_kinds(["pii"])


@st.composite
def adjoining_values(draw: st.DrawFn) -> list[tuple[str, bool]]:
    """The pieces of a text, each ``(piece, whether it is one of the values)``: values and words, joined by nothing
    or by separators that the patterns read around a value."""
    pieces = st.sampled_from([*VALUES, *WORDS])
    first = draw(pieces)
    text = [(first, first in VALUES)]
    for _ in range(draw(st.integers(1, 4))):
        piece = draw(pieces)
        text += [(draw(st.sampled_from(SEPARATORS)), False), (piece, piece in VALUES)]
    return text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(02)2720-1234(02)2720-1234", "[PHONE][PHONE]"),
        ("4111111111111111(02)2720-1234", "[CREDIT_CARD][PHONE]"),
        ("+1 415 555 2671.4111 1111 1111 1111", "[PHONE].[CREDIT_CARD]"),
        ("git@github.com+138 1234 5678", "[EMAIL][PHONE]"),
        ("10.0.0.1GB82 WEST 1234 5698 7654 32", "[IPV4][IBAN]"),
        ("x-josé.garcía@correo.es+josé.garcía@correo.es", "[EMAIL][EMAIL]"),
        ("FR1420041010050500013M02606)https://a.example/?mail=jo@example.com::1", "[IBAN])https://a.example/?mail=[EMAIL][IPV6]"),
        ("5500-0000-0000-0004 - 123-45-6789+4915123456789", "[CREDIT_CARD] - [SSN][PHONE]"),
        ("call 415-555-2671 or mail jo@example.com.", "call [PHONE] or mail [EMAIL]."),
    ],
)  # fmt: skip
def test_adjoining_values_are_redacted_at_once(text: str, expected: str) -> None:
    assert FILTER.redact_text(text) == expected
    assert FILTER.redact_text(expected) == expected


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=adjoining_values())
def test_redacting_twice_is_redacting_once(pieces: list[tuple[str, bool]]) -> None:
    once = FILTER.redact_text("".join(piece for piece, _value in pieces))

    assert FILTER.redact_text(once) == once


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=adjoining_values())
def test_no_value_of_the_input_is_left_in_clear_where_the_redaction_shows_it(pieces: list[tuple[str, bool]]) -> None:
    """Each value of the input that the redaction leaves as it was is no value of the redacted text, read where it
    stands (with its neighbours as the redaction wrote them); a value a replacement covers in part is one whose
    neighbour the patterns read as part of it (``a+44 20 7946 0018``: a ``+`` after a letter starts no number)."""
    text = "".join(piece for piece, _value in pieces)
    redacted, _redactions, regions = FILTER._redact_segment(text)
    _same, kept = replace_spans_mapped(text, [(r.start, r.end, RegexMatcher.replacement(r)) for r in regions])
    shown = {(match.start, match.end) for match in find_all(redacted, KINDS, overlapping=True)}
    start = 0
    for piece, is_value in pieces:
        end = start + len(piece)
        if is_value and not any(r.start < end and start < r.end for r in regions):
            places = [(low + start - origin, low + end - origin) for low, high, origin in kept if origin <= start]
            place = places[-1]
            assert shift_into(*place, kept) is not None
            assert place not in shown, (piece, text, redacted)
        start = end


def test_a_custom_rule_beside_the_presets_keeps_its_replacement_and_uncovers_a_preset_value() -> None:
    rule = RegexRule(name="ticket", pattern=r"INC-(\d{6})", replacement="INC-[$1]")
    guard = RegexFilter(presets=["pii"], rules=[rule.model_dump()], strategy="redact")

    # the ticket's last digit hides the phone number from its pattern until the ticket is replaced
    assert guard.redact_text("INC-123456(02)2720-1234") == "INC-[123456][PHONE]"


async def test_the_report_counts_a_value_the_redaction_uncovered() -> None:
    guard = Recording(presets=["pii"], strategy="redact", phase="input")
    model = ScriptedModel([Turn(text="ok")])
    await Agent(id="a", model=model, input_processors=[guard]).generate("call (02)2720-1234(02)2720-1234")

    assert model.requests[0].messages[-1]["content"] == "call [PHONE][PHONE]"
    redactions = guard.violations[0].detail["redactions"]
    assert [(r["index"], r["length"]) for r in redactions] == [(5, 13), (18, 13)]
