"""Which key a guard service's call carries: the environment's only to the service's own endpoint (or the one the
environment names), the studio's keys only to the endpoint they were saved for."""

from __future__ import annotations

from processors.builtin.guard_services.azure_prompt_shields import AZURE_KEY
from processors.builtin.guard_services.keys import (
    BoundKeys,
    environment_key,
    key_source,
    normalise_url,
    service_key,
    use_key_source,
)
from processors.builtin.guard_services.lakera_guard import LAKERA_KEY
from processors.builtin.guard_services.openai_moderation import OPENAI_KEY


def test_two_spellings_of_one_endpoint_are_one() -> None:
    assert normalise_url(" HTTPS://Api.Lakera.ai:443/ ") == "https://api.lakera.ai"
    assert normalise_url("localhost:8080/v1/") == "http://localhost:8080/v1"


def test_the_environments_key_goes_to_the_public_endpoint_only() -> None:
    environ = {"LAKERA_GUARD_API_KEY": "k"}
    assert environment_key(LAKERA_KEY, "https://api.lakera.ai", environ) == "k"
    assert environment_key(LAKERA_KEY, "https://API.lakera.ai/", environ) == "k"
    assert environment_key(LAKERA_KEY, "https://api.lakera.ai.evil.example", environ) is None
    assert environment_key(LAKERA_KEY, "http://127.0.0.1:9000", environ) is None
    assert environment_key(OPENAI_KEY, "https://api.openai.com/v1", {"OPENAI_API_KEY": "o"}) == "o"


def test_a_service_without_a_public_endpoint_takes_the_one_the_environment_names() -> None:
    endpoint = "https://mine.cognitiveservices.azure.com"
    assert environment_key(AZURE_KEY, endpoint, {"AZURE_CONTENT_SAFETY_KEY": "a"}) is None
    named = {"AZURE_CONTENT_SAFETY_KEY": "a", "AZURE_CONTENT_SAFETY_ENDPOINT": endpoint + "/"}
    assert environment_key(AZURE_KEY, endpoint, named) == "a"
    assert environment_key(AZURE_KEY, "https://other.cognitiveservices.azure.com", named) is None


def test_bound_keys_answer_for_their_endpoint_and_leave_the_rest_to_the_environment(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LAKERA_GUARD_API_KEY", "from-env")
    keys = BoundKeys([("lakera-guard", "http://127.0.0.1:9000/", "bound")])
    previous = use_key_source(keys)
    try:
        assert key_source() is keys
        assert service_key(LAKERA_KEY, "http://127.0.0.1:9000") == "bound"
        assert service_key(LAKERA_KEY, "http://127.0.0.1:9001") is None
        assert service_key(LAKERA_KEY, "https://api.lakera.ai") == "from-env"
    finally:
        use_key_source(previous)
    assert service_key(LAKERA_KEY, "http://127.0.0.1:9000") is None
