"""An abort's report to ``on_violation`` carries its tripwire's code and values, as a guard's own report does, so a
reader in another language sees a retried abort (which is no run's tripwire) in that language (issue 27 item 2)."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Processor, Violation
from processors.models import ScriptedModel
from tests.processors.helpers import make_agent


class CodedAbort(Processor):
    """Aborts every input (or the stream's first text) with a coded sentence; keeps what it is told."""

    id = "coded"

    def __init__(self) -> None:
        self.told: list[Violation] = []

    def on_violation(self, violation: Violation) -> None:
        self.told.append(violation)

    def _abort(self, args: Any) -> None:
        args.abort("Token limit of 3 exceeded", code="TokenLimiter.limit_exceeded", params={"limit": 3, "current": 9})


class InputAbort(CodedAbort):
    def process_input(self, args: Any) -> None:
        self._abort(args)


class StreamAbort(CodedAbort):
    def process_output_stream(self, args: Any) -> Any:
        if args.part.type == "text-delta":
            self._abort(args)
        return args.part


@pytest.mark.parametrize(("processor", "lane"), [(InputAbort, "input_processors"), (StreamAbort, "output_processors")])
async def test_an_aborts_violation_carries_its_code(processor: type[CodedAbort], lane: str) -> None:
    guard = processor()
    result = await make_agent(ScriptedModel(["some text"]), **{lane: [guard]}).generate("hi")

    assert result.tripwire is not None
    (told,) = guard.told
    assert (told.message, told.code, told.params) == (
        "Token limit of 3 exceeded",
        "TokenLimiter.limit_exceeded",
        {"limit": 3, "current": 9},
    )
