"""CostGuard: spend from usage and litellm's offline prices; block or warn once the budget is used."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, Violation
from processors.builtin.base import InvalidOptionsError
from processors.builtin.cost_guard import CostGuard, MemoryLedger
from processors.builtin.model_data import cost_of, model_price
from processors.models import ScriptedModel, Turn
from processors.usage import Usage


def turn(text: str = "ok", inputs: int = 1_000_000, outputs: int = 0) -> Turn:
    return Turn(text=text, usage=Usage(input_tokens=inputs, output_tokens=outputs, total_tokens=inputs + outputs))


class Recording(CostGuard):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.violations: list[Violation] = []

    def on_violation(self, violation: Violation) -> None:
        self.violations.append(violation)


def test_prices_come_from_litellms_offline_map() -> None:
    price = model_price("openai/gpt-4o-mini")
    assert price is not None and price.input > 0 and price.output > price.input
    assert model_price("gpt-4o-mini") == price
    assert model_price("scripted") is None
    usage = Usage(input_tokens=1_000, output_tokens=500, cached_input_tokens=200)
    expected = 800 * price.input + 200 * (price.cached_input or price.input) + 500 * price.output
    assert cost_of(usage, price) == pytest.approx(expected)


async def test_a_user_over_budget_is_blocked_before_the_next_model_call() -> None:
    guard = Recording(max_cost=2.5, price_model="gpt-4o-mini", input_cost_per_million=1.0)
    model = ScriptedModel([turn(), turn(), turn(), turn()])
    agent = Agent(id="a", model=model, input_processors=[guard])
    for _ in range(3):  # $1 each
        assert (await agent.generate("hi", resource_id="ann")).text == "ok"
    blocked = await agent.generate("hi", resource_id="ann")
    assert len(model.requests) == 3
    assert blocked.tripwire is not None and blocked.finish_reason == "other"
    assert blocked.tripwire.reason == "Cost budget of $2.5000 for this resource is used up (spent $3.0000)"
    metadata = blocked.tripwire.metadata
    assert metadata["processorId"] == "cost-guard" and metadata["threshold"] == "hard"
    assert metadata["scope"] == "resource" and metadata["scopeKey"] == "resource:ann"
    assert metadata["maxCost"] == 2.5 and metadata["cost"] == pytest.approx(3.0)
    assert metadata["usage"]["inputTokens"] == 3_000_000
    other = await agent.generate("hi", resource_id="bob")  # budgets are per user
    assert other.text == "ok"


async def test_warn_lets_calls_through_and_reports_once_per_run() -> None:
    guard = Recording(max_cost=0.5, strategy="warn", input_cost_per_million=1.0)
    model = ScriptedModel([turn(), turn(), turn()])
    agent = Agent(id="a", model=model, input_processors=[guard])
    await agent.generate("hi", resource_id="ann")
    await agent.generate("hi", resource_id="ann")
    await agent.generate("hi", resource_id="ann")
    assert len(model.requests) == 3
    assert [v.detail["threshold"] for v in guard.violations] == ["hard", "hard"]


async def test_a_soft_warning_at_a_share_of_the_budget() -> None:
    guard = Recording(max_cost=4, warn_at_percent=50, input_cost_per_million=1.0, include_breakdown=True)
    model = ScriptedModel([turn(), turn(), turn()])
    agent = Agent(id="a", model=model, input_processors=[guard])
    for _ in range(3):
        await agent.generate("hi", thread_id="t", resource_id="ann")
    (warning,) = guard.violations
    assert warning.detail["threshold"] == "soft" and "50%" in warning.message
    assert warning.detail["breakdown"]["scripted"]["calls"] == 2


async def test_run_scope_counts_every_step_of_one_run() -> None:
    from processors.models import ToolCall
    from tests.processors.helpers import get_weather

    guard = CostGuard(max_cost=1.5, scope="run", input_cost_per_million=1.0)
    model = ScriptedModel(
        [
            Turn(tool_calls=[ToolCall("get_weather", {"city": "A"})], usage=Usage(input_tokens=1_000_000)),
            Turn(tool_calls=[ToolCall("get_weather", {"city": "B"})], usage=Usage(input_tokens=1_000_000)),
            "never",
        ]
    )
    result = await Agent(id="a", model=model, tools=[get_weather], input_processors=[guard]).generate("hi")
    assert len(model.requests) == 2 and result.tripwire is not None
    assert result.tripwire.metadata["scopeKey"].startswith("run:")
    fresh = ScriptedModel([turn()])
    assert (await Agent(id="a", model=fresh, input_processors=[guard]).generate("hi")).text == "ok"


async def test_runs_without_the_scopes_id_are_not_limited_and_cached_answers_are_free() -> None:
    guard = CostGuard(max_cost=0.1, scope="thread", input_cost_per_million=1.0)
    model = ScriptedModel([turn(), turn()])
    agent = Agent(id="a", model=model, input_processors=[guard])
    await agent.generate("hi")
    assert (await agent.generate("hi")).text == "ok"  # no thread id: fail open, as Mastra

    from processors.builtin.response_cache import ResponseCache

    ledger = MemoryLedger()
    guard = CostGuard(max_cost=1.5, input_cost_per_million=1.0, ledger=ledger)
    model = ScriptedModel([turn(), turn()])
    agent = Agent(id="a", model=model, input_processors=[ResponseCache(), guard])
    for _ in range(3):
        assert (await agent.generate("same", resource_id="ann")).text == "ok"
    assert ledger.total("resource:ann") == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"max_cost": -1}, "max_cost"),
        ({"max_cost": 0}, "max_cost"),
        ({"warn_at_percent": 150}, "warn_at_percent"),
        ({"input_cost_per_million": -0.1}, "input_cost_per_million"),
    ],
)
def test_bad_options_name_the_field(options: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptionsError, match=field):
        CostGuard(**options)
