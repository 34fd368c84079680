"""PIIDetector: offline detection, strategies, redaction forms, the carry-over stream, the judge, the corpus."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from processors import Agent, Message, RequestContext
from processors.builtin.base import InvalidOptionsError
from processors.builtin.pii_detector import PIIDetector, mask, redact_value
from processors.builtin.pii_patterns import REGEX_TYPES, category, detect
from processors.chunks import AnyChunk, TextDeltaChunk, TextDeltaPayload, TextEndChunk, TextPayload
from processors.errors import ModelAPIError
from processors.messages.message_list import MessageList
from processors.models import ScriptedModel, Turn
from processors.pipeline.processor import HookArgs, ProcessOutputStreamArgs
from processors.pipeline.stream_chain import REPROCESS_KEY
from tests.processors.builtin.corpus import Score, load, score_pii, score_secrets
from tests.processors.helpers import Fn, kinds, run_stream, streamed_text

CARD = "4111 1111 1111 1111"
EMAIL = "maria.gonzalez@acme-corp.com"
PHONE = "+1 415-555-0132"
TEXT = (
    f"Hi! Mail me at {EMAIL} or call {PHONE}. My card is {CARD}, IBAN DE89 3704 0044 0532 0130 00, "
    "SSN 078-05-1121, server 192.168.1.24, docs at https://docs.example.com/setup. Thanks a lot for the help!"
)


def split(text: str, rng: random.Random, most: int = 40) -> list[str]:
    cuts = sorted(rng.sample(range(1, len(text)), rng.randint(1, min(most, len(text) - 1))))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


def pieces(text: str, size: int = 20) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def agent(model: ScriptedModel, **lanes: object) -> Agent:
    return Agent(id="agent", model=model, instructions="Be brief.", **lanes)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ detection
@pytest.mark.parametrize(
    ("text", "pii_type", "value"),
    [
        (f"write to {EMAIL}.", "email", EMAIL),
        (f"call {PHONE} now", "phone", PHONE),
        (f"card {CARD} ok", "credit-card", CARD),
        ("IBAN GB82 WEST 1234 5698 7654 32 please", "iban", "GB82 WEST 1234 5698 7654 32"),
        ("SSN: 078-05-1121", "ssn", "078-05-1121"),
        ("from 203.0.113.77 today", "ip-address", "203.0.113.77"),
        ("v6 2001:db8:85a3::8a2e:370:7334", "ip-address", "2001:db8:85a3::8a2e:370:7334"),
        ("see https://example.com/a?b=1.", "url", "https://example.com/a?b=1"),
        ("to 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "crypto-wallet", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
        ("id 9b2f7c4e-1d3a-4c5b-8e6f-7a8b9c0d1e2f", "uuid", "9b2f7c4e-1d3a-4c5b-8e6f-7a8b9c0d1e2f"),
        ("token ghp_" + "a1B2" * 9, "api-key", "ghp_" + "a1B2" * 9),
    ],
)
def test_each_regex_type_is_found(text: str, pii_type: str, value: str) -> None:
    found = PIIDetector().detect_offline(text)
    assert [(category(m.kind), m.value) for m in found] == [(pii_type, value)]


@pytest.mark.parametrize(
    "text",
    [
        "Tracking number 4111 1111 1111 1112 (fails Luhn).",
        "The IBAN DE89 3704 0044 0532 0130 01 has a bad checksum.",
        "Part 000-12-3456 and model 987-65-4321.",
        "Invoice dated 2024-03-15, pages 120-135, ISBN 978-0-306-40615-7.",
        "Upgrade 2.31.0 to 2.32.3; meeting 09:30:00; MAC 00:1A:2B:3C:4D:5E.",
        "npm install lodash@4.17.21 and export logo@2x.png.",
        "Set OPENAI_API_KEY=sk-... and STRIPE_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx in your shell.",
        "Your IMEI is 356938035643809.",
    ],
)
def test_benign_look_alikes_are_not_pii(text: str) -> None:
    assert PIIDetector().detect_offline(text) == []


def test_judge_only_types_are_not_found_offline() -> None:
    assert PIIDetector(detection_types=["name", "address"]).detect_offline("Maria Gonzalez, 12 Main St") == []


# ------------------------------------------------------------------------------------------------ redaction
def test_masks_keep_the_format_and_the_last_digits() -> None:
    assert mask(EMAIL, "email") == "m***z@*********.com"
    assert mask(CARD, "credit-card") == "**** **** **** 1111"
    assert mask(PHONE, "phone") == "+* ***-***-0132"
    assert mask("078-05-1121", "ssn") == "***-**-1121"
    assert mask("DE89 3704 0044 0532 0130 00", "iban") == "DE****3000"
    assert mask(CARD, "credit-card", preserve_format=False) == "************1111"
    assert mask("192.168.1.24", "ip-address") == "************"


def test_hash_placeholder_and_remove() -> None:
    hashed = redact_value(EMAIL, "email", "hash")
    assert hashed.startswith("[HASH:") and len(hashed) == len("[HASH:12345678]")
    assert redact_value(EMAIL, "email", "hash") == hashed  # deterministic
    assert redact_value(CARD, "credit-card", "placeholder") == "[CREDIT_CARD]"
    assert redact_value(EMAIL, "email", "remove") == ""


# ------------------------------------------------------------------------------------------------ input lane
async def test_block_on_input_stops_before_the_model() -> None:
    model = ScriptedModel(["never"])
    result = await agent(model, input_processors=[PIIDetector(strategy="block")]).generate(f"my mail is {EMAIL}")
    assert result.tripwire is not None
    assert result.tripwire.reason == "PII detected. Types: email"
    assert result.tripwire.processor_id == "pii-detector"
    assert result.tripwire.metadata == {"types": ["email"], "count": 1}  # no values unless include_detections
    assert model.requests == []


async def test_include_detections_puts_values_in_the_metadata() -> None:
    detector = PIIDetector(strategy="block", include_detections=True)
    result = await agent(ScriptedModel(["x"]), input_processors=[detector]).generate(f"call {PHONE}")
    assert result.tripwire is not None
    assert result.tripwire.metadata["detections"][0]["value"] == PHONE


async def test_redact_on_input_changes_what_the_model_sees() -> None:
    model = ScriptedModel(["ok"])
    detector = PIIDetector(redaction_method="placeholder")
    await agent(model, input_processors=[detector]).generate(f"card {CARD}, mail {EMAIL}")
    prompt = model.requests[0].messages
    assert prompt[-1]["content"] == "card [CREDIT_CARD], mail [EMAIL]"


async def test_filter_on_input_drops_the_message() -> None:
    model = ScriptedModel(["ok"])
    messages = [{"role": "user", "content": "hello there"}, {"role": "user", "content": "ssn 078-05-1121"}]
    await agent(model, input_processors=[PIIDetector(strategy="filter")]).generate(messages)
    contents = [m["content"] for m in model.requests[0].messages if m["role"] == "user"]
    assert contents == ["hello there"]


async def test_warn_keeps_the_message_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    model = ScriptedModel(["ok"])
    with caplog.at_level(logging.WARNING, logger="processors.builtin.pii_detector"):
        await agent(model, input_processors=[PIIDetector(strategy="warn")]).generate(f"mail {EMAIL}")
    assert model.requests[0].messages[-1]["content"] == f"mail {EMAIL}"
    assert "PII detected" in caplog.text


async def test_last_message_only() -> None:
    messages = [{"role": "user", "content": f"old: {EMAIL}"}, {"role": "user", "content": f"new: {PHONE}"}]

    async def sent(last_message_only: bool) -> list[str]:
        model = ScriptedModel(["ok"])
        detector = PIIDetector(redaction_method="placeholder", last_message_only=last_message_only)
        result = await agent(model, input_processors=[detector]).generate(messages)
        assert result.tripwire is None
        return [m["content"] for m in model.requests[0].messages if m["role"] == "user"]

    assert await sent(True) == [f"old: {EMAIL}", "new: [PHONE]"]
    assert await sent(False) == ["old: [EMAIL]", "new: [PHONE]"]


# ------------------------------------------------------------------------------------------------ stream
async def test_value_split_across_deltas_is_redacted_in_the_stream_and_the_result() -> None:
    deltas = ["Write to maria.gon", "zalez@acme-", "corp.com or ring +1 41", "5-555-0132 today."]
    model = ScriptedModel([Turn(text=deltas)])
    detector = PIIDetector(redaction_method="placeholder")
    chunks, result = await run_stream(agent(model, output_processors=[detector]))
    expected = "Write to [EMAIL] or ring [PHONE] today."
    assert streamed_text(chunks) == expected
    assert result.text == expected
    assert result.messages[-1].text == expected
    order = kinds(chunks)
    assert order.count("text-end") == 1
    assert order.index("text-end") > max(i for i, kind in enumerate(order) if kind == "text-delta")


async def test_redacted_stream_text_does_not_depend_on_the_split() -> None:
    detector = PIIDetector(redaction_method="mask")
    expected = detector.redact(TEXT, detector.detect_offline(TEXT))
    assert EMAIL not in expected and CARD not in expected and "078-05-1121" not in expected
    rng = random.Random(20261129)
    for _ in range(40):
        model = ScriptedModel([Turn(text=split(TEXT, rng))])
        chunks, result = await run_stream(agent(model, output_processors=[PIIDetector()]))
        assert streamed_text(chunks) == expected
        assert result.text == expected


def drive_stream(detector: PIIDetector, pieces: list[str]) -> tuple[str, dict[str, Any]]:
    """Feed text deltas and a ``text-end`` straight through the hook (no agent), re-driving a stashed part as
    the runtime does; the text that came out, and the processor's state."""
    state: dict[str, Any] = {}
    parts: list[AnyChunk] = [TextDeltaChunk(run_id="r", payload=TextDeltaPayload(id="t", text=p)) for p in pieces]
    parts.append(TextEndChunk(run_id="r", payload=TextPayload(id="t")))
    args = ProcessOutputStreamArgs(
        part=parts[0],
        stream_parts=[],
        message_list=MessageList(),
        processor_id=detector.id,
        state=state,
        request_context=RequestContext(),
    )
    out: list[str] = []
    while parts:
        args.part = parts.pop(0)
        result = detector.process_output_stream(args)
        if isinstance(result, TextDeltaChunk):
            out.append(result.payload.text)
        if REPROCESS_KEY in state:
            parts.insert(0, state.pop(REPROCESS_KEY))
    return "".join(out), state


def test_split_independence_at_the_hook_level_with_tiny_carry() -> None:
    """Many random splits straight through the hook (no agent), including one-character chunks.

    The carry (32) is just above the longest value in the text (the 28-character email)."""
    detector = PIIDetector(redaction_method="placeholder", carry_over=32)
    text = TEXT * 3
    expected = detector.redact(text, detector.detect_offline(text))
    assert expected.count("[EMAIL]") == 3 and EMAIL not in expected
    rng = random.Random(7)
    for trial in range(60):
        pieces = list(text) if trial == 0 else split(text, rng, most=200)
        out, state = drive_stream(detector, pieces)
        assert out == expected, trial
        assert state["detections"]["email"] == 3, trial


async def test_block_in_the_stream_emits_a_tripwire() -> None:
    model = ScriptedModel([Turn(text=["Sure, the card is 4111 ", "1111 1111 1111, bye"])])
    chunks, result = await run_stream(agent(model, output_processors=[PIIDetector(strategy="block")]))
    assert kinds(chunks)[-1] == "tripwire"
    assert result.tripwire is not None
    assert result.tripwire.reason == "PII detected. Types: credit-card"
    assert CARD not in streamed_text(chunks)


async def test_filter_in_the_stream_drops_the_segment_with_pii() -> None:
    before = "Here is the address you asked for, with the rest of the details below. " * 5
    after = " Write any time; the office answers within a day, weekends included. " * 5
    model = ScriptedModel([Turn(text=[*pieces(before), f"Mail {EMAIL} now.", *pieces(after)])])
    chunks, result = await run_stream(agent(model, output_processors=[PIIDetector(strategy="filter")]))
    text = streamed_text(chunks)
    assert EMAIL not in text
    # Only the segment holding the value is dropped: text well before and after it still streams.
    assert text.startswith(before[:100])
    assert text.endswith(after[-100:])
    assert result.tripwire is None


async def test_text_without_pii_streams_unchanged() -> None:
    text = "Nothing sensitive here, just a friendly answer about the weather in Lisbon. " * 4
    model = ScriptedModel([text])
    chunks, result = await run_stream(agent(model, output_processors=[PIIDetector()]))
    assert streamed_text(chunks) == text
    assert result.text == text


async def test_each_step_of_a_tool_loop_is_flushed() -> None:
    from processors.models import ToolCall
    from tests.processors.helpers import get_weather

    model = ScriptedModel(
        [
            Turn(text=["Let me check for jo@exa", "mple.com"], tool_calls=[ToolCall("get_weather", {"city": "Oslo"})]),
            Turn(text=["Sunny. Call +1 415-555-", "0132."]),
        ]
    )
    detector = PIIDetector(redaction_method="placeholder")
    chunks, result = await run_stream(agent(model, tools=[get_weather], output_processors=[detector]))
    assert streamed_text(chunks) == "Let me check for [EMAIL]Sunny. Call [PHONE]."
    assert [s.text for s in result.steps] == ["Let me check for [EMAIL]", "Sunny. Call [PHONE]."]


# ------------------------------------------------------------------------------------------------ judge
NAME_VERDICT = '{"detections": [{"type": "name", "value": "Maria Gonzalez", "confidence": 0.92}]}'


async def test_judge_finds_names_on_input() -> None:
    judge = ScriptedModel([NAME_VERDICT])
    model = ScriptedModel(["ok"])
    detector = PIIDetector(model=judge, detection_types=["name", "email"], redaction_method="placeholder")
    await agent(model, input_processors=[detector]).generate(f"I am Maria Gonzalez, mail {EMAIL}")
    assert model.requests[0].messages[-1]["content"] == "I am [NAME], mail [EMAIL]"
    assert "name, email" in judge.requests[0].messages[0]["content"]


async def test_judge_detections_below_threshold_are_ignored() -> None:
    judge = ScriptedModel(['{"detections": [{"type": "name", "value": "Maria", "confidence": 0.3}]}'])
    model = ScriptedModel(["ok"])
    detector = PIIDetector(model=judge, detection_types=["name"], threshold=0.6, strategy="block")
    result = await agent(model, input_processors=[detector]).generate("Maria says hi")
    assert result.tripwire is None
    assert len(judge.requests) == 1  # the judge was asked, and its verdict was weighed
    assert model.requests[0].messages[-1]["content"] == "Maria says hi"
    # The same verdict at the threshold blocks.
    judge = ScriptedModel(['{"detections": [{"type": "name", "value": "Maria", "confidence": 0.6}]}'])
    detector = PIIDetector(model=judge, detection_types=["name"], threshold=0.6, strategy="block")
    result = await agent(ScriptedModel(["ok"]), input_processors=[detector]).generate("Maria says hi")
    assert result.tripwire is not None
    assert result.tripwire.reason == "PII detected. Types: name"


async def test_judge_failure_fail_closed_aborts() -> None:
    judge = ScriptedModel([Turn(error=ModelAPIError(500, "judge down"))])
    detector = PIIDetector(model=judge, error_strategy="fail-closed")
    result = await agent(ScriptedModel(["ok"]), input_processors=[detector]).generate("hello")
    assert result.tripwire is not None
    assert result.tripwire.reason.startswith("PII detection failed because the judge model call failed")


async def test_judge_failure_fail_open_keeps_the_offline_result() -> None:
    judge = ScriptedModel(["not json at all"])
    model = ScriptedModel(["ok"])
    detector = PIIDetector(model=judge, redaction_method="placeholder")
    result = await agent(model, input_processors=[detector]).generate(f"mail {EMAIL}")
    assert result.tripwire is None
    assert model.requests[0].messages[-1]["content"] == "mail [EMAIL]"


async def test_judge_in_the_stream_sees_whole_sentences() -> None:
    judge = ScriptedModel(
        [lambda request: NAME_VERDICT if "Maria Gonzalez" in request.messages[1]["content"] else '{"detections": []}'],
        repeat=True,
    )
    first = "Your new account manager is Maria Gonzalez, who joined the team this spring. "
    rest = "She will call you tomorrow morning to go through the contract and the next steps together."
    deltas = [
        "Your new account manager is Maria Gon",
        "zalez, who joined the team this spring. She will ",
        "call you tomorrow morning to go through ",
        "the contract and the next steps together.",
    ]
    assert "".join(deltas) == first + rest
    model = ScriptedModel([Turn(text=deltas)])
    detector = PIIDetector(
        model=judge, detection_types=["name", "phone"], redaction_method="placeholder", carry_over=16
    )
    chunks, result = await run_stream(agent(model, output_processors=[detector]))
    expected = (first + rest).replace("Maria Gonzalez", "[NAME]")
    assert streamed_text(chunks) == expected
    assert result.text == expected
    judged = [r.messages[1]["content"] for r in judge.requests]
    assert judged[0] == first  # the stream was cut at the sentence end, not inside the name


# ------------------------------------------------------------------------------------------------ options
@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"detection_types": []}, "detection_types"),
        ({"detection_types": ["passport"]}, "detection_types.0"),
        ({"redaction_method": "blur"}, "redaction_method"),
        ({"carry_over": 0}, "carry_over"),
        ({"threshold": -1}, "threshold"),
    ],
)
def test_bad_options_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        PIIDetector(**options)
    assert field in caught.value.errors


def test_from_options_round_trip() -> None:
    detector = PIIDetector(strategy="block", detection_types=["email"])
    again = PIIDetector.from_options(detector.options)
    assert again.options == detector.options


# ------------------------------------------------------------------------------------------------ corpus
def _regex_finder(text: str) -> list[tuple[str, str]]:
    return [(category(m.kind), m.value) for m in detect(text, REGEX_TYPES)]


def test_corpus_precision_and_recall_per_regex_type() -> None:
    """The English corpus and the multilingual one together label every regex-backed type."""
    rows = load("pii_corpus.jsonl") + load("pii_multilingual_corpus.jsonl")
    scores = score_pii(rows, _regex_finder, REGEX_TYPES)
    for pii_type, score in scores.items():
        assert score.tp + score.fn > 0, pii_type
        assert score.precision >= 0.95, (pii_type, score.errors)
        assert score.recall >= 0.95, (pii_type, score.errors)


@pytest.mark.parametrize("corpus", ["pii_multilingual_corpus.jsonl", "pii_multilingual_holdout.jsonl"])
@pytest.mark.parametrize("lang", ["en", "zh-CN", "zh-TW"])
def test_chinese_and_english_precision_and_recall_reach_0_97(corpus: str, lang: str) -> None:
    """Issue 12's goal, per language, on the tuning set and on the held-out set written before tuning."""
    rows = [row for row in load(corpus) if row["lang"] == lang]
    total = Score()
    for score in score_pii(rows, _regex_finder, REGEX_TYPES).values():
        total.add(score)
    assert total.tp >= 3, (lang, corpus)
    assert total.precision >= 0.97, total.errors
    assert total.recall >= 0.97, total.errors


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我的邮箱是liuyang171@qq.com", [("email", "liuyang171@qq.com")]),  # right after a CJK character
        ("我的银行卡号是6222026825296100", [("credit-card", "6222026825296100")]),
        ("电话+86 185 9007 9451", [("phone", "+86 185 9007 9451")]),
        ("手机13311876788", [("phone", "13311876788")]),  # bare mainland mobile
        ("手機0906490800", [("phone", "0906490800")]),  # bare Taiwan mobile
        ("身份证11010519850312123X", []),  # wrong check digit (4 is right)
        ("身份证110105198503121234", [("cn-resident-id", "110105198503121234")]),
        ("身分證A123456789", [("tw-national-id", "A123456789")]),
        ("身分證A123456788", []),  # wrong check digit
        ("HKID A123456(3)", [("hk-id", "A123456(3)")]),
        ("HKID A123456(4)", []),  # wrong check digit
        ("Call 4155550132 today", [("phone", "4155550132")]),  # bare NANP
        ("Toll-free 1-800-555-0199.", [("phone", "1-800-555-0199")]),
        ("Update firmware 1.2.3.4 now", []),  # a version, not an IP address
        ("Server at 1.2.3.4 now", [("ip-address", "1.2.3.4")]),
        ("git@github.com:org/repo.git", []),  # an SSH remote, not an address
        ("Serial number 4415-2290-1187", []),  # a reference, not a phone number
        ("订单号 138-0013-8000", []),
        ("Call +1 415 555 0132 (order 42)", [("phone", "+1 415 555 0132")]),
    ],
)
def test_the_cases_issue_12_lists(text: str, expected: list[tuple[str, str]]) -> None:
    assert _regex_finder(text) == expected


async def test_chinese_pii_is_redacted_in_the_output_stream_however_it_is_cut() -> None:
    text = "请联系13311876788或liuyang171@qq.com，身份证110105198503121234。"
    detector = PIIDetector(detection_types=["phone", "email", "cn-resident-id"], redaction_method="placeholder")
    expected = "请联系[PHONE]或[EMAIL]，身份证[CN_RESIDENT_ID]。"
    assert detector.redact(text, detector.detect_offline(text)) == expected
    for size in (1, 2, 3, 7, len(text)):
        model = ScriptedModel([Turn(text=[text[i : i + size] for i in range(0, len(text), size)])])
        fresh = PIIDetector(detection_types=["phone", "email", "cn-resident-id"], redaction_method="placeholder")
        chunks, result = await run_stream(agent(model, output_processors=[fresh]))
        assert streamed_text(chunks) == expected, size
        assert result.text == expected


def test_secrets_corpus_api_key_detection() -> None:
    total, _per_type = score_secrets(
        load("secrets_corpus.jsonl"), lambda text: [(m.start, m.end) for m in detect(text, ["api-key"])]
    )
    assert total.recall >= 0.95, total.errors
    assert total.precision >= 0.95, total.errors


def test_the_detector_agrees_with_the_scored_function() -> None:
    """The corpus scores the same detection the processor uses."""
    detector = PIIDetector()
    for row in load("pii_corpus.jsonl")[:40]:
        assert detector.detect_offline(row["text"]) == detect(row["text"], REGEX_TYPES)


# ------------------------------------------------------------------------------------------------ survivors
async def test_the_final_result_guard_redacts_assistant_text_another_processor_added() -> None:
    seen: list[tuple[str, str]] = []

    def add_contact(args: Any) -> Any:
        return [*args.messages, Message.assistant(f"Write to {EMAIL}.")]

    def look(args: Any) -> None:
        seen.extend((m.role, m.text) for m in args.message_list.get.all.db())

    model = ScriptedModel(["Sure."])
    detector = PIIDetector(redaction_method="placeholder")
    lanes = [Fn("contact", process_output_result=add_contact), detector, Fn("look", process_output_result=look)]
    await agent(model, output_processors=lanes).generate(f"I am on {PHONE}")
    # The assistant's text is redacted; the user's message is not the output guard's to change.
    assert seen == [("user", f"I am on {PHONE}"), ("assistant", "Sure.Write to [EMAIL].")]


async def test_a_judged_value_is_redacted_everywhere_it_appears() -> None:
    judge = ScriptedModel([NAME_VERDICT])
    model = ScriptedModel(["ok"])
    detector = PIIDetector(model=judge, detection_types=["name"], redaction_method="placeholder")
    text = "Maria Gonzalez called. Tell Maria Gonzalez we called back."
    await agent(model, input_processors=[detector]).generate(text)
    assert model.requests[0].messages[-1]["content"] == "[NAME] called. Tell [NAME] we called back."


async def test_a_low_confidence_item_does_not_stop_later_redactions() -> None:
    verdict = (
        '{"detections": [{"type": "name", "value": "Bob", "confidence": 0.2}, '
        '{"type": "name", "value": "Maria Gonzalez", "confidence": 0.9}]}'
    )
    model = ScriptedModel(["ok"])
    detector = PIIDetector(model=ScriptedModel([verdict]), detection_types=["name"], redaction_method="placeholder")
    await agent(model, input_processors=[detector]).generate("Bob met Maria Gonzalez.")
    assert model.requests[0].messages[-1]["content"] == "Bob met [NAME]."


async def test_detect_asks_the_judge_only_about_the_types_given() -> None:
    verdict = (
        '{"detections": [{"type": "name", "value": "Maria Gonzalez", "confidence": 0.9}, '
        '{"type": "address", "value": "12 Rue de Rivoli", "confidence": 0.9}]}'
    )
    judge = ScriptedModel([verdict])
    detector = PIIDetector(model=judge, detection_types=["name", "address", "email"])
    args = HookArgs(processor_id=detector.id, state={}, request_context=RequestContext())
    found = await detector.detect("Maria Gonzalez lives at 12 Rue de Rivoli.", args, types=("name",))
    assert [(m.kind, m.value) for m in found] == [("name", "Maria Gonzalez")]
    prompt = judge.requests[0].messages[0]["content"]
    assert "name" in prompt and "address" not in prompt


async def test_warn_on_the_output_stream_logs_and_streams_unchanged(caplog: pytest.LogCaptureFixture) -> None:
    text = f"Mail {EMAIL} today."
    model = ScriptedModel([Turn(text=[text[:9], text[9:]])])
    with caplog.at_level(logging.WARNING, logger="processors.builtin.pii_detector"):
        chunks, result = await run_stream(agent(model, output_processors=[PIIDetector(strategy="warn")]))
    assert streamed_text(chunks) == text
    assert result.text == text
    assert "PII detected in the output stream: ['email']" in caplog.text


async def test_include_detections_names_type_and_place() -> None:
    detector = PIIDetector(strategy="block", include_detections=True)
    result = await agent(ScriptedModel(["x"]), input_processors=[detector]).generate(f"call {PHONE}")
    assert result.tripwire is not None
    assert result.tripwire.metadata["detections"] == [
        {"type": "phone", "value": PHONE, "start": 5, "end": 5 + len(PHONE)}
    ]
