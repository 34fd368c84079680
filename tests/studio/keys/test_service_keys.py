"""The guard services' keys in the studio: saved in the keyring for one endpoint, handed to the runtime's calls
for that endpoint only (real keyring API on an in-memory backend, a real stand-in service over HTTP)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from processors.builtin.guard_services.keys import service_key, use_key_source
from processors.builtin.guard_services.lakera_guard import LAKERA_KEY, LakeraGuard
from processors.builtin.guard_services.openai_moderation import OPENAI_KEY
from studio.keys.secrets import SecretStore
from studio.keys.service_keys import bound_keys, keyring_source, service_key_for
from tests.studio.keys.test_secrets import MemoryKeyring, memory_keyring  # noqa: F401 (a fixture)
from tests.support.guard_services import ATTACK, KEY, GuardServiceStandIn
from tests.support.input_hook import run_input


@pytest.fixture
def secrets(memory_keyring: MemoryKeyring, tmp_path, monkeypatch) -> Iterator[SecretStore]:  # type: ignore[no-untyped-def]  # noqa: F811
    for variable in ("LAKERA_GUARD_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    store = SecretStore(endpoints_file=tmp_path / "endpoints.json")
    previous = use_key_source(keyring_source(store))
    yield store
    use_key_source(previous)


def test_a_saved_key_goes_to_its_endpoint_only(secrets: SecretStore) -> None:
    secrets.set_key("lakera-guard", "lk-1", endpoint="https://guard.example.com/")
    assert service_key(LAKERA_KEY, "https://guard.example.com") == "lk-1"
    assert service_key(LAKERA_KEY, "https://api.lakera.ai") is None
    assert service_key(LAKERA_KEY, "https://elsewhere.example.com") is None


def test_an_approved_endpoint_gets_it_too(secrets: SecretStore) -> None:
    secrets.set_key("lakera-guard", "lk-1", endpoint="https://guard.example.com")
    secrets.approve("lakera-guard", "https://second.example.com")
    assert service_key(LAKERA_KEY, "https://second.example.com") == "lk-1"


def test_the_environments_key_still_goes_to_the_public_endpoint(secrets: SecretStore, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LAKERA_GUARD_API_KEY", "from-env")
    assert service_key(LAKERA_KEY, "https://api.lakera.ai") == "from-env"
    assert service_key(LAKERA_KEY, "https://guard.example.com") is None


def test_openai_moderation_uses_the_openai_key(secrets: SecretStore) -> None:
    secrets.set_key("openai", "sk-1")
    assert service_key_for(secrets, OPENAI_KEY, "https://api.openai.com/v1") == "sk-1"
    assert service_key_for(secrets, OPENAI_KEY, "https://proxy.example.com/v1") is None


def test_a_lab_worker_is_handed_only_the_keys_it_may_carry(secrets: SecretStore) -> None:
    secrets.set_key("lakera-guard", "lk-1", endpoint="https://guard.example.com")
    wanted = [(LAKERA_KEY, "https://guard.example.com"), (LAKERA_KEY, "https://other.example.com")]
    assert bound_keys(secrets, wanted) == [("lakera-guard", "https://guard.example.com", "lk-1")]


async def test_a_guard_calls_its_service_with_the_key_saved_for_it(secrets: SecretStore) -> None:
    with GuardServiceStandIn("lakera") as service:
        secrets.set_key("lakera-guard", KEY, endpoint=service.url)
        _, state = await run_input(LakeraGuard(endpoint=service.url, strategy="warn"), ATTACK)
    assert state["flagged"] == 1
    assert service.requests[0].headers["authorization"] == f"Bearer {KEY}"
