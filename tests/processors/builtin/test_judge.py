"""The shared model judge: JSON verdicts from any LanguageModel, strictly validated, with fail-open/closed."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from processors.builtin.base import InvalidOptionsError
from processors.builtin.judge import (
    JudgeError,
    JudgeOptions,
    ask_judge,
    consult_judge,
    extract_json,
    judge_failed,
    judge_model,
)
from processors.builtin.pii_detector import PIIDetector
from processors.context import RequestContext
from processors.errors import ModelAPIError
from processors.models import ScriptedModel, Turn
from processors.models.litellm import LiteLLMModel
from processors.pipeline.processor import HookArgs
from processors.tripwire import TripWire


class Verdict(BaseModel):
    flagged: bool
    score: float


async def test_verdict_is_parsed_and_the_request_asks_for_json() -> None:
    model = ScriptedModel(['{"flagged": true, "score": 0.9}'])
    verdict = await ask_judge(model, "You judge.", "some text", Verdict)
    assert verdict == Verdict(flagged=True, score=0.9)
    request = model.requests[0]
    assert request.messages == [{"role": "system", "content": "You judge."}, {"role": "user", "content": "some text"}]
    assert request.response_format is not None
    assert request.response_format["type"] == "json_schema"
    assert request.response_format["json_schema"]["name"] == "Verdict"
    assert request.response_format["json_schema"]["schema"]["properties"].keys() == {"flagged", "score"}
    assert request.settings["temperature"] == 0


@pytest.mark.parametrize(
    "answer",
    [
        '```json\n{"flagged": false, "score": 0.1}\n```',
        'Here is my verdict: {"flagged": false, "score": 0.1} — hope it helps.',
        'Sure.\n```\n{"flagged": false, "score": 0.1}\n```',
    ],
)
async def test_code_fences_and_prose_around_the_object_are_tolerated(answer: str) -> None:
    verdict = await ask_judge(ScriptedModel([answer]), "s", "u", Verdict)
    assert verdict == Verdict(flagged=False, score=0.1)


async def test_answer_without_json_raises() -> None:
    with pytest.raises(JudgeError, match="no JSON"):
        await ask_judge(ScriptedModel(["I think it is fine."]), "s", "u", Verdict)


async def test_answer_of_the_wrong_shape_names_the_field() -> None:
    with pytest.raises(JudgeError, match=r"score: .*valid number"):
        await ask_judge(ScriptedModel(['{"flagged": true, "score": "high"}']), "s", "u", Verdict)


async def test_empty_answer_raises() -> None:
    with pytest.raises(JudgeError, match="no text"):
        await ask_judge(ScriptedModel([Turn(text="")]), "s", "u", Verdict)


async def test_model_failure_raises_judge_error() -> None:
    model = ScriptedModel([Turn(error=ModelAPIError(503, "overloaded", True))])
    with pytest.raises(JudgeError, match="overloaded"):
        await ask_judge(model, "s", "u", Verdict)


async def test_failure_mid_stream_raises_judge_error() -> None:
    model = ScriptedModel([Turn(text=['{"flagged": ', "true}"], error=ModelAPIError(None, "dropped"), error_after=1)])
    with pytest.raises(JudgeError, match="dropped"):
        await ask_judge(model, "s", "u", Verdict)


def test_extract_json_prefers_the_whole_text_then_the_first_object() -> None:
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('noise {"a": {"b": 2}} {"c": 3}') == {"a": {"b": 2}}
    with pytest.raises(JudgeError):
        extract_json("{not json")


def _args() -> HookArgs:
    return HookArgs(processor_id="p", state={}, request_context=RequestContext())


def test_fail_closed_aborts_and_fail_open_returns() -> None:
    error = JudgeError("the judge model call failed: boom")
    closed = JudgeOptions(error_strategy="fail-closed")
    with pytest.raises(TripWire, match=r"PII detection failed because the judge model call failed: .*boom") as caught:
        judge_failed(_args(), closed, PIIDetector(), error)
    assert caught.value.code == "PIIDetector.judge_failed"  # the studio translates by code, the values kept apart
    assert caught.value.params == {"error": "the judge model call failed: boom"}
    judge_failed(_args(), JudgeOptions(), PIIDetector(), error)  # fail-open is the default: nothing raised


async def test_consult_judge_appends_the_instructions_and_applies_the_error_strategy() -> None:
    model = ScriptedModel(['{"flagged": true, "score": 0.9}'])
    options = JudgeOptions(instructions="Be strict.")
    verdict = await consult_judge(_args(), options, model, PIIDetector(), "You judge.", "some text", Verdict)
    assert verdict == Verdict(flagged=True, score=0.9)
    assert model.requests[0].messages[0]["content"] == "You judge.\n\nAdditional instructions:\nBe strict."
    down = ModelAPIError(503, "overloaded", True)
    failing = ScriptedModel([Turn(error=down)])
    assert await consult_judge(_args(), JudgeOptions(), failing, PIIDetector(), "s", "u", Verdict) is None  # fail-open
    closed = JudgeOptions(error_strategy="fail-closed")
    with pytest.raises(TripWire, match=r"PII detection failed because the judge model call failed: .*overloaded"):
        await consult_judge(_args(), closed, ScriptedModel([Turn(error=down)]), PIIDetector(), "s", "u", Verdict)


def test_model_option_takes_a_language_model_or_an_id_string() -> None:
    scripted = ScriptedModel([])
    assert judge_model(JudgeOptions(model=scripted)) is scripted
    resolved = judge_model(JudgeOptions(model="openai/gpt-4o-mini"))
    assert isinstance(resolved, LiteLLMModel)
    assert judge_model(JudgeOptions()) is None


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"threshold": -0.1}, "threshold"),
        ({"threshold": 1.5}, "threshold"),
        ({"model": 42}, "model"),
        ({"model": "  "}, "model"),
        ({"error_strategy": "ignore"}, "error_strategy"),
        ({"strategy": "explode"}, "strategy"),
        ({"unknown_option": 1}, "unknown_option"),
    ],
)
def test_bad_options_are_refused_naming_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        PIIDetector(**options)
    assert field in caught.value.errors
    assert field in str(caught.value)
