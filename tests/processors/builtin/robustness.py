"""The injection detector's robustness per converter: the starter attacks, converted, through the detector.

Shared by ``test_injection_robustness.py`` (which asserts only what must hold) and
``tests/bench/bench_converter_robustness.py`` (which prints the whole table). Each attack of the bundled corpora
(``resources/corpora``, the ones in the user's own text, not in a tool result) is converted by one converter with
a fixed seed and sent through an agent whose only input processor is ``PromptInjectionDetector`` offline (no
judge), by default with the phrase heuristics (``offline_scorer="heuristics"``: the published table is theirs; the
detector's default is the learned model, ``Probe(offline_scorer="learned")``); a case counts as detected when the
run ends in the detector's tripwire. A multi-turn variant is sent as that many user messages, all of which the
detector reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lab.converters import Chain, ConverterRegistry, load_converters
from processors import Agent
from processors.builtin.prompt_injection_detector import PromptInjectionDetector
from processors.models import ScriptedModel
from tests.processors.builtin.corpus import starter_cases

#: The seed of the published table (any seed gives a table; this one is the one in tests/bench/README.md).
SEED = 2026


def attack_cases() -> list[dict[str, Any]]:
    """The starter corpora's attacks written in the user's message (indirect ones live in tool results)."""
    return [case for case in starter_cases() if case["label"] == "attack" and not case.get("tool_result")]


@dataclass(frozen=True)
class Row:
    """One converter's line of the table."""

    converter: str
    cases: int
    #: Attacks detected once converted.
    detected: int
    #: Of the attacks the detector catches as written, how many it still catches once converted.
    kept: int
    baseline: int

    @property
    def share_detected(self) -> float:
        return self.detected / self.cases if self.cases else 0.0

    @property
    def share_kept(self) -> float:
        return self.kept / self.baseline if self.baseline else 1.0

    def as_json(self) -> dict[str, Any]:
        return {
            "converter": self.converter,
            "cases": self.cases,
            "detected": self.detected,
            "share_detected": round(self.share_detected, 4),
            "baseline_detected": self.baseline,
            "still_detected": self.kept,
            "share_still_detected": round(self.share_kept, 4),
        }


class Probe:
    """Sends texts through one agent with the detector; remembers which cases the unconverted text trips."""

    def __init__(
        self, registry: ConverterRegistry | None = None, seed: int = SEED, offline_scorer: str = "heuristics"
    ) -> None:
        self.registry = registry or load_converters()
        self.seed = seed
        self.cases = attack_cases()
        self.agent = Agent(
            id="robustness", model=ScriptedModel(["ok"]), instructions="Be brief.",
            input_processors=[PromptInjectionDetector(offline_scorer=offline_scorer)],
        )  # fmt: skip
        self._baseline: dict[str, bool] | None = None

    async def detected(self, turns: tuple[str, ...]) -> bool:
        messages = [{"role": "user", "content": turn} for turn in turns]
        result = await self.agent.generate(messages)
        tripwire = result.tripwire
        return tripwire is not None and tripwire.processor_id == "prompt-injection-detector"

    async def baseline(self) -> dict[str, bool]:
        if self._baseline is None:
            self._baseline = {case["id"]: await self.detected((case["text"],)) for case in self.cases}
        return self._baseline

    async def row(self, chain: Chain | str) -> Row:
        chain = self.registry.chain(chain) if isinstance(chain, str) else chain
        baseline = await self.baseline()
        detected = kept = 0
        for case in self.cases:
            variant = chain.variant(case["id"], case["text"], self.seed)
            hit = await self.detected(variant.turns)
            detected += hit
            kept += hit and baseline[case["id"]]
        return Row(chain.spec, len(self.cases), detected, kept, sum(baseline.values()))
