"""``ModelConfig.is_demo`` asks the provider registry whether the model answers offline, rather than comparing the
id with the string "demo": a plug-in's offline provider needs no key in the lab and is offered a hosted model in the
settings, as the demo is."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from processors.models.providers import ENTRY_POINT_GROUP, clear_providers
from studio.design.agent_design import ModelConfig
from tests.support.distributions import fake_distribution

QUIET_PROVIDER = """
from processors.models.providers import Provider

PROVIDER = Provider("quiet", "Quiet (offline)", factory="processors.demo.offline:demo_model", offline=True,
                    bare_ids=("quiet",), script_needs="")
"""


@pytest.fixture
def quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A plug-in distribution with one offline provider, ``quiet``."""
    points = {ENTRY_POINT_GROUP: {"quiet": "quiet_provider:PROVIDER"}}
    fake_distribution(tmp_path, "quiet-provider", points, modules={"quiet_provider": QUIET_PROVIDER}, version="0")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "quiet_provider", raising=False)
    clear_providers()
    yield
    clear_providers()


def test_an_offline_plug_in_provider_is_a_demo_model(quiet: None) -> None:
    assert ModelConfig(model="quiet").is_demo
    assert ModelConfig(model="quiet/any").is_demo


def test_the_demo_is_one_and_hosted_or_local_models_are_not() -> None:
    assert ModelConfig().is_demo
    assert ModelConfig(model=" demo ").is_demo
    assert not ModelConfig(model="gpt-4o-mini").is_demo
    assert not ModelConfig(model="ollama/llama3").is_demo
    assert not ModelConfig(model="").is_demo
