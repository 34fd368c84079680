"""Each service's answer read into a verdict, on answers the stand-ins do not give: Lakera's confidence levels,
OpenAI's scores against a threshold, Model Armor's sub-filters and Sensitive Data Protection, shapes refused."""

from __future__ import annotations

from typing import Any

import pytest

from processors.builtin.base import InvalidOptionsError
from processors.builtin.guard_services.azure_prompt_shields import AzurePromptShields
from processors.builtin.guard_services.http_call import ServiceFailure
from processors.builtin.guard_services.lakera_guard import LakeraGuard
from processors.builtin.guard_services.model_armor import ModelArmor
from processors.builtin.guard_services.openai_moderation import OpenAIModeration
from tests.support.guard_services import TEMPLATE


def test_lakeras_confidence_level_is_the_score() -> None:
    answer = {
        "flagged": True,
        "breakdown": [
            {"detector_type": "prompt_attack", "detected": True, "confidence": "L2"},
            {"detector_type": "pii/email", "detected": True, "result": "l3_likely"},
            {"detector_type": "moderated_content/hate", "detected": False, "confidence": "L5"},
        ],
    }
    verdict = LakeraGuard().read(answer, "user")
    assert (verdict.flagged, verdict.score, verdict.categories) == (True, 0.8, ("prompt_attack", "pii/email"))
    assert LakeraGuard().read({"flagged": False}, "user").score == 0.0


def test_openais_threshold_replaces_its_flags() -> None:
    answer = {
        "model": "omni-moderation-2024-09-26",
        "results": [{"flagged": False, "categories": {"violence": False, "hate": False},
                     "category_scores": {"violence": 0.42, "hate": 0.01}}],
    }  # fmt: skip
    plain = OpenAIModeration().read(answer, "user")
    strict = OpenAIModeration(threshold=0.4).read(answer, "user")
    assert (plain.flagged, plain.score) == (False, 0.42)
    assert (strict.flagged, strict.categories) == (True, ("violence",))
    assert strict.details == {"model": "omni-moderation-2024-09-26"}


def test_model_armors_sub_filters_and_sdp_are_categories() -> None:
    answer = {
        "sanitizationResult": {
            "filterMatchState": "MATCH_FOUND",
            "filterResults": {
                "rai": {"raiFilterResult": {"matchState": "MATCH_FOUND", "raiFilterTypeResults": {
                    "dangerous": {"matchState": "MATCH_FOUND", "confidenceLevel": "HIGH"},
                    "harassment": {"matchState": "NO_MATCH_FOUND"},
                }}},
                "sdp": {"sdpFilterResult": {"inspectResult": {"matchState": "MATCH_FOUND", "findings": []}}},
            },
        }
    }  # fmt: skip
    verdict = ModelArmor(resource=TEMPLATE).read(answer, "assistant")
    assert verdict.flagged and verdict.score == 1.0
    assert verdict.categories == ("rai", "rai:dangerous", "sdp")


def test_prompt_shields_reads_the_documents_analysis_for_a_tool_result() -> None:
    answer = {"userPromptAnalysis": {"attackDetected": False}, "documentsAnalysis": [{"attackDetected": True}]}
    verdict = AzurePromptShields().read(answer, "tool")
    assert (verdict.flagged, verdict.categories) == (True, ("document_attack",))


@pytest.mark.parametrize(
    ("guard", "answer"),
    [
        (LakeraGuard(), {"flagged": "yes"}),
        (LakeraGuard(), ["flagged"]),
        (AzurePromptShields(), {"userPromptAnalysis": {"attackDetected": "true"}}),
        (OpenAIModeration(), {"results": [{"flagged": True, "categories": {}, "category_scores": {"x": "high"}}]}),
        (OpenAIModeration(), {"results": []}),
        (ModelArmor(resource=TEMPLATE), {"sanitizationResult": {"filterMatchState": "MAYBE"}}),
    ],
)
def test_an_answer_in_another_shape_is_malformed(guard: Any, answer: Any) -> None:
    with pytest.raises(ServiceFailure) as caught:
        guard.read(answer, "user")
    assert caught.value.kind == "malformed"


def test_a_model_armor_template_must_name_project_location_and_id() -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        ModelArmor(resource="my-template")
    assert caught.value.codes["resource"] == ("ModelArmorOptions.bad_template", {})
