"""A plain processor's declared options schema refuses each field with the code pydantic has for the same problem."""

from __future__ import annotations

from typing import Any

import pytest

from processors.builtin.base import InvalidOptionsError
from processors.builtin.plugin_options import check_declared_options, declared_defaults, declared_schema


class Declared:
    options_schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
            "name": {"type": "string", "minLength": 2},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "inner": {"type": "object", "properties": {"size": {"type": "number", "exclusiveMinimum": 0}}},
        },
        "required": ["name"],
    }


def _refusal(options: dict[str, Any]) -> InvalidOptionsError:
    with pytest.raises(InvalidOptionsError) as caught:
        check_declared_options("Declared", Declared, options)
    return caught.value


def test_each_keyword_is_refused_with_pydantics_code_at_the_fields_path() -> None:
    error = _refusal({"limit": 11, "tags": [], "inner": {"size": 0}})

    assert error.codes == {
        "name": ("missing", {}),
        "limit": ("less_than_equal", {"le": 10}),
        "tags": ("too_short", {"min_length": 1}),
        "inner.size": ("greater_than", {"gt": 0}),
    }
    assert error.errors["limit"] == "11 is greater than the maximum of 10"  # jsonschema's English, as written
    assert error.processor_type == "Declared"


def test_valid_options_and_a_class_that_declares_nothing_pass() -> None:
    check_declared_options("Declared", Declared, {"name": "ok", "limit": 1})
    check_declared_options("Nothing", object, {"anything": object()})
    assert declared_schema(object) == {} and declared_defaults(object) == {}
    assert declared_defaults(Declared) == {"limit": 3}


def test_a_schema_that_is_no_schema_checks_nothing() -> None:
    class Sloppy:
        options_schema = {"type": "no such type"}

    check_declared_options("Sloppy", Sloppy, {"limit": -1})
