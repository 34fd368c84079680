"""KeyGate: the key a design's calls may carry — none for the demo model, a placeholder rather than the
environment's key, a withheld key said and asked about once, a refusal remembered for the session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from pytestqt.qtbot import QtBot

from studio.controllers.key_gate import KeyGate
from studio.design.agent_design import AgentDesign, ModelConfig
from studio.keys.secrets import NO_KEY, KeyGrant, SecretStore
from tests.studio.keys.test_secrets import MemoryKeyring

KEY = "sk-user-secret-0123456789"


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[SecretStore]:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    yield SecretStore(endpoints_file=tmp_path / "endpoints.json")
    keyring.set_keyring(previous)


def _design(model: str = "openai/gpt-4o-mini", api_base: str | None = None) -> AgentDesign:
    return AgentDesign(name="k", model=ModelConfig(model=model, api_base=api_base))


def test_the_demo_model_needs_no_key_and_a_missing_key_is_said(secrets: SecretStore) -> None:
    gate = KeyGate(secrets)
    demo = AgentDesign(name="demo")
    assert demo.model.is_demo
    assert gate.grant(demo) is None
    assert gate.missing_key(demo, None) is None
    hosted = _design()
    grant = gate.grant(hosted)
    assert grant is not None and grant.key is None
    assert "No API key is set for openai" in (gate.missing_key(hosted, grant) or "")
    assert gate.api_key(hosted, grant) == NO_KEY  # never the environment's key by accident


def test_a_withheld_key_is_asked_about_and_a_refusal_is_remembered(qtbot: QtBot, secrets: SecretStore) -> None:
    secrets.set_key("openai", KEY)
    gate = KeyGate(secrets)
    asked: list[KeyGrant] = []
    gate.approval_requested.connect(asked.append)
    elsewhere = _design(api_base="https://proxy.example/v1")
    grant = gate.grant(elsewhere)
    assert grant is not None and grant.withheld and grant.key is None
    gate.ask_approval(grant)
    assert [g.host for g in asked] == ["proxy.example"]

    with qtbot.waitSignal(gate.status_message) as said:
        gate.answer_approval(grant, approved=False)
    assert "stays away from proxy.example" in said.args[0]
    assert gate.was_declined(grant)
    gate.ask_approval(grant)
    assert len(asked) == 1  # not asked again in this session

    gate.answer_approval(grant, approved=True)
    again = gate.grant(elsewhere)
    assert again is not None and again.key == KEY and not gate.was_declined(again)


def test_a_local_server_needs_no_key_and_its_calls_carry_no_environment_key(
    secrets: SecretStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The registry says Ollama runs on this machine: nothing to warn about, and a placeholder rather than any key."""
    monkeypatch.setenv("OLLAMA_API_KEY", "from-the-environment")
    gate = KeyGate(secrets)
    local = _design("ollama/llama3.1")
    grant = gate.grant(local)
    assert grant is not None and grant.key is None and not grant.withheld
    assert gate.missing_key(local, grant) is None
    assert gate.api_key(local, grant) == NO_KEY
