"""Adjoining values stream out redacted as the whole text's redaction redacts them, however the stream is cut (#25).

The whole text's redaction looks again at the text as it reads once its values are replaced
(:mod:`processors.builtin.adjoining`): ``(02)2720-1234(02)2720-1234`` is ``[PHONE][PHONE]``. The stream let
``[PHONE](02)2720-1234`` out: the second number came after the first had gone out, and its pattern saw the first
one's last digit in the left context. The stream hooks (PIIDetector's carry-over buffer, RegexFilter's held-back
window) now look again too, with what they let out replaced as it was let out: the deltas the user sees, joined,
are the final message's redaction for every chunking.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from processors.chunks import AnyChunk, TextDeltaChunk, TextEndChunk
from processors.chunks import TextPayload as TextEndPayload
from tests.processors.builtin import test_adjoining_redaction as pii_texts
from tests.processors.builtin import test_regex_filter_adjoining as regex_texts
from tests.processors.helpers import drive_stream, text_delta

END: AnyChunk = TextEndChunk(run_id="r", payload=TextEndPayload(id="t1"))


def streamed(guard: Any, deltas: list[str]) -> str:
    """The text the user sees: every text delta the guard let out, joined."""
    out = drive_stream(guard, [*[text_delta(delta) for delta in deltas], END])
    return "".join(part.payload.text for part in out if isinstance(part, TextDeltaChunk))


def whole(guard: Any, text: str) -> str:
    """The final message's redaction."""
    if isinstance(guard, RegexFilter):
        return guard.redact_text(text)
    return str(guard.redact(text, guard.detect_offline(text)))


@st.composite
def chunked(draw: st.DrawFn, text: str) -> list[str]:
    """``text`` cut at random places (one-character deltas too)."""
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=30))))
    bounds = [0, *[cut for cut in cuts if 0 < cut < len(text)], len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]


@st.composite
def pii_stream(draw: st.DrawFn) -> list[str]:
    return draw(chunked(draw(pii_texts.adjoining_texts())))


@st.composite
def regex_stream(draw: st.DrawFn) -> list[str]:
    return draw(chunked("".join(piece for piece, _value in draw(regex_texts.adjoining_values()))))


PII_GUARDS = {
    "placeholder": PIIDetector(redaction_method="placeholder"),
    "hash": PIIDetector(redaction_method="hash"),
    "mask": PIIDetector(),
}


@pytest.mark.parametrize(
    ("deltas", "expected"),
    [
        (["(02)2720-1234(02)2720-1234"], "[PHONE][PHONE]"),
        (["(02)2720-1234", "(02)2720-1234", " and so on"], "[PHONE][PHONE] and so on"),
        (list("call (02)2720-1234 (02)2720-1234 now"), "call [PHONE] [PHONE] now"),
        (["mail jo@example.com", ":138 1234 5678 ok"], "mail [EMAIL]:[PHONE] ok"),
    ],
)
@pytest.mark.parametrize("guard", ["PIIDetector", "RegexFilter"])
def test_adjoining_values_stream_out_redacted_both(deltas: list[str], expected: str, guard: str) -> None:
    if guard == "PIIDetector":
        assert streamed(PIIDetector(redaction_method="placeholder"), deltas) == expected
    else:
        assert streamed(RegexFilter(presets=["pii"], strategy="redact"), deltas) == expected


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deltas=pii_stream(), name=st.sampled_from(sorted(PII_GUARDS)))
def test_pii_detector_streams_the_whole_texts_redaction(deltas: list[str], name: str) -> None:
    guard = PII_GUARDS[name]

    assert streamed(guard, deltas) == whole(guard, "".join(deltas))


REGEX_GUARD = RegexFilter(presets=["pii"], strategy="redact")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deltas=regex_stream())
def test_regex_filter_pii_streams_the_whole_texts_redaction(deltas: list[str]) -> None:
    assert streamed(REGEX_GUARD, deltas) == whole(REGEX_GUARD, "".join(deltas))
