"""processors.problems: a refusal that wraps another fault keeps that fault's code inside its own."""

from __future__ import annotations

import pickle
import re

import pytest
from pydantic import ValidationError

from processors.builtin.stream_error_retry import StreamErrorRetryOptions
from processors.builtin.system_prompt_scrubber import SystemPromptScrubberOptions
from processors.problems import Problem, ProblemError, refusal, regex_problem


def test_a_refusal_keeps_the_coded_fault_it_wraps() -> None:
    inner = ProblemError(Problem("pattern:backtracks", "the pattern {pattern!r} backtracks", pattern="(a+)+"))

    error = refusal("pattern:indexed", "pattern {index}: {error}", inner, index=2)

    assert isinstance(error, ValueError)
    assert error.code == "pattern:indexed"
    assert str(error) == "pattern 2: the pattern '(a+)+' backtracks"
    nested = error.params["error"]
    assert isinstance(nested, Problem)
    assert nested.code == "pattern:backtracks"
    assert pickle.loads(pickle.dumps(error.problem)).params["error"].code == "pattern:backtracks"


def test_a_refusal_of_an_uncoded_fault_holds_its_text() -> None:
    error = refusal("pattern:indexed", "pattern {index}: {error}", ValueError("too long"), index=0)

    assert error.params == {"index": 0, "error": "too long"}
    assert str(error) == "pattern 0: too long"


def test_a_refusal_takes_a_problem_as_its_fault() -> None:
    try:
        re.compile("(")
    except re.error as compile_error:
        fault = regex_problem(compile_error)

    error = refusal("pattern:does_not_compile", "pattern {index} ({pattern!r}): {error}", fault, index=1, pattern="(")

    assert error.params["error"].code == "regex:missing ), unterminated subpattern"
    assert str(error).startswith("pattern 1 ('('): missing ), unterminated subpattern")


@pytest.mark.parametrize(
    ("options", "field", "codes"),
    [
        (StreamErrorRetryOptions, "matchers", ("pattern:matcher_invalid", "pattern:matcher")),
        (SystemPromptScrubberOptions, "custom_patterns", ("pattern:does_not_compile", "pattern:indexed")),
    ],
)
def test_the_pattern_options_refuse_by_code(options: type, field: str, codes: tuple[str, str]) -> None:
    """Both built-ins that take a list of patterns wrap their faults the same way (one helper)."""
    found = []
    for patterns in (["ok", "("], ["ok", "(a+)+$"]):
        with pytest.raises(ValidationError) as raised:
            options(**{field: patterns})
        problem = raised.value.errors()[0]["ctx"]["error"].problem
        assert problem.params["index"] == 1
        assert isinstance(problem.params["error"], Problem)
        found.append(problem.code)
    assert tuple(found) == codes
