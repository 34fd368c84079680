"""The options a plain plug-in processor declares, checked as a built-in's are.

A processor that is no :class:`~processors.builtin.base.BuiltinProcessor` (a plug-in's, a file of the user's
processors folder) takes its options as keyword arguments. It may say what they are, in either of two ways, and the
studio then shows a form of them and checks them field by field as you type, as the design is built and as the
catalogue creates it:

* ``Options``: a pydantic model (``class Options(BaseModel): limit: int = Field(1, ge=1)``); its refusal is
  :meth:`InvalidOptionsError.of_validation` (pydantic's error types as codes, a check's coded problem kept);
* ``options_schema``: a JSON schema of an object (``{"type": "object", "properties": {"limit": {"type": "integer",
  "minimum": 1}}}``), checked with ``jsonschema``; each keyword a field breaks is refused with the code pydantic has
  for the same problem (``minimum`` → ``greater_than_equal``, ``enum`` → ``literal_error``, ``required`` →
  ``missing``, ...), so the studio translates it the same way; a keyword without one keeps ``jsonschema``'s English.

The processor itself gets the options as they were given (its own constructor still reads them).

A processor that declares neither gets no form, and nothing checks what a design gives it but its constructor's
signature (:func:`check_undeclared_options`): options it cannot take (or none, when it needs some) are refused with
one sentence, :func:`undeclared_problem` — what to declare — which the form shows too, where the user adds it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from processors.builtin.base import InvalidOptionsError
from processors.problems import Problem

__all__ = [
    "UNDECLARED_CODE",
    "check_declared_options",
    "check_undeclared_options",
    "declared_defaults",
    "declared_model",
    "declared_schema",
    "declares_options",
    "takes_undeclared_options",
    "undeclared_problem",
]

#: The code of :func:`undeclared_problem` (the studio translates it).
UNDECLARED_CODE = "plugin:options_undeclared"
_UNDECLARED = (
    "{type} does not declare its options: give its class an Options model (pydantic) or an options_schema "
    "(a JSON schema) to set them in the studio"
)


def declared_model(cls: Any) -> type[BaseModel] | None:
    """The pydantic model a plain processor class declares as its ``Options``, or None."""
    model = getattr(cls, "Options", None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def declared_schema(cls: Any) -> dict[str, Any]:
    """The JSON schema of a plain processor's options: its ``Options`` model's, its ``options_schema``, or ``{}``."""
    model = declared_model(cls)
    if model is not None:
        return model.model_json_schema()
    schema = getattr(cls, "options_schema", None)
    return dict(schema) if isinstance(schema, Mapping) else {}


def declares_options(cls: Any) -> bool:
    """Whether a plain processor class says what its options are (an ``Options`` model or an ``options_schema``)."""
    return declared_model(cls) is not None or isinstance(getattr(cls, "options_schema", None), Mapping)


def takes_undeclared_options(cls: Any) -> bool:
    """Whether a plain processor class takes options (its constructor has parameters) without declaring them: the
    studio can then neither show nor check them."""
    if declares_options(cls):
        return False
    signature = _signature(cls)
    return signature is not None and bool(signature.parameters)


def undeclared_problem(type_name: str) -> Problem:
    """The one sentence for a processor that declares no options: what to declare (the form's hint, and the refusal
    of options its constructor cannot take)."""
    return Problem(UNDECLARED_CODE, _UNDECLARED, type=type_name)


def declared_defaults(cls: Any) -> dict[str, Any]:
    """Each declared option's default as JSON (what the form shows for an option the design leaves out)."""
    properties = declared_schema(cls).get("properties")
    if not isinstance(properties, Mapping):
        return {}
    return {
        name: spec["default"] for name, spec in properties.items() if isinstance(spec, Mapping) and "default" in spec
    }


def check_declared_options(type_name: str, cls: Any, options: Mapping[str, Any]) -> None:
    """Raise :class:`InvalidOptionsError` (field path → English, and each field's code) when ``options`` break what
    ``cls`` declares; nothing to check when it declares nothing (:func:`check_undeclared_options` then)."""
    model = declared_model(cls)
    if model is not None:
        try:
            model.model_validate(dict(options))
        except ValidationError as error:
            raise InvalidOptionsError.of_validation(type_name, error) from None
        return
    schema = declared_schema(cls)
    if not schema:
        return
    from processors.tools.schema import raw_validator  # jsonschema (~50 ms): only once a plug-in declares a schema

    validator = raw_validator(schema)
    if validator is None:  # the plug-in's schema is no JSON schema: nothing it says can be checked
        return
    errors: dict[str, str] = {}
    codes: dict[str, tuple[str, dict[str, Any]]] = {}
    for problem in validator.iter_errors(dict(options)):
        for field, message, code in _refusals(problem):
            if field in errors:  # the first problem of a field, as pydantic reports one per field
                continue
            errors[field] = message
            if code is not None:
                codes[field] = code
    if errors:
        raise InvalidOptionsError(type_name, errors, codes)


def check_undeclared_options(type_name: str, cls: Any, options: Mapping[str, Any]) -> None:
    """Raise :class:`InvalidOptionsError` (:func:`undeclared_problem`, for the options as a whole) when ``cls``
    declares no options and its constructor cannot be called with ``options`` (a missing or an unknown argument):
    checked before it is called, so the design says so where it is edited, not only when the agent is built."""
    if declares_options(cls):
        return
    signature = _signature(cls)
    if signature is None:
        return
    try:
        signature.bind(**options)
    except TypeError:
        problem = undeclared_problem(type_name)
        raise InvalidOptionsError(
            type_name, {"options": str(problem)}, {"options": (problem.code, problem.to_dict()["params"])}
        ) from None


def _signature(cls: Any) -> inspect.Signature | None:
    """The constructor's signature (without ``self``), or None when Python cannot tell it (a class made in C)."""
    try:
        return inspect.signature(cls)
    except (TypeError, ValueError):
        return None


def _refusals(problem: Any) -> list[tuple[str, str, tuple[str, dict[str, Any]] | None]]:
    """``(field path, English, (code, values) or None)`` of one ``jsonschema`` error: a missing or an unknown key is
    named at its own path, as pydantic names it."""
    path = [str(part) for part in problem.absolute_path]
    instance, value = problem.instance, problem.validator_value
    if problem.validator == "required" and isinstance(instance, Mapping):
        return [
            (_joined([*path, name]), "Field required", ("missing", {}))
            for name in value
            if isinstance(name, str) and name not in instance
        ]
    if problem.validator == "additionalProperties" and value is False and isinstance(instance, Mapping):
        known = set(problem.schema.get("properties") or {})
        return [
            (_joined([*path, str(name)]), "Extra inputs are not permitted", ("extra_forbidden", {}))
            for name in instance
            if name not in known
        ]
    coded = _CODES.get(str(problem.validator))
    code = coded(value) if coded is not None else None
    return [(_joined(path), str(problem.message), code)]


def _joined(path: list[str]) -> str:
    return ".".join(path) or "options"


def _choices(values: Any) -> tuple[str, dict[str, Any]]:
    """pydantic's ``literal_error`` values: ``'a', 'b' or 'c'``."""
    shown = [repr(item) for item in values] if isinstance(values, list) else [repr(values)]
    expected = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
    return "literal_error", {"expected": expected}


_TYPE_CODES = {
    "integer": "int_type",
    "number": "float_type",
    "boolean": "bool_type",
    "string": "string_type",
    "array": "list_type",
    "object": "dict_type",
}

#: A ``jsonschema`` keyword → pydantic's error type for the same problem, with the values pydantic's context has.
_CODES: dict[str, Callable[[Any], tuple[str, dict[str, Any]] | None]] = {
    "minimum": lambda bound: ("greater_than_equal", {"ge": bound}),
    "exclusiveMinimum": lambda bound: ("greater_than", {"gt": bound}),
    "maximum": lambda bound: ("less_than_equal", {"le": bound}),
    "exclusiveMaximum": lambda bound: ("less_than", {"lt": bound}),
    "type": lambda kind: (_TYPE_CODES[kind], {}) if isinstance(kind, str) and kind in _TYPE_CODES else None,
    "enum": _choices,
    "const": lambda value: _choices([value]),
    "minLength": lambda count: ("string_too_short", {"min_length": count}),
    "minItems": lambda count: ("too_short", {"min_length": count}),
    "pattern": lambda pattern: ("string_pattern_mismatch", {"pattern": pattern}),
}
