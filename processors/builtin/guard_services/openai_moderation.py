"""``OpenAIModeration``: OpenAI's moderation endpoint (``POST {endpoint}/moderations``) as a guard.

The API (OpenAI's reference, https://platform.openai.com/docs/api-reference/moderations): a bearer key, a body
``{"model": "omni-moderation-latest", "input": ...}``, and an answer ``{"id": ..., "model": ..., "results":
[{"flagged": bool, "categories": {"harassment": bool, ...}, "category_scores": {"harassment": 0.0012, ...}}]}``.
Errors are ``{"error": {"message", "type", "param", "code"}}``; 401 for a bad key, 429 with ``Retry-After``.

It judges harm (harassment, hate, self-harm, sexual, violence, illicit …), not prompt injection. The key is OpenAI's
own (the one the studio keeps for OpenAI models, bound to ``https://api.openai.com/v1``). What leaves the machine:
the one text checked. The score is the highest category score; the categories those the service flagged, or, with
a ``threshold``, those scoring at least that.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from processors.builtin.guard_services.guard_service import (
    GuardService,
    GuardServiceOptions,
    Role,
    ServiceRequest,
    ServiceVerdict,
    as_mapping,
    malformed,
)
from processors.builtin.guard_services.keys import ServiceKey
from processors.messages import Message
from processors.pipeline.processor import ProcessOutputResultArgs

__all__ = ["OpenAIModeration", "OpenAIModerationOptions"]

OPENAI_KEY = ServiceKey("openai", "OPENAI_API_KEY", "https://api.openai.com/v1")


class OpenAIModerationOptions(GuardServiceOptions):
    endpoint: str = Field(
        default=OPENAI_KEY.default_endpoint or "",
        description="OpenAI's API base; the API key is bound to it",
        json_schema_extra={"x-service-key": OPENAI_KEY.name},
    )
    model: str = Field(default="omni-moderation-latest", description="The moderation model")
    threshold: float | None = Field(
        default=None, ge=0.0, le=1.0, description="Flag a category scoring at least this (empty: the service's flags)"
    )
    check_answers: bool = Field(default=True, description="In the output lane: check the model's answer too")


class OpenAIModeration(GuardService):
    """OpenAI's moderation model on input, tool results and answers."""

    id = "openai-moderation"
    name = "OpenAI moderation"
    description = "Sends each message to OpenAI's moderation endpoint (hosted) and blocks what it flags as harmful."
    type_name: ClassVar[str] = "OpenAIModeration"
    service: ClassVar[str] = "OpenAI moderation"
    key_binding: ClassVar[ServiceKey] = OPENAI_KEY
    Options = OpenAIModerationOptions
    options: OpenAIModerationOptions

    def request(self, text: str, role: Role, key: str) -> ServiceRequest:
        body = {"model": self.options.model, "input": text}
        return ServiceRequest(f"{self.endpoint}/moderations", {"Authorization": f"Bearer {key}"}, body)

    def read(self, answer: Any, role: Role) -> ServiceVerdict:
        body = as_mapping(answer, "the answer")
        results = body.get("results")
        if not isinstance(results, list) or not results:
            raise malformed("results")
        result = as_mapping(results[0], "results[0]")
        scores = as_mapping(result.get("category_scores"), "category_scores")
        flags = as_mapping(result.get("categories"), "categories")
        if not isinstance(result.get("flagged"), bool):
            raise malformed("flagged")
        numbers: dict[str, float] = {}
        for name, value in scores.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise malformed(f"category_scores.{name}")
            numbers[str(name)] = float(value)
        score = max(numbers.values(), default=0.0)
        threshold = self.options.threshold
        if threshold is None:
            flagged = bool(result["flagged"])
            categories = tuple(str(name) for name, value in flags.items() if value is True)
        else:
            categories = tuple(name for name, value in numbers.items() if value >= threshold)
            flagged = bool(categories)
        details = {"model": body["model"]} if isinstance(body.get("model"), str) else {}
        return ServiceVerdict(flagged, score, categories, details)

    async def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message]:
        if not self.options.check_answers:
            return args.messages
        return await self.check_answer(args)
