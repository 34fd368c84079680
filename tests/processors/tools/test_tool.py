"""Tools: schemas from hints and docstrings, argument validation, injection, threads, explicit forms."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import enum
import json
import threading
import uuid
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field, ValidationError

from processors.chunks import DataChunk
from processors.context import RequestContext, StreamWriter
from processors.errors import InvalidChunkError, ToolArgumentsError, ToolError
from processors.tools import Tool, parse_docstring, serialize_result, tool, tools_by_name


class Address(BaseModel):
    street: str
    title: str = "home"  # a property called "title" must survive the title stripping


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@tool
def get_weather(city: str, unit: Literal["c", "f"] = "c") -> dict[str, Any]:
    """Get the current weather for a city.

    Args:
        city: The city name, e.g. "Paris".
        unit: Temperature unit.
    """
    return {"city": city, "unit": unit, "temperature": 21}


# ---------------------------------------------------------------------------------------------------- schemas


def test_schema_from_type_hints() -> None:
    @tool
    def everything(
        text: str,
        count: int,
        ratio: float,
        flag: bool,
        tags: list[str],
        mode: Literal["fast", "slow"],
        note: str | None,
        address: Address,
        color: Color = Color.RED,
        limit: int = 10,
    ) -> None:
        """Take every kind of argument."""

    assert everything.parameters == {
        "type": "object",
        "properties": {
            "text": {"type": "string"},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "flag": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "mode": {"type": "string", "enum": ["fast", "slow"]},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "address": {"$ref": "#/$defs/Address"},
            "color": {"$ref": "#/$defs/Color", "default": "red"},
            "limit": {"type": "integer", "default": 10},
        },
        "required": ["text", "count", "ratio", "flag", "tags", "mode", "note", "address"],
        "$defs": {
            "Address": {
                "type": "object",
                "properties": {"street": {"type": "string"}, "title": {"type": "string", "default": "home"}},
                "required": ["street"],
            },
            "Color": {"type": "string", "enum": ["red", "blue"]},
        },
    }
    assert list(everything.parameters) == ["type", "properties", "required", "$defs"]


def test_to_openai_shape() -> None:
    assert get_weather.to_openai() == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": 'The city name, e.g. "Paris".'},
                    "unit": {
                        "type": "string",
                        "enum": ["c", "f"],
                        "default": "c",
                        "description": "Temperature unit.",
                    },
                },
                "required": ["city"],
            },
        },
    }
    # A copy: editing it does not change the tool.
    get_weather.to_openai()["function"]["parameters"]["properties"].clear()
    assert "city" in get_weather.parameters["properties"]


def test_no_parameters_and_no_docstring() -> None:
    @tool
    def ping() -> str:
        return "pong"

    assert ping.description == ""
    assert ping.parameters == {"type": "object", "properties": {}}
    assert ping.to_openai() == {
        "type": "function",
        "function": {"name": "ping", "parameters": {"type": "object", "properties": {}}},
    }


def test_field_and_annotated_metadata_are_kept() -> None:
    @tool
    def search(
        query: Annotated[str, Field(description="What to look for", min_length=1)],
        top_k: int = Field(5, ge=1, le=20),
    ) -> None:
        """Search.

        Args:
            query: ignored, the Annotated description wins.
            top_k: How many hits.
        """

    assert search.parameters["properties"] == {
        "query": {"type": "string", "description": "What to look for", "minLength": 1},
        "top_k": {"type": "integer", "default": 5, "minimum": 1, "maximum": 20, "description": "How many hits."},
    }


def test_parameter_names_that_clash_with_basemodel_attributes() -> None:
    @tool
    def clash(json: str, schema: int, model_config: bool = False) -> dict[str, Any]:
        return {"json": json, "schema": schema, "model_config": model_config}

    assert set(clash.parameters["properties"]) == {"json", "schema", "model_config"}
    assert clash.parameters["required"] == ["json", "schema"]
    assert asyncio.run(clash.call({"json": "x", "schema": "3"})) == {"json": "x", "schema": 3, "model_config": False}


def test_local_model_resolves_under_postponed_annotations() -> None:
    class Point(BaseModel):
        x: int
        y: int

    @tool
    def plot(point: Point) -> int:
        return point.x + point.y

    assert plot.parameters["properties"]["point"] == {"$ref": "#/$defs/Point"}
    assert asyncio.run(plot.call('{"point": {"x": 1, "y": "2"}}')) == 3


def test_unresolvable_hint_is_a_type_error_naming_the_tool() -> None:
    with pytest.raises(TypeError, match="Tool 'broken': cannot resolve the type hints"):

        @tool
        def broken(value: NoSuchType) -> None:  # type: ignore[name-defined]  # noqa: F821
            pass


# ---------------------------------------------------------------------------------------------------- docstrings


def test_description_is_the_text_before_the_sections() -> None:
    @tool(name="find")
    def find(query: str, limit: int = 3) -> None:
        """Search the knowledge base.

        Use it for company policy questions.

        Args:
            query (str): What to search for,
                in plain words.
            limit: How many hits.

        Returns:
            The hits.
        """

    assert find.description == "Search the knowledge base.\n\nUse it for company policy questions."
    assert find.parameters["properties"]["query"]["description"] == "What to search for, in plain words."
    assert find.parameters["properties"]["limit"]["description"] == "How many hits."


def test_rest_style_param_docs() -> None:
    @tool
    def convert(amount: float, currency: str) -> None:
        """Convert money.

        :param amount: The amount,
            in cents.
        :param str currency: ISO code.
        :returns: the converted amount.
        """

    assert convert.description == "Convert money."
    assert convert.parameters["properties"]["amount"]["description"] == "The amount, in cents."
    assert convert.parameters["properties"]["currency"]["description"] == "ISO code."


def test_numpy_style_param_docs() -> None:
    assert parse_docstring(
        """Add numbers.

        Parameters
        ----------
        a : int
            The first.
        b : int
            The second,
            also an int.

        Returns
        -------
        int
        """
    ) == ("Add numbers.", {"a": "The first.", "b": "The second, also an int."})


def test_explicit_description_overrides_the_docstring() -> None:
    @tool(description="Look a customer up by id.")
    def lookup(customer_id: int) -> None:
        """Internal notes nobody should see."""

    assert lookup.description == "Look a customer up by id."


# ---------------------------------------------------------------------------------------------------- names


@pytest.mark.parametrize("name", ["bad name", "", "x" * 65, "tool.v2", "naïve"])
def test_bad_names_are_rejected_at_decoration(name: str) -> None:
    with pytest.raises(ValueError, match=r"Invalid tool name .*must match"):

        @tool(name=name)
        def fine() -> None:
            pass


def test_lambda_name_is_rejected_and_named() -> None:
    with pytest.raises(ValueError, match="Invalid tool name '<lambda>'"):
        tool(lambda: None)


def test_good_names_are_accepted() -> None:
    assert tool(name="lookup-customer_2")(lambda: None).name == "lookup-customer_2"
    assert tool(name="x" * 64)(lambda: None).name == "x" * 64


# ---------------------------------------------------------------------------------------------------- injection


async def test_injected_parameters_are_left_out_and_injected() -> None:
    seen: dict[str, Any] = {}

    @tool(name="lookup-customer")
    async def lookup(customer_id: int, writer: StreamWriter, request_context: RequestContext) -> dict[str, Any]:
        """Find a customer."""
        seen["thread"] = threading.get_ident()
        await writer.custom({"type": "data-progress", "data": {"step": 1}, "transient": True})
        request_context.set("looked_up", customer_id)
        return {"id": customer_id, "tenant": request_context.get("tenant")}

    assert lookup.parameters == {
        "type": "object",
        "properties": {"customer_id": {"type": "integer"}},
        "required": ["customer_id"],
    }
    assert lookup.requires_writer
    assert lookup.requires_request_context
    assert lookup.is_async

    chunks: list[Any] = []
    context = RequestContext({"tenant": "acme"})
    result = await lookup.call('{"customer_id": "7"}', writer=StreamWriter(emit=chunks.append), request_context=context)

    assert result == {"id": 7, "tenant": "acme"}
    assert chunks == [DataChunk(type="data-progress", data={"step": 1}, transient=True)]
    assert context.get("looked_up") == 7
    assert seen["thread"] == threading.get_ident()  # async tools run on the loop


async def test_injection_by_annotation_under_any_name_and_by_bare_name() -> None:
    @tool
    async def by_type(query: str, out: StreamWriter, ctx: RequestContext | None = None) -> str:
        assert ctx is not None
        out.custom({"type": "data-x", "data": query})
        return str(ctx.get("k"))

    @tool
    async def by_name(query: str, writer, request_context) -> str:  # type: ignore[no-untyped-def]
        writer.custom({"type": "data-y", "data": query})
        return str(request_context.get("k"))

    for each in (by_type, by_name):
        assert list(each.parameters["properties"]) == ["query"]
        chunks: list[Any] = []
        result = await each.call(
            {"query": "q"}, writer=StreamWriter(chunks.append), request_context=RequestContext({"k": 1})
        )
        assert result == "1"
        assert [chunk.data for chunk in chunks] == ["q"]


async def test_parameter_named_writer_with_a_real_type_is_an_argument() -> None:
    @tool
    def books_by(writer: str) -> str:
        return f"books by {writer}"

    assert books_by.parameters["properties"] == {"writer": {"type": "string"}}
    assert not books_by.requires_writer
    assert await books_by.call('{"writer": "Austen"}') == "books by Austen"


async def test_missing_writer_and_context_are_replaced_by_harmless_ones() -> None:
    @tool
    async def noisy(writer: StreamWriter, request_context: RequestContext) -> list[str]:
        await writer.custom({"type": "data-nobody-listens", "data": 1})
        return list(request_context.keys())

    assert await noisy.call("{}") == []


# ---------------------------------------------------------------------------------------------------- arguments


async def test_invalid_json_message_is_for_the_model() -> None:
    with pytest.raises(ToolArgumentsError) as caught:
        await get_weather.call('{"city" "Paris"}')
    assert (
        str(caught.value) == "Invalid JSON arguments for tool 'get_weather': Expecting ':' delimiter at line 1 column 9"
    )
    assert isinstance(caught.value.__cause__, json.JSONDecodeError)
    assert isinstance(caught.value, ToolError)

    with pytest.raises(ToolArgumentsError) as caught:
        get_weather.validate('{"city": "Paris" "unit": "c"}')
    assert str(caught.value) == (
        "Invalid JSON arguments for tool 'get_weather': Expecting ',' delimiter at line 1 column 18"
    )


async def test_invalid_arguments_list_each_field() -> None:
    with pytest.raises(ToolArgumentsError) as caught:
        await get_weather.call('{"unit": "k"}')
    assert str(caught.value) == (
        "Invalid arguments for tool 'get_weather':\n- city: Field required\n- unit: Input should be 'c' or 'f'"
    )
    assert isinstance(caught.value.__cause__, ValidationError)


async def test_nested_error_locations() -> None:
    @tool
    def route(stops: list[Address]) -> None:
        pass

    with pytest.raises(ToolArgumentsError) as caught:
        route.validate({"stops": [{"street": "a"}, {"title": 3}]})
    assert str(caught.value) == (
        "Invalid arguments for tool 'route':\n"
        "- stops[1].street: Field required\n"
        "- stops[1].title: Input should be a valid string"
    )


async def test_arguments_must_be_an_object() -> None:
    with pytest.raises(
        ToolArgumentsError, match=r"^Invalid arguments for tool 'get_weather': expected a JSON object, got array$"
    ):
        await get_weather.call("[1, 2]")


async def test_empty_arguments_text_means_no_arguments() -> None:
    @tool
    def ping() -> str:
        return "pong"

    assert await ping.call("") == "pong"
    assert await ping.call("  ") == "pong"


async def test_validate_coerces_fills_defaults_and_round_trips_into_call() -> None:
    @tool
    def schedule(when: datetime.date, color: Color, tags: set[str], count: int = 1) -> dict[str, Any]:
        return {"when": when, "color": color, "tags": tags, "count": count}

    validated = schedule.validate('{"when": "2024-05-01", "color": "blue", "tags": ["a", "a"], "extra": 1}')
    assert validated == {"when": "2024-05-01", "color": "blue", "tags": ["a"], "count": 1}
    json.dumps(validated)  # JSON-safe
    assert await schedule.call(validated) == {
        "when": datetime.date(2024, 5, 1),
        "color": Color.BLUE,
        "tags": {"a"},
        "count": 1,
    }


# ---------------------------------------------------------------------------------------------------- running


async def test_sync_tool_runs_in_a_worker_thread() -> None:
    @tool
    def where() -> int:
        return threading.get_ident()

    assert await where.call("{}") != threading.get_ident()
    assert not where.is_async


async def test_sync_tool_does_not_block_the_loop() -> None:
    release = threading.Event()

    started = threading.Event()

    @tool
    def slow() -> str:
        started.set()
        release.wait(5)
        return "done"

    task = asyncio.create_task(slow.call("{}"))
    while not started.is_set():  # the loop turns while the tool's thread starts and then waits
        await asyncio.sleep(0)
    assert not task.done()  # the loop keeps running while the tool waits
    release.set()
    assert await task == "done"


async def test_sync_tool_writer_delivers_chunks_on_the_loop_in_order() -> None:
    loop_thread = threading.get_ident()
    delivered: list[tuple[Any, int]] = []

    def emit(chunk: Any) -> None:
        delivered.append((chunk, threading.get_ident()))

    @tool
    def count(n: int, writer: StreamWriter) -> str:
        for i in range(n):
            writer.custom({"type": "data-count", "data": i})
        return "counted"

    assert await count.call({"n": 5}, writer=StreamWriter(emit)) == "counted"
    assert [chunk.data for chunk, _ in delivered] == [0, 1, 2, 3, 4]
    assert {thread for _, thread in delivered} == {loop_thread}


async def test_invalid_chunk_from_a_sync_tool_raises_in_the_tool() -> None:
    @tool
    def bad(writer: StreamWriter) -> str:
        try:
            writer.custom({"type": "progress"})
        except InvalidChunkError as exc:
            return f"caught: {exc}"
        return "not caught"

    chunks: list[Any] = []
    assert await bad.call({}, writer=StreamWriter(chunks.append)) == (
        "caught: writer.custom() needs a chunk whose type starts with 'data-', got type 'progress'"
    )
    assert chunks == []


async def test_tool_exceptions_propagate_unchanged() -> None:
    class Boom(RuntimeError):
        pass

    @tool
    def sync_boom() -> None:
        raise Boom("sync")

    @tool
    async def async_boom() -> None:
        raise Boom("async")

    with pytest.raises(Boom, match=r"^sync$"):
        await sync_boom.call("{}")
    with pytest.raises(Boom, match=r"^async$"):
        await async_boom.call("{}")


async def test_cancellation_propagates() -> None:
    started = asyncio.Event()

    @tool
    async def forever() -> None:
        started.set()
        await asyncio.sleep(60)

    task = asyncio.create_task(forever.call("{}"))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


# ---------------------------------------------------------------------------------------------------- explicit Tool


async def test_explicit_tool_with_raw_schema() -> None:
    def add(a: float, b: float) -> float:
        return a + b

    schema = {
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
    }
    add_tool = Tool(name="add", description="Add two numbers", parameters=schema, execute=add)

    assert add_tool.to_openai() == {
        "type": "function",
        "function": {"name": "add", "description": "Add two numbers", "parameters": schema},
    }
    assert add_tool.input_model is None
    assert await add_tool.call('{"a": 1, "b": 2.5, "unknown": true}') == 3.5  # unknown keys are dropped

    with pytest.raises(ToolArgumentsError) as caught:
        await add_tool.call('{"a": "one"}')
    assert str(caught.value) == (
        "Invalid arguments for tool 'add':\n- b: Field required\n- a: Input should be of type number, got string"
    )


async def test_raw_schema_enum_and_additional_properties() -> None:
    def paint(color: str, **extra: Any) -> dict[str, Any]:
        return {"color": color, **extra}

    strict_tool = Tool(
        "paint",
        "Paint",
        parameters={"properties": {"color": {"enum": ["red", "blue"]}}, "additionalProperties": False},
        execute=paint,
    )
    assert strict_tool.parameters["type"] == "object"
    with pytest.raises(ToolArgumentsError) as caught:
        strict_tool.validate({"color": "green", "size": 3})
    assert str(caught.value) == (
        "Invalid arguments for tool 'paint':\n"
        '- color: Input should be one of "red", "blue"\n'
        "- size: Extra inputs are not permitted"
    )

    open_tool = Tool("paint", "Paint", parameters={"type": "object", "properties": {"color": {}}}, execute=paint)
    assert await open_tool.call({"color": "red", "size": 3}) == {"color": "red", "size": 3}  # **extra gets them


def test_raw_schema_must_describe_an_object_the_function_accepts() -> None:
    def add(a: int) -> int:
        return a

    with pytest.raises(ValueError, match="Tool 'add': parameters must describe an object"):
        Tool("add", parameters={"type": "array"}, execute=add)
    with pytest.raises(TypeError, match="the schema declares 'b' but execute does not accept"):
        Tool("add", parameters={"type": "object", "properties": {"a": {}, "b": {}}}, execute=add)
    with pytest.raises(TypeError, match="not both"):
        Tool("add", parameters={"type": "object"}, input_model=Address, execute=add)
    with pytest.raises(ValueError, match="Invalid tool name 'a b'"):
        Tool("a b", execute=add)


class AddInput(BaseModel):
    a: int
    b: int = Field(0, description="The second number")


async def test_explicit_tool_with_input_model_passes_fields() -> None:
    def add(a: int, b: int, request_context: RequestContext) -> int:
        return a + b + int(request_context.get("bonus", 0))

    add_tool = Tool("add", "Add", input_model=AddInput, execute=add)
    assert add_tool.parameters == {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "integer", "default": 0, "description": "The second number"},
        },
        "required": ["a"],
    }
    assert add_tool.requires_request_context
    assert await add_tool.call('{"a": "2", "b": 3}', request_context=RequestContext({"bonus": 10})) == 15
    with pytest.raises(ToolArgumentsError, match=r"^Invalid arguments for tool 'add':\n- a: Field required$"):
        await add_tool.call("{}")


async def test_explicit_tool_with_input_model_passes_the_instance() -> None:
    async def add(data: AddInput, writer: StreamWriter) -> int:
        await writer.custom({"type": "data-adding", "data": data.model_dump()})
        return data.a + data.b

    chunks: list[Any] = []
    add_tool = Tool("add", "Add", input_model=AddInput, execute=add)
    assert await add_tool.call({"a": 1, "b": 2}, writer=StreamWriter(chunks.append)) == 3
    assert [chunk.data for chunk in chunks] == [{"a": 1, "b": 2}]


async def test_explicit_tool_without_parameters() -> None:
    now = Tool("now", "The time", execute=lambda: "noon")
    assert now.parameters == {"type": "object", "properties": {}}
    assert await now.call("") == "noon"


# ---------------------------------------------------------------------------------------------------- tools_by_name


def test_tools_by_name_from_list_mapping_and_functions() -> None:
    def plain(x: int) -> int:
        return x

    by_list = tools_by_name([get_weather, plain])
    assert list(by_list) == ["get_weather", "plain"]
    assert by_list["get_weather"] is get_weather
    assert isinstance(by_list["plain"], Tool)
    assert by_list["plain"].parameters["required"] == ["x"]

    by_mapping = tools_by_name({"weather": get_weather})
    assert by_mapping["weather"].name == "weather"
    assert by_mapping["weather"].to_openai()["function"]["name"] == "weather"
    assert get_weather.name == "get_weather"  # the original is untouched

    assert tools_by_name(None) == {}
    assert tools_by_name([]) == {}


def test_tools_by_name_rejects_duplicates_and_junk() -> None:
    other = tool(name="get_weather")(lambda: None)
    with pytest.raises(ValueError, match="Duplicate tool name 'get_weather'"):
        tools_by_name([get_weather, other])
    with pytest.raises(TypeError):
        tools_by_name([42])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        tools_by_name("get_weather")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Invalid tool name 'bad key'"):
        tools_by_name({"bad key": get_weather})


# ---------------------------------------------------------------------------------------------------- serialize_result


@dataclasses.dataclass
class Reading:
    when: datetime.datetime
    values: tuple[float, ...]
    color: Color


class Opaque:
    def __str__(self) -> str:
        return "opaque!"


def test_serialize_result_makes_values_json_safe() -> None:
    value = {
        "model": Address(street="Main"),
        "reading": Reading(datetime.datetime(2024, 1, 2, 3, 4, 5), (1.0, 2.5), Color.BLUE),
        "set": {3, 1, 2},
        "tuple": (1, "a"),
        "date": datetime.date(2024, 1, 2),
        "uuid": uuid.UUID(int=1),
        "nan": float("nan"),
        "text": b"bytes",
        "binary": b"\xff\x00",
        "opaque": Opaque(),
        "nested": [{"deep": (Color.RED,)}],
        1: "int key",
    }
    result = serialize_result(value)
    assert result == {
        "model": {"street": "Main", "title": "home"},
        "reading": {"when": "2024-01-02T03:04:05", "values": [1.0, 2.5], "color": "blue"},
        "set": [1, 2, 3],
        "tuple": [1, "a"],
        "date": "2024-01-02",
        "uuid": "00000000-0000-0000-0000-000000000001",
        "nan": None,
        "text": "Ynl0ZXM=",  # one undecodable bytes value switches the whole result to base64
        "binary": "_wA=",
        "opaque": "opaque!",
        "nested": [{"deep": ["red"]}],
        "1": "int key",
    }
    json.dumps(result, allow_nan=False)


def test_serialize_result_plain_values_and_fallbacks() -> None:
    assert serialize_result({"a": [1, 2.5, None, True, "x"]}) == {"a": [1, 2.5, None, True, "x"]}
    assert serialize_result(b"text") == "text"
    assert serialize_result(Opaque()) == "opaque!"
    cycle: list[Any] = []
    cycle.append(cycle)
    assert serialize_result(cycle) == "[[...]]"


def test_a_raw_schema_is_checked_at_every_depth_in_the_same_words() -> None:
    def book(trip: dict[str, Any], seats: int) -> str:
        return "booked"

    schema = {
        "type": "object",
        "properties": {
            "trip": {
                "type": "object",
                "properties": {"to": {"type": "string", "pattern": "^[A-Z]{3}$"}, "legs": {"type": "array"}},
                "required": ["to"],
                "additionalProperties": False,
            },
            "seats": {"type": "integer", "minimum": 1, "enum": [1, 2, 3]},
        },
        "required": ["trip", "seats"],
    }
    booking = Tool("book", parameters=schema, execute=book)
    with pytest.raises(ToolArgumentsError) as caught:
        booking.validate({"seats": 0, "trip": {"to": "paris", "legs": "one", "via": "LHR"}})
    assert str(caught.value) == (
        "Invalid arguments for tool 'book':\n"
        "- seats: 0 is less than the minimum of 1\n"
        "- seats: Input should be one of 1, 2, 3\n"
        "- trip.to: 'paris' does not match '^[A-Z]{3}$'\n"
        "- trip.legs: Input should be of type array, got string\n"
        "- trip.via: Extra inputs are not permitted"
    )
    assert booking.validate({"seats": 2, "trip": {"to": "CDG"}}) == {"seats": 2, "trip": {"to": "CDG"}}


def test_a_schemas_catastrophic_pattern_is_bounded_and_a_broken_schema_keeps_its_top_level_checks() -> None:
    def look(name: str) -> str:
        return name

    hostile = {"type": "object", "properties": {"name": {"type": "string", "pattern": "^(?:ab|a(?:b))+$"}}}
    with pytest.raises(ToolArgumentsError, match=r"could not be checked against the pattern .* in time"):
        Tool("look", parameters=hostile, execute=look).validate({"name": "ab" * 30 + "x"})
    broken = {"type": "object", "properties": {"name": {"type": "text"}}, "required": ["name"]}  # no such type
    with pytest.raises(ToolArgumentsError, match=r"^Invalid arguments for tool 'look':\n- name: Field required$"):
        Tool("look", parameters=broken, execute=look).validate({})


def test_raw_schemas_of_one_draft_share_one_validator_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extending jsonschema's validator with the time-limited ``pattern`` makes a class (~10 ms): the lab builds a
    raw-schema tool for every case, so the class is made once per draft, not once per tool."""
    import jsonschema

    from processors.tools.schema import raw_validator

    first = raw_validator({"type": "object", "properties": {"url": {"type": "string", "pattern": "^https?://"}}})
    extended: list[object] = []
    real_extend = jsonschema.validators.extend
    monkeypatch.setattr(jsonschema.validators, "extend", lambda *a, **k: extended.append(a) or real_extend(*a, **k))
    second = raw_validator({"type": "object", "properties": {"q": {"type": "string"}}})
    assert extended == [] and type(first) is type(second)
    assert not first.is_valid({"url": "ftp://x"}) and first.is_valid({"url": "https://x"})
