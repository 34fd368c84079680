"""The runtime's and the studio's sentences about a *problem* with something the user gave — a regular expression
that does not compile, JSON that does not parse, a thread, corpus or design file refused (a built-in's own check of
an option is translated by its code instead: :func:`studio.error_texts.option_problem_text`) — as
``(regular expression, translatable template)`` pairs for
:data:`studio.i18n.runtime_texts.PATTERNS` (which shows them in the studio's language; see its docstring).
Most specific first, as there.
"""

from __future__ import annotations

from studio.texts.translator import QT_TRANSLATE_NOOP

__all__ = ["PROBLEMS"]

PROBLEMS: tuple[tuple[str, str], ...] = (
    (
        r"unknown processor type (?P<type>'.*?'); known: (?P<known>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "unknown processor type {type}; known: {known}"),
    ),
    # Python's JSON decoder (a JSON option typed wrong, a design or thread file that is no JSON)
    (
        r"Expecting value: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "a value was expected at line {line}, column {column}"),
    ),
    (
        r"Expecting property name enclosed in double quotes: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "a name in double quotes was expected at line {line}, column {column}"),
    ),
    (
        r"Expecting '(?P<what>[^']+)' delimiter: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "'{what}' was expected at line {line}, column {column}"),
    ),
    (
        r"Unterminated string starting at: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "a text starting at line {line}, column {column} is not closed"),
    ),
    (
        r"Extra data: line (?P<line>\d+) column (?P<column>\d+) \(char \d+\)",
        QT_TRANSLATE_NOOP("RuntimeText", "more data after the JSON value at line {line}, column {column}"),
    ),
    (r"Expecting value", QT_TRANSLATE_NOOP("RuntimeText", "a value was expected")),
    (
        r"Expecting property name enclosed in double quotes",
        QT_TRANSLATE_NOOP("RuntimeText", "a name in double quotes was expected"),
    ),
    (r"Expecting '(?P<what>[^']+)' delimiter", QT_TRANSLATE_NOOP("RuntimeText", "'{what}' was expected")),
    (r"Unterminated string starting at", QT_TRANSLATE_NOOP("RuntimeText", "a text is not closed")),
    (r"Extra data", QT_TRANSLATE_NOOP("RuntimeText", "more data after the JSON value")),
    # A thread file's problems (processors.memory.transfer; SqlMemory.import_thread; the studio's runs)
    (
        r"expected a JSON object, got (?P<kind>\w+)",
        QT_TRANSLATE_NOOP("RuntimeText", "expected a JSON object, got {kind}"),
    ),
    (r"not valid JSON: (?P<error>.+)", QT_TRANSLATE_NOOP("RuntimeText", "not valid JSON: {error}")),
    (
        r"a thread with id (?P<id>'.*') already exists",
        QT_TRANSLATE_NOOP("RuntimeText", "a thread with id {id} already exists"),
    ),
    (
        r"(?P<id>'.*') is already stored in another thread",
        QT_TRANSLATE_NOOP("RuntimeText", "{id} is already stored in another thread"),
    ),
    (
        r"(?P<id>'.*') is also the id of (?P<other>messages\[\d+\])",
        QT_TRANSLATE_NOOP("RuntimeText", "{id} is also the id of {other}"),
    ),
    (
        r"(?P<id>'.*') is not the thread's id (?P<thread>'.*')",
        QT_TRANSLATE_NOOP("RuntimeText", "{id} is not the thread's id {thread}"),
    ),
    (r"must be 1 to (?P<max>\d+) characters", QT_TRANSLATE_NOOP("RuntimeText", "must be 1 to {max} characters")),
    (r"(?P<id>'.*') is not an id", QT_TRANSLATE_NOOP("RuntimeText", "{id} is not an id")),
    (
        r"(?P<id>'.*') contains (?P<what>.+), which an id may not contain",
        QT_TRANSLATE_NOOP("RuntimeText", "{id} contains {what}, which an id may not contain"),
    ),
    (r"a (?P<character>'.')", QT_TRANSLATE_NOOP("RuntimeText", "a {character}")),
    (r"a line separator", QT_TRANSLATE_NOOP("RuntimeText", "a line separator")),
    (r"a paragraph separator", QT_TRANSLATE_NOOP("RuntimeText", "a paragraph separator")),
    (
        r"a control character \((?P<code>U\+[0-9A-F]+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "a control character ({code})"),
    ),
    (r"a lone surrogate \((?P<code>U\+[0-9A-F]+)\)", QT_TRANSLATE_NOOP("RuntimeText", "a lone surrogate ({code})")),
    (
        r"unknown part type (?P<type>'.*') \(expected .+\)",
        QT_TRANSLATE_NOOP(
            "RuntimeText",
            "unknown part type {type} (expected text, reasoning, file, source, step-start, error, tool-invocation "
            "or a data-* type)",
        ),
    ),
    (
        r"expected a list of runs, got (?P<kind>\w+)",
        QT_TRANSLATE_NOOP("RuntimeText", "expected a list of runs, got {kind}"),
    ),
    (r"(?P<id>'.*') appears twice", QT_TRANSLATE_NOOP("RuntimeText", "{id} appears twice")),
    (r"run (?P<id>'.*') is already stored", QT_TRANSLATE_NOOP("RuntimeText", "run {id} is already stored")),
    (r"not base64: (?P<error>.+)", QT_TRANSLATE_NOOP("RuntimeText", "not base64: {error}")),
    (
        r"not a readable recording: (?P<error>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "not a readable recording: {error}"),
    ),
    (
        r"larger than (?P<size>\d+) MB decompressed",
        QT_TRANSLATE_NOOP("RuntimeText", "larger than {size} MB decompressed"),
    ),
    # A corpus file's problems (lab.corpus), after "file:line: "
    (
        r"not valid JSON \((?P<error>.+) at column (?P<column>\d+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "not valid JSON ({error} at column {column})"),
    ),
    (r"'text' is missing or empty", QT_TRANSLATE_NOOP("RuntimeText", "'text' is missing or empty")),
    (r"'id' must be a non-empty string", QT_TRANSLATE_NOOP("RuntimeText", "'id' must be a non-empty string")),
    (
        r"'label' must be 'attack' or 'benign', got (?P<got>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "'label' must be 'attack' or 'benign', got {got}"),
    ),
    (
        r"'expect' must be blocked, passed, modified or a processor id, got (?P<got>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "'expect' must be blocked, passed, modified or a processor id, got {got}"),
    ),
    (
        r"a case must be an object, got (?P<kind>\w+)",
        QT_TRANSLATE_NOOP("RuntimeText", "a case must be an object, got {kind}"),
    ),
    (
        r"'(?P<name>\w+)' must be a string, got (?P<kind>\w+)",
        QT_TRANSLATE_NOOP("RuntimeText", "'{name}' must be a string, got {kind}"),
    ),
    (
        r"id (?P<id>'.*') is already used on line (?P<line>\d+)",
        QT_TRANSLATE_NOOP("RuntimeText", "id {id} is already used on line {line}"),
    ),
    (
        r"id (?P<id>'.*') is already used in (?P<place>.+)",
        QT_TRANSLATE_NOOP("RuntimeText", "id {id} is already used in {place}"),
    ),
    (
        r"unknown corpus format (?P<suffix>'.*') \(use (?P<known>.+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "unknown corpus format {suffix} (use {known})"),
    ),
    (r"cannot read it \((?P<error>.+)\)", QT_TRANSLATE_NOOP("RuntimeText", "cannot read it ({error})")),
    (
        r"the first row must name a text column \((?P<keys>.+)\)",
        QT_TRANSLATE_NOOP("RuntimeText", "the first row must name a text column ({keys})"),
    ),
)
