"""The argument schema of a tool: built from type hints, or given raw and checked by hand.

:mod:`processors.tools` is about running tools; this module is about what their arguments look like.
``@tool`` builds a pydantic model from a function's signature (:func:`arguments_model`) and shows the model its
JSON schema (:func:`model_schema`: pydantic's schema with the ``title`` noise removed, ``$defs`` kept). The
explicit ``Tool(..., parameters=schema)`` form (and every MCP tool) keeps the raw schema (:func:`check_raw_schema`)
and checks arguments against all of it with ``jsonschema`` (:func:`raw_schema_problems`: nested objects, lengths,
ranges, ``additionalProperties`` at any depth). Either way, what does not match is phrased
for the model to correct itself (:func:`arguments_message`).

Parameters the runtime injects (a :class:`~processors.context.StreamWriter` or a
:class:`~processors.context.RequestContext`, by annotation, or unannotated and named ``writer`` /
``request_context``) never reach the schema: :func:`injected_kind` finds them.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Union

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.fields import FieldInfo

from processors.context import RequestContext, StreamWriter
from processors.errors import PatternTimeoutError
from processors.user_patterns import UserPattern

__all__ = [
    "arguments_message",
    "arguments_model",
    "check_raw_schema",
    "format_error",
    "injected_kind",
    "json_type",
    "model_schema",
    "raw_schema_problems",
    "raw_validator",
    "tool_signature",
]


# --------------------------------------------------------------------------------------------------------------
# Signatures and injection


def tool_signature(
    fn: Callable[..., Any], name: str, localns: dict[str, Any] | None, *, strict: bool
) -> inspect.Signature | None:
    """``fn``'s signature with annotations evaluated; ``None`` when it has none (some builtins).

    ``strict``: an annotation that does not evaluate is a ``TypeError`` (``@tool`` needs real types for the schema);
    otherwise the annotations stay text (the explicit ``Tool`` form only looks for injected parameters).
    """
    try:
        plain = inspect.signature(fn)
    except (ValueError, TypeError):
        return None
    try:
        return inspect.signature(fn, eval_str=True, locals=localns)
    except Exception as exc:  # NameError, SyntaxError, TypeError ... from evaluating an annotation
        if strict:
            raise TypeError(f"Tool {name!r}: cannot resolve the type hints of {fn!r}: {exc}") from exc
        return plain


def injected_kind(param: inspect.Parameter) -> str | None:
    annotation = param.annotation
    if annotation is param.empty:
        return param.name if param.name in ("writer", "request_context") else None
    for candidate in _union_members(annotation):
        if isinstance(candidate, type):
            if issubclass(candidate, StreamWriter):
                return "writer"
            if issubclass(candidate, RequestContext):
                return "request_context"
        elif isinstance(candidate, str):  # an annotation left as text
            if re.search(r"\bStreamWriter\b", candidate):
                return "writer"
            if re.search(r"\bRequestContext\b", candidate):
                return "request_context"
    return None


def _union_members(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _union_members(typing.get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [member for arg in typing.get_args(annotation) for member in _union_members(arg)]
    return [annotation]


# --------------------------------------------------------------------------------------------------------------
# A pydantic model from a signature


def arguments_model(
    tool_name: str,
    signature: inspect.Signature,
    arg_docs: Mapping[str, str],
    *,
    injected: tuple[str | None, ...],
    module: str,
) -> tuple[type[BaseModel], dict[str, Any], dict[str, str]]:
    """The model validating a tool's arguments, its JSON schema, and which parameter each model field feeds.

    ``injected`` names the parameters the runtime fills in (left out of the model); ``arg_docs`` gives the
    descriptions read from the docstring; ``module`` becomes the model's ``__module__``. Raises ``TypeError`` for a
    positional-only parameter or type hints pydantic cannot turn into a schema.
    """
    fields: dict[str, Any] = {}
    kwarg_names: dict[str, str] = {}
    for index, param in enumerate(signature.parameters.values()):
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.name in injected:
            continue
        if param.kind is param.POSITIONAL_ONLY:
            raise TypeError(f"Tool {tool_name!r}: parameter {param.name!r} is positional-only; tools take keywords")
        annotation = Any if param.annotation is param.empty else param.annotation
        # Internal field names (the parameter is the alias) so that names such as ``json``, ``schema`` or
        # ``model_config`` cannot clash with BaseModel's attributes; errors and the schema show the alias.
        field_name = f"p{index}_{param.name}"
        overrides: dict[str, Any] = {"alias": param.name}
        doc = arg_docs.get(param.name)
        if doc and not _has_description(annotation):
            overrides["description"] = doc
        default = param.default
        if isinstance(default, FieldInfo):  # def f(x: int = Field(3, ge=0)): what it sets explicitly wins
            field = FieldInfo.merge_field_infos(Field(**overrides), default)
        elif default is param.empty:
            field = Field(**overrides)
        else:
            field = Field(default, **overrides)
        fields[field_name] = (annotation, field)
        kwarg_names[field_name] = param.name
    model_name = "".join(part.capitalize() for part in re.split(r"[_-]+", tool_name)) + "Arguments"
    try:
        model: type[BaseModel] = create_model(
            model_name,
            __config__=ConfigDict(extra="ignore", protected_namespaces=()),
            __module__=module,
            **fields,
        )
        parameters = model_schema(model)
    except Exception as exc:
        raise TypeError(f"Tool {tool_name!r}: cannot build an argument schema from its type hints: {exc}") from exc
    return model, parameters, kwarg_names


def _has_description(annotation: Any) -> bool:
    if typing.get_origin(annotation) is not Annotated:
        return False
    return any(isinstance(meta, FieldInfo) and meta.description for meta in typing.get_args(annotation)[1:])


# --------------------------------------------------------------------------------------------------------------
# The JSON schema of a model

_SCHEMA_MAPS = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})
_SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SCHEMA_VALUES = frozenset(
    {"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
     "unevaluatedProperties", "unevaluatedItems", "additionalItems"}
)  # fmt: skip


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = _strip_titles(model.model_json_schema())
    ordered: dict[str, Any] = {"type": "object", "properties": schema.pop("properties", {})}
    if "required" in schema:
        ordered["required"] = schema.pop("required")
    schema.pop("type", None)
    ordered.update(schema)
    return ordered


def _strip_titles(schema: Any) -> Any:
    """Drop the ``title`` annotations pydantic adds, leaving properties that happen to be called ``title``."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _strip_titles(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_strip_titles(sub) for sub in value]
        elif key in _SCHEMA_VALUES:
            out[key] = _strip_titles(value)
        else:
            out[key] = value
    return out


# --------------------------------------------------------------------------------------------------------------
# A raw schema, and arguments that do not match a schema


def check_raw_schema(name: str, parameters: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(parameters, Mapping):
        raise TypeError(f"Tool {name!r}: parameters must be a JSON schema dict, got {type(parameters).__name__}")
    schema = copy.deepcopy(dict(parameters))
    schema_type = schema.setdefault("type", "object")
    if schema_type != "object":
        raise ValueError(f"Tool {name!r}: parameters must describe an object (type 'object'), got {schema_type!r}")
    properties = schema.setdefault("properties", {})
    if not isinstance(properties, dict):
        raise ValueError(f"Tool {name!r}: parameters.properties must be a dict")
    return schema


_JSON_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, (list, tuple)),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def raw_validator(schema: dict[str, Any]) -> Any:
    """A ``jsonschema`` validator for ``schema`` (its own ``$schema`` draft, 2020-12 by default), or None when
    ``schema`` is no valid JSON schema (an MCP server's sloppy schema still gets its top level checked).

    Its ``pattern`` keyword searches with :class:`~processors.user_patterns.UserPattern` (a time limit): a tool's
    schema comes from a server someone else wrote, and ``re`` has no limit.
    """
    jsonschema = _jsonschema()
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError:
        return None
    safe = _SAFE_PATTERNS.get(cls)
    if safe is None:  # extending makes a class (~10 ms): once per draft, not once per tool
        safe = _SAFE_PATTERNS[cls] = jsonschema.validators.extend(cls, {"pattern": _pattern})
    return safe(schema)


def _jsonschema() -> Any:
    """jsonschema, imported when the first raw schema is read (it costs ~50 ms; typed tools never need it)."""
    return importlib.import_module("jsonschema")


#: Each draft's validator class with the time-limited ``pattern`` keyword, made once.
_SAFE_PATTERNS: dict[Any, Any] = {}


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    if not validator.is_type(instance, "string"):
        return
    try:
        found = UserPattern("pattern", pattern).search(instance)
    except PatternTimeoutError:
        yield _jsonschema().ValidationError(
            f"{instance!r} could not be checked against the pattern {pattern!r} in time"
        )
        return
    except Exception:  # a pattern the regex module refuses: the schema's fault, not the arguments'
        return
    if found is None:
        yield _jsonschema().ValidationError(f"{instance!r} does not match {pattern!r}")


def raw_schema_problems(schema: dict[str, Any], arguments: dict[str, Any], validator: Any = None) -> list[str]:
    """What in ``arguments`` does not match ``schema``, one line each, phrased for the model to correct itself.

    With a ``validator`` (:func:`raw_validator`), every keyword at every depth is checked by ``jsonschema``; the
    lines keep the shape pydantic gives typed tools (``path: problem``; missing keys, extra keys, wrong types and
    enums in the same words), missing keys first, then the arguments in the order given. Without one, only the top
    level's ``required``, ``additionalProperties: false``, ``type`` and ``enum``.
    """
    if validator is not None:
        try:
            return _validated(validator, arguments)
        except Exception:  # an unresolvable $ref and the like: the top level is still checked
            pass
    return _top_level_problems(schema, arguments)


def _validated(validator: Any, arguments: dict[str, Any]) -> list[str]:
    order = {key: index for index, key in enumerate(arguments)}
    lines: list[tuple[int, int, str]] = []
    for error in validator.iter_errors(arguments):
        path = tuple(error.absolute_path)
        rank = order.get(path[0], len(order)) if path and isinstance(path[0], str) else len(order)
        for missing, line in _lines(error, path):
            lines.append((0 if missing else 1, rank, line))
    lines.sort(key=lambda item: (item[0], item[1]))
    return list(dict.fromkeys(line for _missing, _rank, line in lines))


def _lines(error: Any, path: tuple[Any, ...]) -> list[tuple[bool, str]]:
    """One validation error as ``(is a missing key, line)`` pairs in pydantic's words where it has some."""
    kind, instance, value = error.validator, error.instance, error.validator_value
    if kind == "required" and isinstance(instance, dict):
        return [(True, format_error((*path, key), "Field required")) for key in value if key not in instance]
    if kind == "additionalProperties" and value is False and isinstance(instance, dict):
        declared = error.schema.get("properties", {})
        if not error.schema.get("patternProperties"):
            extra = [key for key in instance if key not in declared]
            return [(False, format_error((*path, key), "Extra inputs are not permitted")) for key in extra]
    if kind == "type":
        names = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
        return [(False, format_error(path, f"Input should be of type {' or '.join(names)}, got {json_type(instance)}"))]
    if kind == "enum" and isinstance(value, list):
        return [(False, format_error(path, f"Input should be one of {', '.join(json.dumps(e) for e in value)}"))]
    return [(False, format_error(path, error.message))]


def _top_level_problems(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    properties: dict[str, Any] = schema.get("properties", {})
    problems: list[str] = []
    for key in schema.get("required", []):
        if key not in arguments:
            problems.append(f"{key}: Field required")
    for key, value in arguments.items():
        spec = properties.get(key)
        if spec is None:
            if schema.get("additionalProperties") is False:
                problems.append(f"{key}: Extra inputs are not permitted")
            continue
        if not isinstance(spec, dict):
            continue
        expected = spec.get("type")
        names = [expected] if isinstance(expected, str) else expected if isinstance(expected, list) else []
        checks = [_JSON_TYPE_CHECKS[t] for t in names if t in _JSON_TYPE_CHECKS]
        if checks and not any(check(value) for check in checks):
            problems.append(f"{key}: Input should be of type {' or '.join(names)}, got {json_type(value)}")
            continue
        enum = spec.get("enum")
        if isinstance(enum, list) and value not in enum:
            problems.append(f"{key}: Input should be one of {', '.join(json.dumps(e) for e in enum)}")
    return problems


def arguments_message(name: str, problems: list[str]) -> str:
    return f"Invalid arguments for tool {name!r}:\n" + "\n".join(f"- {problem}" for problem in problems)


def format_error(loc: tuple[int | str, ...], message: str) -> str:
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return f"{path}: {message}" if path else message


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__
