"""``hidden_values``: a design's hiding guards by lane, and what each lane's find as (kind, value) pairs — the one
place both exports ask (the thread export hides the values, the regression test export names their kinds)."""

from __future__ import annotations

from studio.design.agent_design import DEMO_MODEL, AgentDesign, ChainEntry, ModelConfig
from studio.store.hidden_values import Hidden, found_in, hiding_guards

CARD = r"\b4111(?: \d{4}){3}\b"
TEXTS = ["Mail ada.test@example.org from 192.168.10.20", "card 4111 1111 1111 1111, ref ORD-7781"]


def design(*, input_: list[ChainEntry], output: list[ChainEntry]) -> AgentDesign:
    return AgentDesign(name="lanes", model=ModelConfig(model=DEMO_MODEL), input=input_, output=output)


def pii(**options: object) -> ChainEntry:
    return ChainEntry(type="PIIDetector", options={"detection_types": ["email", "ip-address"], **options})


def rules(**options: object) -> ChainEntry:
    named = [{"name": "customer-card", "pattern": CARD}, {"name": "order", "pattern": r"ORD-\d+"}]
    return ChainEntry(type="RegexFilter", options={"rules": named, "strategy": "redact", **options})


def test_each_lane_finds_its_own_guards_values_and_nothing_of_the_other() -> None:
    lanes = hiding_guards(design(input_=[pii()], output=[rules()]).to_json())
    assert [guard.type for guard in lanes.input] == ["PIIDetector"]
    assert [guard.type for guard in lanes.output] == ["RegexFilter"]

    assert list(found_in(lanes.input, TEXTS)) == [
        Hidden("email", "ada.test@example.org"),
        Hidden("ip-address", "192.168.10.20"),  # the detection type the options name, not the pattern's "ipv4"
    ]
    assert list(found_in(lanes.output, TEXTS)) == [
        Hidden("customer-card", "4111 1111 1111 1111"),
        Hidden("order", "ORD-7781"),
    ]
    assert [match.kind for match in found_in(lanes.both, TEXTS)] == ["email", "ip-address", "customer-card", "order"]


def test_a_guard_that_only_warns_is_off_or_cannot_be_built_hides_nothing() -> None:
    quiet = design(
        input_=[pii(strategy="warn"), ChainEntry(type="PIIDetector", options={}, enabled=False)],
        output=[rules(strategy="warn"), ChainEntry(type="RegexFilter", options={"rules": [{"pattern": "("}]})],
    )
    lanes = hiding_guards(quiet.to_json())
    assert not lanes and lanes.both == ()
    assert list(found_in(lanes.both, TEXTS)) == []
    for unreadable in (None, "None", "", "{not json", "[1, 2]"):
        assert not hiding_guards(unreadable)


def test_one_design_is_built_once() -> None:
    text = design(input_=[pii()], output=[]).to_json()
    assert hiding_guards(text) is hiding_guards(text)
