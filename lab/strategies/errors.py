"""The strategies' errors, each with a stable ``code`` and its parameters (the studio translates codes; the CLI
prints ``str()``)::

    StrategyError (ValueError)
    ├── StrategySpecError        a strategy string that cannot be read ("translate:", "pair:x")
    ├── UnknownStrategyError     a name nobody registered
    ├── StrategyModelMissing     a strategy needs an attacker (or judge) model and none was given
    ├── StrategyNotApplicable    a seed the strategy cannot take (a tool result for crescendo): that variant's error
    ├── StrategyModelError       the attacker or the judge model failed a call (4xx/5xx, timeout, no text):
    │                            never raised out of a run, it becomes one variant's ``error``
    └── StrategyFailedError      a strategy raised something else (a plug-in's bug): that seed's variant's error
"""

from __future__ import annotations

from collections.abc import Iterable


class StrategyError(ValueError):
    """Root of the strategies' errors."""

    code = "strategy-error"


class StrategySpecError(StrategyError):
    """A strategy string that is not ``name`` or ``name:argument`` with an argument the strategy takes."""

    code = "strategy-spec"

    def __init__(self, spec: str, problem: str) -> None:
        self.spec = spec
        self.problem = problem
        super().__init__(f"cannot read the strategy {spec!r}: {problem}")


class UnknownStrategyError(StrategyError, KeyError):
    """A strategy name that is not registered; says which ones are."""

    code = "strategy-unknown"

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = tuple(sorted(known))
        super().__init__(f"unknown strategy {name!r}; known strategies: {', '.join(self.known)}")

    def __str__(self) -> str:  # KeyError's str() would quote the whole message
        return str(self.args[0])


class StrategyModelMissing(StrategyError):
    """A strategy that needs a model (``role``: attacker or judge) was asked for without one: strategies are off
    until the user names the models they may call."""

    code = "strategy-model-missing"

    def __init__(self, strategy: str, role: str) -> None:
        self.strategy = strategy
        self.role = role
        what = "a design to run against" if role == "design" else f"the {role} model (--{role}-model)"
        super().__init__(f"the strategy {strategy!r} needs {what}")


class StrategyNotApplicable(StrategyError):
    """A seed the strategy cannot work from (crescendo writes user turns; an attack planted in a tool result is
    not one): that seed's variant carries this error, the others go on."""

    code = "strategy-not-applicable"

    def __init__(self, strategy: str, reason: str) -> None:
        self.strategy = strategy
        self.reason = reason
        super().__init__(f"the strategy {strategy!r} cannot take this seed: {reason}")


class StrategyFailedError(StrategyError):
    """A strategy raised an unexpected error for one seed (a plug-in's bug): named, and the run goes on."""

    code = "strategy-failed"

    def __init__(self, strategy: str, problem: str) -> None:
        self.strategy = strategy
        self.problem = problem
        super().__init__(f"the strategy {strategy!r} failed: {problem}")


class StrategyModelError(StrategyError):
    """One call of the attacker or judge model failed. ``status`` is the HTTP status when there was one, ``kind``
    the model error's stable kind (``timeout``, ``dropped_stream``…) or ``no-text`` / ``no-json``."""

    code = "strategy-model-failed"

    def __init__(self, role: str, problem: str, *, status: int | None = None, kind: str | None = None) -> None:
        self.role = role
        self.problem = problem
        self.status = status
        self.kind = kind
        super().__init__(f"the {role} model failed: {problem}")
