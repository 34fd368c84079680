"""KeyGate and the guard services: the workspace's runs take the services' keys from its key store, and a key
entered in a service guard's options form is kept for the endpoint shown there, said in the status bar."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from pytestqt.qtbot import QtBot

from processors.builtin.guard_services.keys import service_key, use_key_source
from processors.builtin.guard_services.lakera_guard import LAKERA_KEY
from studio.controllers.key_gate import KeyGate
from studio.keys.secrets import SecretStore
from tests.studio.keys.test_secrets import MemoryKeyring


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[SecretStore]:
    monkeypatch.delenv("LAKERA_GUARD_API_KEY", raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    source = use_key_source(None)
    yield SecretStore(endpoints_file=tmp_path / "endpoints.json")
    use_key_source(source)
    keyring.set_keyring(previous)


def test_a_service_key_is_saved_for_its_endpoint_and_runs_use_it(secrets: SecretStore, qtbot: QtBot) -> None:
    gate = KeyGate(secrets)
    with qtbot.waitSignal(gate.status_message) as said:
        gate.save_service_key("lakera-guard", "https://guard.example.com", "lk-1")
    assert said.args == ["The key was saved in the system keyring, for guard.example.com only."]
    assert service_key(LAKERA_KEY, "https://guard.example.com") == "lk-1"
    assert service_key(LAKERA_KEY, "https://api.lakera.ai") is None


def test_an_empty_key_removes_it(secrets: SecretStore, qtbot: QtBot) -> None:
    gate = KeyGate(secrets)
    gate.save_service_key("lakera-guard", "https://guard.example.com", "lk-1")
    with qtbot.waitSignal(gate.status_message) as said:
        gate.save_service_key("lakera-guard", "https://guard.example.com", "")
    assert said.args == ["The key for guard.example.com was removed."]
    assert service_key(LAKERA_KEY, "https://guard.example.com") is None


def test_an_address_that_is_no_url_saves_nothing(secrets: SecretStore, qtbot: QtBot) -> None:
    gate = KeyGate(secrets)
    with qtbot.waitSignal(gate.status_message) as said:
        gate.save_service_key("lakera-guard", "ftp://guard.example.com", "lk-1")
    assert "not an http or https address" in said.args[0]
    assert secrets.get_key("lakera-guard") is None


def test_the_form_is_shown_the_key_of_an_endpoint_masked(secrets: SecretStore) -> None:
    gate = KeyGate(secrets)
    gate.save_service_key("lakera-guard", "https://guard.example.com", "lk-secret-9876")
    assert gate.service_key_shown("lakera-guard", "https://guard.example.com/") == "••••••••9876"
    assert gate.service_key_shown("lakera-guard", "https://api.lakera.ai") == ""
    assert gate.service_key_shown("lakera-guard", "ftp://nowhere") == ""
