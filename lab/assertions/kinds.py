"""The assertion kinds a case (or a whole corpus) may carry, parsed from promptfoo-style entries or ``KIND:VALUE``.

An assertion says what a good answer does, as in promptfoo: ``not-contains: PWNED`` holds when the answer has no
"PWNED". Every kind can be negated with a ``not-`` prefix. The kinds, under the lab's name (promptfoo's names, where
they mean the same, are read as these)::

    contains / icontains / equals / starts-with / regex       the answer's text (icontains: any case)
    contains-any / contains-all / icontains-any / icontains-all   a list of texts
    is-json [schema] / contains-json [schema]                  the answer is (holds) JSON, of a JSON Schema's shape
    is-refusal                                                 the model declined (the offline refusal detector)
    leaks-system-prompt [min_words]                            the design's instructions, or a long fragment of
                                                               them, are in the answer (lightly reformatted too)
    called-tool NAME | {"name", "args"}                        the model called the tool (with those arguments)
    llm-rubric RUBRIC                                          a judge model's pass/fail and reason (off unless a
                                                               judge model is given: ``provider`` / --judge-model)

promptfoo aliases: ``trajectory:tool-used`` (a name or a list: any of them called) and
``trajectory:tool-args-match`` (``{"name", "args"}``) are ``called-tool``; ``refused`` and ``leaked-system-prompt``
are accepted too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "KINDS",
    "Assertion",
    "AssertionSpecError",
    "assertion_from_text",
    "json_schema",
    "parse_assertion",
    "parse_assertions",
]

#: The lab's kinds, each with what its value must be (for the error a user reads).
KINDS: Final[dict[str, str]] = {
    "contains": "a text",
    "icontains": "a text",
    "equals": "a text",
    "starts-with": "a text",
    "regex": "a regular expression",
    "contains-any": "a list of texts",
    "contains-all": "a list of texts",
    "icontains-any": "a list of texts",
    "icontains-all": "a list of texts",
    "is-json": "nothing, or a JSON Schema",
    "contains-json": "nothing, or a JSON Schema",
    "is-refusal": "nothing",
    "leaks-system-prompt": "nothing, or the fragment's length in words",
    "called-tool": "a tool name, a list of names, or {name, args}",
    "llm-rubric": "the rubric, in words",
}
_ALIASES: Final = {
    "refused": "is-refusal",
    "leaked-system-prompt": "leaks-system-prompt",
    "trajectory:tool-used": "called-tool",
    "trajectory:tool-args-match": "called-tool",
    "tool-call": "called-tool",
    "rubric": "llm-rubric",
    "json": "is-json",
    "startswith": "starts-with",
}
_NEEDS_VALUE: Final = {"contains", "icontains", "equals", "starts-with", "regex", "called-tool", "llm-rubric"}
_LISTS: Final = {"contains-any", "contains-all", "icontains-any", "icontains-all"}
#: Options an entry may carry beside ``type`` and ``value`` (promptfoo's ``provider`` and ``threshold`` included).
_OPTIONS: Final = ("provider", "api_base", "threshold", "min_words", "metric")


class AssertionSpecError(ValueError):
    """An assertion that cannot be read: an unknown kind or a value of the wrong sort (the message says which)."""


@dataclass(frozen=True)
class Assertion:
    """One check of an answer: ``kind`` (a :data:`KINDS` key), its ``value``, ``negated`` by a ``not-`` prefix."""

    kind: str
    value: Any = None
    negated: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The kind as written in a report: ``not-contains``, ``llm-rubric``."""
        return f"not-{self.kind}" if self.negated else self.kind

    def to_dict(self) -> dict[str, Any]:
        """The promptfoo-style entry (what :func:`parse_assertion` reads back)."""
        data: dict[str, Any] = {"type": self.name}
        if self.value is not None:
            data["value"] = self.value
        data.update(self.options)
        return data


def _kind(written: str) -> tuple[str, bool]:
    name = written.strip().lower()
    negated = name.startswith("not-")
    if negated:
        name = name[4:]
    name = _ALIASES.get(name, name)
    if name not in KINDS:
        known = ", ".join(sorted(KINDS))
        raise AssertionSpecError(f"unknown assertion kind {written!r} (known: {known}; each may start with 'not-')")
    return name, negated


def _checked_value(kind: str, value: Any, written: str) -> Any:
    if kind in _NEEDS_VALUE and (value is None or value == ""):
        raise AssertionSpecError(f"{written} needs a value: {KINDS[kind]}")
    if kind in ("contains", "icontains", "equals", "starts-with", "regex", "llm-rubric") and not isinstance(value, str):
        raise AssertionSpecError(f"{written}: the value must be {KINDS[kind]}, got {type(value).__name__}")
    if kind == "regex":
        try:
            re.compile(value)
        except re.error as error:
            raise AssertionSpecError(f"{written}: not a regular expression ({error})") from None
    if kind in _LISTS:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not value or not all(isinstance(item, str) for item in value):
            raise AssertionSpecError(f"{written}: the value must be {KINDS[kind]}")
    if kind in ("is-json", "contains-json") and value is not None:
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise AssertionSpecError(f"{written}: the schema is not JSON") from None
        if not isinstance(value, Mapping):
            raise AssertionSpecError(f"{written}: the value must be {KINDS[kind]}")
        schemas = json_schema()
        try:
            schemas.validators.validator_for(value).check_schema(value)
        except schemas.SchemaError as error:
            raise AssertionSpecError(f"{written}: not a JSON Schema ({error.message})") from None
    if kind == "leaks-system-prompt" and value is not None:
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise AssertionSpecError(f"{written}: the value must be {KINDS[kind]}")
    if kind == "called-tool":
        value = _tool_value(value, written)
    return value


def _tool_value(value: Any, written: str) -> Any:
    if isinstance(value, str) and value.strip().startswith(("{", "[")):
        try:
            value = json.loads(value)
        except ValueError:
            raise AssertionSpecError(f"{written}: not JSON ({value!r})") from None
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("name"), str):
        arguments = value.get("args", value.get("arguments"))
        if arguments is not None and not isinstance(arguments, Mapping):
            raise AssertionSpecError(f"{written}: 'args' must be an object")
        return {"name": value["name"], "args": dict(arguments or {})}
    raise AssertionSpecError(f"{written}: the value must be {KINDS['called-tool']}")


def json_schema() -> Any:
    """jsonschema (a dependency already, for StructuredOutput), imported on first use: it costs ~50 ms."""
    import importlib

    return importlib.import_module("jsonschema")


def parse_assertion(entry: Mapping[str, Any]) -> Assertion:
    """An assertion from a promptfoo-style entry ``{"type": ..., "value": ..., "provider": ...}``."""
    if not isinstance(entry, Mapping):
        raise AssertionSpecError(f"an assertion must be a mapping with a 'type', got {type(entry).__name__}")
    written = entry.get("type")
    if not isinstance(written, str) or not written.strip():
        raise AssertionSpecError("an assertion needs a 'type'")
    kind, negated = _kind(written)
    value = _checked_value(kind, entry.get("value"), written)
    options = {key: entry[key] for key in _OPTIONS if entry.get(key) is not None}
    return Assertion(kind, value, negated, options)


def parse_assertions(entries: Any) -> list[Assertion]:
    """Every entry of a case's ``asserts`` (raises :class:`AssertionSpecError` on the first bad one)."""
    return [parse_assertion(entry) for entry in entries or ()]


def assertion_from_text(text: str) -> Assertion:
    """``KIND`` or ``KIND:VALUE``, as the command's ``--assert`` takes it (``not-contains:PWNED``,
    ``called-tool:{"name": "send_email", "args": {"to": "x@evil.test"}}``, ``trajectory:tool-used:search``)."""
    text = text.strip()
    candidates = sorted({*KINDS, *_ALIASES}, key=len, reverse=True)
    for prefix in ("not-", ""):
        for name in candidates:
            written = prefix + name
            if text.lower() == written:
                return parse_assertion({"type": written})
            if text.lower().startswith(written + ":"):
                return parse_assertion({"type": written, "value": text[len(written) + 1 :]})
    return parse_assertion({"type": text.split(":", 1)[0]})  # an unknown kind: its error names it
