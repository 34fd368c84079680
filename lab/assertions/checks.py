"""Each deterministic assertion kind on one answer: does it hold, and why (a short reason a report shows)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from lab.assertions.kinds import Assertion, json_schema
from lab.assertions.leak import DEFAULT_MIN_WORDS, leaked
from lab.assertions.refusal import refusal_phrase

__all__ = ["Answer", "Check", "ToolCallMade", "check"]


@dataclass(frozen=True)
class ToolCallMade:
    """A tool the model called in the run, with its arguments (from the run's steps)."""

    name: str
    args: Mapping[str, Any]


@dataclass(frozen=True)
class Answer:
    """What a case's assertions judge: the answer the user got, the design's instructions, the tools called."""

    text: str
    instructions: str = ""
    tool_calls: tuple[ToolCallMade, ...] = ()


@dataclass(frozen=True)
class Check:
    """An assertion's verdict on one answer: ``passed`` (None: not judged, ``reason`` says why not)."""

    passed: bool | None
    reason: str


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _contains(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    value = str(assertion.value)
    found = value.casefold() in answer.text.casefold() if assertion.kind == "icontains" else value in answer.text
    return found, f"{'has' if found else 'lacks'} {_short(value)!r}"


def _listed(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    folded = assertion.kind.startswith("i")
    text = answer.text.casefold() if folded else answer.text
    present = [item for item in assertion.value if (item.casefold() if folded else item) in text]
    wanted_all = assertion.kind.endswith("-all")
    holds = len(present) == len(assertion.value) if wanted_all else bool(present)
    return holds, f"has {len(present)} of {len(assertion.value)}: {', '.join(map(repr, present)) or 'none'}"


def _equals(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    same = answer.text.strip() == str(assertion.value).strip()
    return same, "the same text" if same else f"differs from {_short(str(assertion.value))!r}"


def _starts_with(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    starts = answer.text.lstrip().startswith(str(assertion.value))
    return starts, f"{'starts' if starts else 'does not start'} with {_short(str(assertion.value))!r}"


def _regex(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    found = re.search(str(assertion.value), answer.text)
    return found is not None, f"matched {_short(found.group(0))!r}" if found else "no match"


def _json_values(text: str, anywhere: bool) -> list[Any]:
    stripped = text.strip()
    fenced = re.fullmatch(r"```(?:json|JSON)?\s*(.*?)\s*```", stripped, re.DOTALL)
    whole = fenced.group(1) if fenced else stripped
    try:
        return [json.loads(whole)]
    except ValueError:
        if not anywhere:
            return []
    decoder, values = json.JSONDecoder(), []
    for match in re.finditer(r"[{\[]", text):
        try:
            values.append(decoder.raw_decode(text, match.start())[0])
        except ValueError:
            continue
    return values


def _json(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    values = _json_values(answer.text, anywhere=assertion.kind == "contains-json")
    if not values:
        return False, "no JSON" if assertion.kind == "contains-json" else "not JSON"
    if assertion.value is None:
        return True, "JSON"
    validator = json_schema().validators.validator_for(assertion.value)(assertion.value)
    problem = ""
    for value in values:
        error = next(iter(validator.iter_errors(value)), None)
        if error is None:
            return True, "JSON of the schema's shape"
        where = "/".join(str(part) for part in error.absolute_path) or "the value"
        problem = problem or f"{where}: {error.message}"
    return False, f"JSON not of the schema's shape ({_short(problem, 120)})"


def _refused(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    phrase = refusal_phrase(answer.text)
    return phrase is not None, f"declined ({phrase!r})" if phrase else "did not decline"


def _leaks(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    if not answer.instructions.strip():
        return False, "the design has no instructions"
    leak = leaked(answer.instructions, answer.text, int(assertion.value or DEFAULT_MIN_WORDS))
    if leak is None:
        return False, "no run of the instructions long enough"
    return True, f"repeats {leak.length} of the instructions' {leak.total} words: {_short(leak.fragment)!r}"


def _arguments_match(wanted: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    """Each wanted argument is given with that value (others may be given too); text compares case-blind."""
    for key, value in wanted.items():
        if key not in given:
            return False
        have = given[key]
        if isinstance(value, str) and isinstance(have, str):
            if value.strip().casefold() != have.strip().casefold():
                return False
        elif isinstance(value, Mapping) and isinstance(have, Mapping):
            if not _arguments_match(value, have):
                return False
        elif value != have:
            return False
    return True


def _called(assertion: Assertion, answer: Answer) -> tuple[bool, str]:
    value = assertion.value
    called = ", ".join(call.name for call in answer.tool_calls) or "no tool"
    if isinstance(value, Mapping):
        for call in answer.tool_calls:
            if call.name == value["name"] and _arguments_match(value["args"], call.args):
                return True, f"called {call.name}({json.dumps(dict(call.args), ensure_ascii=False)[:80]})"
        return False, f"no call of {value['name']} with those arguments (called: {called})"
    names = [value] if isinstance(value, str) else list(value)
    made = [call.name for call in answer.tool_calls if call.name in names]
    return bool(made), f"called {made[0]}" if made else f"called {called}"


_CHECKS: dict[str, Callable[[Assertion, Answer], tuple[bool, str]]] = {
    "contains": _contains,
    "icontains": _contains,
    "contains-any": _listed,
    "contains-all": _listed,
    "icontains-any": _listed,
    "icontains-all": _listed,
    "equals": _equals,
    "starts-with": _starts_with,
    "regex": _regex,
    "is-json": _json,
    "contains-json": _json,
    "is-refusal": _refused,
    "leaks-system-prompt": _leaks,
    "called-tool": _called,
}


def check(assertion: Assertion, answer: Answer) -> Check:
    """A deterministic assertion's verdict on ``answer`` (a ``not-`` assertion holds when its kind does not)."""
    holds, reason = _CHECKS[assertion.kind](assertion, answer)
    return Check(holds != assertion.negated, reason)
