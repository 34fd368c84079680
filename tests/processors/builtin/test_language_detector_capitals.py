"""LanguageDetector and shouted text: fastText reads long runs of capitals as another language, so a text mostly in
capitals is read lower-cased, and one written with ordinary capitals (names, acronyms, title case) as it is. And a
confidence is never above 1, though fastText's own sometimes is.

Written for the survivors of the mutation run of 2026-12-07 (tests/README.md): no earlier test shouted. The
confidences quoted are those of the bundled ``lid.176.ftz``, which is never retrained.
"""

from __future__ import annotations

from processors import Agent
from processors.builtin.language_detector import LanguageDetector, detect_language
from processors.models import ScriptedModel

#: All capitals: as written, fastText calls it Japanese (0.56).
SHOUTED = "WHERE IS MY PARCEL? IT WAS DUE ON MONDAY"
#: Mostly capitals (31 of 37 letters), not all: as written, Japanese (0.35).
MOSTLY_SHOUTED = "WHERE IS MY PARCEL? IT WAS DUE ON MONDAY, thanks"
#: Ordinary capitals: English 0.81 as written, 0.65 lower-cased.
TITLE_CASE = "NASA Launched The Rocket"


async def blocked(detector: LanguageDetector, text: str) -> bool:
    result = await Agent(
        id="agent", model=ScriptedModel(["ok"]), instructions="Be brief.", input_processors=[detector]
    ).generate(text)
    return result.tripwire is not None


async def test_a_shouted_message_is_read_lower_cased() -> None:
    (code, confidence), *_ = detect_language(SHOUTED)

    assert code == "en" and confidence > 0.99
    assert not await blocked(LanguageDetector(target_languages=["en"], strategy="block"), SHOUTED)


def test_a_message_mostly_in_capitals_is_read_lower_cased_too() -> None:
    (code, confidence), *_ = detect_language(MOSTLY_SHOUTED)

    assert code == "en" and confidence > 0.99


def test_six_characters_are_enough_to_count_as_shouting() -> None:
    """``PLEASe``: five capitals of six letters; as written fastText calls it Spanish."""
    assert detect_language("PLEASe")[0][0] == "en"


async def test_a_message_with_ordinary_capitals_is_read_as_written() -> None:
    """Its capitals help: lower-cased, its confidence falls below the threshold and a French-only guard lets it by."""
    (code, confidence), *_ = detect_language(TITLE_CASE)
    assert code == "en" and confidence > 0.8

    assert await blocked(LanguageDetector(target_languages=["fr"], strategy="block"), TITLE_CASE)


def test_a_confidence_is_at_most_one() -> None:
    """fastText gives this Korean sentence 1.0000583 (its float arithmetic)."""
    assert detect_language("한국어 문장입니다 감사합니다")[0] == ("ko", 1.0)
