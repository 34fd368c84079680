"""How the demo model reads a named tool's arguments, rule by rule (:mod:`processors.demo.named_tools`): each
JSON type, what is said outright, what is guessed and what is left to the tool's defaults."""

from __future__ import annotations

from typing import Any

import pytest

from processors.demo.named_tools import (
    describe_parameters,
    example_request,
    find_named_tool,
    named_call,
    offered_schemas,
)


def one(key: str, spec: dict[str, Any], *, required: bool = True) -> dict[str, Any]:
    return {"type": "object", "properties": {key: spec}, "required": [key] if required else []}


def read(text: str, schema: dict[str, Any], name: str = "t") -> tuple[dict[str, Any], tuple[str, ...]]:
    found = find_named_tool(text, {name: schema})
    assert found is not None and found[0] == name, text
    call = named_call(text, name, schema, found[1])
    assert call.name == name
    return call.arguments, call.missing


BOOLEAN = one("loud", {"type": "boolean"})
ENUM = one("unit", {"type": "string", "enum": ["celsius", "fahrenheit"]})
NUMBER = one("x", {"type": "number"})
OPTIONAL_INT = one("n", {"anyOf": [{"type": "null"}, {"type": "integer"}]})
LISTED_INT = one("n", {"type": ["null", "integer"]})
URL = one("url", {"type": "string"})
URI_FORMAT = one("target", {"type": "string", "format": "uri"})
EMAIL = one("to", {"type": "string", "format": "email"})
EMAIL_NAME = one("email_address", {"type": "string"})
TEXT = one("text", {"type": "string"})
NAME = one("name", {"type": "string"})
CAMEL = one("docId", {"type": "string"})
ARRAY = one("items", {"type": "array"})
OBJECT = one("opts", {"type": "object"})
TWO_INTS = {"properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}


@pytest.mark.parametrize(
    ("text", "schema", "arguments", "missing"),
    [
        ("use t with yes", BOOLEAN, {"loud": True}, ()),
        ("use t: No.", BOOLEAN, {"loud": False}, ()),
        ("use t TRUE!", BOOLEAN, {"loud": True}, ()),
        ("use t", BOOLEAN, {}, ("loud",)),
        ("use t in Fahrenheit", ENUM, {"unit": "fahrenheit"}, ()),
        ("use t please", ENUM, {}, ("unit",)),  # not free text: only a value the enum has
        ("use t with 2.5", NUMBER, {"x": 2.5}, ()),
        ("use t with 3", NUMBER, {"x": 3}, ()),
        ("use t with 3.0", NUMBER, {"x": 3.0}, ()),
        ("use t -4", NUMBER, {"x": -4}, ()),
        ("use t on q3", NUMBER, {}, ("x",)),  # a digit inside a word is no number
        ("use t 7", OPTIONAL_INT, {"n": 7}, ()),
        ("use t 7.5", OPTIONAL_INT, {}, ("n",)),
        ("use t 8", LISTED_INT, {"n": 8}, ()),
        ("use t to read https://a.example/x?y=1.", URL, {"url": "https://a.example/x?y=1"}, ()),
        ("use t on https://b.example/page and more", URI_FORMAT, {"target": "https://b.example/page"}, ()),
        ("use t on b.example", URI_FORMAT, {"target": "b.example"}, ()),
        ("use t to write to ann@example.com now", EMAIL, {"to": "ann@example.com"}, ()),
        ("use t for bob@example.org please", EMAIL_NAME, {"email_address": "bob@example.org"}, ()),
        ("use t for the document Q7", CAMEL, {"docId": "Q7"}, ()),
        ("use t for the doc of q9", CAMEL, {"docId": "q9"}, ()),  # "of" is no value: the last word instead
        ("use t “hello there” please", TEXT, {"text": "hello there"}, ()),
        ("use t with `a b`", TEXT, {"text": "a b"}, ()),
        ("use t on hello world.", TEXT, {"text": "hello world"}, ()),
        ("Use t to the", TEXT, {}, ("text",)),
        ("use t for HOME", NAME, {"name": "HOME"}, ()),
        ("use t for my home folder", NAME, {"name": "folder"}, ()),
        ("use t with items=[1, 2]", ARRAY, {"items": [1, 2]}, ()),
        ("use t with items=[1,", ARRAY, {}, ("items",)),
        ('use t opts={"a": 1}', OBJECT, {"opts": {"a": 1}}, ()),
        ("use t opts=[1]", OBJECT, {}, ("opts",)),
        ("use t with text=[1]", TEXT, {"text": "[1]"}, ()),
        ("use t with text: 'said outright' and more", TEXT, {"text": "said outright"}, ()),
        ("use t with loud=off", BOOLEAN, {"loud": False}, ()),
        ("use t with n=4.0", OPTIONAL_INT, {"n": 4}, ()),
        ("use t with a=5 and 7", TWO_INTS, {"a": 5, "b": 7}, ()),
        ("use t with b=5 and 7", TWO_INTS, {"a": 7, "b": 5}, ()),
        ("use t with 1, 2 and 3", TWO_INTS, {"a": 1, "b": 2}, ()),
        ("use t with loud=yes", BOOLEAN, {"loud": True}, ()),
        ("use t with loud=maybe", BOOLEAN, {}, ("loud",)),
        ("use t with TEXT=hi there", TEXT, {"text": "hi"}, ()),
        ("use t with name=HOME.", NAME, {"name": "HOME"}, ()),
        ("use t with https://a.example then stop", URL, {"url": "https://a.example"}, ()),
        ("use t on https://c.example now", one("link", {"type": "string"}), {"link": "https://c.example"}, ()),
        ("use t on https://c.example now", one("uri", {"type": "string"}), {"uri": "https://c.example"}, ()),
        (
            "use t https://d.example now",
            one("target", {"type": "string", "format": "url"}),
            {"target": "https://d.example"},
            (),
        ),
        ("use t (see https://e.example/a) now", URL, {"url": "https://e.example/a"}, ()),
        ("use t on see https://x.example", TEXT, {"text": "see https://x.example"}, ()),  # no URL asked for
        ("use t for x@y.example today", one("mail_to", {"type": "string"}), {"mail_to": "x@y.example"}, ()),
        ("use t for the document Q7 now", CAMEL, {"docId": "Q7"}, ()),
        ("use t for the Document Q7 now", CAMEL, {"docId": "Q7"}, ()),
        ("use t for the document (Q8), thanks", CAMEL, {"docId": "Q8"}, ()),
        ("use t: with, hello there.", TEXT, {"text": "hello there"}, ()),
        (
            "use t on 'one' and 'two'",
            {"properties": {"a": {}, "b": {}}, "required": ["a", "b"]},
            {"a": "one", "b": "two"},
            (),
        ),
    ],
)
def test_each_type_is_read_from_the_message(
    text: str, schema: dict[str, Any], arguments: dict[str, Any], missing: tuple[str, ...]
) -> None:
    assert read(text, schema) == (arguments, missing)


@pytest.mark.parametrize(
    ("text", "schema", "kind"),
    [
        ("use t with 3", NUMBER, int),
        ("use t with 3.0", NUMBER, float),
        ("use t with x=3.0", NUMBER, float),
        ("use t with x=3", NUMBER, int),
        ("use t with n=4.0", OPTIONAL_INT, int),
    ],
)
def test_a_number_keeps_its_kind(text: str, schema: dict[str, Any], kind: type) -> None:
    arguments, _missing = read(text, schema)
    assert type(next(iter(arguments.values()))) is kind


def test_only_required_parameters_or_a_lone_optional_one_are_guessed() -> None:
    shout = {"properties": {"text": {"type": "string"}, "times": {"type": "integer"}}, "required": ["text"]}
    assert read("use t on hi 3", shout) == ({"text": "hi 3"}, ())
    assert read("use t on hi times=3", shout) == ({"text": "hi", "times": 3}, ())
    assert read("use t times: 2 on 'a b'", shout) == ({"text": "a b", "times": 2}, ())
    assert read("use t on cats", one("q", {"type": "string"}, required=False)) == ({"q": "cats"}, ())
    two = {"properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    assert read("use t on cats", two) == ({}, ())
    assert read("use t on cats", {}) == ({}, ())


def test_the_named_tool_is_the_longest_name_mentioned_and_numbers_in_its_name_are_not_arguments() -> None:
    offered = {"fetch": {}, "fetch_doc": {}, "v2_add": TWO_INTS}
    assert find_named_tool("please use fetch_doc now", offered) == ("fetch_doc", len("please use fetch_doc"))
    assert find_named_tool("use the Fetch Doc tool", offered) == ("fetch_doc", len("use the Fetch Doc"))
    assert find_named_tool("use fetch", offered) == ("fetch", len("use fetch"))
    assert find_named_tool("prefetching", offered) is None
    assert find_named_tool("use fetch_docs", offered) is None
    assert read("use v2_add with 5 and 6", TWO_INTS, name="v2_add") == ({"a": 5, "b": 6}, ())


def test_what_a_tool_takes_is_said_one_parameter_a_line() -> None:
    schema = {
        "properties": {
            "doc_id": {"type": "string", "description": "The document's id."},
            "times": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        },
        "required": ["doc_id"],
    }
    assert describe_parameters(schema) == "- `doc_id` (string, required): The document's id.\n- `times` (integer)"
    assert describe_parameters(schema, required_word="必填").startswith("- `doc_id` (string, 必填)")
    assert describe_parameters({}) == "- (no parameters)"
    assert describe_parameters({"properties": "junk"}) == "- (no parameters)"
    odd = {"properties": {"a": {"type": ["null"]}, "b": {"oneOf": [{"type": "boolean"}]}, "c": {}}}
    assert describe_parameters(odd) == "- `a` (string)\n- `b` (boolean)\n- `c` (string)"
    assert describe_parameters({"properties": {"x": "not a schema"}}) == "- `x` (string)"


def test_an_example_request_says_every_required_value() -> None:
    kinds = ["integer", "number", "boolean", "array", "object", "string"]
    schema = {"properties": {k[0]: {"type": k} for k in kinds}, "required": [k[0] for k in kinds]}
    assert example_request("t", schema) == "Use t with i=2 n=2.5 b=true a=[...] o={...} s=..."
    assert example_request("t", {"properties": {"q": {"type": "integer"}, "r": {}}}) == "Use t with q=2"
    assert example_request("t", {}) == "Use t"


def test_the_offered_schemas_are_read_from_the_request_tools() -> None:
    tools = [
        {"type": "function", "function": {"name": "a", "parameters": TEXT}},
        {"type": "function", "function": {"name": "b", "parameters": "broken"}},
        {"type": "function", "function": {"name": ""}},
        {"type": "function"},
    ]
    assert offered_schemas(tools) == {"a": TEXT, "b": {}}
