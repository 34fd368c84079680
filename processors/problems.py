"""Sentences for people that carry a stable code and their values, so a reader in another language sees them in
that language without anyone recognising the English.

``processors/`` writes English (it imports no Qt, and a reason is also a wire value). Where such a sentence is a
*problem* with something the user gave — a regular expression that does not compile, JSON that does not parse, an
id a thread file may not use — it is made as a :class:`Problem`: a ``str`` (its English, so every caller that
prints, joins or compares it is unchanged) that also holds ``code`` and ``params``. A check that raises one raises
:class:`ProblemError` (a ``ValueError``: pydantic validators and ``except ValueError`` keep working)::

    raise ProblemError(Problem("pattern:invalid", "invalid regular expression {pattern!r}: {error}",
                               pattern=source, error=regex_problem(error)))

A code is ``<area>:<key>`` (``pattern:invalid``, ``thread:id_taken``): the colon keeps it apart from a built-in's
sentence codes (``TokenLimiter.limit_exceeded``, translated from the processor class's ``texts``).

A value may itself be a problem (Python's own words for the fault: :func:`regex_problem`, :func:`json_problem`,
made from the error's structured parts, never from its rendered English); :meth:`Problem.to_dict` /
:meth:`Problem.from_dict` carry the whole tree through JSON (a stored row, a worker process). The studio translates
by ``code`` (:mod:`studio.texts.problems`); a problem it does not know is shown as its English.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = [
    "Problem",
    "ProblemError",
    "json_problem",
    "located",
    "problem_of",
    "pydantic_problem",
    "refusal",
    "regex_problem",
]


class Problem(str):
    """An English sentence (``template`` written with ``params``) with its stable ``code``."""

    code: str
    template: str
    params: dict[str, Any]

    def __new__(cls, code: str, template: str, /, **params: Any) -> Problem:
        made = super().__new__(cls, template.format(**params))
        made.code = code
        made.template = template
        made.params = dict(params)
        return made

    @classmethod
    def written(cls, code: str, text: str, /, **params: Any) -> Problem:
        """A problem whose English is already written (Python's own rendering of an error), with its values."""
        made = str.__new__(cls, text)
        made.code, made.template, made.params = code, text.replace("{", "{{").replace("}", "}}"), dict(params)
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # a str subclass with fields: pickled by its parts (worker processes)
        return (_rebuild, (self.code, str(self), self.params))

    def reworded(self, template: str) -> Problem:
        """The same problem (code and values) in other English words: what a changed sentence in the runtime is."""
        return Problem(self.code, template, **self.params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: ``{"code", "text", "params"}`` with nested problems as dicts, other values as JSON has
        them (anything else as its text)."""
        return {"code": self.code, "text": str(self), "params": {k: _json_value(v) for k, v in self.params.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Problem | str:
        """The problem :meth:`to_dict` wrote (its stored English kept as is); a dict without a code → its text."""
        text = str(data.get("text", ""))
        code = data.get("code")
        params = data.get("params")
        if not isinstance(code, str) or not isinstance(params, Mapping):
            return text
        values = {str(k): cls.from_dict(v) if _is_problem_dict(v) else v for k, v in params.items()}
        return cls.written(code, text, **values)


def _rebuild(code: str, text: str, params: dict[str, Any]) -> Problem:
    return Problem.written(code, text, **params)


def _is_problem_dict(value: Any) -> bool:
    return isinstance(value, Mapping) and "code" in value and "params" in value and "text" in value


def _json_value(value: Any) -> Any:
    if isinstance(value, Problem):
        return value.to_dict()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    return str(value)


class ProblemError(ValueError):
    """A check's refusal that carries its :class:`Problem` (``str(error)`` is the problem's English)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem = problem

    @property
    def code(self) -> str:
        return self.problem.code

    @property
    def params(self) -> dict[str, Any]:
        return self.problem.params


def problem_of(value: Any) -> Problem | None:
    """The problem an exception or a text carries (a :class:`ProblemError`, a :class:`Problem`), else None."""
    if isinstance(value, Problem):
        return value
    found = getattr(value, "problem", None)
    if isinstance(found, Problem):
        return found
    if isinstance(value, BaseException) and value.args and isinstance(value.args[0], Problem):
        return value.args[0]
    return None


def refusal(code: str, template: str, /, cause: BaseException | str, **params: Any) -> ProblemError:
    """The refusal of a value whose fault is ``cause`` — an error that may carry a coded problem of its own, or a
    problem's text — written as ``template`` with the fault as ``{error}`` (nested: its code, hence the reader's
    language, kept inside) and ``params``::

        raise refusal("pattern:indexed", "pattern {index}: {error}", error, index=index) from None
    """
    return ProblemError(Problem(code, template, **params, error=problem_of(cause) or str(cause)))


def pydantic_problem(item: Mapping[str, Any], *, bare: bool = False) -> Problem:
    """One problem of a pydantic ``ValidationError.errors()``: a check's coded problem (its ``ctx`` error) as it is,
    else pydantic's words (``msg``; ``bare``: without its "Value error, ") with its stable ``type`` as the code
    (``pydantic:greater_than_equal``) and its ``ctx`` as the values."""
    found = problem_of((item.get("ctx") or {}).get("error"))
    if found is not None:
        return found
    context = {str(key): _json_value(value) for key, value in (item.get("ctx") or {}).items()}
    message = str(item.get("msg", ""))
    message = message.removeprefix("Value error, ") if bare else message
    return Problem.written(f"pydantic:{item.get('type', '')}", message, **context)


def located(where: str, problem: str) -> Problem:
    """``"<where>: <problem>"`` (a file's or a document's place, then what is wrong there), the problem's code kept
    inside (``problem:located``)."""
    return Problem("problem:located", "{where}: {problem}", where=where, problem=problem)


def regex_problem(error: Exception) -> Problem | str:
    """Python's (``re``) or the ``regex`` module's words for a pattern that does not compile, by their structured
    parts: the code is ``regex:`` + the error's ``msg`` (the fault's name, without the position), the position a
    value. An error without them (an overflow) stays its text."""
    message = getattr(error, "msg", None)
    position = getattr(error, "pos", None)
    if not isinstance(message, str):
        return str(error)
    params: dict[str, Any] = {"fault": message}
    if isinstance(position, int):
        params["position"] = position
    return Problem.written(f"regex:{message}", str(error), **params)


def json_problem(error: json.JSONDecodeError) -> Problem:
    """Python's JSON decoder's words, by their structured parts (``msg``, ``lineno``, ``colno``, ``pos``)."""
    return Problem.written(
        f"json:{error.msg}",
        str(error),
        fault=error.msg,
        line=error.lineno,
        column=error.colno,
        position=error.pos,
    )
