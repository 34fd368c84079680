"""The cost and call estimate shown before a strategy run starts (the CLI prints it, the Attack panel shows it).

For every seed × strategy, the strategy's :meth:`~lab.strategies.base.Strategy.plan` lists the calls it makes at
most (a PAIR loop that runs all its rounds, a crescendo that is never stopped early); the estimate sums them per
role — attacker, judge, and the design's own model, which PAIR and crescendo call once per attempt — and prices
them from litellm's bundled cost map when it knows the model (``cost`` is None, shown "unknown", otherwise). Input
tokens of a one-call rewrite are exact (its prompt is known); answers, and a loop's later prompts, are estimated
from the seed's length (:data:`~lab.strategies.against_design.DESIGN_REPLY_TOKENS` and the like).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from lab.corpus import Case
from lab.strategies.base import ROLES, Role, Strategy, StrategyContext


@dataclass(frozen=True, slots=True)
class RoleEstimate:
    """The calls one model takes: how many, their tokens, their price (None: the cost map does not know it)."""

    role: Role
    model: str | None
    calls: int
    input_tokens: int
    output_tokens: int
    cost: float | None


@dataclass(frozen=True, slots=True)
class Estimate:
    """What a run of strategies will take at most, per role (only the roles it calls)."""

    seeds: int
    variants: int
    roles: tuple[RoleEstimate, ...]

    @property
    def calls(self) -> int:
        return sum(role.calls for role in self.roles)

    @property
    def cost(self) -> float | None:
        """USD for every call; None when a called model's price is unknown."""
        costs = [role.cost for role in self.roles if role.calls]
        return None if any(cost is None for cost in costs) else round(sum(c for c in costs if c is not None), 6)

    def lines(self, language: str = "en") -> list[str]:
        """The estimate as the CLI prints it, in ``language`` (:mod:`lab.texts`; the studio lays out the fields)."""
        from lab.texts import text

        unknown = text(language, "unknown")
        lines = [
            text(
                language,
                "Strategies: {variants} variants of {seeds} seeds, at most {calls} model calls",
                variants=self.variants,
                seeds=self.seeds,
                calls=self.calls,
            )
        ]
        for role in self.roles:
            line = text(
                language,
                "  {role} {model}: {calls} calls, ~{tokens_in} tokens in, ~{tokens_out} out, {price}",
                role=f"{text(language, role.role):<8}",
                model=role.model or text(language, "(none)"),
                calls=role.calls,
                tokens_in=role.input_tokens,
                tokens_out=role.output_tokens,
                price=unknown if role.cost is None else f"${role.cost:.4f}",
            )
            lines.append(line)
        total = unknown if self.cost is None else f"${self.cost:.4f}"
        lines.append(text(language, "  total cost at most: {total}", total=total))
        return lines


def estimate(
    cases: Iterable[Case],
    strategies: Sequence[Strategy],
    context: StrategyContext,
    models: Mapping[Role, str | None],
    skip: Callable[[Case, Strategy], bool] | None = None,
    free: Collection[Role] = (),
) -> Estimate:
    """Sum every seed's planned calls per role; ``models`` names each role's model id (prices come from it).
    ``skip`` leaves out the seed × strategy pairs that will cost nothing (their variants kept from an earlier run);
    the roles in ``free`` cost 0 (a local server, the demo model: :func:`lab.strategies.models.costs_nothing`)."""
    calls = {role: 0 for role in ROLES}
    tokens_in = {role: 0 for role in ROLES}
    tokens_out = {role: 0 for role in ROLES}
    seeds = variants = 0
    for case in cases:
        seeds += 1
        for strategy in strategies:
            variants += strategy.variants_per_seed
            if skip is not None and skip(case, strategy):
                continue
            for call in strategy.plan(case, context):
                calls[call.role] += 1
                tokens_in[call.role] += call.input_tokens
                tokens_out[call.role] += call.output_tokens
    roles = tuple(
        RoleEstimate(
            role,
            models.get(role),
            calls[role],
            tokens_in[role],
            tokens_out[role],
            0.0 if role in free else price(models.get(role), tokens_in[role], tokens_out[role]),
        )
        for role in ROLES
        if calls[role]
    )
    return Estimate(seeds, variants, roles)


def price(model: str | None, input_tokens: int, output_tokens: int) -> float | None:
    """USD for these tokens at ``model``'s price in litellm's cost map; None when it does not know the model."""
    if not model:
        return None
    from processors.builtin.model_data import cost_of, model_price
    from processors.usage import Usage

    known = model_price(model)
    if known is None:
        return None
    usage = Usage(input_tokens=input_tokens, output_tokens=output_tokens, total_tokens=input_tokens + output_tokens)
    return round(cost_of(usage, known), 6)
