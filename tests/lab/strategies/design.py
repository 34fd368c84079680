"""A small real design for the strategies' tests: a scripted model behind a RegexFilter that blocks "password"."""

from __future__ import annotations

from collections.abc import Callable

from processors import Agent
from processors.builtin.regex_filter import RegexFilter
from processors.models import ScriptedModel

BLOCKED_WORD = "password"


def guarded_agent(model: ScriptedModel) -> Callable[[], Agent]:
    """A factory of fresh agents sharing ``model`` (its ``requests`` show every attempt the design answered)."""

    def make() -> Agent:
        guard = RegexFilter(rules=[{"name": "password", "pattern": BLOCKED_WORD}], strategy="block", phase="input")
        return Agent(id="design", model=model, input_processors=[guard])

    return make
