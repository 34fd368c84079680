"""``masked_kinds``: what kinds of values a run's hiding guards find in what its regression test holds raw — a
PIIDetector's types and a RegexFilter's rule names; nothing from a guard that only warns or is switched off."""

from __future__ import annotations

from processors.models.recording import RecordedStep, RecordedToolCall, Recording
from studio.design.agent_design import DEMO_MODEL, AgentDesign, ChainEntry, ModelConfig
from studio.regression_exports import exported_texts, masked_kinds, with_unmasked_header
from studio.replays.chain_replay import ReplaySource

PII = {"strategy": "redact", "detection_types": ["email", "phone", "credit-card"]}


def design(*entries: ChainEntry) -> AgentDesign:
    return AgentDesign(name="d", model=ModelConfig(model=DEMO_MODEL), output=list(entries))


def source() -> ReplaySource:
    """A card typed by the user; an e-mail address streamed in two pieces; a tool's phone number."""
    recording = Recording(
        steps=[RecordedStep("f", [["t", "Mail ada.lo"], ["t", "velace@example.com now"]])],
        tool_calls=[RecordedToolCall("lookup", {"id": 1}, {"phone": "+1 415 555 2042"})],
    )
    return ReplaySource("run_1", "card 4111 1111 1111 1111", recording.to_bytes())


def test_a_pii_detector_names_the_types_it_finds_in_the_message_the_stream_and_the_tools() -> None:
    kinds = masked_kinds(design(ChainEntry(type="PIIDetector", options=PII)), exported_texts(source()))
    assert sorted(kinds) == ["credit-card", "email", "phone"]


def test_a_regex_filter_names_its_rules() -> None:
    rules = {"rules": [{"name": "customer-card", "pattern": r"4111( \d{4}){3}"}], "strategy": "redact"}
    assert masked_kinds(design(ChainEntry(type="RegexFilter", options=rules)), exported_texts(source())) == [
        "customer-card"
    ]


def test_a_guard_that_only_warns_or_is_off_hides_nothing() -> None:
    warned = ChainEntry(type="PIIDetector", options={**PII, "strategy": "warn"})
    off = ChainEntry(type="PIIDetector", options=PII, enabled=False)
    assert masked_kinds(design(warned, off), exported_texts(source())) == []
    assert masked_kinds(None, exported_texts(source())) == []
    assert with_unmasked_header("x = 1\n", []) == "x = 1\n"
    assert with_unmasked_header("x = 1\n", ["email"]).startswith("# UNMASKED VALUES")


def test_kinds_are_the_detection_types_the_options_name() -> None:
    """An IPv4 and an IPv6 address are one kind, ``ip-address``, as the detector's options call it (the dialog and
    the file's header name what the user chose to hide, not a pattern's own name such as ``ipv4``)."""
    guard = ChainEntry(type="PIIDetector", options={"strategy": "redact", "detection_types": ["ip-address", "api-key"]})
    texts = ["from 192.168.10.20 and 2001:db8::1", "key sk-abcdefghijklmnopqrstuvwxyz123456"]
    assert masked_kinds(design(guard), texts) == ["ip-address", "api-key"]
