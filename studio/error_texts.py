"""Errors from the layers below the views, in the reader's language: what the status bar, the message boxes and
the chat show when a design cannot be read, built or exported, or a thread file is refused.

The layers below keep English and machine fields: a :class:`~studio.design.agent_design.DesignError` carries its English
``template`` and ``params`` (a value may be a nested error, a list of ``(field, problem)`` pairs, or the
``problems`` listing), a :class:`~processors.memory.errors.ThreadImportError` its ``problems`` as
``"<path>: <problem>"``. :func:`error_text` translates the template (context ``DesignError``) and each problem
(a coded :class:`~processors.problems.Problem`, by its code: :mod:`studio.texts.problems`); what it does not
know — a plug-in's own message, an error without a template or code — is shown as written, in English. A corpus
file's problem (:class:`lab.corpus.CorpusError`) keeps its ``file:line:`` and gets its problem translated. In English
the result is the error's own message, character for character.

A built-in's sentence — a tripwire's reason, its own check of an option — is translated by its ``code``
(``"TokenLimiter.limit_exceeded"``) and values (:func:`coded_text`): the catalogue's class for ``TokenLimiter`` holds
the English template of ``limit_exceeded`` in its ``texts``, looked up in the studio's language by that key. A value
that is one of the class's own words (an option's value inside the sentence, CostGuard's ``scope``) is translated
too, when the class's ``texts`` declare it as ``"<param>=<value>"`` (``"scope=thread": "thread"``). A
tripwire without a code — a plug-in's free reason, one stored before codes existed — is shown as its stored text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from lab.corpus import CorpusError
from processors.memory.errors import ThreadImportError
from processors.problems import Problem, problem_of, pydantic_problem
from studio.design.agent_design import DesignError
from studio.design.catalog import studio_catalogue
from studio.i18n import current_language
from studio.i18n.processor_texts import owner_name, text_of
from studio.texts.problems import coded_problem, problem_sentence, pydantic_sentence, shown_problem
from studio.texts.translator import translate

__all__ = [
    "coded_text",
    "design_error_text",
    "error_text",
    "import_problems_text",
    "option_problem_text",
    "problem_text",
    "reason_text",
    "tripwire_text",
    "validation_item_text",
    "validation_text",
]

_CONTEXT = "DesignError"
#: Thread import problems shown in a status line or a message box (the rest are counted).
SHOWN_PROBLEMS = 5


def error_text(error: BaseException) -> str:
    """``error`` as the studio shows it to a reader of the chosen language."""
    if isinstance(error, DesignError):
        return design_error_text(error)
    if isinstance(error, CorpusError):  # "file:line: " stays, the problem is translated
        where = f"{error.path}:{error.line}" if error.line is not None else str(error.path)
        return f"{where}: {problem_text(error.message)}"
    if isinstance(error, ThreadImportError):
        return translate("ImportProgress", "Thread import refused: {problems}").format(
            problems=import_problems_text(error.problems)
        )
    problem = problem_of(error)  # a coded problem (a pattern, a thread file, an MCP server)
    if problem is not None:
        return problem_sentence(problem)
    text_code = getattr(error, "text_code", None)  # a built-in's error written from its texts (ClassifierModelError)
    if isinstance(text_code, str):
        parameters = getattr(error, "parameters", None)
        return coded_text(text_code, parameters if isinstance(parameters, Mapping) else None, str(error))
    return str(error)  # no code: as written


def design_error_text(error: DesignError) -> str:
    """A design error's message in the studio's language (its own English when it has no template)."""
    if not error.template or current_language() == "en":
        return error.message
    values = {key: _value(error, key, value) for key, value in error.params.items()}
    try:
        return translate(_CONTEXT, error.template).format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation must not hide the error
        return error.message


def problem_text(message: str) -> str:
    """One problem (of a design's listing, an option, a thread file) in the studio's language: a coded
    :class:`~processors.problems.Problem` by its code, else if known."""
    if isinstance(message, Problem):
        return problem_sentence(message)
    return message  # no code: as written


def import_problems_text(problems: Iterable[str]) -> str:
    """A thread file's problems, the first few in full (``path: problem``, the problem translated), the rest
    counted."""
    listed = list(problems)
    shown = []
    for problem in listed[:SHOWN_PROBLEMS]:
        if isinstance(problem, Problem):  # "path: problem" by its code (processors.problems.located)
            shown.append(problem_sentence(problem))
            continue
        path, separator, message = problem.partition(": ")
        shown.append(f"{path}{separator}{problem_text(message)}" if separator else problem_text(problem))
    text = translate("ImportProgress", "; ").join(shown)
    more = len(listed) - SHOWN_PROBLEMS
    if more > 0:
        text += translate("ImportProgress", " (and {count} more)").format(count=more)
    return text


def _value(error: DesignError, key: str, value: Any) -> Any:
    if isinstance(value, DesignError):
        return design_error_text(value)
    if key == "listing":
        whole = translate("DesignError", "(design)")
        return "\n".join(f"- {path or whole}: {problem_text(message)}" for path, message in error.problems)
    if key == "lane_title":
        return translate("DesignError", str(value))
    if key == "options" and isinstance(value, list):  # a built-in's refused options, by their codes
        codes = error.params.get("option_codes") or {}
        return translate("DesignError", "; ").join(
            f"{field}: {option_problem_text(problem, *_code(codes.get(field)))}" for field, problem in value
        )
    if isinstance(value, list):
        return translate("DesignError", "; ").join(f"{field}: {problem_text(problem)}" for field, problem in value)
    if key == "error":
        return problem_text(problem_of(value) or str(value))
    return value


def coded_text(
    code: str | None, params: Mapping[str, Any] | None, english: str, catalogue: Iterable[Any] | None = None
) -> str:
    """The sentence of ``code`` (``"<TypeName>.<key>"``) in the studio's language, written with ``params``
    (``catalogue``: the catalogue records whose classes declare the texts, the studio's catalogue by default);
    ``english`` (the runtime's own text) when there is no code, the studio shows English, or no processor of the
    catalogue declares the code."""
    if not code or current_language() == "en":
        return english
    if ":" in code:  # the runtime's own sentence (an abort without a reason): a problem's code
        return problem_sentence(Problem.written(code, english, **dict(params or {})))
    owner, _, key = code.partition(".")
    kinds = catalogue if catalogue is not None else studio_catalogue()
    cls = next((owning for kind in kinds for owning in _owners(kind.cls) if owner_name(owning) == owner), None)
    template = text_of(cls, key) if cls is not None else None
    if template is None:
        return english
    values = {name: _word(cls, name, value) for name, value in (params or {}).items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, TypeError):  # a broken translation must not hide the reason
        return english


def _word(cls: Any, name: str, value: Any) -> Any:
    """A value that is a word of the class's own (an option's value inside its sentence: CostGuard's ``scope``
    ``"thread"``) in the studio's language, when its ``texts`` declare ``"<name>=<value>"``; any other as it is."""
    if not isinstance(value, str):
        return value
    word = text_of(cls, f"{name}={value}")
    return value if word is None else word


def _owners(cls: Any) -> tuple[Any, ...]:
    """A processor class and the classes of its ``Options`` (a shared options part declares its own texts)."""
    options = getattr(cls, "Options", None)
    return (cls, *(getattr(options, "__mro__", ()) if options is not None else ()))


def tripwire_text(tripwire: Any, catalogue: Iterable[Any] | None = None) -> str:
    """A tripwire's reason as the reader sees it, from ``result.tripwire``, a ``tripwire`` chunk's payload or the
    store's dict: by its code and values when it has them, else its stored reason as written."""
    reason = str(_field(tripwire, "reason") or "")
    params = _field(tripwire, "params")
    return coded_text(_field(tripwire, "code"), params if isinstance(params, Mapping) else None, reason, catalogue)


def reason_text(reason: str) -> str:
    """An abort reason a trace recorded (an event's ``detail``, :func:`change_reason`) in the reader's language: by
    its tripwire's code and values when it carries them, else as written."""
    if isinstance(reason, Problem):
        return tripwire_text({"reason": str(reason), "code": reason.code, "params": reason.params})
    return str(reason)


def _field(source: Any, name: str) -> Any:
    if isinstance(source, Mapping):
        return source.get(name)
    return getattr(source, name, None)


def _code(code: Any) -> tuple[str | None, dict[str, Any] | None]:
    """``(code, params)`` as a design error keeps them (a JSON list), or no code."""
    if isinstance(code, (list, tuple)) and len(code) == 2 and isinstance(code[1], Mapping):
        return str(code[0]), dict(code[1])
    return None, None


def validation_text(error: ValidationError) -> str:
    """pydantic's refusal of a form (an MCP server, an agent setting) in the studio's language, its problems joined
    with "; ": a check's coded problem by its code, pydantic's own by its error ``type`` and ``ctx``; in English
    pydantic's words (without its "Value error, ")."""
    return translate("DesignError", "; ").join(validation_item_text(item) for item in error.errors())


def validation_item_text(item: Mapping[str, Any]) -> str:
    """One problem of a pydantic ``ValidationError.errors()`` in the studio's language."""
    return problem_sentence(pydantic_problem(item, bare=True))


def option_problem_text(
    message: str, code: str | None, params: Mapping[str, Any] | None, catalogue: Iterable[Any] | None = None
) -> str:
    """One refused option (``InvalidOptionsError.codes``) in the studio's language: a built-in's own check by its
    code (``"RegexFilterOptions.needs_rule"``), pydantic's by its error type; a plain ``ValueError`` of a validator
    (no code of its own: a pattern that does not compile) goes to :func:`problem_text`."""
    if current_language() == "en":
        return message
    if code and ":" in code:  # a coded problem (a pattern that does not compile), its values as the runtime wrote
        return shown_problem(coded_problem(message, code, params or {}))
    if code and "." in code:
        return coded_text(code, params, message, catalogue)
    shown = pydantic_sentence(code or "", params or {})
    return problem_text(message) if shown is None else shown
