"""StructuredOutput: validate the final answer, retry with the validation errors as feedback, structure with a model."""

from __future__ import annotations

import json
import logging

import pytest
from pydantic import BaseModel

from processors import Agent
from processors.builtin.base import InvalidOptionsError
from processors.builtin.structured_output import StructuredOutput
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.helpers import get_weather, of_type, run_stream


class Invoice(BaseModel):
    number: str
    total: float


JSON_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "temperature": {"type": "number"}},
    "required": ["city", "temperature"],
    "additionalProperties": False,
}

VALID = '{"number": "INV-7", "total": 12.5}'


def agent(model: ScriptedModel, **options: object) -> Agent:
    return Agent(id="agent", model=model, instructions="Answer in JSON.", **options)  # type: ignore[arg-type]


async def test_valid_answer_is_parsed_and_streamed_as_a_data_chunk() -> None:
    model = ScriptedModel([VALID])
    chunks, result = await run_stream(agent(model, output_processors=[StructuredOutput(schema=Invoice)]))
    data = of_type(chunks, "data-structured-output")
    assert [c.data for c in data] == [{"number": "INV-7", "total": 12.5}]  # type: ignore[union-attr]
    assert result.text == VALID
    assert result.tripwire is None
    assert len(model.requests) == 1


async def test_code_fenced_json_is_accepted() -> None:
    model = ScriptedModel([f"Here you go:\n```json\n{VALID}\n```"])
    chunks, result = await run_stream(agent(model, output_processors=[StructuredOutput(schema=Invoice)]))
    assert of_type(chunks, "data-structured-output")
    assert result.tripwire is None


async def test_invalid_answer_is_retried_with_the_validation_errors_as_feedback() -> None:
    model = ScriptedModel(['{"number": "INV-7", "total": "twelve"}', VALID])
    structured = StructuredOutput(schema=Invoice)
    chunks, result = await run_stream(agent(model, output_processors=[structured], max_processor_retries=2))
    assert len(model.requests) == 2
    second_prompt = json.dumps(model.requests[1].messages)
    assert "total: Input should be a valid number" in second_prompt
    assert "[Processor Feedback]" in second_prompt
    assert result.tripwire is None
    assert result.text == VALID
    assert result.steps[0].tripwire is not None
    assert result.steps[0].tripwire.retry is True
    assert result.steps[0].tripwire.metadata == {
        "errors": ["total: Input should be a valid number, unable to parse string as a number"]
    }
    assert [c.data for c in of_type(chunks, "data-structured-output")] == [  # type: ignore[union-attr]
        {"number": "INV-7", "total": 12.5}
    ]


async def test_prose_instead_of_json_is_retried() -> None:
    model = ScriptedModel(["The invoice INV-7 totals 12.5 euros.", VALID])
    result = await agent(model, output_processors=[StructuredOutput(schema=Invoice)], max_processor_retries=1).generate(
        "hi"
    )
    assert "the answer is not JSON" in json.dumps(model.requests[1].messages)
    assert result.text == VALID


async def test_retries_exhausted_end_with_a_tripwire() -> None:
    model = ScriptedModel(["nope", "still nope"])
    result = await agent(model, output_processors=[StructuredOutput(schema=Invoice)], max_processor_retries=1).generate(
        "hi"
    )
    assert len(model.requests) == 2
    assert result.tripwire is not None
    assert result.tripwire.reason.startswith("The answer does not match the required JSON schema")


async def test_json_schema_dict_errors_name_the_path() -> None:
    model = ScriptedModel(['{"city": "Oslo", "temperature": "cold", "extra": 1}', '{"city": "Oslo", "temperature": 3}'])
    structured = StructuredOutput(schema=JSON_SCHEMA)
    chunks, _ = await run_stream(agent(model, output_processors=[structured], max_processor_retries=1))
    feedback = json.dumps(model.requests[1].messages)
    assert "temperature: 'cold' is not of type 'number'" in feedback
    assert "Additional properties are not allowed" in feedback
    assert [c.data for c in of_type(chunks, "data-structured-output")] == [  # type: ignore[union-attr]
        {"city": "Oslo", "temperature": 3}
    ]


async def test_tool_call_steps_are_not_validated() -> None:
    model = ScriptedModel(
        [
            Turn(text="Let me check.", tool_calls=[ToolCall("get_weather", {"city": "Oslo"})]),
            '{"city": "Oslo", "temperature": 21}',
        ]
    )
    structured = StructuredOutput(schema=JSON_SCHEMA)
    chunks, result = await run_stream(agent(model, tools=[get_weather], output_processors=[structured]))
    assert result.tripwire is None
    assert len(of_type(chunks, "data-structured-output")) == 1


async def test_structuring_model_rewrites_prose_without_a_retry() -> None:
    structurer = ScriptedModel([VALID])
    model = ScriptedModel(["The invoice INV-7 totals 12.5 euros."])
    structured = StructuredOutput(schema=Invoice, model=structurer)
    chunks, result = await run_stream(agent(model, output_processors=[structured], max_processor_retries=2))
    assert len(model.requests) == 1
    assert [c.data for c in of_type(chunks, "data-structured-output")] == [  # type: ignore[union-attr]
        {"number": "INV-7", "total": 12.5}
    ]
    assert result.messages[-1].text == '{"number": "INV-7", "total": 12.5}'
    request = structurer.requests[0]
    assert request.messages[1]["content"] == "The invoice INV-7 totals 12.5 euros."
    assert request.response_format is not None
    assert request.response_format["json_schema"]["schema"]["required"] == ["number", "total"]


async def test_structuring_model_not_called_for_valid_json() -> None:
    structurer = ScriptedModel([])
    result = await agent(
        ScriptedModel([VALID]), output_processors=[StructuredOutput(schema=Invoice, model=structurer)]
    ).generate("hi")
    assert result.tripwire is None
    assert structurer.requests == []


async def test_structuring_model_failure_fail_open_retries_and_fail_closed_aborts() -> None:
    down = ModelAPIError(500, "down")
    model = ScriptedModel(["prose", VALID])
    opened = StructuredOutput(schema=Invoice, model=ScriptedModel([Turn(error=down)]))
    result = await agent(model, output_processors=[opened], max_processor_retries=1).generate("hi")
    assert result.text == VALID
    assert "structuring model" in json.dumps(model.requests[1].messages)
    closed = StructuredOutput(schema=Invoice, model=ScriptedModel([Turn(error=down)]), error_strategy="fail-closed")
    blocked = await agent(ScriptedModel(["prose"]), output_processors=[closed], max_processor_retries=1).generate("hi")
    assert blocked.tripwire is not None
    assert blocked.tripwire.retry is False
    assert blocked.tripwire.reason.startswith("Structured output failed: the structuring model failed")


async def test_on_invalid_warn_and_fallback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="processors.builtin.structured_output"):
        warned = await agent(
            ScriptedModel(["prose"]), output_processors=[StructuredOutput(schema=Invoice, on_invalid="warn")]
        ).generate("x")
    assert warned.tripwire is None
    assert "does not match the required JSON schema" in caplog.text
    fallback = StructuredOutput(schema=Invoice, on_invalid="fallback", fallback_value={"number": "?", "total": 0})
    chunks, result = await run_stream(agent(ScriptedModel(["prose"]), output_processors=[fallback]))
    assert result.tripwire is None
    assert [c.data for c in of_type(chunks, "data-structured-output")] == [{"number": "?", "total": 0}]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"schema": {"type": "bogus"}}, "schema"),
        ({"schema": 42}, "schema"),
        ({}, "schema"),
        ({"schema": Invoice, "model": 3}, "model"),
        ({"schema": Invoice, "on_invalid": "ignore"}, "on_invalid"),
    ],
)
def test_bad_options_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        StructuredOutput(**options)
    assert field in caught.value.errors
