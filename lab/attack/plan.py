"""What an attack run tries: seed cases, converter chains, a budget and a seed — and the variants they make.

A variant is a :class:`lab.corpus.Case` like any other (so the lab's runner, its worker processes and its results
file take it unchanged): its id is ``<seed id>~<chain>``, its ``metadata`` names the seed, the chain and the run's
seed, and it carries the seed's label, category, language and expectation. What is converted is what carries the
attack: the seed's ``tool_result`` when it has one (an indirect injection), else its text. A converter that splits
the payload into several turns gives a case whose earlier user turns come first (``Case.turns``) and whose text is
the last part.

The variants are a pure function of ``(cases, chains, budget, seed)``: the same plan gives the same variants, in the
same order, on any machine (:func:`lab.converters.variant_rng`). When seeds × chains exceed the budget, the budget's
worth of (seed, chain) pairs is drawn with a generator seeded by the run's seed, so every seed and every chain has
its chance instead of the first seeds taking the whole budget.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from lab.converters import Chain, Variant, load_converters
from lab.converters.registry import ConverterRegistry
from lab.corpus import Case

#: Which cases seed the variants: the attacks the design stops (the default: a bypass is a variant of a stopped
#: seed that passes, found by a baseline run first), or every attack of the corpora.
SeedChoice = Literal["stopped", "attacks"]
SEED_CHOICES: tuple[SeedChoice, ...] = ("stopped", "attacks")
#: What a model strategy (or anything else) feeds the run: variants, made ahead or as the run goes.
VariantSource = Iterable[Variant] | AsyncIterable[Variant]
#: Between a seed's id and its chain in a variant's id.
ID_SEPARATOR = "~"


@dataclass
class AttackPlan:
    """Seeds × chains within a budget, seeded; plus ``sources`` of ready-made variants (strategies).

    ``cases`` may be whole corpora: only attacks seed variants (and, with ``seeds="stopped"``, only those the
    baseline run blocks). ``chains`` are chain strings (``"base64|leetspeak"``, parsed over ``converters``, the
    registry by default) or :class:`lab.converters.Chain` values. ``budget`` caps the chains' variants (None: all of
    seeds × chains); a source's variants are not counted in it (a strategy has its own limits)."""

    cases: Sequence[Case]
    chains: Sequence[str | Chain] = ()
    budget: int | None = None
    seed: int | str = 0
    seeds: SeedChoice = "stopped"
    sources: Sequence[VariantSource] = ()
    converters: Mapping[str, Any] | None = None
    _parsed: tuple[Chain, ...] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.budget is not None and self.budget < 0:
            raise ValueError(f"budget must be at least 0, got {self.budget}")
        if self.seeds not in SEED_CHOICES:
            raise ValueError(f"seeds must be one of {', '.join(SEED_CHOICES)}, got {self.seeds!r}")

    @property
    def parsed_chains(self) -> tuple[Chain, ...]:
        """The chains as :class:`Chain` values (parsing raises :class:`lab.converters.ConverterError` subclasses)."""
        if self._parsed is None:
            registry: Mapping[str, Any] | None = self.converters
            chains: list[Chain] = []
            for chain in self.chains:
                if isinstance(chain, Chain):
                    chains.append(chain)
                    continue
                if registry is None:
                    registry = load_converters()
                chains.append(
                    registry.chain(chain) if isinstance(registry, ConverterRegistry) else _parse(chain, registry)
                )
            self._parsed = tuple(chains)
        return self._parsed

    @property
    def attacks(self) -> list[Case]:
        """The cases that may seed variants: the attacks."""
        return [case for case in self.cases if case.label == "attack"]

    def variant_count(self, seeds: int) -> int:
        """How many chain variants ``seeds`` stopped seeds make within the budget."""
        total = seeds * len(self.parsed_chains)
        return total if self.budget is None else min(total, self.budget)

    def variants(self, seeds: Sequence[Case]) -> Iterator[Case]:
        """The chains' variants of ``seeds`` as cases, lazily, within the budget (see the module docstring)."""
        chains = self.parsed_chains
        total = len(seeds) * len(chains)
        if not total:
            return
        if self.budget is None or self.budget >= total:
            picks: Iterable[int] = range(total)
        else:
            picks = sorted(random.Random(f"attack-budget\x1f{self.seed}").sample(range(total), self.budget))
        for index in picks:
            seed_case, chain = seeds[index // len(chains)], chains[index % len(chains)]
            yield variant_case(seed_case, chain.variant(seed_case.id, attacked_text(seed_case), self.seed))


def _parse(spec: str, converters: Mapping[str, Any]) -> Chain:
    from lab.converters import parse_chain

    return parse_chain(spec, converters)


def attacked_text(case: Case) -> str:
    """What carries the attack: the tool result of an indirect injection, else the user's text."""
    return case.tool_result if case.tool_result is not None else case.text


def variant_id(seed_id: str, chain: str) -> str:
    return f"{seed_id}{ID_SEPARATOR}{chain}"


def variant_case(seed: Case, variant: Variant, case_id: str | None = None) -> Case:
    """``variant`` of ``seed`` as a lab case (module docstring); ``case_id`` overrides ``<seed id>~<chain>``."""
    metadata = {"attack_seed": seed.id, "attack_chain": variant.chain, "attack_run_seed": variant.seed}
    common: dict[str, Any] = {
        "id": case_id or variant_id(seed.id, variant.chain),
        "label": seed.label or "attack",
        "category": seed.category,
        "lang": seed.lang,
        "expect": seed.expect or "blocked",
        "reply": seed.reply,
        "metadata": metadata,
        "source": seed.source,
    }
    if seed.tool_result is not None:  # the page, mail or file carries the attack: it is what changes
        return Case(text=seed.text, turns=seed.turns, tool_result=variant.text, **common)
    *earlier, last = variant.turns
    turns = (*seed.turns, *({"role": "user", "content": turn} for turn in earlier))
    return Case(text=last, turns=turns, **common)


def seed_of(variant: Variant, seeds: Mapping[str, Case]) -> Case:
    """The seed a source's variant names (an unknown id: a bare attack case of that id, so it still runs)."""
    found = seeds.get(variant.case_id)
    return found if found is not None else Case(id=variant.case_id, text="", label="attack", expect="blocked")


__all__ = [
    "ID_SEPARATOR",
    "SEED_CHOICES",
    "AttackPlan",
    "SeedChoice",
    "VariantSource",
    "attacked_text",
    "seed_of",
    "variant_case",
    "variant_id",
]
