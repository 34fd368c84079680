"""``LakeraGuard``: Lakera Guard's screening endpoint (``POST {endpoint}/v2/guard``) as a guard.

The API (Lakera's reference, https://docs.lakera.ai/api-reference/api/endpoints/guard/screen-content): a bearer key
(``Authorization: Bearer <key>``), a body ``{"messages": [{"role": "user" | "assistant" | "system", "content": ...}],
"project_id": ..., "breakdown": true}`` in OpenAI's chat format — Guard screens the last message against the
project's policy — and an answer ``{"flagged": bool, "breakdown": [{"detector_type": "prompt_attack", "detected":
bool, ...}], "metadata": {"request_uuid": ...}}``. Errors are JSON with an ``error`` or ``message`` (401 for a bad
key, 429 with ``Retry-After`` beyond the plan's rate).

What leaves the machine: the one text checked (the user's message, a tool's result sent as a user message — what
reaches the model as data from outside — or the answer), and the project id. The score is Lakera's verdict, 1.0 or
0.0, unless the breakdown carries a confidence level (``L1`` most confident … ``L5`` least), which is mapped to
1.0 … 0.2 for the detectors that fired. The categories are the detector types that fired (``prompt_attack``, ``pii``,
``moderated_content`` …).
"""

from __future__ import annotations

from collections.abc import Mapping
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

__all__ = ["LakeraGuard", "LakeraGuardOptions"]

LAKERA_KEY = ServiceKey("lakera-guard", "LAKERA_GUARD_API_KEY", "https://api.lakera.ai", "LAKERA_GUARD_ENDPOINT")
#: Lakera's confidence levels (``L1`` … ``L5``) as scores.
_LEVELS = {"l1": 1.0, "l2": 0.8, "l3": 0.6, "l4": 0.4, "l5": 0.2}


class LakeraGuardOptions(GuardServiceOptions):
    endpoint: str = Field(
        default=LAKERA_KEY.default_endpoint or "",
        description="Lakera Guard's address (a self-hosted Guard's too); the API key is bound to it",
        json_schema_extra={"x-service-key": LAKERA_KEY.name},
    )
    project_id: str = Field(
        default="", title="Project ID", description="The Lakera project whose policy screens (empty: the default)"
    )
    check_answers: bool = Field(default=True, description="In the output lane: check the model's answer too")


class LakeraGuard(GuardService):
    """Lakera Guard (prompt attacks, PII, moderated content, links) on input, tool results and answers."""

    id = "lakera-guard"
    name = "Lakera Guard"
    description = "Sends each message to Lakera Guard (hosted) and blocks what its policy flags."
    type_name: ClassVar[str] = "LakeraGuard"
    service: ClassVar[str] = "Lakera Guard"
    key_binding: ClassVar[ServiceKey] = LAKERA_KEY
    Options = LakeraGuardOptions
    options: LakeraGuardOptions

    def request(self, text: str, role: Role, key: str) -> ServiceRequest:
        body: dict[str, Any] = {
            "messages": [{"role": "assistant" if role == "assistant" else "user", "content": text}],
            "breakdown": True,
        }
        if self.options.project_id.strip():
            body["project_id"] = self.options.project_id.strip()
        return ServiceRequest(f"{self.endpoint}/v2/guard", {"Authorization": f"Bearer {key}"}, body)

    def read(self, answer: Any, role: Role) -> ServiceVerdict:
        body = as_mapping(answer, "the answer")
        flagged = body.get("flagged")
        if not isinstance(flagged, bool):
            raise malformed("flagged")
        breakdown = body.get("breakdown") or []
        if not isinstance(breakdown, list):
            raise malformed("breakdown")
        fired: list[str] = []
        scores: list[float] = []
        for item in breakdown:
            detector = as_mapping(item, "breakdown item")
            if detector.get("detected") is True:
                kind = detector.get("detector_type")
                if isinstance(kind, str) and kind not in fired:
                    fired.append(kind)
                level = str(detector.get("confidence") or detector.get("result") or "")[:2].lower()
                scores.append(_LEVELS.get(level, 1.0))
        score = (max(scores) if scores else 1.0) if flagged else 0.0
        metadata = body.get("metadata")
        request_id = metadata.get("request_uuid") if isinstance(metadata, Mapping) else None
        return ServiceVerdict(flagged, score, tuple(fired), {"request_id": request_id} if request_id else {})

    async def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message]:
        if not self.options.check_answers:
            return args.messages
        return await self.check_answer(args)
