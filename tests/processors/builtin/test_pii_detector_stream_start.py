"""PIIDetector on the stream: the first delta of a reply goes out at once when no kind looked for could begin with it
(issue 16).

The stream holds back only what could still begin a match (:mod:`processors.builtin.stream_window`), and that is
decided from the very first character: a reply opening with a character no e-mail address can hold is not kept
waiting for the next delta when only addresses are looked for.
"""

from __future__ import annotations

import pytest

from processors.builtin.pii_detector import PIIDetector
from tests.processors.helpers import Timeline, guard_timeline


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        pytest.param(
            ["好", "的，请写信给 jo@example.com 。"],
            [("好", ["好"]), ("的，请写信给 jo@example.com 。", ["的，请写信给 j***o@*******.com 。"]), (None, [])],
            id="a Chinese reply",
        ),
        pytest.param(
            ["!", " Mail jo@example.com now."],
            [("!", ["!"]), (" Mail jo@example.com now.", [" Mail j***o@*******.com "]), (None, ["now."])],
            id="a mark",
        ),
    ],
)  # fmt: skip
async def test_a_first_character_no_address_can_hold_streams_at_once(words: list[str], expected: Timeline) -> None:
    guard = PIIDetector(detection_types=["email"], strategy="redact")
    assert await guard_timeline(guard, words) == expected
