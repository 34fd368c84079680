"""The block/warn/filter/redact strategy shared by PIIDetector and SystemPromptScrubber."""

from __future__ import annotations

from typing import Any

import pytest

from processors.builtin.patterns import Match
from processors.builtin.span_strategy import enforce_message, enforce_segment, replace_spans
from processors.context import RequestContext
from processors.messages import Message
from processors.pipeline.processor import HookArgs
from processors.tripwire import TripWire

TEXT = "mail jo@example.com now"
FOUND = [Match("email", 5, 19, "jo@example.com")]


class Options:
    def __init__(self, strategy: str) -> None:
        self.strategy = strategy


class Detector:
    def __init__(self, strategy: str) -> None:
        self.options = Options(strategy)
        self.recorded: list[Match] = []

    def _record(self, args: HookArgs, found: list[Match]) -> None:
        self.recorded += found

    def _block(self, args: HookArgs, found: list[Match]) -> None:
        args.abort("blocked")

    def redact(self, text: str, found: list[Match]) -> str:
        return replace_spans(text, found, lambda m: f"[{m.kind.upper()}]")


def _args() -> HookArgs:
    return HookArgs(processor_id="p", state={}, request_context=RequestContext())


@pytest.mark.parametrize(("strategy", "expected"), [("warn", TEXT), ("filter", ""), ("redact", "mail [EMAIL] now")])
def test_segment(strategy: str, expected: str) -> None:
    detector = Detector(strategy)
    warned: list[list[Match]] = []
    assert enforce_segment(detector, _args(), TEXT, FOUND + FOUND, warned.append) == expected
    assert detector.recorded == FOUND  # candidates are resolved first
    assert warned == ([FOUND] if strategy == "warn" else [])


def test_segment_without_matches_is_kept_and_nothing_is_recorded() -> None:
    detector = Detector("block")
    assert enforce_segment(detector, _args(), TEXT, [], print) == TEXT
    assert detector.recorded == []


def test_message() -> None:
    message = Message.user(TEXT)
    args: Any = _args()
    assert enforce_message(Detector("warn"), args, message, TEXT, FOUND, lambda found: None) is message
    assert enforce_message(Detector("filter"), args, message, TEXT, FOUND, lambda found: None) is None
    redacted = enforce_message(Detector("redact"), args, message, TEXT, FOUND, lambda found: None)
    assert redacted is not None and redacted.text == "mail [EMAIL] now" and message.text == TEXT
    assert enforce_message(Detector("block"), args, message, TEXT, [], lambda found: None) is message
    with pytest.raises(TripWire, match="blocked"):
        enforce_message(Detector("block"), args, message, TEXT, FOUND, lambda found: None)


def test_replace_spans() -> None:
    found = [Match("a", 0, 1, "x"), Match("b", 3, 5, "yz")]
    assert replace_spans("x__yz_", found, lambda m: m.kind) == "a__b_"
    assert replace_spans("plain", [], lambda m: "?") == "plain"
