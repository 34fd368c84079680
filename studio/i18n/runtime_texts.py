"""Sentences the runtime writes for people (tripwire reasons of the built-ins, local-server probe results), shown
in the studio's language.

``processors/`` writes English (it imports no Qt, and a reason is also a wire value that must not change with the
reader's language). The studio recognises the built-ins' sentences by their shape and shows the translated
sentence with the same values; anything it does not recognise (a plug-in's reason, a reason a user typed in an
option) is shown as written. Values inside a sentence — processor ids, PII types, languages, numbers — stay
as the runtime wrote them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studio.i18n import current_language
from studio.texts import QT_TRANSLATE_NOOP, translate

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
    # PIIDetector
    _pattern(r"PII detected\. Types: (?P<types>.+)", QT_TRANSLATE_NOOP("RuntimeText", "PII detected. Types: {types}")),
    # PromptInjectionDetector (the optional parts in any combination)
    _pattern(
        r"Prompt injection detected\. Types: (?P<types>.+?) \(in (?P<where>the result of tool '[^']*')\)"
        r"\. Reason: (?P<reason>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Prompt injection detected. Types: {types} (in {where}). Reason: {reason}"),
    ),
    _pattern(
        r"Prompt injection detected\. Types: (?P<types>.+?) \(in (?P<where>the result of tool '[^']*')\)",
        QT_TRANSLATE_NOOP("RuntimeText", "Prompt injection detected. Types: {types} (in {where})"),
    ),
    _pattern(
        r"Prompt injection detected\. Types: (?P<types>.+?)\. Reason: (?P<reason>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Prompt injection detected. Types: {types}. Reason: {reason}"),
    ),
    _pattern(
        r"Prompt injection detected\. Types: (?P<types>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Prompt injection detected. Types: {types}"),
    ),
    _pattern(r"the result of tool '(?P<tool>[^']*)'", QT_TRANSLATE_NOOP("RuntimeText", "the result of tool '{tool}'")),
    # SystemPromptScrubber
    _pattern(
        r"System prompt detected: (?P<kinds>.+)", QT_TRANSLATE_NOOP("RuntimeText", "System prompt detected: {kinds}")
    ),
    # TokenLimiter
    _pattern(
        r"Token limit of (?P<limit>\d+) exceeded \(current: (?P<current>\d+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "Token limit of {limit} exceeded (current: {current})"),
    ),
    _pattern(
        r"TokenLimiter: there are no messages to send",
        QT_TRANSLATE_NOOP("RuntimeText", "TokenLimiter: there are no messages to send"),
    ),
    _pattern(
        r"TokenLimiter: the system messages alone use (?P<used>\d+) tokens, over the limit of (?P<limit>\d+)",
        QT_TRANSLATE_NOOP(
            "RuntimeText", "TokenLimiter: the system messages alone use {used} tokens, over the limit of {limit}"
        ),
    ),
    _pattern(
        r"TokenLimiter: no message fits in the limit of (?P<limit>\d+) tokens \((?P<used>\d+) used by system "
        r"messages\)",
        QT_TRANSLATE_NOOP(
            "RuntimeText",
            "TokenLimiter: no message fits in the limit of {limit} tokens ({used} used by system messages)",
        ),
    ),
    # ModerationProcessor
    _pattern(
        r"Content flagged for moderation\. Categories: (?P<categories>.+?)\. Reason: (?P<reason>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Content flagged for moderation. Categories: {categories}. Reason: {reason}"),
    ),
    _pattern(
        r"Content flagged for moderation\. Categories: (?P<categories>.+?)\. Scores: (?P<scores>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Content flagged for moderation. Categories: {categories}. Scores: {scores}"),
    ),
    _pattern(
        r"Content flagged for moderation\. Categories: (?P<categories>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Content flagged for moderation. Categories: {categories}"),
    ),
    # LanguageDetector
    _pattern(
        r"Non-target language detected: (?P<language>.+?) \((?P<code>[^,]+), confidence (?P<confidence>[\d.]+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "Non-target language detected: {language} ({code}, confidence {confidence})"),
    ),
    # CostGuard
    _pattern(
        r"Cost budget of (?P<budget>\$[\d.]+) for this (?P<scope>\w+) is used up \(spent (?P<spent>\$[\d.]+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "Cost budget of {budget} for this {scope} is used up (spent {spent})"),
    ),
    # StructuredOutput
    _pattern(
        r"Structured output failed: the structuring model failed: (?P<error>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Structured output failed: the structuring model failed: {error}"),
    ),
    _pattern(
        r"The answer does not match the required JSON schema: (?P<problems>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "The answer does not match the required JSON schema: {problems}"),
    ),
    # RegexFilter
    _pattern(
        r"Regex filter: blocked (?P<context>\S+) matching patterns: (?P<names>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Regex filter: blocked {context} matching patterns: {names}"),
    ),
    _pattern(
        r"Regex filter: matched patterns: (?P<names>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "Regex filter: matched patterns: {names}"),
    ),
    # Judges (any judge-backed detector)
    _pattern(
        r"(?P<what>.+?) failed because the judge model call failed: (?P<error>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "{what} failed because the judge model call failed: {error}"),
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
    # Validation messages of options and settings (pydantic's wording; studio.design's for JSON kept as typed)
    _pattern(r"Not valid JSON: (?P<error>.+)", QT_TRANSLATE_NOOP("RuntimeText", "Not valid JSON: {error}")),
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
    # A regular expression that does not compile (RegexFilter's rules, StreamErrorRetry's matchers); Python's
    # own words for the fault are translated in turn (the "error" group)
    _pattern(
        r"invalid regular expression (?P<pattern>'.*?') with flags (?P<flags>.+?): (?P<error>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "invalid regular expression {pattern} with flags {flags}: {error}"),
    ),
    _pattern(
        r"invalid regular expression (?P<pattern>'.*?'): (?P<error>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "invalid regular expression {pattern}: {error}"),
    ),
    _pattern(
        r"matcher (?P<index>\d+) is not a valid regular expression \((?P<pattern>'.*?')\): (?P<error>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "matcher {index} is not a valid regular expression ({pattern}): {error}"),
    ),
    _pattern(
        r"missing \), unterminated subpattern at position (?P<position>\d+)(?P<rest>.*)",
        QT_TRANSLATE_NOOP("RuntimeText", "missing ), unterminated subpattern at position {position}{rest}"),
    ),
    _pattern(
        r"unbalanced parenthesis at position (?P<position>\d+)(?P<rest>.*)",
        QT_TRANSLATE_NOOP("RuntimeText", "unbalanced parenthesis at position {position}{rest}"),
    ),
    _pattern(
        r"nothing to repeat at position (?P<position>\d+)(?P<rest>.*)",
        QT_TRANSLATE_NOOP("RuntimeText", "nothing to repeat at position {position}{rest}"),
    ),
    _pattern(
        r"multiple repeat at position (?P<position>\d+)(?P<rest>.*)",
        QT_TRANSLATE_NOOP("RuntimeText", "multiple repeat at position {position}{rest}"),
    ),
    _pattern(
        r"unterminated character set at position (?P<position>\d+)(?P<rest>.*)",
        QT_TRANSLATE_NOOP("RuntimeText", "unterminated character set at position {position}{rest}"),
    ),
    _pattern(
        r"bad escape (?P<escape>.+?) at position (?P<position>\d+)(?P<rest>.*)",
        QT_TRANSLATE_NOOP("RuntimeText", "bad escape {escape} at position {position}{rest}"),
    ),
    # The built-ins' own checks of their options (an option form's message, a refused run)
    _pattern(
        r"RegexFilter needs at least one rule or preset",
        QT_TRANSLATE_NOOP("RuntimeText", "RegexFilter needs at least one rule or preset"),
    ),
    _pattern(r"name at least one category", QT_TRANSLATE_NOOP("RuntimeText", "name at least one category")),
    _pattern(r"name at least one detection type", QT_TRANSLATE_NOOP("RuntimeText", "name at least one detection type")),
    _pattern(
        r"name at least one target language", QT_TRANSLATE_NOOP("RuntimeText", "name at least one target language")
    ),
    _pattern(
        r"unknown languages (?P<languages>.+): use English names or ISO 639-1 codes",
        QT_TRANSLATE_NOOP("RuntimeText", "unknown languages {languages}: use English names or ISO 639-1 codes"),
    ),
    _pattern(
        r"unknown categories (?P<categories>.+); known: (?P<known>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "unknown categories {categories}; known: {known}"),
    ),
    _pattern(
        r"model: the 'translate' strategy needs a model",
        QT_TRANSLATE_NOOP("RuntimeText", "model: the 'translate' strategy needs a model"),
    ),
    _pattern(
        r"give two scores 0 <= low <= high <= 1",
        QT_TRANSLATE_NOOP("RuntimeText", "give two scores 0 <= low <= high <= 1"),
    ),
    _pattern(
        r"must be a model id string \(e\.g\. 'openai/gpt-4o-mini'\) or a LanguageModel object",
        QT_TRANSLATE_NOOP(
            "RuntimeText", "must be a model id string (e.g. 'openai/gpt-4o-mini') or a LanguageModel object"
        ),
    ),
    _pattern(
        r"judge_preset: unknown preset \(known: (?P<known>.+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "judge_preset: unknown preset (known: {known})"),
    ),
    _pattern(
        r"must be a local server \(localhost, 127\.0\.0\.1 or ::1\); a hosted judge needs no api_base",
        QT_TRANSLATE_NOOP(
            "RuntimeText", "must be a local server (localhost, 127.0.0.1 or ::1); a hosted judge needs no api_base"
        ),
    ),
    _pattern(
        r"not a valid JSON schema: (?P<error>.+)", QT_TRANSLATE_NOOP("RuntimeText", "not a valid JSON schema: {error}")
    ),
    _pattern(
        r"must be a JSON schema \(a dict\) or a pydantic model class",
        QT_TRANSLATE_NOOP("RuntimeText", "must be a JSON schema (a dict) or a pydantic model class"),
    ),
    _pattern(
        r"pattern (?P<index>\d+) \((?P<pattern>'.*?')\) does not compile: (?P<error>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "pattern {index} ({pattern}) does not compile: {error}"),
    ),
    _pattern(
        r"unknown processor type (?P<type>'.*?'); known: (?P<known>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "unknown processor type {type}; known: {known}"),
    ),
    # Python's JSON decoder (a JSON option typed wrong, a design or thread file that is no JSON)
    _pattern(
        r"Expecting value: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "a value was expected at line {line}, column {column}"),
    ),
    _pattern(
        r"Expecting property name enclosed in double quotes: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "a name in double quotes was expected at line {line}, column {column}"),
    ),
    _pattern(
        r"Expecting '(?P<what>[^']+)' delimiter: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "'{what}' was expected at line {line}, column {column}"),
    ),
    _pattern(
        r"Unterminated string starting at: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "a text starting at line {line}, column {column} is not closed"),
    ),
    _pattern(
        r"Extra data: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "more data after the JSON value at line {line}, column {column}"),
    ),
    _pattern(r"Expecting value", QT_TRANSLATE_NOOP("RuntimeText", "a value was expected")),
    _pattern(
        r"Expecting property name enclosed in double quotes",
        QT_TRANSLATE_NOOP("RuntimeText", "a name in double quotes was expected"),
    ),
    _pattern(r"Expecting '(?P<what>[^']+)' delimiter", QT_TRANSLATE_NOOP("RuntimeText", "'{what}' was expected")),
    _pattern(r"Unterminated string starting at", QT_TRANSLATE_NOOP("RuntimeText", "a text is not closed")),
    _pattern(r"Extra data", QT_TRANSLATE_NOOP("RuntimeText", "more data after the JSON value")),
    # A thread file's problems (processors.memory.transfer; SqlMemory.import_thread; the studio's runs)
    _pattern(
        r"expected a JSON object, got (?P<kind>\w+)",
        QT_TRANSLATE_NOOP("RuntimeText", "expected a JSON object, got {kind}"),
    ),
    _pattern(r"not valid JSON: (?P<error>.+)", QT_TRANSLATE_NOOP("RuntimeText", "not valid JSON: {error}")),
    _pattern(
        r"a thread with id (?P<id>'.*') already exists",
        QT_TRANSLATE_NOOP("RuntimeText", "a thread with id {id} already exists"),
    ),
    _pattern(
        r"(?P<id>'.*') is already stored in another thread",
        QT_TRANSLATE_NOOP("RuntimeText", "{id} is already stored in another thread"),
    ),
    _pattern(
        r"(?P<id>'.*') is also the id of (?P<other>messages\[\d+\])",
        QT_TRANSLATE_NOOP("RuntimeText", "{id} is also the id of {other}"),
    ),
    _pattern(
        r"(?P<id>'.*') is not the thread's id (?P<thread>'.*')",
        QT_TRANSLATE_NOOP("RuntimeText", "{id} is not the thread's id {thread}"),
    ),
    _pattern(
        r"must be 1 to (?P<max>\d+) characters", QT_TRANSLATE_NOOP("RuntimeText", "must be 1 to {max} characters")
    ),
    _pattern(r"(?P<id>'.*') is not an id", QT_TRANSLATE_NOOP("RuntimeText", "{id} is not an id")),
    _pattern(
        r"(?P<id>'.*') contains (?P<what>.+), which an id may not contain",
        QT_TRANSLATE_NOOP("RuntimeText", "{id} contains {what}, which an id may not contain"),
    ),
    _pattern(r"a (?P<character>'.')", QT_TRANSLATE_NOOP("RuntimeText", "a {character}")),
    _pattern(r"a line separator", QT_TRANSLATE_NOOP("RuntimeText", "a line separator")),
    _pattern(r"a paragraph separator", QT_TRANSLATE_NOOP("RuntimeText", "a paragraph separator")),
    _pattern(
        r"a control character \((?P<code>U\+[0-9A-F]+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "a control character ({code})"),
    ),
    _pattern(
        r"a lone surrogate \((?P<code>U\+[0-9A-F]+)\)", QT_TRANSLATE_NOOP("RuntimeText", "a lone surrogate ({code})")
    ),
    _pattern(
        r"unknown part type (?P<type>'.*') \(expected .+\)",
        QT_TRANSLATE_NOOP(
            "RuntimeText",
            "unknown part type {type} (expected text, reasoning, file, source, step-start, error, tool-invocation "
            "or a data-* type)",
        ),
    ),
    _pattern(
        r"expected a list of runs, got (?P<kind>\w+)",
        QT_TRANSLATE_NOOP("RuntimeText", "expected a list of runs, got {kind}"),
    ),
    _pattern(r"(?P<id>'.*') appears twice", QT_TRANSLATE_NOOP("RuntimeText", "{id} appears twice")),
    _pattern(r"run (?P<id>'.*') is already stored", QT_TRANSLATE_NOOP("RuntimeText", "run {id} is already stored")),
    _pattern(r"not base64: (?P<error>.+)", QT_TRANSLATE_NOOP("RuntimeText", "not base64: {error}")),
    _pattern(
        r"not a readable recording: (?P<error>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "not a readable recording: {error}"),
    ),
    _pattern(
        r"larger than (?P<size>\d+) MB decompressed",
        QT_TRANSLATE_NOOP("RuntimeText", "larger than {size} MB decompressed"),
    ),
    # A corpus file's problems (lab.corpus), after "file:line: "
    _pattern(
        r"not valid JSON \((?P<error>.+) at column (?P<column>\d+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "not valid JSON ({error} at column {column})"),
    ),
    _pattern(r"'text' is missing or empty", QT_TRANSLATE_NOOP("RuntimeText", "'text' is missing or empty")),
    _pattern(r"'id' must be a non-empty string", QT_TRANSLATE_NOOP("RuntimeText", "'id' must be a non-empty string")),
    _pattern(
        r"'label' must be 'attack' or 'benign', got (?P<got>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "'label' must be 'attack' or 'benign', got {got}"),
    ),
    _pattern(
        r"'expect' must be blocked, passed, modified or a processor id, got (?P<got>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "'expect' must be blocked, passed, modified or a processor id, got {got}"),
    ),
    _pattern(
        r"a case must be an object, got (?P<kind>\w+)",
        QT_TRANSLATE_NOOP("RuntimeText", "a case must be an object, got {kind}"),
    ),
    _pattern(
        r"'(?P<name>\w+)' must be a string, got (?P<kind>\w+)",
        QT_TRANSLATE_NOOP("RuntimeText", "'{name}' must be a string, got {kind}"),
    ),
    _pattern(
        r"id (?P<id>'.*') is already used on line (?P<line>\d+)",
        QT_TRANSLATE_NOOP("RuntimeText", "id {id} is already used on line {line}"),
    ),
    _pattern(
        r"id (?P<id>'.*') is already used in (?P<place>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "id {id} is already used in {place}"),
    ),
    _pattern(
        r"unknown corpus format (?P<suffix>'.*') \(use (?P<known>.+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "unknown corpus format {suffix} (use {known})"),
    ),
    _pattern(r"cannot read it \((?P<error>.+)\)", QT_TRANSLATE_NOOP("RuntimeText", "cannot read it ({error})")),
    _pattern(
        r"the first row must name a text column \((?P<keys>.+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "the first row must name a text column ({keys})"),
    ),
    # Limits on JSON from elsewhere (processors.json_limits)
    _pattern(
        r"nested more than (?P<depth>\d+) levels deep",
        QT_TRANSLATE_NOOP("RuntimeText", "nested more than {depth} levels deep"),
    ),
    _pattern(
        r"not a finite number \(NaN, Infinity and numbers too large for a float are not JSON values\)",
        QT_TRANSLATE_NOOP(
            "RuntimeText",
            "not a finite number (NaN, Infinity and numbers too large for a float are not JSON values)",
        ),
    ),
    # A design's own problems (studio.design: unknown and missing fields, MCP servers)
    _pattern(r"unknown field", QT_TRANSLATE_NOOP("RuntimeText", "unknown field")),
    _pattern(r"missing", QT_TRANSLATE_NOOP("RuntimeText", "missing")),
    _pattern(r"Value error, (?P<error>.+)", QT_TRANSLATE_NOOP("RuntimeText", "{error}")),
    _pattern(
        r"a stdio MCP server needs a command", QT_TRANSLATE_NOOP("RuntimeText", "a stdio MCP server needs a command")
    ),
    _pattern(
        r"an http MCP server needs an http:// or https:// URL",
        QT_TRANSLATE_NOOP("RuntimeText", "an http MCP server needs an http:// or https:// URL"),
    ),
    _pattern(
        r"the URL carries a credential; credentials belong in the keyring, not a design",
        QT_TRANSLATE_NOOP(
            "RuntimeText", "the URL carries a credential; credentials belong in the keyring, not a design"
        ),
    ),
    _pattern(
        r"(?P<field>\S+): credentials must not be saved in a design, where anyone it is shared with reads them; the "
        r"studio reads them from the keyring",
        QT_TRANSLATE_NOOP(
            "RuntimeText",
            "{field}: credentials must not be saved in a design, where anyone it is shared with reads them; the "
            "studio reads them from the keyring",
        ),
    ),
    # The local model server probe (Settings → Find local servers)
    _pattern(
        r"(?P<server>.+?) \(port (?P<port>\d+)\): not running",
        QT_TRANSLATE_NOOP("RuntimeText", "{server} (port {port}): not running"),
    ),
    _pattern(
        r"(?P<server>.+?) \(port (?P<port>\d+)\): no answer within (?P<time>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "{server} (port {port}): no answer within {time}"),
    ),
)

#: Groups whose value is itself a sentence of the runtime (translated in turn).
_NESTED = frozenset({"where", "error", "what"})


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
