"""``on_violation`` is told the abort's ``code`` and ``params`` (``runner.notify_violation``), so a processor
that reports its violations can write them in the reader's language: the case its mutation run found unchecked."""

from __future__ import annotations

from typing import Any

from processors import Processor
from processors.models import ScriptedModel
from processors.tripwire import Violation
from tests.processors.helpers import make_agent


class Coded(Processor):
    """Aborts with a coded sentence and keeps what its ``on_violation`` is told."""

    id = "coded"

    def __init__(self) -> None:
        self.told: list[Violation] = []

    def process_input(self, args: Any) -> None:
        args.abort("Too long: 12 of 10", code="Coded.too_long", params={"used": 12, "limit": 10})

    def on_violation(self, violation: Violation) -> None:
        self.told.append(violation)


async def test_on_violation_is_told_the_aborts_code_and_params() -> None:
    processor = Coded()

    result = await make_agent(ScriptedModel(["never"]), input_processors=[processor]).generate("hi")

    assert result.tripwire is not None
    [violation] = processor.told
    assert (violation.processor_id, violation.message) == ("coded", "Too long: 12 of 10")
    assert (violation.code, violation.params) == ("Coded.too_long", {"used": 12, "limit": 10})
