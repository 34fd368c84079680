"""How the Lab's A/B pickers name the designs on offer: two designs of the same name are told apart."""

from __future__ import annotations

from studio.controllers.lab_experiments import DesignChoice, _told_apart
from studio.design.agent_design import AgentDesign, ChainEntry


def _choice(key: str, label: str, design: AgentDesign | None) -> DesignChoice:
    return DesignChoice(key, label, design.to_json() if design is not None else None)


def test_designs_of_the_same_name_are_told_apart_by_their_chains_else_by_a_fingerprint() -> None:
    small = AgentDesign(name="Support agent", input=[ChainEntry(type="UnicodeNormalizer")])
    large = AgentDesign(
        name="Support agent", input=[ChainEntry(type="UnicodeNormalizer"), ChainEntry(type="PromptInjectionDetector")]
    )
    other = AgentDesign(name="Refund desk")
    choices = [
        _choice("current", "Current design (as it is now)", None),
        _choice("saved:1", "Support agent (saved 12-06 08:23)", small),
        _choice("saved:2", "Support agent (saved 12-06 08:23)", large),
        _choice("saved:3", "Refund desk (saved 12-06 08:24)", other),
    ]
    labels = [choice.label for choice in _told_apart(choices)]
    assert labels == [
        "Current design (as it is now)",
        "Support agent (saved 12-06 08:23) · input 1, output 0, tools 0",
        "Support agent (saved 12-06 08:23) · input 2, output 0, tools 0",
        "Refund desk (saved 12-06 08:24)",
    ]
    same_shape = AgentDesign(name="Support agent", input=[ChainEntry(type="RegexFilter")])
    told = _told_apart([_choice("saved:1", "Support agent", small), _choice("saved:4", "Support agent", same_shape)])
    assert told[0].label != told[1].label and all(choice.label.startswith("Support agent · ") for choice in told)
