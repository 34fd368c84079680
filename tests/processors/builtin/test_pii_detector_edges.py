"""PIIDetector at its edges: the masks' corner cases, the logs, roles, the judged stream's buffer and failures.

Each test here pins a behaviour mutation testing found unchecked (issue 16); see tests/README.md.
"""

from __future__ import annotations

import logging

import pytest

from processors import Agent
from processors.builtin.pii_detector import PIIDetector, _sentence_limit, mask, redact_value
from processors.models import ScriptedModel, Turn
from tests.processors.helpers import deltas, run_stream, streamed_text

CARD = "4111 1111 1111 1111"
EMAIL = "maria.gonzalez@acme-corp.com"
PHONE = "+1 415-555-0132"
LOGGER = "processors.builtin.pii_detector"
NO_PII = '{"detections": []}'


def agent(model: ScriptedModel, **lanes: object) -> Agent:
    return Agent(id="agent", model=model, instructions="Be brief.", **lanes)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ masks
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("j@example.com", "*@*******.com"),  # a one-letter local part shows nothing of it
        ("jo@example.com", "j***o@*******.com"),
        ("jo@mail.example.co.uk", "j***o@***************.uk"),  # only the last label of the domain shows
        ("jo@localhost", "j***o@*********"),  # no dot in the domain: all of it masked
        ('"a@b"@example.com', '"***"@*******.com'),  # the address's own @ is the last one
    ],
)
def test_email_masks(value: str, expected: str) -> None:
    assert mask(value, "email") == expected


def test_a_value_with_an_at_sign_is_masked_as_its_own_type() -> None:
    url = "https://jo@example.com/x"
    assert mask(url, "url") == "*" * len(url)


def test_masks_without_the_format() -> None:
    assert mask("192.168.1.24", "ip-address", preserve_format=False) == "********"
    assert mask("12", "phone", preserve_format=False) == "12"  # fewer than four digits: nothing to hide
    assert mask("078-05-1121", "ssn", preserve_format=False) == "*****1121"


def test_redact_value_masks_by_default_keeping_the_format() -> None:
    assert redact_value(CARD, "credit-card", "mask") == "**** **** **** 1111"
    assert redact_value(EMAIL, "email", "mask") == "m***z@*********.com"
    assert redact_value(CARD, "credit-card", "mask", preserve_format=False) == "************1111"


def test_the_detector_masks_without_the_format_when_told() -> None:
    detector = PIIDetector(preserve_format=False)
    text = f"card {CARD}."
    assert detector.redact(text, detector.detect_offline(text)) == "card ************1111."
    detector = PIIDetector()
    assert detector.redact(text, detector.detect_offline(text)) == "card **** **** **** 1111."


# ------------------------------------------------------------------------------------------------ logs
def test_judge_types_without_a_model_say_so_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=LOGGER):
        PIIDetector(detection_types=["name", "email", "address"])
    assert [r.getMessage() for r in caplog.records] == [
        "PIIDetector: name, address need a model judge; without one they are not detected"
    ]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        PIIDetector(detection_types=["email"])  # nothing needs a judge
        PIIDetector(detection_types=["name"], model=ScriptedModel([NO_PII]))  # the judge is there
    assert caplog.records == []


async def test_warn_names_the_role_and_the_types(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        await agent(ScriptedModel(["ok"]), input_processors=[PIIDetector(strategy="warn")]).generate(
            f"mail {EMAIL} or call {PHONE}"
        )
    assert [r.getMessage() for r in caplog.records] == ["PII detected in the user message: ['email', 'phone']"]


async def test_a_block_names_every_type_found() -> None:
    result = await agent(ScriptedModel(["x"]), input_processors=[PIIDetector(strategy="block")]).generate(
        f"mail {EMAIL} or call {PHONE}"
    )
    assert result.tripwire is not None
    assert result.tripwire.reason == "PII detected. Types: email, phone"
    assert result.tripwire.metadata == {"types": ["email", "phone"], "count": 2}


# ------------------------------------------------------------------------------------------------ roles
async def test_the_input_guard_redacts_assistant_messages_too() -> None:
    """An earlier assistant turn the caller sends back is part of the prompt: it is checked like the user's."""
    model = ScriptedModel(["ok"])
    messages = [
        {"role": "user", "content": "how do I reach you?"},
        {"role": "assistant", "content": f"Mail {EMAIL}."},
        {"role": "user", "content": "thanks"},
    ]
    await agent(model, input_processors=[PIIDetector(redaction_method="placeholder")]).generate(messages)
    sent = [(m["role"], m["content"]) for m in model.requests[0].messages if m["role"] != "system"]
    assert sent == [("user", "how do I reach you?"), ("assistant", "Mail [EMAIL]."), ("user", "thanks")]


# ------------------------------------------------------------------------------------------------ judge
async def test_a_judged_value_three_times_is_redacted_three_times() -> None:
    verdict = '{"detections": [{"type": "name", "value": "Ana", "confidence": 0.9}]}'
    model = ScriptedModel(["ok"])
    detector = PIIDetector(model=ScriptedModel([verdict]), detection_types=["name"], redaction_method="placeholder")
    await agent(model, input_processors=[detector]).generate("Ana, Ana and Ana.")
    assert model.requests[0].messages[-1]["content"] == "[NAME], [NAME] and [NAME]."


# ------------------------------------------------------------------------------------------------ stream
async def test_the_judge_in_the_stream_is_asked_only_about_the_types_it_alone_finds() -> None:
    judge = ScriptedModel([NO_PII], repeat=True)
    model = ScriptedModel([Turn(text=["Hello there. ", "Bye now."])])
    detector = PIIDetector(model=judge, detection_types=["name", "phone", "address"])
    await run_stream(agent(model, output_processors=[detector]))
    *stream, final = [request.messages[0]["content"] for request in judge.requests]
    assert stream
    for prompt in stream:  # the regular expressions already found the phone numbers in these segments
        assert "Look for these types: name, address.\n" in prompt
    # The final result's check (process_output_result) asks about every type.
    assert "Look for these types: name, phone, address.\n" in final


async def test_the_judged_stream_holds_at_most_buffer_size_without_a_sentence_end() -> None:
    judge = ScriptedModel([NO_PII], repeat=True)
    words = [f"word{n:02d} " for n in range(40)]  # 280 characters, no sentence end anywhere
    model = ScriptedModel([Turn(text=words)])
    detector = PIIDetector(model=judge, detection_types=["name"], carry_over=16, buffer_size=64)
    chunks, result = await run_stream(agent(model, output_processors=[detector]))
    assert streamed_text(chunks) == result.text == "".join(words)
    *judged, final = [request.messages[1]["content"] for request in judge.requests]
    assert "".join(judged) == final == "".join(words)  # the stream's segments, then the final result whole
    assert len(judged) >= 4  # released in bounded pieces while streaming, not all at the end
    assert max(len(segment) for segment in judged[:-1]) <= 64 + len(words[0])
    assert len(deltas(chunks)) == len(judged)


async def test_a_failing_judge_in_the_stream_fails_open_with_the_offline_redaction(
    caplog: pytest.LogCaptureFixture,
) -> None:
    judge = ScriptedModel(["not json"], repeat=True)
    text = f"Mail {EMAIL} today. Bye."
    model = ScriptedModel([Turn(text=[text[:10], text[10:]])])
    detector = PIIDetector(model=judge, detection_types=["name", "email"], redaction_method="placeholder")
    with caplog.at_level(logging.WARNING, logger="processors.builtin.judge"):
        chunks, result = await run_stream(agent(model, output_processors=[detector]))
    assert result.tripwire is None
    assert streamed_text(chunks) == result.text == "Mail [EMAIL] today. Bye."
    assert "PII detection failed because the judge model call failed" in caplog.text
    assert "going on without the judge (fail-open)" in caplog.text


async def test_warn_with_a_judge_in_the_stream_logs_what_the_judge_found(caplog: pytest.LogCaptureFixture) -> None:
    verdict = '{"detections": [{"type": "name", "value": "Maria Gonzalez", "confidence": 0.9}]}'
    judge = ScriptedModel(
        [lambda request: verdict if "Maria" in request.messages[1]["content"] else NO_PII], repeat=True
    )
    text = "Ask Maria Gonzalez. She knows."
    model = ScriptedModel([Turn(text=[text])])
    detector = PIIDetector(model=judge, detection_types=["name"], strategy="warn")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        chunks, _ = await run_stream(agent(model, output_processors=[detector]))
    assert streamed_text(chunks) == text
    assert [r.getMessage() for r in caplog.records] == [
        "PII detected in the output stream: ['name']",
        "PII detected in the assistant message: ['name']",  # the final result's check
    ]


# ------------------------------------------------------------------------------------------------ sentence cut
@pytest.mark.parametrize(
    ("full", "offset", "cut", "expected"),
    [
        ("One. Two. Three", 0, 5, 5),  # a sentence end exactly at the cut is taken
        ("One. Two. Three", 0, 9, 5),  # the next end (after "Two. ") lies beyond the cut
        ("One. Two. Three", 0, 4, 0),  # no sentence end before the cut: nothing
        ("One. Two. Three", 5, 14, 10),  # only ends after the offset count
        ("One. Two three", 5, 14, 5),  # an end before the offset is not a cut: the offset stays
    ],
)
def test_the_judged_stream_cuts_at_sentence_ends(full: str, offset: int, cut: int, expected: int) -> None:
    assert _sentence_limit(full, offset, cut) == expected
