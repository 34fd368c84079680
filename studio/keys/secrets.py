"""API keys: kept in the OS keyring, never in the database, designs, logs or screenshots.

On a desktop the keyring is Secret Service/KWallet, the Windows Credential Locker or the macOS Keychain. When
there is none (a headless machine), keys are kept for this session only and the settings dialog says so; they
are never written to disk in plain text. The provider's usual environment variable (``OPENAI_API_KEY`` ...: the
provider registry, :mod:`processors.models.providers`, names it) is the fallback when no key was entered.

Each key is bound to the endpoint it was saved for (see :mod:`studio.keys.endpoints`): :meth:`SecretStore.key_for`
hands it out only for that endpoint or for one the user approved, so a shared design that names another
``api_base`` cannot collect the user's key. A key read from the environment is bound to its provider's default.
"""

from __future__ import annotations

import contextlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

import keyring
import keyring.backends.fail
import keyring.errors

from processors.models.providers import provider_named
from studio.keys.endpoints import (
    EndpointBook,
    default_endpoint,
    endpoint_host,
    is_default_endpoint,
    normalise_endpoint,
    same_endpoint,
    target_endpoint,
)

logger = logging.getLogger(__name__)

SERVICE = "processor-studio"

#: What a model is given instead of a key it may not have: litellm would otherwise read the provider's
#: environment variable itself and send that. Local servers (Ollama, LM Studio) ignore it.
NO_KEY = "no-key"


@dataclass(frozen=True)
class KeyGrant:
    """The answer to "which key may a call to this endpoint carry?".

    ``key`` is ``None`` unless the provider's key was saved for ``endpoint`` or the user approved it;
    ``withheld`` says a key exists but was not given (the endpoint needs the user's approval).
    """

    provider: str
    #: The normalised endpoint of the call (``None``: the provider's default, which the studio does not know).
    endpoint: str | None
    #: The endpoint the stored key was saved for (``None``: the provider's default).
    saved_for: str | None
    key: str | None
    withheld: bool = False

    @property
    def host(self) -> str:
        """The host the call goes to, as the user is shown it."""
        return endpoint_host(self.endpoint) if self.endpoint else f"{self.provider}'s default endpoint"

    @property
    def saved_for_host(self) -> str:
        where = self.saved_for or default_endpoint(self.provider)
        return endpoint_host(where) if where else f"{self.provider}'s default endpoint"


class SecretStore:
    """Reads and writes API keys per provider, each bound to one endpoint. One instance per app; pass it where
    keys are needed. ``endpoints_file`` is where endpoints and approvals are kept (default: the data folder)."""

    def __init__(self, *, endpoints_file: Path | None = None) -> None:
        self._session: dict[str, str] = {}
        self._available: bool | None = None
        self._book = EndpointBook(endpoints_file)
        self._session_book = EndpointBook(persistent=False)

    @property
    def keyring_available(self) -> bool:
        """False when the OS offers no keyring: keys then live for this session only."""
        if self._available is None:
            backend = keyring.get_keyring()
            self._available = not isinstance(backend, keyring.backends.fail.Keyring)
        return self._available

    def set_key(self, provider: str, key: str, *, endpoint: str | None = None) -> str:
        """Store a key for ``endpoint`` (``None`` or blank: the provider's default); returns where it went
        ("keyring" or "session") so the UI can say it honestly. A new key starts with no approved endpoints.
        Raises :class:`studio.keys.endpoints.EndpointError` for an endpoint that is not an http(s) URL."""
        key = key.strip()
        if not key:
            self.delete_key(provider)
            return "deleted"
        saved_for = normalise_endpoint(endpoint) if endpoint and endpoint.strip() else None
        if saved_for is not None and is_default_endpoint(provider, saved_for):
            saved_for = None
        if self.keyring_available:
            try:
                keyring.set_password(SERVICE, provider, key)
                self._session.pop(provider, None)
                self._session_book.forget(provider)
                self._book.key_saved(provider, saved_for)
                return "keyring"
            except keyring.errors.KeyringError as error:
                logger.warning(
                    "the keyring refused the key for %s (%s); keeping it for this session",
                    provider,
                    type(error).__name__,
                )
                self._available = False
        self._session[provider] = key
        self._session_book.key_saved(provider, saved_for)
        return "session"

    def _book_of(self, provider: str) -> EndpointBook:
        return self._session_book if provider in self._session else self._book

    def saved_for(self, provider: str) -> str | None:
        """The endpoint the provider's key was saved for; ``None`` for the provider's default endpoint."""
        return self._book_of(provider).saved_for(provider)

    def approved_endpoints(self, provider: str) -> list[str]:
        """Endpoints the user approved for the provider's key, besides the one it was saved for."""
        return self._book_of(provider).approved(provider)

    def key_for(self, provider: str, api_base: str | None) -> KeyGrant:
        """The key a call to ``api_base`` (``None``: the provider's default) may carry, and why.

        Raises :class:`studio.keys.endpoints.EndpointError` for an ``api_base`` that is not an http(s) URL."""
        endpoint = target_endpoint(provider, api_base)
        key, stored = self._lookup(provider)
        saved_for = self.saved_for(provider) if stored else None  # the environment's key is the default's
        if not key:
            return KeyGrant(provider, endpoint, saved_for, None)
        approved = self.approved_endpoints(provider) if stored or self.saved_for(provider) is None else []
        allowed = same_endpoint(provider, saved_for, endpoint) or (endpoint is not None and endpoint in approved)
        return KeyGrant(provider, endpoint, saved_for, key if allowed else None, withheld=not allowed)

    def approve(self, provider: str, api_base: str) -> None:
        """Let the provider's key go to ``api_base`` too (the user said so, having been shown its host)."""
        self._book_of(provider).approve(provider, normalise_endpoint(api_base))

    def revoke_approvals(self, provider: str) -> None:
        self._book_of(provider).revoke_approvals(provider)

    def get_key(self, provider: str) -> str | None:
        """The key for a provider: the session's, else the keyring's, else the provider's environment variable.

        Whatever endpoint it was saved for: calls get theirs from :meth:`key_for`."""
        return self._lookup(provider)[0]

    def _lookup(self, provider: str) -> tuple[str | None, bool]:
        """The provider's key and whether it was stored here (``False``: from the environment, or none)."""
        if provider in self._session:
            return self._session[provider], True
        if self.keyring_available:
            try:
                stored = keyring.get_password(SERVICE, provider)
            except keyring.errors.KeyringError:
                stored = None
            if stored:
                return stored, True
        known = provider_named(provider)  # a local server's variable is not read: it needs no key
        return known.environment_key(os.environ) if known.needs_key else None, False

    # ------------------------------------------------------------------------- MCP servers' credentials
    def set_mcp_credential(self, url: str, value: str) -> str:
        """Store the ``Authorization`` header value for the MCP server at ``url`` (bound to that exact normalised
        URL: a design naming another URL does not get it). Returns "keyring", "session" or "deleted". Raises
        :class:`studio.keys.endpoints.EndpointError` for a URL that is not http(s)."""
        name = _mcp_entry(url)
        value = value.strip()
        if not value:
            self._session.pop(name, None)
            if self.keyring_available:
                with contextlib.suppress(keyring.errors.KeyringError):
                    keyring.delete_password(SERVICE, name)
            return "deleted"
        if self.keyring_available:
            try:
                keyring.set_password(SERVICE, name, value)
                self._session.pop(name, None)
                return "keyring"
            except keyring.errors.KeyringError as error:
                logger.warning("the keyring refused an MCP credential (%s); keeping it for this session", error)
                self._available = False
        self._session[name] = value
        return "session"

    def mcp_credential(self, url: str) -> str | None:
        """The ``Authorization`` value saved for the MCP server at ``url``, if any (read when a run starts)."""
        try:
            name = _mcp_entry(url)
        except ValueError:
            return None
        if name in self._session:
            return self._session[name]
        if self.keyring_available:
            with contextlib.suppress(keyring.errors.KeyringError):
                return keyring.get_password(SERVICE, name) or None
        return None

    def delete_key(self, provider: str) -> None:
        """Remove the key, the endpoint it was saved for and its approvals."""
        self._session.pop(provider, None)
        self._session_book.forget(provider)
        self._book.forget(provider)
        if self.keyring_available:
            with contextlib.suppress(keyring.errors.KeyringError):
                keyring.delete_password(SERVICE, provider)


def _mcp_entry(url: str) -> str:
    """The keyring entry of an MCP server's credential: ``mcp:`` and its normalised URL (providers have no ``:``)."""
    return "mcp:" + normalise_endpoint(url)


def mask(key: str) -> str:
    """What a key looks like on screen: never the key itself."""
    return "•" * 8 + key[-4:] if len(key) > 8 else "•" * len(key)
