"""Phone and card numbers typed in full-width digits (``020 7946 0018``, ``4111 1111 1111 1111`` in U+FF10 to U+FF19),
as a Chinese or Japanese input method in full-width mode types them: the shared patterns read them as their ASCII forms
(``patterns._wide``), the validators fold them (``pattern_validators.fold_wide``), and the stream hold-back keeps
their runs (``stream_window``). The phone table of both guards is ``test_pii_phone_agreement.FULL_WIDTH``."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent
from processors.builtin.pattern_validators import card_ok, fold_wide, phone_in_context, phone_ok
from processors.builtin.patterns import PATTERNS, VALIDATORS, find_all, needle_characters
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.stream_window import hold_start
from processors.models import ScriptedModel, Turn
from processors.pattern_risk import backtracking_risk
from tests.processors.helpers import run_stream, streamed_text

#: ASCII digits, ``+``, ``(``, ``)`` and ``-`` → their full-width forms.
WIDE = str.maketrans(
    {**{str(d): chr(0xFF10 + d) for d in range(10)}, "+": "\uff0b", "(": "\uff08", ")": "\uff09", "-": "\uff0d"}
)
CARD = "4111 1111 1111 1111"
C = "[CREDIT_CARD]"


def test_the_validators_read_full_width_values_as_their_ascii_forms() -> None:
    assert fold_wide("+86 (0755) 138-0013".translate(WIDE)) == "+86 (0755) 138-0013"
    assert fold_wide("电话") == "电话"
    assert phone_ok("+44 20 7946 0018".translate(WIDE)) and phone_ok("(0755)8888 8888".translate(WIDE))
    assert not phone_ok("2024-03-15".translate(WIDE))
    assert VALIDATORS["phone"]("+1 415 555 2671".translate(WIDE))
    assert card_ok(CARD.translate(WIDE)) and not card_ok("4111 1111 1111 1112".translate(WIDE))
    # a full-width + country code is one to the context check: no reference word drops the number
    assert phone_in_context("订单号" + "+86 138 0013 8000".translate(WIDE), 3, "+86 138 0013 8000".translate(WIDE))


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("card " + CARD.translate(WIDE) + " ok", "credit-card", CARD.translate(WIDE)),
        ("card " + CARD[:10].translate(WIDE) + CARD[10:] + " ok", "credit-card", CARD[:10].translate(WIDE) + CARD[10:]),
        ("card " + "4111-1111-1111-1111".translate(WIDE), "credit-card", "4111-1111-1111-1111".translate(WIDE)),
        ("电话" + "+86 138 0013 8000".translate(WIDE), "phone", "+86 138 0013 8000".translate(WIDE)),
        ("Tel " + "1-800-555-0199".translate(WIDE), "phone", "1-800-555-0199".translate(WIDE)),
    ],
)
def test_full_width_numbers_are_found_with_their_own_characters(text: str, kind: str, value: str) -> None:
    """The match is the text's own characters (a redaction replaces them), at the positions ASCII digits would have."""
    assert [(m.kind, m.value, text[m.start : m.end]) for m in find_all(text, ["pii"])] == [(kind, value, value)]


def test_a_full_width_digit_beside_a_number_joins_it_as_an_ascii_one_does() -> None:
    """The look-arounds read full-width digits too: a full-width ``5`` before a card's digits makes them no card, as
    ``5`` does."""
    for before in ("5", "\uff15"):
        assert find_all(before + "4111111111111111", ["credit-card"]) == []


def test_the_widened_patterns_cannot_backtrack_catastrophically() -> None:
    for kind in ("phone", "credit-card"):
        assert backtracking_risk(PATTERNS[kind].pattern) is None, kind


def test_the_digit_needles_know_full_width_digits() -> None:
    """A stream's scan stays quiet while new text holds none of a kind's needle characters: full-width digits are."""
    for kind in ("phone", "credit-card", "ssn"):
        assert "\uff10" in needle_characters(kind) and "\uff19" in needle_characters(kind), kind


@pytest.mark.parametrize(
    ("prose", "number", "kinds"),
    [
        ("My card is ", "4111 1111 11", ("credit-card",)),
        ("Call ", "+86 138-00", ("phone",)),
        ("Call ", "(0755)88", ("phone", "email")),
        ("Call ", "(0755)", ("phone",)),
    ],
)
def test_the_hold_back_keeps_a_full_width_number_s_run(prose: str, number: str, kinds: tuple[str, ...]) -> None:
    """The stream holds the number's start back (its ASCII form is held from the same place)."""
    for text in (prose + number, prose + number.translate(WIDE)):
        assert hold_start(text, 0, kinds, 128) == len(prose), text


def _guards() -> dict[str, Any]:
    return {
        "PIIDetector": PIIDetector(redaction_method="placeholder"),
        "RegexFilter": RegexFilter(presets=["pii"], strategy="redact"),
    }


@pytest.mark.parametrize(
    "card",
    [
        CARD.translate(WIDE),
        CARD[:10].translate(WIDE) + CARD[10:],
        # parted by full-width hyphens only: PIIDetector's stream's cheap test (pii_patterns._PHONE_DIGITS) knows them
        "5555-5555-5555-4444".translate(WIDE),
    ],
)
async def test_both_guards_mask_a_full_width_card_number_in_a_message_and_in_the_stream(card: str) -> None:
    text = f"My card is {card}, thanks"
    expected = f"My card is {C}, thanks"
    for name, guard in _guards().items():
        model = ScriptedModel(["ok"])
        await Agent(id="a", model=model, instructions="Be brief.", input_processors=[guard]).generate(text)
        assert model.requests[0].messages[-1]["content"] == expected, name
    for size in (1, 4, len(text)):
        for name, guard in _guards().items():
            deltas = [text[i : i + size] for i in range(0, len(text), size)]
            agent = Agent(
                id="a", model=ScriptedModel([Turn(text=deltas)]), instructions="Be brief.", output_processors=[guard]
            )
            chunks, result = await run_stream(agent)
            assert (streamed_text(chunks), str(result.text)) == (expected, expected), (name, size)
