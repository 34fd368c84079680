"""Red-teaming a design: seeds × converter chains (and any other variant source) → variants → the lab → bypasses.

A *bypass* is a variant of an attack the design stops (its *seed*) that the design lets through. The engine finds
them by search: every stopped seed through every chain, within a budget, on the lab's own runner (same modes,
concurrency and worker processes, same resumable results file). ::

    from lab.attack import AttackPlan, AttackRun, Robustness

    plan = AttackPlan(cases, chains=["base64", "leetspeak|rot13"], budget=10_000, seed=7)   # chain strings or Chains
    run = AttackRun(plan, recipe_or_factory, mode="guardrails", processes=2, results_path="attack.jsonl")
    robustness = Robustness()
    async for found in run.results():          # a VariantResult as each variant finishes
        robustness.add(found)                  # the heat map fills as results come (the Lab's Attack panel)
    robustness.to_dict()                       # per chain × processor, per chain, per seed: what got through
    run.cancel()                               # from another task: stops now; the same results file resumes

- :mod:`lab.attack.plan` — :class:`AttackPlan`: the seeds, the chains, the budget, the seed; the variants as cases
  (:func:`variant_case`), lazily and reproducibly; ``sources``: any iterable or async iterable of
  :class:`lab.converters.Variant` (a model strategy's) run beside the chains, the engine not knowing who made them;
- :mod:`lab.attack.run` — :class:`AttackRun`: the baseline (which seeds the design stops), then the variants;
- :mod:`lab.attack.robustness` — :class:`VariantResult` and :class:`Robustness`, the report's data (no runner: the
  reports import it);
- :mod:`lab.attack.bypasses` — the found bypasses as a corpus (JSONL) a later run, or a regression test, replays.

Names are read on first use (PEP 562): importing the report's data does not import the runner.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lab.attack.bypasses import bypass_cases, write_bypasses
    from lab.attack.plan import AttackPlan, VariantSource, variant_case
    from lab.attack.robustness import Robustness, VariantResult
    from lab.attack.run import AttackRun

_HOMES = {
    "AttackPlan": "lab.attack.plan",
    "VariantSource": "lab.attack.plan",
    "variant_case": "lab.attack.plan",
    "AttackRun": "lab.attack.run",
    "Robustness": "lab.attack.robustness",
    "VariantResult": "lab.attack.robustness",
    "bypass_cases": "lab.attack.bypasses",
    "write_bypasses": "lab.attack.bypasses",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'lab.attack' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


__all__ = [
    "AttackPlan",
    "AttackRun",
    "Robustness",
    "VariantResult",
    "VariantSource",
    "bypass_cases",
    "variant_case",
    "write_bypasses",
]
