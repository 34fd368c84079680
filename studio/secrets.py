"""API keys: kept in the OS keyring, never in the database, designs, logs or screenshots.

On a desktop the keyring is Secret Service/KWallet, the Windows Credential Locker or the macOS Keychain. When
there is none (a headless machine), keys are kept for this session only and the settings dialog says so; they
are never written to disk in plain text. The provider's usual environment variable (``OPENAI_API_KEY`` ...)
is the fallback when no key was entered.
"""

from __future__ import annotations

import contextlib
import logging
import os

import keyring
import keyring.backends.fail
import keyring.errors

logger = logging.getLogger(__name__)

SERVICE = "processor-studio"

#: Providers the settings dialog offers, with the environment variable litellm reads for each.
PROVIDERS: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
}


class SecretStore:
    """Reads and writes API keys per provider. One instance per app; pass it where keys are needed."""

    def __init__(self) -> None:
        self._session: dict[str, str] = {}
        self._available: bool | None = None

    @property
    def keyring_available(self) -> bool:
        """False when the OS offers no keyring: keys then live for this session only."""
        if self._available is None:
            backend = keyring.get_keyring()
            self._available = not isinstance(backend, keyring.backends.fail.Keyring)
        return self._available

    def set_key(self, provider: str, key: str) -> str:
        """Store a key; returns where it went ("keyring" or "session") so the UI can say it honestly."""
        key = key.strip()
        if not key:
            self.delete_key(provider)
            return "deleted"
        if self.keyring_available:
            try:
                keyring.set_password(SERVICE, provider, key)
                self._session.pop(provider, None)
                return "keyring"
            except keyring.errors.KeyringError as error:
                logger.warning("the keyring refused the key for %s (%s); keeping it for this session", provider,
                               type(error).__name__)
                self._available = False
        self._session[provider] = key
        return "session"

    def get_key(self, provider: str) -> str | None:
        """The key for a provider: the session's, else the keyring's, else the provider's environment variable."""
        if provider in self._session:
            return self._session[provider]
        if self.keyring_available:
            try:
                stored = keyring.get_password(SERVICE, provider)
            except keyring.errors.KeyringError:
                stored = None
            if stored:
                return stored
        variable = PROVIDERS.get(provider)
        return os.environ.get(variable) if variable else None

    def has_key(self, provider: str) -> bool:
        return bool(self.get_key(provider))

    def delete_key(self, provider: str) -> None:
        self._session.pop(provider, None)
        if self.keyring_available:
            with contextlib.suppress(keyring.errors.KeyringError):
                keyring.delete_password(SERVICE, provider)


def provider_of(model_id: str) -> str:
    """``"openai/gpt-4o-mini"`` → ``"openai"``; a bare id is treated as OpenAI's, as litellm does."""
    return model_id.split("/", 1)[0] if "/" in model_id else "openai"


def mask(key: str) -> str:
    """What a key looks like on screen: never the key itself."""
    return "•" * 8 + key[-4:] if len(key) > 8 else "•" * len(key)
