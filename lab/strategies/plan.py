"""One object the CLI and the Attack panel both use: the strategies asked for, their models, the estimate, the run.

::

    plan = StrategyPlan.build("paraphrase,pair:5", attacker="openai/gpt-4o-mini", judge="openai/gpt-4o-mini",
                              agent_factory=make_agent, design_model="openai/gpt-4o", seed=42)
    print("\\n".join(plan.estimate(seeds).lines()))      # before anything is called
    async for variant in plan.variants(seeds): ...

:meth:`StrategyPlan.build` reads the strategies, builds the models (no call is made) and refuses a strategy whose
models were not given (:class:`~lab.strategies.errors.StrategyModelMissing`), so a mistake shows before the estimate.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from lab.corpus import Case
from lab.strategies.base import Role, Strategy, StrategyContext, StrategyVariant
from lab.strategies.cache import VariantCache, cache_key
from lab.strategies.estimate import Estimate, estimate
from lab.strategies.models import DEFAULT_TIMEOUT, costs_nothing, model_id_of, strategy_model
from lab.strategies.registry import StrategyRegistry, load_strategies
from lab.strategies.source import DEFAULT_CONCURRENCY, check_models, strategy_variants
from processors.models.base import LanguageModel

#: PAIR's rounds and crescendo's turns when the run names none.
DEFAULT_MAX_ITERATIONS = 5


@dataclass
class StrategyPlan:
    """Configured strategies, the context they run in, and each role's model id (for prices)."""

    strategies: Sequence[Strategy]
    context: StrategyContext
    models: dict[Role, str | None]
    concurrency: int = DEFAULT_CONCURRENCY
    #: The roles whose calls cost nothing (a local server, the demo model, no model at all).
    free: frozenset[Role] = frozenset()
    #: Where the variants written are kept, so a resumed run does not ask the models again (None: nowhere).
    cache: VariantCache | None = None

    @classmethod
    def build(
        cls,
        specs: str,
        *,
        attacker: LanguageModel | str | None = None,
        judge: LanguageModel | str | None = None,
        attacker_api_base: str | None = None,
        judge_api_base: str | None = None,
        agent_factory: Callable[[], Any] | None = None,
        design_model: str | None = None,
        design_api_base: str | None = None,
        seed: int | str = 0,
        max_iterations: int = DEFAULT_MAX_ITERATIONS,
        stop_score: int = 10,
        timeout: float = DEFAULT_TIMEOUT,
        mode: Literal["guardrails", "model", "replay"] = "model",
        concurrency: int = DEFAULT_CONCURRENCY,
        registry: StrategyRegistry | None = None,
    ) -> StrategyPlan:
        """Read ``specs`` (``"paraphrase,translate:zu+gd,pair"``) and check every strategy has its models."""
        if not 1 <= max_iterations <= 50:
            raise ValueError("max_iterations must be from 1 to 50")
        if not 1 <= stop_score <= 10:
            raise ValueError("stop_score must be from 1 to 10")
        strategies = (registry or load_strategies()).parse(specs)
        context = StrategyContext(
            seed=seed,
            attacker=strategy_model(attacker, attacker_api_base) if attacker is not None else None,
            judge=strategy_model(judge, judge_api_base) if judge is not None else None,
            agent_factory=agent_factory,
            mode=mode,
            max_iterations=max_iterations,
            stop_score=stop_score,
            timeout=timeout,
        )
        check_models(strategies, context)
        models: dict[Role, str | None] = {
            "attacker": model_id_of(attacker),
            "judge": model_id_of(judge),
            # in guardrails mode the design answers with a fixed reply: no model, no cost
            "design": design_model if mode == "model" else None,
        }
        bases: dict[Role, str | None] = {
            "attacker": attacker_api_base,
            "judge": judge_api_base,
            "design": design_api_base,
        }
        free = {
            role
            for role, model in models.items()
            if costs_nothing(model, bases[role]) or (role == "design" and mode != "model")
        }
        return cls(strategies, context, models, concurrency, frozenset(free))

    def estimate(self, seeds: Iterable[Case]) -> Estimate:
        """What the run will take at most, per role (nothing for the variants a kept cache holds); call it before
        :meth:`variants`."""
        cache = self.cache
        if cache is None:
            return estimate(seeds, self.strategies, self.context, self.models, free=self.free)

        def kept(case: Case, strategy: Strategy) -> bool:
            return cache.get(cache_key(case, strategy.spec, self.context.seed)) is not None

        return estimate(seeds, self.strategies, self.context, self.models, skip=kept, free=self.free)

    def variants(self, seeds: Iterable[Case]) -> AsyncGenerator[StrategyVariant, None]:
        """Every seed's variants, in input order (the attack engine's variant source)."""
        return strategy_variants(seeds, self.strategies, self.context, concurrency=self.concurrency, cache=self.cache)

    def keep_variants(self, path: Path) -> None:
        """Keep the variants written in ``path`` and read them back from there (a resumed run); see
        :mod:`lab.strategies.cache`. Call :meth:`close` when the run ends."""
        self.close()
        self.cache = VariantCache(path)

    def close(self) -> None:
        if self.cache is not None:
            self.cache.close()
