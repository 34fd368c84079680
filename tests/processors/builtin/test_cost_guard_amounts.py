"""CostGuard writes a tiny budget with its significant digits: a budget of $0.00002 was written "$0.0000", so the
sentence said a budget of nothing was used up. Four decimals stay for ordinary amounts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from processors import Agent
from processors.builtin.cost_guard import CostGuard, dollars
from processors.models import ScriptedModel, Turn
from processors.usage import Usage


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        (0.5, "0.5000"),
        (2.5, "2.5000"),
        (1234.5, "1234.5000"),
        (0.0, "0.0000"),
        (0.0001, "0.0001"),
        (0.00015, "0.00015"),
        (0.00002, "0.00002"),
        (0.0000234, "0.000023"),
        (0.000001, "0.000001"),
    ],
)
def test_an_amount_keeps_two_significant_digits_and_four_decimals(amount: float, shown: str) -> None:
    assert dollars(amount) == shown


@given(st.floats(min_value=1e-12, max_value=1e6, allow_nan=False, allow_infinity=False))
def test_no_positive_amount_reads_as_nothing_or_in_exponent_notation(amount: float) -> None:
    shown = dollars(amount)

    assert "e" not in shown.lower()
    assert float(shown) > 0
    assert float(shown) == pytest.approx(amount, rel=0.05, abs=0.00005)


async def test_a_tiny_budgets_tripwire_says_its_amounts() -> None:
    guard = CostGuard(max_cost=0.00002, price_model="gpt-4o-mini", input_cost_per_million=1.0)
    turn = Turn(text="ok", usage=Usage(input_tokens=25, output_tokens=0, total_tokens=25))  # $0.000025
    agent = Agent(id="a", model=ScriptedModel([turn, turn]), input_processors=[guard])
    assert (await agent.generate("hi", resource_id="ann")).tripwire is None

    blocked = await agent.generate("hi", resource_id="ann")

    assert blocked.tripwire is not None
    assert blocked.tripwire.reason == "Cost budget of $0.00002 for this resource is used up (spent $0.000025)"
