"""Attack strategies that use a model: rewrites by an attacker model, and searches against the design.

::

    from lab.strategies import StrategyPlan

    plan = StrategyPlan.build("paraphrase,translate:zu+gd,pair:5,crescendo", attacker="openai/gpt-4o-mini",
                              judge="openai/gpt-4o-mini", agent_factory=make_agent, seed=42)
    print("\\n".join(plan.estimate(seeds).lines()))         # calls, tokens, price: before any call
    async for variant in plan.variants(seeds):
        variant.turns, variant.chain, variant.score, variant.error   # a lab.converters.Variant and more

Strategies are off until asked: nothing here calls a model unless a run names its strategies and models, and the
estimate (:func:`estimate`: calls, tokens, price from litellm's cost map or "unknown") comes first.

- :mod:`lab.strategies.base` — the :class:`Strategy` protocol, :class:`StrategyVariant`, :class:`StrategyContext`;
- :mod:`lab.strategies.models` — the attacker's and judge's models (the provider registry), reproducible calls;
- :mod:`lab.strategies.rewrites` — paraphrase, translate (low-resource languages by default), tone, tense;
- :mod:`lab.strategies.pair` — PAIR-like refinement against the design, scored by a judge;
- :mod:`lab.strategies.crescendo` — a multi-turn escalation; its variant is the conversation's user turns;
- :mod:`lab.strategies.estimate` — the cost and call estimate before a run;
- :mod:`lab.strategies.registry` — the ``processor_studio.strategies`` entry-point group;
- :mod:`lab.strategies.source` — seeds × strategies as the attack engine's variant source;
- :mod:`lab.strategies.plan` — :class:`StrategyPlan`: what the CLI and the Attack panel build from the user's choice.
"""

from __future__ import annotations

from lab.strategies.base import PlannedCall, Role, Strategy, StrategyContext, StrategyVariant
from lab.strategies.errors import (
    StrategyError,
    StrategyFailedError,
    StrategyModelError,
    StrategyModelMissing,
    StrategyNotApplicable,
    StrategySpecError,
    UnknownStrategyError,
)
from lab.strategies.estimate import Estimate, RoleEstimate, estimate
from lab.strategies.models import Spend, strategy_model
from lab.strategies.plan import StrategyPlan
from lab.strategies.registry import ENTRY_POINT_GROUP, StrategyRegistry, load_strategies
from lab.strategies.source import check_models, strategy_variants

__all__ = [
    "ENTRY_POINT_GROUP",
    "Estimate",
    "PlannedCall",
    "Role",
    "RoleEstimate",
    "Spend",
    "Strategy",
    "StrategyContext",
    "StrategyError",
    "StrategyFailedError",
    "StrategyModelError",
    "StrategyModelMissing",
    "StrategyNotApplicable",
    "StrategyPlan",
    "StrategyRegistry",
    "StrategySpecError",
    "StrategyVariant",
    "UnknownStrategyError",
    "check_models",
    "estimate",
    "load_strategies",
    "strategy_model",
    "strategy_variants",
]
