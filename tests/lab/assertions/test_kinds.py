"""Reading assertions: promptfoo's names, and the errors a bad one gives before anything runs."""

from __future__ import annotations

from typing import Any

import pytest

from lab.assertions import AssertionSpecError, assertion_from_text, parse_assertion


def test_promptfoo_names_are_read_as_the_lab_kinds() -> None:
    assert parse_assertion({"type": "trajectory:tool-used", "value": "search"}).kind == "called-tool"
    assert parse_assertion({"type": "not-is-refusal"}).name == "not-is-refusal"
    rubric = parse_assertion({"type": "llm-rubric", "value": "polite", "provider": "openai/judge", "threshold": 0.7})
    assert rubric.options == {"provider": "openai/judge", "threshold": 0.7}
    assert rubric.to_dict() == {"type": "llm-rubric", "value": "polite", "provider": "openai/judge", "threshold": 0.7}


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"type": "contains-sql"}, "unknown assertion kind 'contains-sql'"),
        ({"value": "x"}, "needs a 'type'"),
        ("contains", "must be a mapping with a 'type', got str"),
        ({"type": "contains"}, "contains needs a value"),
        ({"type": "regex", "value": "(unclosed"}, "not a regular expression"),
        ({"type": "is-json", "value": {"type": "no-such-type"}}, "not a JSON Schema"),
        ({"type": "called-tool", "value": {"args": {}}}, "a tool name"),
        ({"type": "leaks-system-prompt", "value": "many"}, "length in words"),
        ({"type": "contains-all", "value": [1, 2]}, "a list of texts"),
    ],
)
def test_a_bad_assertion_says_what_is_wrong(entry: Any, problem: str) -> None:
    with pytest.raises(AssertionSpecError, match=problem.replace("(", r"\(")):
        parse_assertion(entry)


def test_an_unknown_kind_on_the_command_line_is_named() -> None:
    with pytest.raises(AssertionSpecError, match="unknown assertion kind 'smells-fishy'"):
        assertion_from_text("smells-fishy:yes")
