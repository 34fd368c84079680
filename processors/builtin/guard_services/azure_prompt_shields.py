"""``AzurePromptShields``: Azure AI Content Safety's Prompt Shields (``text:shieldPrompt``) as a guard.

The API (Microsoft's quickstart, https://learn.microsoft.com/azure/ai-services/content-safety/quickstart-jailbreak,
and the REST reference "Text Operations - Shield Prompt"): ``POST {endpoint}/contentsafety/text:shieldPrompt
?api-version=2024-09-01`` with the resource's key in ``Ocp-Apim-Subscription-Key``, a body ``{"userPrompt": ...,
"documents": [...]}``, and an answer ``{"userPromptAnalysis": {"attackDetected": bool}, "documentsAnalysis":
[{"attackDetected": bool}]}``. Errors are ``{"error": {"code": "InvalidRequestBody", "message": ...}}``; 401 for a
bad key, 429 with ``Retry-After`` beyond the tier's rate.

Prompt Shields judges prompts and documents, not answers: the user's message goes as ``userPrompt`` (a user prompt
attack), a tool's result as a document (an indirect attack in content the agent fetched). There is no public
endpoint: each Azure resource has its own (``https://<resource>.cognitiveservices.azure.com``), and the key saved
for it goes nowhere else. What leaves the machine: the one text checked. The score is the verdict, 1.0 or 0.0; the
category ``user_prompt_attack`` or ``document_attack``.
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

__all__ = ["AzurePromptShields", "AzurePromptShieldsOptions"]

AZURE_KEY = ServiceKey("azure-content-safety", "AZURE_CONTENT_SAFETY_KEY", None, "AZURE_CONTENT_SAFETY_ENDPOINT")


class AzurePromptShieldsOptions(GuardServiceOptions):
    endpoint: str = Field(
        default="",
        description="Your Content Safety resource's endpoint (https://<resource>.cognitiveservices.azure.com)",
        json_schema_extra={"x-service-key": AZURE_KEY.name},
    )
    api_version: str = Field(default="2024-09-01", title="API version", description="Prompt Shields' API version")


class AzurePromptShields(GuardService):
    """Azure AI Content Safety Prompt Shields on the user's messages and tool results."""

    id = "azure-prompt-shields"
    name = "Azure Prompt Shields"
    description = "Sends each message and tool result to Azure AI Content Safety's Prompt Shields (hosted)."
    type_name: ClassVar[str] = "AzurePromptShields"
    service: ClassVar[str] = "Azure Prompt Shields"
    key_binding: ClassVar[ServiceKey] = AZURE_KEY
    Options = AzurePromptShieldsOptions
    options: AzurePromptShieldsOptions

    def request(self, text: str, role: Role, key: str) -> ServiceRequest:
        body = {"userPrompt": "", "documents": [text]} if role == "tool" else {"userPrompt": text, "documents": []}
        url = f"{self.endpoint}/contentsafety/text:shieldPrompt?api-version={self.options.api_version.strip()}"
        return ServiceRequest(url, {"Ocp-Apim-Subscription-Key": key}, body)

    def read(self, answer: Any, role: Role) -> ServiceVerdict:
        body = as_mapping(answer, "the answer")
        if role == "tool":
            documents = body.get("documentsAnalysis")
            if not isinstance(documents, list) or not documents:
                raise malformed("documentsAnalysis")
            detected = [as_mapping(item, "documentsAnalysis item").get("attackDetected") for item in documents]
            category = "document_attack"
        else:
            detected = [as_mapping(body.get("userPromptAnalysis"), "userPromptAnalysis").get("attackDetected")]
            category = "user_prompt_attack"
        if not all(isinstance(value, bool) for value in detected):
            raise malformed("attackDetected")
        flagged = any(detected)
        return ServiceVerdict(flagged, 1.0 if flagged else 0.0, (category,) if flagged else ())
