"""Strategies as a variant source: every seed through every strategy, a few at a time, in a stable order.

The attack engine takes the result like a converter chain's variants (an async iterable of
:class:`~lab.converters.Variant`). Seeds × strategies run ``concurrency`` at a time (model calls wait on the
network, not the CPU) but are yielded in input order, so a run's output does not depend on which call answered
first. :func:`check_models` refuses, before anything is called, a strategy whose models were not given.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncGenerator, Iterable, Sequence

from lab.corpus import Case
from lab.strategies.base import Strategy, StrategyContext, StrategyVariant, failed_variant
from lab.strategies.cache import VariantCache, cache_key
from lab.strategies.errors import StrategyFailedError, StrategyModelMissing

#: Seeds × strategies in flight at once.
DEFAULT_CONCURRENCY = 4


def check_models(strategies: Sequence[Strategy], context: StrategyContext) -> None:
    """Raise :class:`StrategyModelMissing` for the first strategy whose attacker, judge or design is missing (its
    ``roles``: the models it cannot do without; crescendo uses a judge when one is given, PAIR needs one)."""
    for strategy in strategies:
        roles = strategy.roles
        if "attacker" in roles and context.attacker is None:
            raise StrategyModelMissing(strategy.spec, "attacker")
        if "judge" in roles and context.judge is None:
            raise StrategyModelMissing(strategy.spec, "judge")
        if "design" in roles and context.agent_factory is None:
            raise StrategyModelMissing(strategy.spec, "design")


async def strategy_variants(
    cases: Iterable[Case],
    strategies: Sequence[Strategy],
    context: StrategyContext,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    cache: VariantCache | None = None,
) -> AsyncGenerator[StrategyVariant, None]:
    """Every case's variants from every strategy, in input order; cancelling the iteration cancels the calls.

    With a ``cache``, a seed × strategy it holds is read from it (no model call) and new work is added to it."""
    check_models(strategies, context)

    async def collect(case: Case, strategy: Strategy) -> list[StrategyVariant]:
        key = cache_key(case, strategy.spec, context.seed)
        if cache is not None and (kept := cache.get(key)) is not None:
            return kept
        made = await write(case, strategy)
        if cache is not None:
            cache.put(key, made)
        return made

    async def write(case: Case, strategy: Strategy) -> list[StrategyVariant]:
        made: list[StrategyVariant] = []
        try:
            async for variant in strategy.variants(case, context):
                made.append(variant)
        except asyncio.CancelledError:
            raise
        except StrategyModelMissing:
            raise  # check_models let it through: a plug-in that needs more than its roles say
        except Exception as error:  # a plug-in's bug costs its seed's variant, never the run
            failure = StrategyFailedError(strategy.spec, f"{type(error).__name__}: {error}")
            made.append(failed_variant(case, strategy.spec, context, failure))
        return made

    pending: deque[asyncio.Task[list[StrategyVariant]]] = deque()
    jobs = ((case, strategy) for case in cases for strategy in strategies)
    try:
        for case, strategy in jobs:
            pending.append(asyncio.ensure_future(collect(case, strategy)))
            if len(pending) >= max(1, concurrency):
                for variant in await pending.popleft():
                    yield variant
        while pending:
            for variant in await pending.popleft():
                yield variant
    finally:
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
