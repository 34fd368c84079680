"""The sample design with its prompt-injection detectors on the phrase heuristics (``offline_scorer="heuristics"``).

The sample's detectors use the learned model (issue 28), whose scores move each time the model is retrained. The
lab's own tests (attack runs, bypass exports, conversations, reports, the counts measured on the indirect sets) use
the sample as a design with known verdicts: a known bypass (accents), an attack the first turn names, a benign page
that passes. They get them from this copy, whose verdicts do not depend on the model file. Tests of what the sample
itself does (``tests/studio/design/test_sample*.py``) use :func:`~studio.design.sample.sample_design`.
"""

from __future__ import annotations

from studio.design.agent_design import AgentDesign
from studio.design.sample import sample_design


def heuristic_sample(language: str = "en") -> AgentDesign:
    """:func:`~studio.design.sample.sample_design` with every ``PromptInjectionDetector`` on the heuristics."""
    design = sample_design(language)
    for entry in (*design.input, *design.output):
        if entry.type == "PromptInjectionDetector":
            entry.options["offline_scorer"] = "heuristics"
    return design


__all__ = ["heuristic_sample"]
