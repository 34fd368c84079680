"""What each option field is, read from a processor's ``Options`` JSON schema (no widgets here).

:func:`field_specs` reads ``Options.model_json_schema()`` (``$ref``/``$defs``, ``anyOf [X, null]``, enums, ranges)
into :class:`FieldSpec` objects; :mod:`studio.views.option_fields` builds the editor for each. A string option may
carry hints of its own in the schema (``json_schema_extra``): ``x-folder`` (a folder to choose),
``x-model-labels: <option>`` (a label of the model in the folder that option names) and ``x-service-key: <name>``
(a guard service's endpoint, whose API key is saved for it under that name); they are kept in ``extra``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FieldSpec", "field_specs"]

_MULTILINE_NAMES = ("instructions", "prompt", "template", "message")
#: Untyped options whose values are usually JSON documents: a text area rather than a line.
_STRUCTURED_NAMES = ("schema", "value", "data")


@dataclass(frozen=True)
class FieldSpec:
    """What the form needs to know about one option, read from the JSON schema."""

    name: str
    title: str
    # bool, enum, int, number, text, multiline, enum_list, string_list, json, any, folder, model_label,
    # service_endpoint
    kind: str
    description: str = ""
    nullable: bool = False
    required: bool = False
    has_default: bool = False
    default: Any = None
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def field_specs(schema: Mapping[str, Any], defaults: Mapping[str, Any] | None = None) -> list[FieldSpec]:
    """The fields of an ``Options`` JSON schema, in declaration order. ``defaults`` adds factory defaults."""
    defaults = dict(defaults or {})
    definitions = schema.get("$defs", {})
    required = set(schema.get("required", ()))
    specs = []
    for name, raw in schema.get("properties", {}).items():
        prop, nullable = _resolve(raw, definitions)
        has_default = "default" in raw or name in defaults
        default = raw.get("default", defaults.get(name))
        specs.append(
            FieldSpec(
                name=name,
                title=raw.get("title") or prop.get("title") or name.replace("_", " ").capitalize(),
                kind=_kind(name, prop),
                description=raw.get("description") or prop.get("description") or "",
                nullable=nullable,
                required=name in required,
                has_default=has_default,
                default=default,
                choices=tuple(_choices(prop.get("items", {}) if prop.get("type") == "array" else prop)),
                minimum=prop.get("minimum", prop.get("exclusiveMinimum")),
                maximum=prop.get("maximum", prop.get("exclusiveMaximum")),
                extra={key: value for key, value in raw.items() if key.startswith("x-")},
            )
        )
    return specs


def _resolve(prop: Mapping[str, Any], definitions: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """Follow ``$ref``/``allOf``; unwrap ``anyOf [X, null]``. Returns the schema and whether null is allowed."""
    prop = dict(prop)
    nullable = False
    if "$ref" in prop:
        prop = {
            **definitions.get(prop["$ref"].rsplit("/", 1)[-1], {}),
            **{k: v for k, v in prop.items() if k != "$ref"},
        }
    if "allOf" in prop and len(prop["allOf"]) == 1:
        inner, inner_nullable = _resolve(prop["allOf"][0], definitions)
        prop = {**inner, **{k: v for k, v in prop.items() if k != "allOf"}}
        nullable |= inner_nullable
    if "anyOf" in prop:
        options = [option for option in prop["anyOf"] if option.get("type") != "null"]
        nullable = len(options) < len(prop["anyOf"])
        if len(options) == 1:
            inner, _ = _resolve(options[0], definitions)
            prop = {**inner, **{k: v for k, v in prop.items() if k != "anyOf"}}
        else:
            prop = {k: v for k, v in prop.items() if k != "anyOf"} | {"type": "json"}
    return prop, nullable


def _choices(prop: Mapping[str, Any]) -> list[Any]:
    if "enum" in prop:
        return list(prop["enum"])
    if "const" in prop:
        return [prop["const"]]
    return []


def _kind(name: str, prop: Mapping[str, Any]) -> str:
    kind = prop.get("type")
    if kind == "string" and prop.get("x-folder"):
        return "folder"  # a folder on this computer: a line edit with a "Choose…" button
    if kind == "string" and prop.get("x-service-key"):
        return "service_endpoint"  # a guard service's address: a line edit with a "Key…" button
    if kind == "string" and prop.get("x-model-labels"):
        return "model_label"  # one of the labels of the model in the folder another option names
    if _choices(prop) and kind != "array":
        return "enum"
    if kind == "boolean":
        return "bool"
    if kind == "integer":
        return "int"
    if kind == "number":
        return "number"
    if kind == "string":
        long_text = any(word in name for word in _MULTILINE_NAMES) or prop.get("maxLength", 0) > 1000
        return "multiline" if long_text else "text"
    if kind == "array":
        items = prop.get("items", {})
        if items.get("type") == "string" and _choices(items):
            return "enum_list"
        if items.get("type") == "string" and "$ref" not in items:
            return "string_list"
        return "json"
    if kind is None and not prop.get("properties"):
        return "any_text" if any(word in name for word in _STRUCTURED_NAMES) else "any"
    return "json"
