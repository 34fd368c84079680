"""The model judge shared by the detectors: ask any :class:`LanguageModel` for a JSON verdict, validated.

    verdict = await ask_judge(model, system="You classify ...", user=text, schema=InjectionVerdict)

The judge streams the model with a JSON ``response_format``, joins the text, extracts the JSON object (code
fences and leading prose are tolerated), and validates it with the pydantic ``schema``. Anything wrong — the
call failed, no JSON, JSON of the wrong shape — raises :class:`JudgeError`. Processors call it through
:func:`consult_judge`, which applies their ``error_strategy``: ``"fail-open"`` (log and go on without the judge:
None) or ``"fail-closed"`` (abort)::

    verdict = await consult_judge(args, self.options, model, "Moderation", prompt, text, ModerationVerdict)

:class:`JudgeOptions` is the base of every judge-backed processor's ``Options``: ``model`` (a LanguageModel or a
litellm model id, resolved lazily), ``error_strategy``, ``threshold`` (0..1), ``strategy`` and ``instructions``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any, Literal, NoReturn, TypeVar

from pydantic import BaseModel, Field, ValidationError, field_validator

from processors.builtin.base import ProcessorOptions
from processors.errors import ProcessorsError
from processors.models import resolve_model
from processors.models.base import LanguageModel, ModelRequest, TextDelta
from processors.processor import HookArgs

logger = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

ErrorStrategy = Literal["fail-open", "fail-closed"]

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


class JudgeError(ProcessorsError):
    """The judge model failed, or answered something that is not the JSON verdict asked for."""


class JudgeOptions(ProcessorOptions):
    """Options every judge-backed built-in shares. Subclasses narrow ``strategy`` and set defaults."""

    model: Any = Field(default=None, description="A LanguageModel object or a litellm model id string")
    error_strategy: ErrorStrategy = Field(
        default="fail-open", description="When the judge fails: go on without it (fail-open) or abort (fail-closed)"
    )
    threshold: float = Field(default=0.5, ge=0.0, le=1.0, description="Scores at or above this are flagged")
    instructions: str | None = Field(default=None, description="Extra instructions appended to the judge's prompt")

    @field_validator("model")
    @classmethod
    def _model_kind(cls, value: Any) -> Any:
        if value is None or (isinstance(value, str) and value.strip()):
            return value
        if isinstance(value, LanguageModel):
            return value
        raise ValueError("must be a model id string (e.g. 'openai/gpt-4o-mini') or a LanguageModel object")


def judge_model(options: JudgeOptions) -> LanguageModel | None:
    """The options' model as a LanguageModel (a string id becomes a litellm model), or None."""
    if options.model is None:
        return None
    return resolve_model(options.model)


def response_format(schema: type[BaseModel]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()}}


def extract_json(text: str) -> Any:
    """The first JSON object (or array) in ``text``: the whole text, a fenced block, or embedded in prose."""
    stripped = text.strip()
    candidates = [stripped, *(block.strip() for block in _FENCE.findall(stripped))]
    for candidate in candidates:
        if not candidate:
            continue
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[{\[]", stripped):
        try:
            value, _end = decoder.raw_decode(stripped, match.start())
        except ValueError:
            continue
        return value
    raise JudgeError(f"the judge's answer holds no JSON object: {_short(stripped)!r}")


async def ask_judge(model: LanguageModel, system: str, user: str, schema: type[T]) -> T:
    """Ask ``model`` for a JSON verdict shaped like ``schema``. Raises :class:`JudgeError` on any failure."""
    request = ModelRequest(
        messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        settings={"temperature": 0},
        response_format=response_format(schema),
    )
    parts: list[str] = []
    try:
        async for event in model.stream(request):
            if type(event) is TextDelta:
                parts.append(event.text)
    except asyncio.CancelledError:
        raise
    except Exception as error:
        raise JudgeError(f"the judge model call failed: {type(error).__name__}: {error}") from error
    text = "".join(parts)
    if not text.strip():
        raise JudgeError("the judge model answered with no text")
    value = extract_json(text)
    try:
        return schema.model_validate(value)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in item['loc']) or 'answer'}: {item['msg']}" for item in error.errors()
        )
        raise JudgeError(f"the judge's verdict does not match {schema.__name__}: {problems}") from error


async def consult_judge(
    args: HookArgs, options: JudgeOptions, model: LanguageModel, what: str, prompt: str, text: str, schema: type[T]
) -> T | None:
    """:func:`ask_judge` with ``options.instructions`` appended to ``prompt``; None when the judge failed open.

    A failure follows ``error_strategy`` (:func:`judge_failed`): fail-closed aborts naming ``what``.
    """
    try:
        return await ask_judge(model, with_instructions(prompt, options.instructions), text, schema)
    except JudgeError as error:
        judge_failed(args, options, what, error)
        return None


def judge_failed(args: HookArgs, options: JudgeOptions, what: str, error: JudgeError) -> None:
    """Apply ``error_strategy``: fail-closed aborts naming ``what``; fail-open logs and returns."""
    if options.error_strategy == "fail-closed":
        _abort(args, what, error)
    logger.warning("%s: the judge failed, going on without it (fail-open): %s", what, error)


def _abort(args: HookArgs, what: str, error: JudgeError) -> NoReturn:
    args.abort(f"{what} failed because the judge model call failed: {error}", metadata={"error": str(error)})


def with_instructions(prompt: str, instructions: str | None) -> str:
    return prompt if not instructions else f"{prompt}\n\nAdditional instructions:\n{instructions}"


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = [
    "ErrorStrategy",
    "JudgeError",
    "JudgeOptions",
    "ask_judge",
    "consult_judge",
    "extract_json",
    "judge_failed",
    "judge_model",
    "response_format",
    "with_instructions",
]
