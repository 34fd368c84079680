"""``StructuredOutput``: make the final answer valid JSON for a schema, retrying with feedback when it is not.

``schema`` is a JSON schema (a dict) or a pydantic model class. After each model step that ends the turn
(no tool calls), ``process_output_step`` reads the step's text as JSON (code fences and a sentence around the
object are tolerated) and validates it. Valid: the parsed object goes to ``state["object"]`` and to the
stream as a ``data-structured-output`` chunk. Invalid: ``on_invalid`` decides — ``retry`` (default) aborts
with ``retry=True`` and the validation errors as the reason, so the runtime calls the model again with that
feedback (when the agent's ``max_processor_retries`` allows), ``warn`` logs and goes on, ``fallback`` uses
``fallback_value``::

    class Invoice(BaseModel):
        number: str
        total: float

    agent = Agent(..., output_processors=[StructuredOutput(schema=Invoice)], max_processor_retries=2)

With a ``model`` (a structuring model), text that is not valid JSON is first rewritten into the schema by
that model (the assistant message then holds the JSON); only if that fails does ``on_invalid`` apply.
``error_strategy`` covers a failing structuring model: ``fail-open`` treats it as an invalid answer,
``fail-closed`` aborts without a retry.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.judge import ErrorStrategy, JudgeError, extract_json, with_instructions
from processors.messages import Message
from processors.models import resolve_model
from processors.models.base import LanguageModel, ModelRequest, TextDelta
from processors.pipeline.processor import ProcessOutputStepArgs

logger = logging.getLogger(__name__)

STRUCTURE_PROMPT = """Convert the assistant answer the user gives you into JSON that matches this JSON schema:
{schema}
Use only information from the answer. Answer with the JSON object only."""

MAX_ERRORS = 5


class StructuredOutputOptions(ProcessorOptions):
    schema_: Any = Field(alias="schema", description="A JSON schema (dict) or a pydantic model class")
    model: Any = Field(default=None, description="Optional structuring model: rewrites invalid text into the schema")
    instructions: str | None = Field(default=None, description="Extra instructions for the structuring model")
    on_invalid: Literal["retry", "warn", "fallback"] = Field(
        default="retry", description="retry (abort with feedback), warn (log) or fallback (use fallback_value)"
    )
    fallback_value: Any = Field(default=None, description="The object used when on_invalid is 'fallback'")
    error_strategy: ErrorStrategy = Field(
        default="fail-open", description="Structuring model failure: treat as invalid (fail-open) or abort"
    )

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True)  # merged with the base's config

    texts: ClassVar[Mapping[str, str]] = {
        "bad_schema": "not a valid JSON schema: {error}",
        "schema_kind": "must be a JSON schema (a dict) or a pydantic model class",
        "model_kind": "must be a model id string (e.g. 'openai/gpt-4o-mini') or a LanguageModel object",
    }

    @field_validator("schema_")
    @classmethod
    def _usable_schema(cls, value: Any) -> Any:
        if isinstance(value, type) and issubclass(value, BaseModel):
            return value
        if isinstance(value, dict):
            try:
                _jsonschema().validators.validator_for(value).check_schema(value)
            except _jsonschema().SchemaError as error:
                raise cls.problem("bad_schema", error=error.message) from None
            return value
        raise cls.problem("schema_kind")

    @field_validator("model")
    @classmethod
    def _model_kind(cls, value: Any) -> Any:
        if value is None or (isinstance(value, str) and value.strip()) or isinstance(value, LanguageModel):
            return value
        raise cls.problem("model_kind")


class InvalidOutput(Exception):
    """The answer failed validation (internal: never escapes the processor)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class StructuredOutput(BuiltinProcessor):
    """Validate (and optionally structure) the final answer against a schema. See the module docstring."""

    id = "structured-output"
    name = "Structured output"
    description = "Validates the final answer against a JSON schema or pydantic model; retries with feedback."
    texts: ClassVar[Mapping[str, str]] = {
        "structuring_failed": "Structured output failed: the structuring model failed: {error}",
        "schema_mismatch": "The answer does not match the required JSON schema: {problems}",
    }
    type_name: ClassVar[str] = "StructuredOutput"
    needs_model: ClassVar[bool] = False
    Options = StructuredOutputOptions
    options: StructuredOutputOptions

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        schema = self.options.schema_
        self._pydantic: type[BaseModel] | None = schema if isinstance(schema, type) else None
        self._json_schema: dict[str, Any] = (
            self._pydantic.model_json_schema() if self._pydantic is not None else dict(schema)
        )
        self._validator = None if self._pydantic is not None else _jsonschema().validators.validator_for(schema)(schema)
        self._model = resolve_model(self.options.model) if self.options.model is not None else None

    # ----------------------------------------------------------------------------------------- validation
    def parse(self, text: str) -> Any:
        """The validated object (a pydantic instance, or plain JSON for a JSON schema). Raises InvalidOutput."""
        try:
            value = extract_json(text)
        except JudgeError:
            raise InvalidOutput(["the answer is not JSON"]) from None
        if self._pydantic is not None:
            try:
                return self._pydantic.model_validate(value)
            except ValidationError as error:
                raise InvalidOutput(
                    [f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}" for e in error.errors()][
                        :MAX_ERRORS
                    ]
                ) from None
        assert self._validator is not None
        errors = sorted(self._validator.iter_errors(value), key=lambda e: list(e.absolute_path))
        if errors:
            raise InvalidOutput(
                [f"{'.'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}" for e in errors][:MAX_ERRORS]
            )
        return value

    # ----------------------------------------------------------------------------------------- the hook
    async def process_output_step(self, args: ProcessOutputStepArgs) -> list[Message]:
        if args.tool_calls or args.finish_reason == "tool-calls":
            return []  # not the final answer yet
        text = args.text
        rewritten: str | None = None
        try:
            obj = self.parse(text)
        except InvalidOutput as invalid:
            if self._model is None:
                return self._invalid(args, invalid)
            try:
                rewritten = await self._structure(text)
                obj = self.parse(rewritten)
            except JudgeError as error:
                if self.options.error_strategy == "fail-closed":
                    raise self.tripwire(
                        "structuring_failed", metadata={"error": str(error)}, error=str(error)
                    ) from error
                return self._invalid(args, InvalidOutput([*invalid.problems, f"structuring model: {error}"]))
            except InvalidOutput as still:
                return self._invalid(args, still)
        self._accept(args, obj)
        if rewritten is None:
            return []
        return _replace_last_assistant_text(args.messages, json.dumps(_jsonable(obj), ensure_ascii=False))

    async def _structure(self, text: str) -> str:
        assert self._model is not None
        prompt = STRUCTURE_PROMPT.format(schema=json.dumps(self._json_schema, ensure_ascii=False))
        request = ModelRequest(
            messages=[
                {"role": "system", "content": with_instructions(prompt, self.options.instructions)},
                {"role": "user", "content": text},
            ],
            settings={"temperature": 0},
            response_format={"type": "json_schema", "json_schema": {"name": "response", "schema": self._json_schema}},
        )
        parts: list[str] = []
        try:
            async for event in self._model.stream(request):
                if type(event) is TextDelta:
                    parts.append(event.text)
        except Exception as error:  # CancelledError is a BaseException: it passes through
            raise JudgeError(f"{type(error).__name__}: {error}") from error
        return "".join(parts)

    def _accept(self, args: ProcessOutputStepArgs, obj: Any, *, fallback: bool = False) -> None:
        args.state["object"] = obj
        args.state["valid"] = not fallback
        if args.writer is not None:
            args.writer.custom({"type": "data-structured-output", "data": _jsonable(obj)})

    def _invalid(self, args: ProcessOutputStepArgs, invalid: InvalidOutput) -> list[Message]:
        tripwire = self.tripwire(
            "schema_mismatch", retry=True, metadata={"errors": invalid.problems}, problems=str(invalid)
        )
        reason = tripwire.reason
        policy = self.options.on_invalid
        if policy == "retry":
            raise tripwire
        if policy == "fallback":
            self._accept(args, self.options.fallback_value, fallback=True)
            return []
        logger.warning("StructuredOutput: %s", reason)
        args.state["object"] = None
        args.state["valid"] = False
        return []


def _jsonable(obj: Any) -> Any:
    return obj.model_dump(mode="json") if isinstance(obj, BaseModel) else obj


def _replace_last_assistant_text(messages: list[Message], text: str) -> list[Message]:
    out = list(messages)
    for index in range(len(out) - 1, -1, -1):
        if out[index].role == "assistant":
            out[index] = out[index].with_text(text)
            break
    return out


__all__ = ["StructuredOutput", "StructuredOutputOptions"]


def _jsonschema() -> Any:
    """jsonschema, imported on first use: it costs ~50 ms and the studio's start-up loads every built-in."""
    import jsonschema  # type: ignore[import-untyped]

    return jsonschema
