"""A RegexFilter rule refused as it will run (its flags included) carries the problem's code and values beside its
English, as every other refused option does (issue 27 item 2), so the studio translates it by code."""

from __future__ import annotations

import pytest

from processors.builtin.base import InvalidOptionsError
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.regex_rules import RegexRule


def test_a_pattern_the_verbose_flag_breaks_carries_its_code_position_and_fault() -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        RegexFilter(rules=[{"name": "ok", "pattern": "ok"}, {"name": "bad", "pattern": "( #)", "flags": "x"}])

    code, params = caught.value.codes["rules.1.pattern"]
    assert code == "pattern:invalid_with_flags"
    assert (params["pattern"], params["flags"]) == ("( #)", "x")
    assert params["error"]["code"] == "regex:missing ), unterminated subpattern"
    assert params["error"]["params"] == {"fault": "missing ), unterminated subpattern", "position": 0}


def test_the_options_check_refuses_what_the_filter_would() -> None:
    """``parse_options`` (what the options form asks) and the constructor refuse the same rule, the same way."""
    options = {"rules": [{"name": "bad", "pattern": "( #)", "flags": "x"}]}
    with pytest.raises(InvalidOptionsError) as checked:
        RegexFilter.parse_options(options)
    with pytest.raises(InvalidOptionsError) as built:
        RegexFilter(**options)

    assert (checked.value.errors, checked.value.codes) == (built.value.errors, built.value.codes)


def test_a_rule_made_without_validation_is_refused_with_its_code_too() -> None:
    rule = RegexRule.model_construct(name="bad", pattern="( #)", flags="x", replacement="[x]")

    with pytest.raises(InvalidOptionsError) as caught:
        RegexFilter(rules=[rule])

    assert caught.value.codes["rules.0.pattern"][0] == "pattern:invalid_with_flags"
