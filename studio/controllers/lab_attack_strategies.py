"""The Attack tab's model strategies: the user's choice (strategies, attacker and judge models, a local server)
built into a :class:`lab.strategies.StrategyPlan` off the UI thread, its estimate (calls, tokens, price) shown
before any model is called; the strategies' variants reach the attack engine through the command's variant source
(:func:`studio.lab.attack_strategies.strategy_source`, its progress lines off).

Strategies are off until named. PAIR and crescendo try their attempts on the design with its own model, in this
process (model calls are network waits on the loop); a variant a model failed to write is counted and said, and the
attack goes on. The variants written are kept beside the attack's results file (``<id>.jsonl.strategies.jsonl``), so a
resumed attack does not ask the models again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab.strategies import StrategyPlan
from studio.lab.attack_strategies import strategy_cache_path


@dataclass(frozen=True, slots=True)
class StrategyChoice:
    """What the user asked for: strategy specs (``"paraphrase,pair:3"``; empty: off) and the models."""

    specs: str = ""
    attacker: str = ""
    judge: str = ""
    api_base: str = ""

    @property
    def on(self) -> bool:
        return bool(self.specs.strip())

    def to_dict(self) -> dict[str, str]:
        return {"specs": self.specs, "attacker": self.attacker, "judge": self.judge, "api_base": self.api_base}

    @classmethod
    def of(cls, data: Any) -> StrategyChoice:
        if not isinstance(data, dict):
            return cls()
        return cls(*(str(data.get(name, "") or "") for name in ("specs", "attacker", "judge", "api_base")))


def build_plan(
    choice: StrategyChoice,
    *,
    design: Any,
    agent_factory: Callable[[], Any] | None,
    seed: int,
    results_path: Path,
) -> StrategyPlan:
    """The strategies of ``choice`` over ``design`` (no model is called; a strategy without its models raises a
    :class:`lab.strategies.StrategyError`). Blocking: call it off the UI thread."""
    base = choice.api_base.strip() or None
    plan = StrategyPlan.build(
        choice.specs,
        attacker=choice.attacker.strip() or None,
        judge=choice.judge.strip() or None,
        attacker_api_base=base,
        judge_api_base=base,
        agent_factory=agent_factory,
        design_model=design.model.model,
        design_api_base=design.model.api_base,
        seed=seed,
    )
    plan.keep_variants(strategy_cache_path(results_path))
    return plan


__all__ = ["StrategyChoice", "build_plan"]
