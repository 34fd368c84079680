"""The model judge shared by the detectors: ask any :class:`LanguageModel` for a JSON verdict, validated.

    verdict = await ask_judge(model, system="You classify ...", user=text, schema=InjectionVerdict)

The judge streams the model with a JSON ``response_format``, joins the text, extracts the JSON object (code
fences and leading prose are tolerated), and validates it with the pydantic ``schema``. Anything wrong — the
call failed, no JSON, JSON of the wrong shape — raises :class:`JudgeError`. Processors call it through
:func:`consult_judge`, which applies their ``error_strategy``: ``"fail-open"`` (log and go on without the judge:
None) or ``"fail-closed"`` (abort)::

    verdict = await consult_judge(args, self.options, model, self, prompt, text, ModerationVerdict)

:class:`JudgeOptions` is the base of every judge-backed processor's ``Options``: ``model`` (a LanguageModel or a
litellm model id, resolved lazily), ``api_base`` (a local OpenAI-compatible server: Ollama, LM Studio, llama.cpp,
vLLM; see :mod:`processors.builtin.judge_presets`), ``error_strategy``, ``timeout``, ``threshold`` (0..1),
``strategy`` and ``instructions``. Every judge failure is also recorded in the processor's state
(``state["judge_failures"]``, the newest few, and ``state["judge_failure_count"]``), so the chat and the inspector
show that the verdict came without the judge (or that the run was blocked), and why.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.judge_presets import JudgePresetName
from processors.errors import ProcessorsError
from processors.models import resolve_model
from processors.models.base import LanguageModel, ModelRequest, TextDelta
from processors.pipeline.processor import HookArgs

logger = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

ErrorStrategy = Literal["fail-open", "fail-closed"]

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


class JudgeError(ProcessorsError):
    """The judge model failed, or answered something that is not the JSON verdict asked for."""


class JudgeOptions(ProcessorOptions):
    """Options every judge-backed built-in shares. Subclasses narrow ``strategy`` and set defaults."""

    model: Any = Field(default=None, description="A LanguageModel object or a litellm model id string")
    judge_preset: JudgePresetName | None = Field(
        default=None, description="A ready-made judge on a local server (sets model and api_base when model is empty)"
    )
    error_strategy: ErrorStrategy = Field(
        default="fail-open", description="When the judge fails: go on without it (fail-open) or abort (fail-closed)"
    )
    api_base: str | None = Field(
        default=None, description="The judge's server, for a local OpenAI-compatible one (http://localhost:11434/v1)"
    )
    timeout: float = Field(default=30.0, gt=0.0, le=600.0, description="Seconds the judge may take to answer")
    threshold: float = Field(default=0.5, ge=0.0, le=1.0, description="Scores at or above this are flagged")
    instructions: str | None = Field(default=None, description="Extra instructions appended to the judge's prompt")

    texts: ClassVar[Mapping[str, str]] = {
        "model_kind": "must be a model id string (e.g. 'openai/gpt-4o-mini') or a LanguageModel object",
        "unknown_preset": "judge_preset: unknown preset (known: {known})",
        "local_only": "must be a local server (localhost, 127.0.0.1 or ::1); a hosted judge needs no api_base",
    }

    @field_validator("model")
    @classmethod
    def _model_kind(cls, value: Any) -> Any:
        if value is None or (isinstance(value, str) and value.strip()):
            return value
        if isinstance(value, LanguageModel):
            return value
        raise cls.problem("model_kind")

    @model_validator(mode="before")
    @classmethod
    def _apply_preset(cls, data: Any) -> Any:
        """A preset fills ``model`` and ``api_base`` (and what a subclass takes of it) unless a model is given."""
        if not isinstance(data, dict) or not data.get("judge_preset"):
            return data
        from processors.builtin.judge_presets import JUDGE_PRESETS

        preset = JUDGE_PRESETS.get(str(data["judge_preset"]))
        if preset is None:
            raise cls.problem("unknown_preset", known=", ".join(JUDGE_PRESETS))
        if data.get("model"):
            return data
        filled = {**preset.options(), **{k: v for k, v in data.items() if v is not None}}
        if "judge_format" in cls.model_fields and "judge_format" not in data:
            filled["judge_format"] = preset.judge_format
        return filled

    @field_validator("api_base")
    @classmethod
    def _local_only(cls, value: str | None) -> str | None:
        """Only local servers: a judge's key comes from the environment, which must not travel to a host a shared
        design names (the studio binds keys to their endpoints for the agent's own model)."""
        if value is None or not value.strip():
            return None
        from urllib.parse import urlsplit

        host = (urlsplit(value.strip()).hostname or "").lower()
        if host not in ("localhost", "127.0.0.1", "::1") and not host.endswith(".localhost"):
            raise cls.problem("local_only")
        return value.strip()


def judge_model(options: JudgeOptions) -> LanguageModel | None:
    """The options' model as a LanguageModel (a string id becomes a litellm model), or None."""
    if options.model is None:
        return None
    if isinstance(options.model, str) and options.api_base:
        from processors.models.providers import provider_for

        # Local servers ignore the key, but litellm wants one; never the environment's (it is for hosted APIs).
        return provider_for(options.model).build(options.model, api_base=options.api_base, api_key="local")
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


async def ask_text(model: LanguageModel, request: ModelRequest, *, time_limit: float | None = None) -> str:
    """The model's whole answer to ``request`` as text. Raises :class:`JudgeError` on any failure or timeout."""
    parts: list[str] = []

    async def collect() -> None:
        async for event in model.stream(request):
            if type(event) is TextDelta:
                parts.append(event.text)

    prepare = getattr(model, "prepare", None)  # e.g. LiteLLMModel: import litellm before the clock starts
    try:
        if prepare is not None:
            await prepare()
        await asyncio.wait_for(collect(), time_limit)
    except asyncio.CancelledError:
        raise
    except TimeoutError as error:
        raise JudgeError(f"the judge model did not answer within {time_limit:g} s") from error
    except Exception as error:
        raise JudgeError(f"the judge model call failed: {type(error).__name__}: {error}") from error
    text = "".join(parts)
    if not text.strip():
        raise JudgeError("the judge model answered with no text")
    return text


async def ask_judge(
    model: LanguageModel, system: str, user: str, schema: type[T], *, time_limit: float | None = None
) -> T:
    """Ask ``model`` for a JSON verdict shaped like ``schema``. Raises :class:`JudgeError` on any failure."""
    request = ModelRequest(
        messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        settings={"temperature": 0},
        response_format=response_format(schema),
    )
    text = await ask_text(model, request, time_limit=time_limit)
    value = extract_json(text)
    try:
        return schema.model_validate(value)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in item['loc']) or 'answer'}: {item['msg']}" for item in error.errors()
        )
        raise JudgeError(f"the judge's verdict does not match {schema.__name__}: {problems}") from error


async def consult_judge(
    args: HookArgs,
    options: JudgeOptions,
    model: LanguageModel,
    owner: BuiltinProcessor,
    prompt: str,
    text: str,
    schema: type[T],
) -> T | None:
    """:func:`ask_judge` with ``options.instructions`` appended to ``prompt``; None when the judge failed open.

    A failure follows ``error_strategy`` (:func:`judge_failed`): fail-closed aborts with ``owner``'s sentence
    ``judge_failed``.
    """
    try:
        return await ask_judge(
            model, with_instructions(prompt, options.instructions), text, schema, time_limit=options.timeout
        )
    except JudgeError as error:
        judge_failed(args, options, owner, error)
        return None


#: How many judge failures a processor's state keeps (the newest).
_FAILURES_KEPT = 5


def judge_failed(args: HookArgs, options: JudgeOptions, owner: BuiltinProcessor, error: JudgeError) -> None:
    """Apply ``error_strategy``: fail-closed aborts with ``owner``'s sentence ``judge_failed`` (its ``texts``);
    fail-open logs and returns. Either way the failure is recorded in the processor's state, so the trace shows
    the verdict came without the judge."""
    failures = args.state.setdefault("judge_failures", [])
    failures.append({"error": str(error), "strategy": options.error_strategy})
    del failures[:-_FAILURES_KEPT]
    # every failure counted (the list keeps the newest few): an observer tells the calls that had a new one
    args.state["judge_failure_count"] = args.state.get("judge_failure_count", 0) + 1
    if options.error_strategy == "fail-closed":
        raise owner.tripwire("judge_failed", metadata={"error": str(error)}, error=str(error))
    logger.warning("%s; going on without the judge (fail-open)", owner.texts["judge_failed"].format(error=error))


def with_instructions(prompt: str, instructions: str | None) -> str:
    return prompt if not instructions else f"{prompt}\n\nAdditional instructions:\n{instructions}"


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = [
    "ErrorStrategy",
    "JudgeError",
    "JudgeOptions",
    "ask_judge",
    "ask_text",
    "consult_judge",
    "extract_json",
    "judge_failed",
    "judge_model",
    "response_format",
    "with_instructions",
]
