"""The loop's edges with the model (``processors/loop/model_io.py``), through whole agent runs: a failing adapter
named in the error, the model's stream closed whatever its shape (and a broken ``aclose`` only logged), the
structured output asked for in the request and read back, and the step's text as ``process_output_step`` left it.
Over real litellm where the wire matters (the ``response_format`` the provider receives)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import BaseModel

from processors import Agent
from processors.messages import TextPart
from processors.models import LiteLLMModel, ScriptedModel, ToolCall, Turn
from processors.models.base import Finish, ModelEvent, ModelRequest, TextDelta
from tests.processors.helpers import Fn, get_weather, make_agent, run_stream
from tests.support.openai_server import OpenAIServer


class City(BaseModel):
    city: str


CITY_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def requested_format(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": "response", "schema": schema}}


# --- a failing adapter is named ---------------------------------------------------------------------------------


class Nameless:
    """A hand-written ``LanguageModel`` with an empty ``model_id``, failing before its first event."""

    provider = "custom"
    model_id = ""

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        raise RuntimeError("no route to the model")
        yield TextDelta("never")  # pragma: no cover - makes this an async generator


async def test_an_adapter_with_an_empty_model_id_is_named_by_its_class() -> None:
    chunks, result = await run_stream(make_agent(Nameless()))

    error = chunks[-1].payload.error  # type: ignore[union-attr]
    assert error["message"] == "the model adapter for 'Nameless' raised RuntimeError: no route to the model"
    assert (error["modelId"], error["provider"], error["exception"]) == ("Nameless", "custom", "RuntimeError")
    assert result.finish_reason == "error"


# --- the model's stream is closed -------------------------------------------------------------------------------


class Events:
    """An async iterator of model events that is not a generator; ``aclose`` only when asked for."""

    def __init__(self, events: list[ModelEvent]) -> None:
        self.events = list(events)

    def __aiter__(self) -> Events:
        return self

    async def __anext__(self) -> ModelEvent:
        if not self.events:
            raise StopAsyncIteration
        return self.events.pop(0)


class Closable(Events):
    def __init__(self, events: list[ModelEvent], error: Exception | None) -> None:
        super().__init__(events)
        self.error = error
        self.closed = 0

    async def aclose(self) -> None:
        self.closed += 1
        if self.error is not None:
            raise self.error


class Handwritten:
    """A ``LanguageModel`` whose ``stream()`` returns ``make()``'s iterator (remembered in ``sources``)."""

    provider = "custom"
    model_id = "custom/handwritten"

    def __init__(self, make: Any) -> None:
        self.make = make
        self.sources: list[Any] = []

    def stream(self, request: ModelRequest) -> Any:
        source = self.make([TextDelta("Hello "), TextDelta("there."), Finish("stop")])
        self.sources.append(source)
        return source


async def test_a_stream_without_aclose_is_read_to_its_end_and_nothing_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    model = Handwritten(Events)
    with caplog.at_level(logging.DEBUG, logger="processors.loop.run"):
        _chunks, result = await run_stream(make_agent(model))

    assert (result.finish_reason, result.text) == ("stop", "Hello there.")
    assert [r.getMessage() for r in caplog.records if r.name == "processors.loop.run"] == []


async def test_the_models_stream_is_closed_once_the_step_is_read() -> None:
    model = Handwritten(lambda events: Closable(events, None))
    _chunks, result = await run_stream(make_agent(model))

    assert result.text == "Hello there."
    assert [source.closed for source in model.sources] == [1]


async def test_a_broken_aclose_is_logged_and_does_not_replace_the_steps_outcome(
    caplog: pytest.LogCaptureFixture,
) -> None:
    model = Handwritten(lambda events: Closable(events, ConnectionResetError("peer went away")))
    with caplog.at_level(logging.WARNING, logger="processors.loop.run"):
        chunks, result = await run_stream(make_agent(model))

    assert (result.finish_reason, result.text, result.error) == ("stop", "Hello there.", None)
    assert chunks[-1].type == "finish"
    [record] = [r for r in caplog.records if r.name == "processors.loop.run"]
    assert (record.levelno, record.getMessage()) == (logging.WARNING, "closing the model's stream failed")
    assert record.exc_info is not None and isinstance(record.exc_info[1], ConnectionResetError)


# --- structured output: asked for, then read ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("structured", "expected"),
    [
        ({"schema": CITY_SCHEMA}, requested_format(CITY_SCHEMA)),
        (CITY_SCHEMA, None),  # a bare dict is read as options without a "schema": nothing to ask for
        ({"schema": City}, requested_format(City.model_json_schema())),
        (City, requested_format(City.model_json_schema())),
        ({"schema": "not a schema"}, None),
    ],
    ids=["schema-dict", "bare-dict", "model-in-dict", "bare-model", "not-a-schema"],
)
async def test_the_request_asks_for_the_structured_outputs_schema(structured: Any, expected: Any) -> None:
    model = ScriptedModel(['{"city": "Oslo"}'])
    await run_stream(make_agent(model), structured_output=structured)
    assert model.requests[0].response_format == expected


async def test_a_bare_model_class_is_read_into_an_instance() -> None:
    _chunks, result = await run_stream(make_agent(ScriptedModel(['{"city": "Oslo"}'])), structured_output=City)
    assert result.object == City(city="Oslo")


@pytest.mark.parametrize(
    ("answer", "structured", "expected"),
    [
        ('{"town": "Oslo"}', City, None),  # valid JSON the model class refuses
        ("Oslo, I think", City, None),  # no JSON at all
        ("Oslo, I think", {"schema": CITY_SCHEMA}, None),
        ('["Oslo", "Bergen"]', {"schema": {"type": "array"}}, ["Oslo", "Bergen"]),
    ],
    ids=["refused-by-the-model-class", "not-json-for-a-class", "not-json-for-a-schema", "json-kept-as-is"],
)
async def test_an_answer_that_does_not_parse_leaves_no_object(answer: str, structured: Any, expected: Any) -> None:
    _chunks, result = await run_stream(make_agent(ScriptedModel([answer])), structured_output=structured)
    assert (result.text, result.object) == (answer, expected)


async def test_the_provider_receives_the_schema_over_litellm(openai_server: OpenAIServer) -> None:
    openai_server.reply_text('{"city": ', '"Oslo"}')
    model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")

    result = await Agent(id="a", model=model).generate("where?", structured_output={"schema": City})

    assert openai_server.requests[0]["response_format"] == requested_format(City.model_json_schema())
    assert result.object == City(city="Oslo")


# --- the step's text as process_output_step left it ---------------------------------------------------------------


def on_step(number: int, change: Any) -> Fn:
    """A ``process_output_step`` that edits the latest answer (``change(message)``) after step ``number`` only."""

    def step(args: Any) -> Any:
        if args.step_number != number:
            return None
        change(args.message_list.get.response.db()[-1])
        return args.message_list

    return Fn("edit", process_output_step=step)


def texts_replaced(*texts: str, keep_marker: bool = True) -> Any:
    """Replace an answer's text parts by ``texts``, put after its other parts (without its ``step-start`` marker
    unless ``keep_marker``)."""

    def change(answer: Any) -> None:
        kept = [p for p in answer.content.parts if p.type != "text" and (keep_marker or p.type != "step-start")]
        answer.content.parts = kept + [TextPart(text=text) for text in texts]

    return change


def rewritten_in_place(text: str) -> Any:
    def change(answer: Any) -> None:
        for part in answer.content.parts:
            if isinstance(part, TextPart):
                part.text = text

    return change


def looks_up_the_weather() -> ScriptedModel:
    return ScriptedModel(
        [Turn(text="Let me look.", tool_calls=[ToolCall("get_weather", {"city": "Oslo"}, id="c1")]), "Sunny."]
    )


async def test_a_rewritten_answer_of_a_step_that_calls_a_tool_is_the_steps_text() -> None:
    agent = make_agent(
        looks_up_the_weather(), tools=[get_weather], output_processors=[on_step(0, rewritten_in_place("Checking."))]
    )
    _chunks, result = await run_stream(agent)

    assert [step.text for step in result.steps] == ["Checking.", "Sunny."]
    assert result.text == "Checking.Sunny."


async def test_a_later_steps_text_is_only_what_follows_its_marker() -> None:
    agent = make_agent(
        looks_up_the_weather(), tools=[get_weather], output_processors=[on_step(0, texts_replaced("Checking."))]
    )
    _chunks, result = await run_stream(agent)

    [answer] = result.messages
    assert [p.type for p in answer.content.parts] == ["step-start", "tool-invocation", "text", "step-start", "text"]
    assert [step.text for step in result.steps] == ["Checking.", "Sunny."]


async def test_an_answer_whose_text_a_processor_removed_leaves_the_step_without_text() -> None:
    agent = make_agent(ScriptedModel(["Hello there."]), output_processors=[on_step(0, texts_replaced())])
    _chunks, result = await run_stream(agent)
    assert (result.text, result.steps[0].text) == ("", "")


async def test_an_answer_rewritten_without_its_marker_is_all_its_text_parts() -> None:
    change = texts_replaced("Good", "bye.", keep_marker=False)
    agent = make_agent(ScriptedModel(["Hello there."]), output_processors=[on_step(0, change)])
    _chunks, result = await run_stream(agent)
    assert (result.text, result.steps[0].text) == ("Goodbye.", "Goodbye.")
