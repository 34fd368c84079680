"""API keys: the keyring when there is one, the session otherwise, never plain text on disk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import keyring.backend
import keyring.backends.fail
import pytest

from processors.models.providers import provider_name
from studio.keys.secrets import SecretStore, mask


class MemoryKeyring(keyring.backend.KeyringBackend):
    """An in-memory keyring backend (the real desktop ones are not available on a headless machine)."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[tuple[str, str], str] = {}

    def set_password(self, service: str, username: str, password: str) -> None:
        self.values[(service, username)] = password

    def get_password(self, service: str, username: str) -> str | None:
        return self.values.get((service, username))

    def delete_password(self, service: str, username: str) -> None:
        self.values.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield
    keyring.set_keyring(previous)


def test_keys_go_to_the_keyring(memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    secrets = SecretStore()
    assert secrets.keyring_available
    assert secrets.set_key("openai", " sk-test-123456789 ") == "keyring"
    assert memory_keyring.values == {("processor-studio", "openai"): "sk-test-123456789"}
    assert SecretStore().get_key("openai") == "sk-test-123456789"  # a new session reads it back
    secrets.delete_key("openai")
    assert memory_keyring.values == {}
    assert secrets.get_key("openai") is None


def test_without_a_keyring_keys_live_for_the_session_only(
    no_keyring: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    secrets = SecretStore()
    assert not secrets.keyring_available
    assert secrets.set_key("anthropic", "sk-ant-secret") == "session"
    assert secrets.get_key("anthropic") == "sk-ant-secret"
    assert SecretStore().get_key("anthropic") is None  # gone with the session
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_environment_variable_is_the_fallback(no_keyring: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROQ_API_KEY", "gsk-from-env")
    assert SecretStore().get_key("groq") == "gsk-from-env"


def test_helpers() -> None:
    assert provider_name("anthropic/claude-3-5-haiku-latest") == "anthropic"
    assert provider_name("gpt-4o") == "openai"
    assert mask("sk-1234567890abcd") == "••••••••abcd"
    assert "1234" not in mask("sk-1234567890abcd")
