"""One card-issuer table for both guards: a number RegexFilter's ``pii`` preset calls a card, PIIDetector calls one
too (Mir's 2200-2204 and UnionPay's 81 numbers were caught by the first and let through by the second)."""

from __future__ import annotations

import pytest

from processors import Agent
from processors.builtin.pattern_validators import CARD_NETWORKS, card_issuer_ok, card_network, card_ok, luhn_ok
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from processors.models import ScriptedModel


def luhn_complete(prefix: str, length: int) -> str:
    """``prefix`` padded with zeros to ``length - 1`` digits, then the Luhn check digit."""
    body = prefix.ljust(length - 1, "0")
    return next(body + digit for digit in "0123456789" if luhn_ok(body + digit))


#: One Luhn-valid number of each network (and length where it matters), grouped as people write them.
CARDS = {
    "visa": luhn_complete("4111", 16),
    "mastercard": luhn_complete("2221", 16),
    "amex": luhn_complete("3714", 15),
    "discover": luhn_complete("6011", 16),
    "diners": luhn_complete("3056", 14),
    "jcb": luhn_complete("3530", 16),
    "unionpay": luhn_complete("8100", 16),
    "unionpay-62": luhn_complete("6212", 19),
    "maestro": luhn_complete("5018", 16),
    "mir": luhn_complete("2200", 16),
    "mir-2204": luhn_complete("2204", 19),
}


def test_each_network_of_the_table_is_told_by_prefix_and_length() -> None:
    assert {name for name, _ranges, _lengths in CARD_NETWORKS} == {key.split("-")[0] for key in CARDS}
    for name, number in CARDS.items():
        assert card_network(number) == name.split("-")[0], name
        assert card_ok(number) and card_issuer_ok(number)
    assert card_network(luhn_complete("2205", 16)) is None  # past Mir's range (and no other network's)
    assert not card_ok(luhn_complete("35", 15))  # an IMEI-like number: Luhn-valid, no network issues it
    assert not card_ok(CARDS["mir"][:-1] + str((int(CARDS["mir"][-1]) + 1) % 10))  # the check digit wrong


def grouped(number: str) -> str:
    return " ".join(number[i : i + 4] for i in range(0, len(number), 4))


@pytest.mark.parametrize("network", ["mir", "mir-2204", "unionpay", "unionpay-62", "visa", "amex"])
async def test_both_guards_redact_a_card_of_every_network_in_a_real_run(network: str) -> None:
    text = f"Pay with {grouped(CARDS[network])} please"
    for guard, placeholder in (
        (RegexFilter(presets=["pii"], strategy="redact"), "[CREDIT_CARD]"),
        (PIIDetector(redaction_method="placeholder"), "[CREDIT_CARD]"),
    ):
        model = ScriptedModel(["ok"])
        await Agent(id="a", model=model, input_processors=[guard]).generate(text)
        assert model.requests[0].messages[-1]["content"] == f"Pay with {placeholder} please", type(guard).__name__
