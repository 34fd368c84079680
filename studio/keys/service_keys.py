"""The guard services' API keys in the studio: kept in the OS keyring like the providers', each bound to one endpoint.

A guard service's key (Lakera Guard's, an Azure Content Safety resource's, a Model Armor access token; OpenAI's
moderation uses the OpenAI key) is saved from the guard's options form with the endpoint shown beside it, under the
service's name (:attr:`processors.builtin.guard_services.keys.ServiceKey.name`), through the same
:class:`~studio.keys.secrets.SecretStore` and the same rule: it goes to that endpoint only (or one the user approved).
The runtime asks for it through its key source (:func:`keyring_source`, which the workspace installs); a lab worker
process is handed the keys its run needs with their endpoints (:func:`bound_keys`), in memory.
"""

from __future__ import annotations

from collections.abc import Iterable

from processors.builtin.guard_services.keys import KeySource, ServiceKey, environment_key
from studio.keys.endpoints import EndpointError
from studio.keys.secrets import SecretStore

__all__ = ["bound_keys", "keyring_source", "service_key_for"]


def service_key_for(secrets: SecretStore, service: ServiceKey, endpoint: str) -> str | None:
    """The key a call to ``endpoint`` may carry: the one saved for it (or approved for it), else the environment's
    under the runtime's rule (the service's public endpoint, or the endpoint its environment variable names)."""
    try:
        grant = secrets.key_for(service.name, endpoint)
    except EndpointError:
        return None
    return grant.key or environment_key(service, endpoint)


def keyring_source(secrets: SecretStore) -> KeySource:
    """The runtime's key source backed by the studio's key store."""

    def source(service: ServiceKey, endpoint: str) -> str | None:
        return service_key_for(secrets, service, endpoint)

    return source


def bound_keys(secrets: SecretStore, wanted: Iterable[tuple[ServiceKey, str]]) -> list[tuple[str, str, str]]:
    """``(name, endpoint, key)`` for each ``(service, endpoint)`` that has a key it may carry: what a lab worker's
    :class:`~processors.builtin.guard_services.keys.BoundKeys` holds."""
    found: list[tuple[str, str, str]] = []
    for service, endpoint in wanted:
        key = service_key_for(secrets, service, endpoint)
        if key:
            found.append((service.name, endpoint, key))
    return found
