"""The last sentences the runtime writes for people that carry no code yet — the trace's summary of a message list
before and after a call — shown in the studio's language by their shape.

Everything else is translated by a code and values, never by its English: a built-in guard's tripwires, option
checks and model-folder problems (:mod:`studio.error_texts`, :mod:`studio.i18n.processor_texts`), and every other
problem — patterns, JSON, thread, corpus, design, MCP, local servers, pydantic's own — as a
:class:`processors.problems.Problem` (:mod:`studio.texts.problems`). The one left needs a code stored beside its text
(a trace event's row keeps only the text): ``tests/studio/texts/test_no_sentence_regexes.py`` holds
this table to them, so it only shrinks. Anything not recognised is shown as written."""

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
    # The trace's summary of a message list before and after a call (processors.runner.describe_messages)
    _pattern(
        r"(?P<messages>\d+) messages, (?P<system>\d+) system; last: (?P<last>.*)",
        QT_TRANSLATE_NOOP("RuntimeText", "{messages} messages, {system} system; last: {last}"),
    ),
    _pattern(
        r"(?P<messages>\d+) messages, (?P<system>\d+) system",
        QT_TRANSLATE_NOOP("RuntimeText", "{messages} messages, {system} system"),
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
