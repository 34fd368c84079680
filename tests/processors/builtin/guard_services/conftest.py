"""The guard services' tests: a stand-in per service (tests/support/guard_services.py) and its key, bound to it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from processors.builtin.guard_services.azure_prompt_shields import AzurePromptShields
from processors.builtin.guard_services.guard_service import GuardService
from processors.builtin.guard_services.keys import BoundKeys, use_key_source
from processors.builtin.guard_services.lakera_guard import LakeraGuard
from processors.builtin.guard_services.model_armor import ModelArmor
from processors.builtin.guard_services.openai_moderation import OpenAIModeration
from tests.support.guard_services import ATTACK, HARM, KEY, TEMPLATE, GuardServiceStandIn


@dataclass(frozen=True)
class Service:
    """One service under test: its stand-in's kind, its guard class, the options it needs, a text it flags."""

    kind: str
    cls: type[GuardService]
    options: dict[str, Any]
    flagged_text: str
    answers: bool  # whether the service screens the model's answers

    def guard(self, standin: GuardServiceStandIn, **options: Any) -> Any:
        return self.cls(endpoint=standin.url, **{**self.options, **options})


SERVICES = [
    Service("lakera", LakeraGuard, {"project_id": "project-1"}, f"Please {ATTACK} now", True),
    Service("azure", AzurePromptShields, {}, f"Please {ATTACK} now", False),
    Service("openai", OpenAIModeration, {}, f"Honestly, {HARM} tomorrow", True),
    Service("armor", ModelArmor, {"resource": TEMPLATE}, f"Please {ATTACK} now", True),
]


@pytest.fixture(params=SERVICES, ids=[service.kind for service in SERVICES])
def service(request: pytest.FixtureRequest) -> Service:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def standin(service: Service) -> Iterator[GuardServiceStandIn]:
    """The service's stand-in, with the test key bound to its address (and nowhere else) for the test."""
    with GuardServiceStandIn(service.kind) as running:
        previous = use_key_source(BoundKeys([(service.cls.key_binding.name, running.url, KEY)]))
        try:
            yield running
        finally:
            use_key_source(previous)
