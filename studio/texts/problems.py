"""A coded problem (:class:`processors.problems.Problem`) in the reader's language, by its code and values.

The runtime and the studio's headless layers write a problem as English that carries ``code`` and ``params``;
:data:`PROBLEM_TEXTS` holds the sentence of each code, marked for translation, and :func:`problem_sentence` writes it
in the studio's language with the values (a value that is itself a problem — Python's words for a pattern or JSON
fault — is translated in turn, from its structured parts: :data:`REGEX_FAULTS`, :data:`JSON_FAULTS`). Nothing here
reads the English: a reworded sentence in the runtime keeps its code, and its reader's language. A code not known
here, or a sentence no catalogue translates (English), is shown as the runtime wrote it. Plain Python (no Qt).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from processors.problems import Problem
from studio.texts.translator import QT_TRANSLATE_NOOP, translate

__all__ = [
    "JSON_FAULTS",
    "PROBLEM_TEXTS",
    "PYDANTIC_PROBLEMS",
    "REGEX_FAULTS",
    "change_reason",
    "coded_problem",
    "problem_sentence",
    "pydantic_sentence",
    "shown_problem",
]

_CONTEXT = "ProblemText"

#: Each code's sentence; the values are the runtime's (``{pattern!r}`` quotes a pattern as Python does).
PROBLEM_TEXTS: dict[str, str] = {
    # A user's regular expression (RegexFilter's rules, StreamErrorRetry's matchers, the scrubber's patterns)
    "pattern:invalid": QT_TRANSLATE_NOOP("ProblemText", "invalid regular expression {pattern!r}: {error}"),
    "pattern:invalid_with_flags": QT_TRANSLATE_NOOP(
        "ProblemText", "invalid regular expression {pattern!r} with flags {flags!r}: {error}"
    ),
    "pattern:backtracks": QT_TRANSLATE_NOOP(
        "ProblemText",
        "the regular expression {pattern!r} can backtrack catastrophically: a repeated part can match the same text "
        "in more than one way",
    ),
    "pattern:indexed": QT_TRANSLATE_NOOP("ProblemText", "pattern {index}: {error}"),
    "pattern:matcher": QT_TRANSLATE_NOOP("ProblemText", "matcher {index}: {error}"),
    "pattern:matcher_invalid": QT_TRANSLATE_NOOP(
        "ProblemText", "matcher {index} is not a valid regular expression ({pattern!r}): {error}"
    ),
    "pattern:does_not_compile": QT_TRANSLATE_NOOP(
        "ProblemText", "pattern {index} ({pattern!r}) does not compile: {error}"
    ),
    # A plug-in processor that takes options without declaring them (processors/builtin/plugin_options.py)
    "plugin:options_undeclared": QT_TRANSLATE_NOOP(
        "ProblemText",
        "{type} does not declare its options: give its class an Options model (pydantic) or an options_schema "
        "(a JSON schema) to set them in the studio",
    ),
    # An MCP server a design names (processors/tools/mcp.py, studio/mcp/servers.py, the design's own checks); the
    # launch line and the SDK's reason stay as written
    "mcp:no_start": QT_TRANSLATE_NOOP(
        "ProblemText", "MCP server '{name}' ({launch}) did not start within {seconds:g} s"
    ),
    "mcp:cannot_start": QT_TRANSLATE_NOOP(
        "ProblemText", "MCP server '{name}' ({launch}) could not be started: {reason}"
    ),
    "mcp:tools_missing": QT_TRANSLATE_NOOP(
        "ProblemText", "MCP server '{name}' does not offer the tool(s) {tools} that the design enables"
    ),
    "mcp:stopped": QT_TRANSLATE_NOOP("ProblemText", "MCP server '{name}' stopped: {reason}"),
    "mcp:needs_command": QT_TRANSLATE_NOOP("ProblemText", "a stdio MCP server needs a command"),
    "mcp:needs_url": QT_TRANSLATE_NOOP("ProblemText", "an http MCP server needs an http:// or https:// URL"),
    "mcp:url_credential": QT_TRANSLATE_NOOP(
        "ProblemText", "the URL carries a credential; credentials belong in the keyring, not a design"
    ),
    "mcp:credential_saved": QT_TRANSLATE_NOOP(
        "ProblemText",
        "{field}: credentials must not be saved in a design, where anyone it is shared with reads them; the studio "
        "reads them from the keyring",
    ),
    # A thread file's problems (processors.memory.transfer, SqlMemory.import_thread, the studio's runs), each after
    # the place it is at
    "problem:located": QT_TRANSLATE_NOOP("ProblemText", "{where}: {problem}"),
    "thread:not_object": QT_TRANSLATE_NOOP("ProblemText", "expected a JSON object, got {kind}"),
    "thread:not_json": QT_TRANSLATE_NOOP("ProblemText", "not valid JSON: {error}"),
    "thread:exists": QT_TRANSLATE_NOOP("ProblemText", "a thread with id {id!r} already exists"),
    "thread:message_taken": QT_TRANSLATE_NOOP("ProblemText", "{id!r} is already stored in another thread"),
    "thread:id_repeated": QT_TRANSLATE_NOOP("ProblemText", "{id!r} is also the id of {other}"),
    "thread:foreign_thread": QT_TRANSLATE_NOOP("ProblemText", "{id!r} is not the thread's id {thread!r}"),
    "thread:id_length": QT_TRANSLATE_NOOP("ProblemText", "must be 1 to {max} characters"),
    "thread:not_an_id": QT_TRANSLATE_NOOP("ProblemText", "{id!r} is not an id"),
    "thread:id_character": QT_TRANSLATE_NOOP("ProblemText", "{id!r} contains {character}, which an id may not contain"),
    "character:named": QT_TRANSLATE_NOOP("ProblemText", "a {character!r}"),
    "character:line_separator": QT_TRANSLATE_NOOP("ProblemText", "a line separator"),
    "character:paragraph_separator": QT_TRANSLATE_NOOP("ProblemText", "a paragraph separator"),
    "character:lone_surrogate": QT_TRANSLATE_NOOP("ProblemText", "a lone surrogate ({code})"),
    "character:control": QT_TRANSLATE_NOOP("ProblemText", "a control character ({code})"),
    "thread:unknown_part": QT_TRANSLATE_NOOP(
        "ProblemText",
        "unknown part type {type!r} (expected text, reasoning, file, source, step-start, error, tool-invocation or a "
        "data-* type)",
    ),
    "runs:not_list": QT_TRANSLATE_NOOP("ProblemText", "expected a list of runs, got {kind}"),
    "runs:twice": QT_TRANSLATE_NOOP("ProblemText", "{id!r} appears twice"),
    "runs:stored": QT_TRANSLATE_NOOP("ProblemText", "run {id!r} is already stored"),
    "runs:not_base64": QT_TRANSLATE_NOOP("ProblemText", "not base64: {error}"),
    "runs:unreadable": QT_TRANSLATE_NOOP("ProblemText", "not a readable recording: {error}"),
    "runs:too_large": QT_TRANSLATE_NOOP("ProblemText", "larger than {size} MB decompressed"),
    # A JSON option kept as the text the user typed (studio.design.agent_design.explain_option_error)
    "option:not_json": QT_TRANSLATE_NOOP("ProblemText", "Not valid JSON: {error}"),
    # A corpus file's problems (lab.corpus), after "file:line: "
    "corpus:not_json": QT_TRANSLATE_NOOP("ProblemText", "not valid JSON ({json_fault} at column {column})"),
    "corpus:text_missing": QT_TRANSLATE_NOOP("ProblemText", "'text' is missing or empty"),
    "corpus:id_empty": QT_TRANSLATE_NOOP("ProblemText", "'id' must be a non-empty string"),
    "corpus:bad_label": QT_TRANSLATE_NOOP("ProblemText", "'label' must be 'attack' or 'benign', got {got!r}"),
    "corpus:bad_expect": QT_TRANSLATE_NOOP(
        "ProblemText", "'expect' must be blocked, passed, modified or a processor id, got {got!r}"
    ),
    "corpus:not_object": QT_TRANSLATE_NOOP("ProblemText", "a case must be an object, got {kind}"),
    "corpus:not_string": QT_TRANSLATE_NOOP("ProblemText", "'{name}' must be a string, got {kind}"),
    "corpus:id_used_line": QT_TRANSLATE_NOOP("ProblemText", "id {id!r} is already used on line {line}"),
    "corpus:id_used_in": QT_TRANSLATE_NOOP("ProblemText", "id {id!r} is already used in {place}"),
    "corpus:unknown_format": QT_TRANSLATE_NOOP("ProblemText", "unknown corpus format {suffix!r} (use {known})"),
    "corpus:unreadable": QT_TRANSLATE_NOOP("ProblemText", "cannot read it ({error})"),
    "corpus:no_text_column": QT_TRANSLATE_NOOP("ProblemText", "the first row must name a text column ({keys})"),
    "catalogue:unknown_type": QT_TRANSLATE_NOOP("ProblemText", "unknown processor type {type!r}; known: {known}"),
    # The trace's summary of a message list before and after a call (processors.pipeline.runner.describe_messages)
    "trace:messages_last": QT_TRANSLATE_NOOP("ProblemText", "{messages} messages, {system} system; last: {last!r}"),
    "trace:messages": QT_TRANSLATE_NOOP("ProblemText", "{messages} messages, {system} system"),
    # The local model server probe (Settings → Find local servers); the time limit stays as written
    "local_server:not_running": QT_TRANSLATE_NOOP("ProblemText", "{server} (port {port}): not running"),
    "local_server:no_answer": QT_TRANSLATE_NOOP("ProblemText", "{server} (port {port}): no answer within {time}"),
    # The runtime's own tripwire reason (processors.tripwire.UNNAMED_ABORT)
    "tripwire:unnamed": QT_TRANSLATE_NOOP("ProblemText", "Tripwire triggered by {processor}"),
    # A design's own problems (studio.design.agent_design) and limits on JSON from elsewhere (processors.json_limits)
    "design:unknown_field": QT_TRANSLATE_NOOP("ProblemText", "unknown field"),
    "design:missing": QT_TRANSLATE_NOOP("ProblemText", "missing"),
    "json_limit:too_deep": QT_TRANSLATE_NOOP("ProblemText", "nested more than {depth} levels deep"),
    "json_limit:not_finite": QT_TRANSLATE_NOOP(
        "ProblemText", "not a finite number (NaN, Infinity and numbers too large for a float are not JSON values)"
    ),
}

#: Python's ``re`` and the ``regex`` module's name of a fault (their error's ``msg``) in the reader's words.
REGEX_FAULTS: dict[str, str] = {
    "missing ), unterminated subpattern": QT_TRANSLATE_NOOP("ProblemText", "missing ), unterminated subpattern"),
    "missing )": QT_TRANSLATE_NOOP("ProblemText", "missing )"),
    "unbalanced parenthesis": QT_TRANSLATE_NOOP("ProblemText", "unbalanced parenthesis"),
    "nothing to repeat": QT_TRANSLATE_NOOP("ProblemText", "nothing to repeat"),
    "multiple repeat": QT_TRANSLATE_NOOP("ProblemText", "multiple repeat"),
    "unterminated character set": QT_TRANSLATE_NOOP("ProblemText", "unterminated character set"),
    "min repeat greater than max repeat": QT_TRANSLATE_NOOP("ProblemText", "min repeat greater than max repeat"),
    "look-behind requires fixed-width pattern": QT_TRANSLATE_NOOP(
        "ProblemText", "look-behind requires fixed-width pattern"
    ),
}
#: A fault whose ``msg`` names the offending escape after these words (``bad escape \\q``).
_BAD_ESCAPE = "bad escape "

#: Python's JSON decoder's name of a fault (``JSONDecodeError.msg``) in the reader's words.
JSON_FAULTS: dict[str, str] = {
    "Expecting value": QT_TRANSLATE_NOOP("ProblemText", "a value was expected"),
    "Expecting property name enclosed in double quotes": QT_TRANSLATE_NOOP(
        "ProblemText", "a name in double quotes was expected"
    ),
    "Expecting ',' delimiter": QT_TRANSLATE_NOOP("ProblemText", "',' was expected"),
    "Expecting ':' delimiter": QT_TRANSLATE_NOOP("ProblemText", "':' was expected"),
    "Unterminated string starting at": QT_TRANSLATE_NOOP("ProblemText", "a text is not closed"),
    "Extra data": QT_TRANSLATE_NOOP("ProblemText", "more data after the JSON value"),
    "Invalid control character at": QT_TRANSLATE_NOOP("ProblemText", "a control character inside a text"),
    "Invalid \\escape": QT_TRANSLATE_NOOP("ProblemText", "an invalid escape"),
}


def _bound(name: str) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    return lambda context: {"limit": context.get(name)}


#: pydantic's error types (its stable codes) → the sentence the studio shows, and its values from the error's
#: context; the English matches pydantic's own message closely enough to read as the same thing.
PYDANTIC_PROBLEMS: dict[str, tuple[str, Callable[[Mapping[str, Any]], dict[str, Any]]]] = {
    "greater_than_equal": (
        QT_TRANSLATE_NOOP("RuntimeText", "Input should be greater than or equal to {limit}"),
        _bound("ge"),
    ),
    "greater_than": (QT_TRANSLATE_NOOP("RuntimeText", "Input should be greater than {limit}"), _bound("gt")),
    "less_than_equal": (
        QT_TRANSLATE_NOOP("RuntimeText", "Input should be less than or equal to {limit}"),
        _bound("le"),
    ),
    "less_than": (QT_TRANSLATE_NOOP("RuntimeText", "Input should be less than {limit}"), _bound("lt")),
    **dict.fromkeys(
        ("int_type", "int_parsing", "int_from_float"),
        (QT_TRANSLATE_NOOP("RuntimeText", "Input should be a whole number"), lambda _context: {}),
    ),
    **dict.fromkeys(
        ("float_type", "float_parsing"),
        (QT_TRANSLATE_NOOP("RuntimeText", "Input should be a number"), lambda _context: {}),
    ),
    **dict.fromkeys(
        ("bool_type", "bool_parsing"),
        (QT_TRANSLATE_NOOP("RuntimeText", "Input should be true or false"), lambda _context: {}),
    ),
    "string_type": (QT_TRANSLATE_NOOP("RuntimeText", "Input should be text"), lambda _context: {}),
    "string_pattern_mismatch": (  # an MCP server's name in a design or its form
        QT_TRANSLATE_NOOP("RuntimeText", "Text should match the pattern '{pattern}'"),
        lambda context: {"pattern": context.get("pattern")},
    ),
    "list_type": (QT_TRANSLATE_NOOP("RuntimeText", "Input should be a list"), lambda _context: {}),
    **dict.fromkeys(
        ("dict_type", "model_type"),
        (QT_TRANSLATE_NOOP("RuntimeText", "Input should be a JSON object"), lambda _context: {}),
    ),
    "literal_error": (
        QT_TRANSLATE_NOOP("RuntimeText", "Input should be {choices}"),
        lambda context: {  # 'block', 'warn' or 'redact': the words between the values are the reader's
            "choices": str(context.get("expected", "")).replace("' or '", "'" + translate("RuntimeText", " or ") + "'")
        },
    ),
    "missing": (QT_TRANSLATE_NOOP("RuntimeText", "Field required"), lambda _context: {}),
    "extra_forbidden": (QT_TRANSLATE_NOOP("RuntimeText", "Not an option of this processor"), lambda _context: {}),
    "too_short": (
        QT_TRANSLATE_NOOP("RuntimeText", "List should have at least {count} item(s)"),
        lambda context: {"count": context.get("min_length")},
    ),
    "string_too_short": (
        QT_TRANSLATE_NOOP("RuntimeText", "Text should have at least {count} character(s)"),
        lambda context: {"count": context.get("min_length")},
    ),
}


def pydantic_sentence(error_type: str, context: Mapping[str, Any]) -> str | None:
    """pydantic's problem of ``error_type`` (its stable code) in the studio's language, its values from the error's
    ``context``; None for a type not known here."""
    known = PYDANTIC_PROBLEMS.get(error_type)
    if known is None:
        return None
    template, values_of = known
    values = values_of(context)
    count = values.get("count")
    try:  # English reads "1 item", "2 items"
        return translate("RuntimeText", template, None, count if isinstance(count, int) else -1).format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation must not hide the problem
        return None


def problem_sentence(problem: Problem) -> str:
    """``problem`` in the studio's language; its English as written when its code or sentence is not translated."""
    if problem.code.startswith("pydantic:"):  # pydantic's own words, by its error type and context
        error_type = problem.code.removeprefix("pydantic:")
        known = PYDANTIC_PROBLEMS.get(error_type)
        if known is None or translate("RuntimeText", known[0]) == known[0]:  # English: pydantic's own words
            return str(problem)
        return pydantic_sentence(error_type, problem.params) or str(problem)
    template = _template(problem)
    if template is None:
        return str(problem)
    translated = translate(_CONTEXT, template)
    values = {
        key: shown_problem(value) if isinstance(value, Problem) else value for key, value in problem.params.items()
    }
    if "json_fault" in values and values["json_fault"] in JSON_FAULTS:  # Python's JSON decoder's msg
        values["json_fault"] = translate(_CONTEXT, JSON_FAULTS[str(values["json_fault"])])
    if problem.code.startswith("regex:"):
        values["fault"] = _fault_words(str(problem.params.get("fault", "")))
    elif problem.code.startswith("json:"):
        values["fault"] = translate(_CONTEXT, JSON_FAULTS[str(problem.params.get("fault"))])

    if translated == template and values == _english_values(problem):  # English: the runtime's own words
        return str(problem)
    try:
        return translated.format(**values)
    except (KeyError, IndexError, ValueError, TypeError):  # a broken translation must not hide the problem
        return str(problem)


def shown_problem(text: Any) -> str:
    """A problem (or any text) as the reader sees it: a coded one translated, anything else as written."""
    return problem_sentence(text) if isinstance(text, Problem) else str(text)


def _template(problem: Problem) -> str | None:
    if problem.code.startswith("regex:"):
        fault = str(problem.params.get("fault", ""))
        if fault not in REGEX_FAULTS and not fault.startswith(_BAD_ESCAPE):
            return None
        if "position" in problem.params:
            return QT_TRANSLATE_NOOP("ProblemText", "{fault} at position {position}")
        return QT_TRANSLATE_NOOP("ProblemText", "{fault}")
    if problem.code.startswith("json:"):
        if problem.params.get("fault") not in JSON_FAULTS:
            return None
        if "line" not in problem.params:
            return QT_TRANSLATE_NOOP("ProblemText", "{fault}")
        return QT_TRANSLATE_NOOP("ProblemText", "{fault} at line {line}, column {column}")
    return PROBLEM_TEXTS.get(problem.code)


def _fault_words(fault: str) -> str:
    if fault.startswith(_BAD_ESCAPE) and fault not in REGEX_FAULTS:
        return translate("ProblemText", "bad escape {escape}").format(escape=fault.removeprefix(_BAD_ESCAPE))
    return translate(_CONTEXT, REGEX_FAULTS[fault])


def _english_values(problem: Problem) -> dict[str, Any]:
    """The values as the runtime's English has them (a nested problem as its text, Python's fault words as they
    are): when the reader's values and sentence are these, the runtime's own words are shown."""
    english = {key: str(value) if isinstance(value, Problem) else value for key, value in problem.params.items()}
    if problem.code.startswith("json:") and "fault" in english:  # the table's English reads differently
        english["fault"] = JSON_FAULTS.get(str(english["fault"]), english["fault"])
    if "json_fault" in english:
        english["json_fault"] = JSON_FAULTS.get(str(english["json_fault"]), english["json_fault"])
    return english


def change_reason(change: Mapping[str, Any]) -> str | None:
    """A stream processor's abort reason recorded in a chunk change (``TraceEvent.chunk_stats["changes"]``): a
    :class:`~processors.problems.Problem` with the tripwire's code and values when the change kept them (live or
    stored), else its English as recorded; None without one."""
    detail = change.get("detail")
    if not detail:
        return None
    code, params = change.get("code"), change.get("params")
    if isinstance(code, str) and isinstance(params, Mapping):
        return Problem.written(code, str(detail), **params)
    return str(detail)


def coded_problem(message: str, code: str, params: Mapping[str, Any]) -> Problem | str:
    """The problem stored as ``(code, params)`` beside its English ``message`` (a refused option's), rebuilt."""
    return Problem.from_dict({"code": code, "text": message, "params": params})
