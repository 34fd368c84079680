"""Which endpoint an API key may go to: normalised base URLs, providers' default endpoints, remembered approvals.

A key is saved for one endpoint: its provider's default (``https://api.openai.com/v1`` ...) or the base URL the
user typed next to it in Settings. A design can name any ``api_base``, and designs get shared, so a key goes only
to the endpoint it was saved for, or to one the user approved for it in a dialog that shows the host. Approvals
are kept here, in a small JSON file in the user data folder — never in a design, never next to the key.

Two spellings of one endpoint compare equal: scheme and host are lower-cased, a default port (80/443) and
trailing slashes are dropped. Any request to the origin of a provider's default endpoint counts as that default
(the provider already holds the key), so ``https://api.openai.com`` and ``https://api.openai.com/v1/`` are
OpenAI's default; anywhere else the whole normalised URL must match.
"""

from __future__ import annotations

import json
import logging
import unicodedata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import idna

from processors.atomic_files import write_atomic
from processors.models.providers import provider_named

logger = logging.getLogger(__name__)

_DEFAULT_PORTS = {"http": 80, "https": 443}


class EndpointError(ValueError):
    """A base URL that cannot name an endpoint (no host, not http or https)."""


def normalise_endpoint(url: str) -> str:
    """``" HTTPS://API.Example.com:443/v1/ "`` → ``"https://api.example.com/v1"``. Raises :class:`EndpointError`.

    A URL without a scheme is read as ``http://`` (``localhost:11434`` is how people write a local server).
    Query and user info are kept: they are part of what the URL names.
    """
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as error:
        raise EndpointError(f"'{url}' is not a valid URL: {error}") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise EndpointError(f"'{url}' is not an http or https URL")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise EndpointError(f"'{url}' names no host")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc = f"{netloc}:{port}"
    if parts.username is not None:
        user = parts.username + (f":{parts.password}" if parts.password is not None else "")
        netloc = f"{user}@{netloc}"
    return urlunsplit((scheme, netloc, parts.path.rstrip("/"), parts.query, ""))


def endpoint_host(url: str) -> str:
    """What the user is shown: ``host`` or ``host:port`` (the real host, whatever user info precedes it).

    A host with letters outside ASCII is shown with the name it is looked up by beside it (IDNA, punycode):
    ``api.\u03bfpenai.com (api.xn--penai-qce.com)`` — the Greek \u03bf that makes the first read as OpenAI's host
    is plain in the second. A host that is no valid international name says so instead of a name.
    """
    try:
        parts = urlsplit(normalise_endpoint(url))
    except EndpointError:
        return url.strip()
    host = parts.hostname or ""
    shown = f"[{host}]" if ":" in host else host
    if not host.isascii():
        shown = f"{host} ({ascii_host(host) or 'not a valid domain name'})"
    return f"{shown}:{parts.port}" if parts.port else shown


def ascii_host(host: str) -> str | None:
    """The ASCII (IDNA 2008 with UTS #46 mapping, punycode) form of ``host``: the name DNS is asked for; None when
    ``host`` is not a valid international domain name."""
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


def mixed_script_labels(url: str) -> list[str]:
    """The labels of the URL's host that mix letters of different scripts (``\u03bfpenai``: Greek and Latin), the
    classic look-alike of another site's name. Scripts that are written together (Han with Hiragana and Katakana,
    or with Hangul or Bopomofo, each also with Latin) do not count as mixed (UTS #39's "highly restrictive")."""
    try:
        host = urlsplit(normalise_endpoint(url)).hostname or ""
    except EndpointError:
        return []
    return [label for label in host.split(".") if not label.isascii() and _mixes_scripts(label)]


#: Sets of scripts one name may combine (UTS #39, highly restrictive), each with Latin and the common characters.
_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
)


def _mixes_scripts(label: str) -> bool:
    scripts = {_script(char) for char in label if char.isalpha()}
    scripts.discard("")
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in _WRITTEN_TOGETHER)


def _script(char: str) -> str:
    """A letter's script, from its Unicode name's first word (``GREEK SMALL LETTER OMICRON`` → ``GREEK``)."""
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0]
    if first in ("FULLWIDTH", "HALFWIDTH"):  # \uff50 is a Latin letter, \uff76 a Katakana one
        first = name.split(" ", 2)[1] if " " in name else first
    return "HANGUL" if first.startswith("HANGUL") else first


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def default_endpoint(provider: str) -> str | None:
    """Where the provider's key goes when a design names no ``api_base`` (the provider registry says)."""
    return provider_named(provider).default_endpoint


def target_endpoint(provider: str, api_base: str | None) -> str | None:
    """The normalised endpoint a call goes to: ``api_base`` if set, else the provider's default (``None`` if
    unknown). Raises :class:`EndpointError` for an ``api_base`` that is not an http(s) URL."""
    if api_base and api_base.strip():
        return normalise_endpoint(api_base)
    return default_endpoint(provider)


def is_default_endpoint(provider: str, endpoint: str | None) -> bool:
    """Whether ``endpoint`` (normalised, ``None`` = no ``api_base``) is the provider's own service."""
    if endpoint is None:
        return True
    default = default_endpoint(provider)
    if default is None or not (urlsplit(endpoint).hostname or "").isascii():
        return False  # a host with non-ASCII letters is never the provider's own, whatever it looks like
    return _origin(endpoint) == _origin(default)


def same_endpoint(provider: str, saved_for: str | None, endpoint: str | None) -> bool:
    """Whether a key saved for ``saved_for`` (``None`` = the provider's default) may go to ``endpoint``."""
    if saved_for is None or is_default_endpoint(provider, saved_for):
        return is_default_endpoint(provider, endpoint)
    return endpoint is not None and endpoint == saved_for


class EndpointBook:
    """The non-secret half of the key store: which endpoint each provider's key was saved for, and which other
    endpoints the user approved for it. A JSON file, written atomically; unreadable content counts as empty
    (the safe side: no endpoint is approved). With ``persistent=False`` it lives in memory only (the book of
    keys kept for the session when there is no keyring)."""

    def __init__(self, path: Path | None = None, *, persistent: bool = True) -> None:
        self._path = path
        self._persistent = persistent
        self._data: dict[str, dict[str, Any]] | None = None if persistent else {}

    def _file(self) -> Path:
        if self._path is None:
            from studio.system.paths import data_dir

            self._path = data_dir() / "key_endpoints.json"
        return self._path

    def _load(self) -> dict[str, dict[str, Any]]:
        if self._data is None:
            self._data = {}
            try:
                raw = json.loads(self._file().read_text("utf-8"))
            except FileNotFoundError:
                raw = {}
            except (OSError, ValueError) as error:
                logger.warning("cannot read the key endpoints file (%s); no endpoint is approved", error)
                raw = {}
            providers = raw.get("providers") if isinstance(raw, dict) else None
            for provider, entry in (providers if isinstance(providers, dict) else {}).items():
                if isinstance(entry, dict):
                    saved_for = entry.get("saved_for")
                    approved = entry.get("approved")
                    self._data[str(provider)] = {
                        "saved_for": saved_for if isinstance(saved_for, str) else None,
                        "approved": [item for item in approved if isinstance(item, str)]
                        if isinstance(approved, list)
                        else [],
                    }
        return self._data

    def _save(self) -> None:
        if not self._persistent:
            return  # the book of session-only keys: forgotten with the session, like the keys
        file = self._file()
        file.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"version": 1, "providers": self._load()}, indent=2, sort_keys=True) + "\n"
        write_atomic(file, text)

    def saved_for(self, provider: str) -> str | None:
        """The endpoint the provider's stored key was saved for; ``None`` for its default (keys saved before
        endpoints were recorded count as the default's)."""
        entry = self._load().get(provider)
        return entry["saved_for"] if entry else None

    def approved(self, provider: str) -> list[str]:
        entry = self._load().get(provider)
        return list(entry["approved"]) if entry else []

    def key_saved(self, provider: str, saved_for: str | None) -> None:
        """A new key: bound to ``saved_for``, with no approvals (they were given for the previous key)."""
        data = self._load()
        if saved_for is None and provider not in data:
            return  # nothing to record: the default, and no file written for it
        data[provider] = {"saved_for": saved_for, "approved": []}
        self._save()

    def forget(self, provider: str) -> None:
        if self._load().pop(provider, None) is not None:
            self._save()

    def approve(self, provider: str, endpoint: str) -> None:
        entry = self._load().setdefault(provider, {"saved_for": None, "approved": []})
        if endpoint not in entry["approved"]:
            entry["approved"].append(endpoint)
            self._save()

    def revoke_approvals(self, provider: str) -> None:
        entry = self._load().get(provider)
        if entry and entry["approved"]:
            entry["approved"] = []
            self._save()
