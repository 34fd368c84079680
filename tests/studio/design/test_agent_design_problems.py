"""A refused design's problems, as written in English and as the studio shows them in Chinese (by their codes):
an unknown or missing field, a file too deep to read, broken JSON, bytes that are not text, a newer format, and
an option typed as JSON that Python will not read.

Written for the survivors of the mutation run of 2026-12-07 (tests/README.md): the earlier tests read the start
of these messages, or their English only, so a wrong template, a lost value or a lost code went unseen.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from processors.json_limits import MAX_DEPTH
from processors.problems import Problem
from studio.design.agent_design import DESIGN_VERSION, AgentDesign, DesignError, explain_option_error
from studio.error_texts import error_text
from studio.texts.problems import problem_sentence


def refusal(text: str | bytes) -> DesignError:
    with pytest.raises(DesignError) as caught:
        AgentDesign.from_json(text)
    return caught.value


# ------------------------------------------------------------------------------------------------ fields
def test_an_unknown_and_a_missing_field_read_in_chinese_by_their_codes(in_language: Any) -> None:
    error = refusal(json.dumps({"version": 1, "colour": "red", "input": [{"options": {}}]}))
    assert sorted(error.problems) == [("colour", "unknown field"), ("input[0].type", "missing")]
    english = error_text(error)

    in_language("zh_CN")
    shown = error_text(error)

    assert "- colour: unknown field" in english and "- input[0].type: missing" in english
    assert "- colour: 未知字段" in shown and "- input[0].type: 缺失" in shown


# ------------------------------------------------------------------------------------------------ the file
def test_a_file_nested_past_the_limit_is_no_usable_design(in_language: Any) -> None:
    """Deeper than Python's parser recurses: the parse itself fails (a shallower file is refused field by field)."""
    error = refusal("[" * 100_000 + "]" * 100_000)

    assert error.path == ""
    assert error.message == f"Not a usable agent design: nested more than {MAX_DEPTH} levels deep"
    in_language("zh_CN")
    shown = error_text(error)
    assert shown.startswith("不是可用的智能体设计：") and str(MAX_DEPTH) in shown and "nested" not in shown


def test_broken_json_names_its_place_and_pythons_fault(in_language: Any) -> None:
    error = refusal('{"version": 1, "name": }')

    assert error.message == "Not valid JSON (line 1, column 24): Expecting value"
    in_language("zh_CN")
    shown = error_text(error)
    assert "Expecting value" not in shown and "24" in shown


def test_bytes_that_are_not_utf8_name_the_decoders_reason() -> None:
    error = refusal(b'{"version": 1, "name": "caf\xe9"}')

    assert error.message == "Not a text file: invalid continuation byte"


def test_a_newer_format_says_which_formats_this_version_reads() -> None:
    error = refusal(json.dumps({"version": DESIGN_VERSION + 1}))

    assert error.message == (
        f"version: this design was saved by a newer Processor Studio (design format {DESIGN_VERSION + 1}; this "
        f"version reads formats up to {DESIGN_VERSION}). Update Processor Studio to open it."
    )


# ------------------------------------------------------------------------------------------------ options
def test_an_option_typed_as_json_python_will_not_read_says_why(in_language: Any) -> None:
    """Not a syntax error: an integer longer than Python converts (``ValueError``, not ``JSONDecodeError``)."""
    typed = "[" + "1" * 5000 + "]"
    with pytest.raises(ValueError, match="digits") as caught:
        json.loads(typed)

    problem = explain_option_error({"limits": typed}, "limits.0", "Input should be a valid list")

    assert isinstance(problem, Problem)
    assert (problem.code, str(problem)) == ("option:not_json", f"Not valid JSON: {caught.value}")
    in_language("zh_CN")
    assert problem_sentence(problem) == f"不是有效的 JSON：{caught.value}"


def test_an_option_typed_as_broken_json_reads_in_chinese(in_language: Any) -> None:
    problem = explain_option_error({"rules": '[{"pattern": '}, "rules", "Input should be a valid list")

    assert isinstance(problem, Problem) and str(problem).startswith("Not valid JSON: Expecting value")
    in_language("zh_CN")
    shown = problem_sentence(problem)
    assert shown.startswith("不是有效的 JSON：") and "Expecting value" not in shown
