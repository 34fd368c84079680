"""``ModelArmor``: Google Cloud Model Armor's ``sanitizeUserPrompt`` / ``sanitizeModelResponse`` as a guard.

The API (Google's "Sanitize prompts and responses", https://cloud.google.com/model-armor/sanitize-prompts-responses,
and the REST reference of ``projects.locations.templates``): ``POST {endpoint}/v1/{template}:sanitizeUserPrompt``
with ``{"userPromptData": {"text": ...}}`` (``:sanitizeModelResponse`` with ``{"modelResponseData": {"text": ...}}``),
an OAuth access token as a bearer key (``gcloud auth print-access-token``: it expires within the hour), and an answer
``{"sanitizationResult": {"filterMatchState": "MATCH_FOUND" | "NO_MATCH_FOUND", "filterResults": {"pi_and_jailbreak":
{"piAndJailbreakFilterResult": {"matchState": ..., "confidenceLevel": "MEDIUM_AND_ABOVE"}}, "rai": {"raiFilterResult":
{"raiFilterTypeResults": {"dangerous": {"matchState": ...}}}}, ...}}}``. Errors are Google's ``{"error": {"code",
"message", "status": "RESOURCE_EXHAUSTED"}}``.

The template (option ``resource``: ``projects/P/locations/L/templates/T``) says which filters run; the endpoint
is the template's region's (``https://modelarmor.<location>.rep.googleapis.com``). What leaves the machine: the
one text checked.
The score is the highest confidence level among matched filters (high 1.0, medium and above 0.8, low and above 0.6;
a match without one 1.0); the categories are the filters that matched (``pi_and_jailbreak``, ``rai:dangerous`` …).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field, field_validator

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

__all__ = ["ModelArmor", "ModelArmorOptions"]

ARMOR_KEY = ServiceKey(
    "model-armor",
    "MODEL_ARMOR_ACCESS_TOKEN",
    "https://modelarmor.us-central1.rep.googleapis.com",
    "MODEL_ARMOR_ENDPOINT",
)
_TEMPLATE = re.compile(r"^projects/[^/\s]+/locations/[^/\s]+/templates/[^/\s]+$")
_LEVELS = {"HIGH": 1.0, "MEDIUM_AND_ABOVE": 0.8, "LOW_AND_ABOVE": 0.6}


class ModelArmorOptions(GuardServiceOptions):
    endpoint: str = Field(
        default=ARMOR_KEY.default_endpoint or "",
        description="Model Armor's regional address (the template's location); the access token is bound to it",
        json_schema_extra={"x-service-key": ARMOR_KEY.name},
    )
    resource: str = Field(
        default="", title="Template", description="The template: projects/PROJECT/locations/LOCATION/templates/ID"
    )
    check_answers: bool = Field(default=True, description="In the output lane: check the model's answer too")

    texts: ClassVar[Mapping[str, str]] = {
        "bad_template": "the template must read projects/PROJECT/locations/LOCATION/templates/ID",
    }

    @field_validator("resource")
    @classmethod
    def _template_name(cls, value: str) -> str:
        if value.strip() and not _TEMPLATE.match(value.strip()):
            raise cls.problem("bad_template")
        return value.strip()


class ModelArmor(GuardService):
    """Google Cloud Model Armor on input, tool results and answers."""

    id = "model-armor"
    name = "Google Model Armor"
    description = (
        "Sends each message to Google Cloud Model Armor (hosted) and blocks what its template's filters match."
    )
    type_name: ClassVar[str] = "ModelArmor"
    service: ClassVar[str] = "Model Armor"
    key_binding: ClassVar[ServiceKey] = ARMOR_KEY
    Options = ModelArmorOptions
    options: ModelArmorOptions

    @property
    def endpoint(self) -> str:
        """No template, no call: the endpoint alone names no filters."""
        return super().endpoint if self.options.resource else ""

    def request(self, text: str, role: Role, key: str) -> ServiceRequest:
        if role == "assistant":
            method, body = "sanitizeModelResponse", {"modelResponseData": {"text": text}}
        else:
            method, body = "sanitizeUserPrompt", {"userPromptData": {"text": text}}
        url = f"{self.endpoint}/v1/{self.options.resource}:{method}"
        return ServiceRequest(url, {"Authorization": f"Bearer {key}"}, body)

    def read(self, answer: Any, role: Role) -> ServiceVerdict:
        result = as_mapping(as_mapping(answer, "the answer").get("sanitizationResult"), "sanitizationResult")
        state = result.get("filterMatchState")
        if state not in ("MATCH_FOUND", "NO_MATCH_FOUND"):
            raise malformed("filterMatchState")
        filters = result.get("filterResults") or {}
        matched: list[tuple[str, float]] = []
        for name, wrapper in as_mapping(filters, "filterResults").items():
            for inner in as_mapping(wrapper, f"filterResults.{name}").values():
                if isinstance(inner, Mapping):
                    matched.extend(_matches(str(name), inner))
        flagged = state == "MATCH_FOUND"
        score = max((level for _name, level in matched), default=1.0) if flagged else 0.0
        categories = tuple(dict.fromkeys(name for name, _level in matched))
        invocation = result.get("invocationResult")
        return ServiceVerdict(flagged, score, categories, {"invocation": invocation} if invocation else {})

    async def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message]:
        if not self.options.check_answers:
            return args.messages
        return await self.check_answer(args)


def _matches(name: str, result: Mapping[str, Any]) -> list[tuple[str, float]]:
    """The matches one filter's result reports: itself, its sub-types (``rai:dangerous``), an SDP inspection."""
    found: list[tuple[str, float]] = []
    if result.get("matchState") == "MATCH_FOUND":
        found.append((name, _LEVELS.get(str(result.get("confidenceLevel")), 1.0)))
    for sub, sub_result in (result.get("raiFilterTypeResults") or {}).items():
        if isinstance(sub_result, Mapping) and sub_result.get("matchState") == "MATCH_FOUND":
            found.append((f"{name}:{sub}", _LEVELS.get(str(sub_result.get("confidenceLevel")), 1.0)))
    inspect = result.get("inspectResult")
    if isinstance(inspect, Mapping) and inspect.get("matchState") == "MATCH_FOUND":
        found.append((name, 1.0))
    return found
