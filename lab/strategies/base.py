"""What a strategy is: a named way of using a model to write attacks from a seed case, yielding variants.

A strategy turns one seed case (a :class:`~lab.corpus.Case`) into :class:`StrategyVariant` values — the
converters' :class:`~lab.converters.Variant` plus what the model work found (the judge's score, the iterations it
took, or the error that stopped it) — so the attack engine takes them as a variant source like a converter chain's.
``Variant.chain`` is the strategy's spec (``"translate:zu"``): its identity in reports.

A failed model call never ends a run: the variant carries ``error`` (and ``error_code``) and no turns; whoever runs
variants reports it and skips it (:attr:`StrategyVariant.failed`).

Plug-ins implement :class:`Strategy` (any object with these attributes will do) and register in the
``processor_studio.strategies`` entry-point group (:mod:`lab.strategies.registry`).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from lab.converters import Variant
from lab.corpus import Case
from lab.strategies.errors import StrategyError
from lab.strategies.models import Spend
from processors.models.base import LanguageModel

#: What a strategy's name may be (as a converter's): lower-case letters, digits and dashes.
NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
#: Who a call goes to: the attacker model, the judge model, or the design under test (its own model).
Role = Literal["attacker", "judge", "design"]
ROLES: tuple[Role, ...] = ("attacker", "judge", "design")


def payload(case: Case) -> str:
    """What carries a seed's attack, and what a strategy rewrites: the tool result of an indirect injection (the
    page or mail the design's tool brings back), else the user's text (as the attack engine converts it)."""
    return case.tool_result if case.tool_result is not None else case.text


@dataclass(frozen=True, slots=True)
class StrategyVariant(Variant):
    """A variant a strategy wrote. ``chain`` is the strategy spec; ``turns`` is empty when ``error`` is set."""

    #: The judge's score of the best attempt (1-10), for strategies that ask a judge.
    score: int | None = None
    #: Attempts made (PAIR's iterations, crescendo's turns); 1 for a rewrite.
    iterations: int = 1
    #: What the design answered to the kept attempt (PAIR, crescendo), for the report and the judge's reason.
    reply: str | None = None
    #: Why the judge gave ``score``.
    reason: str | None = None
    #: The model failure that stopped this variant (``str()`` of a StrategyModelError), and its stable code.
    error: str | None = None
    error_code: str | None = None
    #: The failure's parameters (role, status, kind) for a translated message.
    error_params: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def failed(self) -> bool:
        """Whether no attack came of it (run nothing, report the error)."""
        return self.error is not None


@dataclass(frozen=True, slots=True)
class PlannedCall:
    """One model call a strategy expects to make for a seed: for the cost and call estimate before a run.

    ``input_tokens`` counts the prompt's texts (exact where the strategy knows the prompt, as for a rewrite;
    estimated from the expected answers for a loop's later calls); ``output_tokens`` is what the answer is expected
    to take."""

    role: Role
    input_tokens: int
    output_tokens: int


@dataclass
class StrategyContext:
    """What a strategy may use while it runs: its models, the design, the run's seed and limits.

    ``agent_factory`` builds a fresh agent of the design per call (as the lab's runner does); strategies that try
    their attacks against the design (PAIR, crescendo) run it through :func:`lab.case_run.run_case` in ``mode``.
    """

    seed: int | str = 0
    attacker: LanguageModel | None = None
    judge: LanguageModel | None = None
    agent_factory: Callable[[], Any] | None = None
    mode: Literal["guardrails", "model", "replay"] = "model"
    #: PAIR's iterations and crescendo's turns, at most.
    max_iterations: int = 5
    #: A judge score at or above this ends PAIR's and crescendo's search (1-10).
    stop_score: int = 10
    #: Seconds one attacker or judge call may take.
    timeout: float = 60.0
    #: What the run spent so far, per role.
    spend: Spend = field(default_factory=Spend)


@runtime_checkable
class Strategy(Protocol):
    """A way of writing attacks with a model. ``name`` is what ``--strategies`` says (stable once shipped)."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str:
        """One line saying what it does to a seed, for ``--list-strategies`` and the Attack panel."""
        ...

    @property
    def spec(self) -> str:
        """``name`` or ``name:argument`` as configured: the variants' ``chain``."""
        ...

    @property
    def roles(self) -> tuple[Role, ...]:
        """The models it cannot run without: ``attacker``, ``judge``, ``design`` (one it merely uses when given,
        as crescendo its judge, is left out)."""
        ...

    def configure(self, argument: str | None) -> Strategy:
        """A copy taking ``argument`` (what follows ``:`` in a spec); raises StrategySpecError when it cannot."""
        ...

    @property
    def variants_per_seed(self) -> int:
        """How many variants it writes of one seed."""
        ...

    def plan(self, case: Case, context: StrategyContext) -> list[PlannedCall]:
        """The calls it makes for ``case`` at most (for :func:`lab.strategies.estimate.estimate`)."""
        ...

    def variants(self, case: Case, context: StrategyContext) -> AsyncIterator[StrategyVariant]:
        """Its variants of ``case``; a failed model call is a variant with ``error``, never an exception."""
        ...


def failed_variant(case: Case, chain: str, context: StrategyContext, error: StrategyError) -> StrategyVariant:
    """The variant a failed model call (or a seed the strategy cannot take) leaves: no turns, the error and its
    parameters."""
    params = {
        name: getattr(error, name)
        for name in ("role", "status", "kind", "problem", "strategy", "reason")
        if hasattr(error, name)
    }
    return StrategyVariant(
        case.id, chain, context.seed, (), error=str(error), error_code=error.code, error_params=params
    )
