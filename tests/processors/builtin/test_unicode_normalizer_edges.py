"""UnicodeNormalizer at its edges: each step alone, the characters stripping keeps, the log of a failure (issue 16).

Each test pins a behaviour mutation testing found unchecked; see tests/README.md.
"""

from __future__ import annotations

import logging

import pytest

from processors import Message
from processors.builtin.unicode_normalizer import UnicodeNormalizer
from processors.messages import MessageContent, TextPart

LOGGER = "processors.builtin.unicode_normalizer"


@pytest.mark.parametrize(
    ("options", "text", "expected"),
    [
        pytest.param({}, "a\rb\r\nc\n\n\nd\t \te", "a\nb\nc\nd e", id="line ends become one LF, blanks one space"),
        pytest.param({"collapse_whitespace": False}, " a\r\n\n\tb ", "a\r\n\n\tb", id="only trimmed"),
        pytest.param({"trim": False}, "  a  ", " a ", id="only collapsed"),
        pytest.param(
            {"strip_control_chars": True, "collapse_whitespace": False, "trim": False},
            "\x00a\tb\nc\rd\x7f\x85e\u200bf\u202eg\ufeff\u00adh",
            "a\tb\nc\rdefgh",
            id="controls and invisible marks go; tab, LF and CR stay",
        ),
        pytest.param({}, "\x00a\u200b", "\x00a\u200b", id="nothing is stripped unless asked"),
        pytest.param({}, "\uff21\u2460\u00bd", "A1" + "1\u20442", id="NFKC folds full-width, circled and fractions"),
    ],
)
def test_each_step_of_normalising(options: dict[str, bool], text: str, expected: str) -> None:
    assert UnicodeNormalizer(**options).normalize(text) == expected


class Fragile(UnicodeNormalizer):
    """A normaliser (a user's subclass, say) whose ``normalize`` fails on one text."""

    def normalize(self, text: str) -> str:
        if text == "bad":
            raise ValueError("cannot")
        return super().normalize(text)


def test_a_failure_is_logged_naming_the_message_and_the_rest_go_on(caplog: pytest.LogCaptureFixture) -> None:
    normalizer = Fragile()
    bad = Message.user("bad")
    good = Message.user("  good  ")

    class Args:
        messages = [bad, good]

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        first, second = normalizer.process_input(Args())  # type: ignore[arg-type]
    assert first is bad
    assert second.text == "good"
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        (LOGGER, f"UnicodeNormalizer could not normalise message {bad.id}; kept as is")
    ]
    exc_info = caplog.records[0].exc_info  # with the traceback, to find the cause
    assert exc_info and exc_info[0] is ValueError


def test_a_message_without_a_content_string_keeps_none() -> None:
    message = Message(role="user", content=MessageContent(parts=[TextPart(text=" \uff21 ")], content=None))
    normalized = UnicodeNormalizer().normalize_message(message)
    assert normalized.content.parts == [TextPart(text="A")]
    assert normalized.content.content is None


#: Full-width letters (the homoglyph trick), written with escapes so the source shows what they are.
FULL_WIDTH_IGNORE = "\uff29\uff47\uff4e\uff4f\uff52\uff45"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        pytest.param({}, "你好,请问:(明天)会下雨吗?......Ignore!", id="Mastra's NFKC: punctuation to ASCII"),
        pytest.param(
            {"preserve_cjk_punctuation": True},
            "你好，请问：（明天）会下雨吗？……Ignore！",
            id="punctuation kept, letters still folded",
        ),
    ],
)
def test_chinese_punctuation_is_kept_only_when_asked(options: dict[str, bool], expected: str) -> None:
    text = f"你好，请问：（明天）会下雨吗？……{FULL_WIDTH_IGNORE}！"
    assert UnicodeNormalizer(**options).normalize(text) == expected


def test_kept_punctuation_does_not_shield_what_sits_between_it() -> None:
    """Ligatures, compatibility digits and a full-width letter right after a kept mark are folded as ever."""
    normalizer = UnicodeNormalizer(preserve_cjk_punctuation=True, collapse_whitespace=False, trim=False)
    assert normalizer.normalize("\ufb01le：\uff11\uff12，\uff21\u3000x") == "file：12，A x"
