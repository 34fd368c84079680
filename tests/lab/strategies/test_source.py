"""Seeds × strategies as the attack engine's variant source: input order whatever answers first, the same
variants again for the same seed, a missing model refused before any call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from lab.converters import Variant
from lab.corpus import Case
from lab.strategies import (
    StrategyContext,
    StrategyModelMissing,
    StrategyVariant,
    load_strategies,
    strategy_variants,
)
from processors.models import ScriptedModel, Turn
from processors.models.base import ModelRequest

SEEDS = [Case(id=f"s{n}", text=f"attack number {n}") for n in range(5)]


def echo(request: ModelRequest) -> Turn:
    """Rewrites by echoing the seed, slower for earlier seeds (so later ones finish first)."""
    text = request.messages[1]["content"]
    number = int(text.rsplit(" ", 1)[1])
    return Turn(text=f"{text} / {request.messages[0]['content'][-40:]}", delay=0.002 * (5 - number))


async def collect(seed: int | str, concurrency: int) -> list[Variant]:
    model = ScriptedModel([echo], repeat=True)
    context = StrategyContext(seed=seed, attacker=model)
    strategies = load_strategies().parse("paraphrase,tense")
    return [variant async for variant in strategy_variants(SEEDS, strategies, context, concurrency=concurrency)]


async def test_variants_come_in_input_order_and_are_variants() -> None:
    variants = await collect(1, concurrency=4)
    assert [(v.case_id, v.chain) for v in variants] == [
        (f"s{n}", chain) for n in range(5) for chain in ("paraphrase:1", "tense:past")
    ]
    assert all(isinstance(v, Variant) for v in variants)
    assert variants[0].turns[0].startswith("attack number 0 / ")


async def test_the_same_seed_gives_the_same_variants_whatever_the_concurrency() -> None:
    assert await collect("run-1", concurrency=1) == await collect("run-1", concurrency=8)


async def test_a_missing_attacker_is_refused_before_any_call() -> None:
    with pytest.raises(StrategyModelMissing):
        _ = [v async for v in strategy_variants(SEEDS, load_strategies().parse("tone"), StrategyContext())]


async def test_stopping_the_iteration_cancels_the_calls_in_flight() -> None:
    started: list[str] = []

    def slow(request: ModelRequest) -> Turn:
        started.append(request.messages[1]["content"])
        return Turn(text="late", delay=5.0)

    context = StrategyContext(attacker=ScriptedModel([slow], repeat=True))
    source = strategy_variants(SEEDS, load_strategies().parse("paraphrase"), context, concurrency=3)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(anext(source), 0.2)
    await source.aclose()
    assert len(started) == 3  # three in flight at most, all cancelled (the test ends without waiting 5 s)


class Broken:
    """A plug-in strategy with a bug for one seed."""

    name = "broken"
    description = "Fails on seed s1."
    spec = "broken"
    roles = ()
    variants_per_seed = 1

    def configure(self, argument: str | None) -> Broken:
        return self

    def plan(self, case: Case, context: StrategyContext) -> list[object]:
        return []

    async def variants(self, case: Case, context: StrategyContext) -> AsyncIterator[StrategyVariant]:
        if case.id == "s1":
            raise RuntimeError("off by one")
        yield StrategyVariant(case.id, self.spec, context.seed, (case.text[::-1],))


async def test_a_strategy_that_raises_costs_its_seeds_variant_not_the_run() -> None:
    variants = [v async for v in strategy_variants(SEEDS[:3], [Broken()], StrategyContext())]  # type: ignore[list-item]
    assert [(v.case_id, v.failed) for v in variants] == [("s0", False), ("s1", True), ("s2", False)]
    assert variants[1].error == "the strategy 'broken' failed: RuntimeError: off by one"
    assert variants[1].error_code == "strategy-failed"
    assert len({*variants}) == 3  # variants stay hashable, as converter variants are
