"""Which API key a guard service's call carries: a key bound to the endpoint it was saved for.

The runtime never reads the studio's keyring itself (it imports no studio): it asks the process's *key source*,
``(ServiceKey, endpoint) -> key or None``. Without one installed, the source is the environment — the service's
usual variable (``LAKERA_GUARD_API_KEY`` ...), handed only to the service's public endpoint or to the endpoint the
user named beside it in the environment (``AZURE_CONTENT_SAFETY_ENDPOINT``), so a shared design that points a guard
at another host does not collect the key. The studio installs a source that asks its key store, which applies the
same rule to keys saved in the OS keyring for one endpoint (:mod:`studio.keys.service_keys`); a lab worker process
gets the keys its run needs, each with its endpoint, in memory (:class:`BoundKeys`).

Keys never go into options, designs, traces or tripwire metadata: only the endpoint's host does.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = [
    "BoundKeys",
    "KeySource",
    "ServiceKey",
    "environment_key",
    "key_source",
    "normalise_url",
    "service_key",
    "use_key_source",
]


@dataclass(frozen=True)
class ServiceKey:
    """How one service's key is found: the name it is stored under, its environment variables, its public endpoint."""

    #: The name the studio's key store keeps it under (``"lakera-guard"``; OpenAI's moderation shares ``"openai"``).
    name: str
    #: The environment variable the key is read from outside the studio.
    variable: str
    #: The service's public endpoint (``None``: per-customer deployments only, as Azure's).
    default_endpoint: str | None
    #: An environment variable naming the one other endpoint the environment's key may go to.
    endpoint_variable: str | None = None


KeySource = Callable[[ServiceKey, str], "str | None"]

_source: KeySource | None = None


def normalise_url(url: str) -> str:
    """``" HTTPS://Api.Lakera.ai:443/ "`` → ``"https://api.lakera.ai"``: two spellings of one endpoint compare equal
    (the studio's :func:`studio.keys.endpoints.normalise_endpoint` rule, without its IDNA checks)."""
    text = url.strip()
    parts = urlsplit(text if "://" in text else "http://" + text)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".")
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != {"http": 80, "https": 443}.get(scheme):
        netloc = f"{netloc}:{port}"
    return f"{scheme}://{netloc}{parts.path.rstrip('/')}"


def _origin(url: str) -> str:
    parts = urlsplit(normalise_url(url))
    return f"{parts.scheme}://{parts.netloc}"


def environment_key(service: ServiceKey, endpoint: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The environment's key for ``endpoint``: only the service's public endpoint (any path on its origin) or the
    endpoint named by ``service.endpoint_variable`` (that whole URL) may receive it."""
    environ = os.environ if environ is None else environ
    key = environ.get(service.variable, "").strip()
    if not key or not endpoint.strip():
        return None
    if service.default_endpoint and _origin(endpoint) == _origin(service.default_endpoint):
        return key
    named = environ.get(service.endpoint_variable, "") if service.endpoint_variable else ""
    return key if named.strip() and normalise_url(named) == normalise_url(endpoint) else None


def service_key(service: ServiceKey, endpoint: str) -> str | None:
    """The key a call to ``endpoint`` may carry: the installed source's answer, else the environment's."""
    source = _source
    return source(service, endpoint) if source is not None else environment_key(service, endpoint)


def key_source() -> KeySource | None:
    """The source installed in this process (``None``: the environment)."""
    return _source


def use_key_source(source: KeySource | None) -> KeySource | None:
    """Install ``source`` for this process (``None``: back to the environment); returns the one it replaces."""
    global _source
    previous, _source = _source, source
    return previous


class BoundKeys:
    """A source holding keys in memory, each for one endpoint: what a lab worker process is given by the studio.

    ``BoundKeys([("lakera-guard", "https://api.lakera.ai", "k")])``; an endpoint it holds no key for falls back to
    the environment's rule."""

    def __init__(self, keys: Iterable[tuple[str, str, str]]) -> None:
        self._keys = {(name, normalise_url(endpoint)): key for name, endpoint, key in keys if key}

    def __call__(self, service: ServiceKey, endpoint: str) -> str | None:
        found = self._keys.get((service.name, normalise_url(endpoint)))
        return found if found is not None else environment_key(service, endpoint)
