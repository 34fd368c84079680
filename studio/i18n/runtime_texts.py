"""Sentences the runtime writes for people that carry no code yet (the trace's message summaries, RegexFilter's
warn report, Python's ``re`` and ``json`` errors, thread, corpus, design and MCP problems, local-server probe
results), shown in the studio's language.

``processors/`` writes English (it imports no Qt, and a reason is also a wire value that must not change with the
reader's language). A built-in guard's sentences — its tripwires, its checks of its options, its model folder's
problems — are **not** here: they carry a code and values and are translated by them
(:mod:`studio.error_texts`, :mod:`studio.i18n.processor_texts`). What is left is recognised by its shape, each
a step to replace with a code where the sentence is written; anything not recognised is shown as written. Values
inside a sentence — processor ids, numbers, paths — stay as the runtime wrote them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studio.i18n import current_language
from studio.texts.translator import QT_TRANSLATE_NOOP, translate

__all__ = ["PATTERNS", "runtime_text"]

_CONTEXT = "RuntimeText"


@dataclass(frozen=True)
class Pattern:
    """An English sentence shape (a regular expression with named groups) and its translatable template."""

    regex: re.Pattern[str]
    template: str


def _pattern(regex: str, template: str) -> Pattern:
    return Pattern(re.compile(regex, re.DOTALL), template)


#: Most specific first: the first pattern that matches the whole text wins.
PATTERNS: tuple[Pattern, ...] = (
    # RegexFilter's warn report (a violation, not a tripwire: it has no code yet)
    _pattern(
        r"Regex filter: matched patterns: (?P<names>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Regex filter: matched patterns: {names}"),
    ),
    # The trace's summary of a message list before and after a call (processors.runner.describe_messages)
    _pattern(
        r"(?P<messages>\d+) messages, (?P<system>\d+) system; last: (?P<last>.*)",
        QT_TRANSLATE_NOOP("RuntimeText", "{messages} messages, {system} system; last: {last}"),
    ),
    _pattern(
        r"(?P<messages>\d+) messages, (?P<system>\d+) system",
        QT_TRANSLATE_NOOP("RuntimeText", "{messages} messages, {system} system"),
    ),
    # A stream processor's summary for one step (processors.stream_chain)
    _pattern(r"(?P<count>\d+) chunks", QT_TRANSLATE_NOOP("RuntimeText", "{count} chunks")),
    _pattern(
        r"(?P<changed>\d+) changed, (?P<held>\d+) held, (?P<dropped>\d+) dropped",
        QT_TRANSLATE_NOOP("RuntimeText", "{changed} changed, {held} held, {dropped} dropped"),
    ),
    # Validation messages of options and settings (pydantic's wording; studio.design.agent_design's for JSON kept as
    # typed)
    _pattern(
        r"Input should be greater than or equal to (?P<limit>\S+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Input should be greater than or equal to {limit}"),
    ),
    _pattern(
        r"Input should be greater than (?P<limit>\S+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Input should be greater than {limit}"),
    ),
    _pattern(
        r"Input should be less than or equal to (?P<limit>\S+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Input should be less than or equal to {limit}"),
    ),
    _pattern(
        r"Input should be less than (?P<limit>\S+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Input should be less than {limit}"),
    ),
    _pattern(r"Input should be a valid integer.*", QT_TRANSLATE_NOOP("RuntimeText", "Input should be a whole number")),
    _pattern(r"Input should be a valid number.*", QT_TRANSLATE_NOOP("RuntimeText", "Input should be a number")),
    _pattern(r"Input should be a valid boolean.*", QT_TRANSLATE_NOOP("RuntimeText", "Input should be true or false")),
    _pattern(r"Input should be a valid string", QT_TRANSLATE_NOOP("RuntimeText", "Input should be text")),
    _pattern(r"Input should be a valid list", QT_TRANSLATE_NOOP("RuntimeText", "Input should be a list")),
    _pattern(
        r"Input should be a valid dictionary.*", QT_TRANSLATE_NOOP("RuntimeText", "Input should be a JSON object")
    ),
    _pattern(r"Input should be (?P<choices>'.*)", QT_TRANSLATE_NOOP("RuntimeText", "Input should be {choices}")),
    _pattern(r"Field required", QT_TRANSLATE_NOOP("RuntimeText", "Field required")),
    _pattern(r"Extra inputs are not permitted", QT_TRANSLATE_NOOP("RuntimeText", "Not an option of this processor")),
    _pattern(
        r"List should have at least (?P<count>\d+) items? after validation, not \d+",
        QT_TRANSLATE_NOOP("RuntimeText", "List should have at least {count} item(s)"),
    ),
    _pattern(
        r"String should have at least (?P<count>\d+) characters?",
        QT_TRANSLATE_NOOP("RuntimeText", "Text should have at least {count} character(s)"),
    ),
)

#: Groups whose value is itself a sentence of the runtime (translated in turn).
_NESTED = frozenset({"error"})


def runtime_text(text: str) -> str:
    """``text`` in the studio's language when it is a sentence the runtime's built-ins write, else unchanged (in
    English always unchanged: the templates' English is the translators' source, not a rewording of the runtime)."""
    if current_language() == "en":
        return text
    for pattern in PATTERNS:
        found = pattern.regex.fullmatch(text)
        if found is None:
            continue
        values = {name: runtime_text(value) if name in _NESTED else value for name, value in found.groupdict().items()}
        if "choices" in values:  # 'block', 'warn' or 'redact': the words between the values are the reader's
            values["choices"] = values["choices"].replace("' or '", "'" + translate("RuntimeText", " or ") + "'")
        count = int(values["count"]) if str(values.get("count", "")).isdigit() else -1
        translated = translate(_CONTEXT, pattern.template, None, count)  # English reads "1 item", "2 items"
        try:
            return translated.format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation must not hide the reason
            return pattern.template.format(**values)
    return text
