"""PIIDetector redacts values that adjoin in one pass, so redacting its redaction changes nothing.

A pattern looks at the characters around a value, and an adjoining value's characters hid the second of two from it:
``(02)2720-1234(02)2720-1234`` became ``[PHONE](02)2720-1234`` (a phone number may not start right after a digit),
and a second redaction found the second number once the first one's last digit had become ``]``. Now the detector
looks again at the text as its redaction will read (:mod:`processors.builtin.adjoining`); the check that skips that
second look for ordinary text (:func:`~processors.builtin.adjoining.may_uncover`) is proven here against a plain
reference that always looks again.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors import Agent
from processors.builtin.patterns import Match
from processors.builtin.pii_detector import PIIDetector, redact_value
from processors.builtin.pii_patterns import category, resolve
from processors.models import ScriptedModel, Turn
from tests.processors.builtin.corpus import load
from tests.processors.helpers import user

PHONES = ["(02)2720-1234", "+1 415 555 2671", "0912-345-678", "138 1234 5678", "415-555-2671", "(415) 555-2671"]
EMAILS = ["jo@example.com", "ann.lee@mail.example.org", "git@github.com"]
CARDS = ["4111 1111 1111 1111", "4111111111111111", "5500-0000-0000-0004"]
IBANS = ["DE89370400440532013000", "GB82 WEST 1234 5698 7654 32"]
OTHERS = ["https://example.com/a", "192.168.1.20", "A123456(3)", "123456789", "order no.", "firmware", "SSN", "电话"]
WORDS = ["call", "mail", "at", "x", "7", "号码"]
SEPARATORS = [
    "",
    " ",
    ", ",
    ";",
    "\n",
    "/",
    " and ",
    "(",
    ")",
    ":",
    "：",
    "-",
    ".",
    ". ",
    " - ",
    "#",
    "=",
    "'",
    "!",
    "[",
]


def redacted(detector: PIIDetector, text: str) -> str:
    return detector.redact(text, detector.detect_offline(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(02)2720-1234(02)2720-1234", "[PHONE][PHONE]"),
        ("(02)2720-1234 (02)2720-1234", "[PHONE] [PHONE]"),
        ("+1 415 555 2671+1 415 555 2671", "[PHONE][PHONE]"),
        ("jo@example.com:138 1234 5678", "[EMAIL]:[PHONE]"),  # no longer an SSH remote's "host:path"
        ("ann.lee@mail.example.org.GB82 WEST 1234 5698 7654 32", "[EMAIL].[IBAN]"),
        ("jo@example.com,ann.lee@mail.example.org", "[EMAIL],[EMAIL]"),
        ("4111111111111111(02)2720-1234", "[CREDIT_CARD][PHONE]"),
        ("4111 1111 1111 1111 0912-345-678", "[CREDIT_CARD] [PHONE]"),
        ("4111111111111111 5500-0000-0000-0004", "[CREDIT_CARD] [CREDIT_CARD]"),
        ("DE89370400440532013000+886 912 345 678", "[IBAN][PHONE]"),
        ("DE89370400440532013000 415-555-2671", "[IBAN] [PHONE]"),
        ("GB82 WEST 1234 5698 7654 32,DE89370400440532013000", "[IBAN],[IBAN]"),
        ("https://example.com/a!GB82 WEST 1234 5698 7654 32", "[URL]![IBAN]"),  # the address ran on into the IBAN
        ("call 415-555-2671 or mail jo@example.com.", "call [PHONE] or mail [EMAIL]."),
    ],
)
def test_adjoining_values_of_every_kind_are_redacted_at_once(text: str, expected: str) -> None:
    detector = PIIDetector(redaction_method="placeholder")

    assert redacted(detector, text) == expected
    assert redacted(detector, expected) == expected


async def test_a_message_with_two_adjoining_numbers_reaches_the_model_without_either() -> None:
    model = ScriptedModel([Turn(text="ok")])
    agent = Agent(
        id="a",
        model=model,
        input_processors=[PIIDetector(strategy="redact", redaction_method="placeholder", detection_types=["phone"])],
    )

    await agent.generate("call (02)2720-1234(02)2720-1234")

    assert model.requests[0].messages == [user("call [PHONE][PHONE]")]


@st.composite
def adjoining_texts(draw: st.DrawFn) -> str:
    values = st.sampled_from([*PHONES, *EMAILS, *CARDS, *IBANS, *OTHERS, *WORDS])
    parts = [draw(values)]
    for _ in range(draw(st.integers(1, 4))):
        parts += [draw(st.sampled_from(SEPARATORS)), draw(values)]
    return "".join(parts)


DETECTORS = {method: PIIDetector(redaction_method=method) for method in ("placeholder", "hash")}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=adjoining_texts(), method=st.sampled_from(sorted(DETECTORS)))
def test_redacting_twice_is_redacting_once(text: str, method: str) -> None:
    """With a replacement that keeps nothing of the value (a placeholder, a hash): a mask keeps letters and digits
    that can form a value with their neighbours, and removing a value joins them."""
    detector = DETECTORS[method]
    once = redacted(detector, text)

    assert redacted(detector, once) == once


def looked_at_again(detector: PIIDetector, text: str) -> list[Match]:
    """The plain reference: redact, search the redaction, add what it shows between the replacements, until
    nothing new shows (no check that skips a look)."""
    options = detector.options
    found = resolve(detector.find(text))
    while True:
        pieces, places, cursor, length = [], [], 0, 0
        for match in found:
            places.append((length, length + match.start - cursor, cursor))
            shown = redact_value(match.value, category(match.kind), options.redaction_method, options.preserve_format)
            pieces += [text[cursor : match.start], shown]
            length += match.start - cursor + len(shown)
            cursor = match.end
        places.append((length, length + len(text) - cursor, cursor))
        pieces.append(text[cursor:])
        added = [
            Match(m.kind, m.start - low + origin, m.end - low + origin, m.value)
            for m in resolve(detector.find("".join(pieces)))
            for low, high, origin in places
            if low <= m.start and m.end <= high
        ]
        if not added:
            return found
        found = sorted([*found, *added], key=lambda match: match.start)


REFERENCE_DETECTORS = {method: PIIDetector(redaction_method=method) for method in ("placeholder", "mask", "hash")}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=adjoining_texts(), method=st.sampled_from(sorted(REFERENCE_DETECTORS)))
def test_the_second_look_is_skipped_only_where_it_would_find_nothing(text: str, method: str) -> None:
    detector = REFERENCE_DETECTORS[method]

    assert detector.detect_offline(text) == looked_at_again(detector, text)


def test_the_corpora_are_detected_as_the_plain_reference_detects_them() -> None:
    texts = [
        row["text"]
        for name in ("pii_corpus.jsonl", "pii_multilingual_corpus.jsonl", "pii_multilingual_holdout.jsonl")
        for row in load(name)
    ]
    for method, detector in REFERENCE_DETECTORS.items():
        differ = [text for text in texts if detector.detect_offline(text) != looked_at_again(detector, text)]
        assert not differ, (method, differ[:3])
