"""The guard services a design calls, and what a lab worker is handed for them: each enabled service guard's
endpoint once, and the keys saved for those endpoints only, in the recipe's plain data."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from processors.builtin.guard_services.keys import BoundKeys, key_source, service_key, use_key_source
from processors.builtin.guard_services.lakera_guard import LAKERA_KEY
from processors.builtin.guard_services.openai_moderation import OPENAI_KEY
from studio.design.agent_design import AgentDesign, ChainEntry
from studio.design.service_guards import service_endpoints
from studio.lab.design import agent_recipe, lab_agents
from tests.studio.views.test_options_form_service_key import catalogue


@pytest.fixture
def no_source() -> Iterator[None]:
    previous = use_key_source(None)
    yield
    use_key_source(previous)


def design() -> AgentDesign:
    return AgentDesign(
        input=[
            ChainEntry(type="LakeraGuard", options={"endpoint": "https://guard.example.com"}),
            ChainEntry(type="LakeraGuard", options={"endpoint": "https://off.example.com"}, enabled=False),
            ChainEntry(type="UnicodeNormalizer"),
        ],
        output=[
            ChainEntry(type="LakeraGuard", options={"endpoint": "https://guard.example.com/"}),
            ChainEntry(type="OpenAIModeration"),
        ],
    )


def test_each_enabled_service_guards_endpoint_once() -> None:
    assert service_endpoints(design(), catalogue()) == [
        (LAKERA_KEY, "https://guard.example.com"),
        (OPENAI_KEY, "https://api.openai.com/v1"),
    ]


def test_a_worker_takes_the_recipes_keys_for_their_endpoints(no_source: None) -> None:
    keys = [("lakera-guard", "https://guard.example.com", "lk-1")]
    recipe = agent_recipe(design(), catalogue=catalogue(), service_keys=keys)
    assert recipe.data["service_keys"] == [["lakera-guard", "https://guard.example.com", "lk-1"]]
    data = {**recipe.data, "design_json": AgentDesign().to_json()}  # the worker's part, on a design it can build
    lab_agents(**data)
    assert isinstance(key_source(), BoundKeys)
    assert service_key(LAKERA_KEY, "https://guard.example.com") == "lk-1"
    assert service_key(LAKERA_KEY, "https://other.example.com") is None


def test_the_studios_own_source_is_kept_in_its_process() -> None:
    def studio_source(service: object, endpoint: str) -> str:
        return "from-keyring"

    previous = use_key_source(studio_source)
    try:
        lab_agents(design_json=AgentDesign().to_json(), folders=[], api_key=None, service_keys=[["a", "b", "c"]])
        assert key_source() is studio_source
    finally:
        use_key_source(previous)
